"""Ascendant encounters (RULES.md 3 "Checks and encounters", seed 002 "Encounter mode").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. Stamina and conditions change only through the ruleset's play-state hook
``state_action`` (damage, heal, add_condition, remove_condition), so the fight and the
character sheet never disagree.

``Fighter.combat`` for Ascendant::

    {"initiative": 17,         # the Perception check that placed the fighter in the order
     "actions": 3,             # actions left this turn (3 at the start of each of its turns)
     "reaction": true,         # the reaction is unused (refreshes at the start of its turn)
     "attacks": 1,             # attacks made this turn (the multiple attack penalty)
     "free_used": false,       # the turn's free action is taken
     "shield_raised": false}   # +2 circumstance to Deflection until the start of its next turn

``encounter_state``::

    {"last_action": {"actor": id, "action": "stride"}}   # the trigger of Reactive Strike

Rules where the seed is silent (house defaults, shown to players on the page):

- **Initiative** is a Perception check: d20 + Perception with the fighter's conditions
  and the feats' initiative bonuses (Incredible Initiative's +2 circumstance) stacked in (``modifiers.stack``).
  Highest first; ties: NPCs before PCs, then the higher Dexterity, then the higher
  Perception modifier, then the earlier combatant. A latecomer rolls and goes to the end.
- **Turn**: 3 actions and 1 reaction, both refreshed at the start of the fighter's own
  turn. An activity costs 1–3 actions and is paid whole or not at all: with fewer actions
  left than it costs it is refused (``ascendant.not_enough_actions``; with none left,
  ``ascendant.no_actions_left``). Activities resolve at once; an activity that a foe's
  reaction disrupts is lost whole, which the GM applies with "Lose actions".
- **Free action** (speak, release, drop an item): no action, once per turn.
- **Strike** (1 action): d20 + class proficiency bonus + Strength (Dexterity for finesse
  and ranged weapons, the better of the two for finesse) vs the target's Deflection, with
  conditions stacked on both sides (frightened on the attacker, off-guard on the target…).
  **Multiple attack penalty** (untyped; house defaults ``multiple_attack_penalty`` and
  ``agile_attack_penalty`` in house.json, W21): the 2nd attack of a turn −5, the 3rd and later
  −10 (agile weapons −4/−8); reactions ignore it. Degrees: critical success = critical
  hit, success = hit, failures miss; natural 20/1 shift the degree (``dice.degree``).
- **Damage** (HD): one weapon die + Strength for melee weapons (ranged: the die alone),
  at least 1; a critical hit doubles the total. The weapon table is data (W21): the catalogue
  ``weapons.json`` with the house table ``weapon_table`` (house.json; a campaign's house rule changes
  any weapon's die, attribute, agile or ranged). A fighter strikes with the weapons its build carries
  (``gear``) or its fist; a build carrying none (an NPC) picks any; the class's ``weapon`` comes first.
- Feats grant actions through their effects (``{"kind": "action", "action": ...}``, listed in
  ``derived["actions"]``), so a homebrew feat may grant them too:
  **Power Attack** (2 actions): a Strike with one extra weapon die; counts as two
  attacks. **Sudden Charge** (2 actions): Stride twice, then Strike. **Double Slice**
  (2 actions): two Strikes at the same multiple attack penalty; counts as two attacks.
  **Whirlwind Strike** (3 actions): a Strike at every enemy still standing, all at the same
  penalty; counts as two attacks. **Cast a Spell** for a non-caster (Arcane Spark).
- Feats' modifiers to Deflection, Perception, initiative and attacks stack with the fight's
  (conditions, a raised shield) by the typed rule; Diehard's higher Dying maximum counts.
- **Spell attack** (the classes that cast, ``casts`` in classes.json: bards and wizards; 2 actions):
  d20 + class proficiency bonus + the casting attribute vs Deflection; ⌈level/2⌉d6 damage, doubled on
  a critical hit.
- **Spell against a defense** (W10; 2 actions): "you roll a defense check against the threshold of
  the effect, such as the spell threshold of whoever cast the spell" (seed): the target rolls the
  defense the caster names (HD: Spirit) against the caster's spell threshold (``thresholds.spell``,
  its conditions stacked in); ⌈level/2⌉d6 damage — critical success none, success half (rounded
  down), failure full, critical failure double (HD, the seed lost the spell chapter). The action
  form's odds are the target's.
- **Raise a Shield** (1 action): +2 circumstance bonus to Deflection until the start of
  the fighter's next turn. **Reactive Shield** (feat, reaction): raise it out of turn.
- **Reactive Strike** (reaction, every fighter): a Strike without the multiple attack
  penalty at a foe whose latest action was a Stride (leaving your reach: the GM judges).
- **Effects** (engine/effects.py): a fighter's conditions are its play state, counted by the rules
  above; its other effects (a custom +2 status bonus, −1 to every roll) reach its rolls through
  ``Ruleset.with_effects``, the same in the action form's odds and in the roll: the initiative roll
  takes those on Perception, an attack or a spell those on every roll. A typed one stacks with the
  roll's own bonuses and penalties by the typed rule.
- A fighter at 0 Stamina, unconscious or dying cannot act (``ascendant.unconscious``);
  dying 4 is dead (``ascendant.dead``). GM actions always work.
- GM actions (``gm``): damage, heal, add or remove a condition, lose actions.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, lookup, whole_number
from rulesets.engine.modifiers import Stacked, stack

from .. import dice as checks
from ..character import DEFENSES
from ..state import condition_modifiers, loaded
from .spells import SAVE_DEFAULT, SpellsMixin, d20_text, roll_data
from .weapons import WeaponsMixin

ACTIONS_PER_TURN = 3


#: Actions that take the reaction (they may be taken on others' turns).
REACTIONS = ("reactive_strike", "reactive_shield")


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


class AscendantCombat(WeaponsMixin, SpellsMixin, CombatRules):
    def __init__(self, ruleset):
        super().__init__(ruleset)

    # ---------------------------------------------------------------- reading a fighter

    def _derived(self, f: Fighter) -> dict:
        return f.derived or getattr(self.report_of(f), "derived", {}) or {}

    def _attr(self, f: Fighter, attr: str) -> int:
        value = (self._derived(f).get("attributes") or {}).get(attr, 0)
        return value if is_int(value) else 0

    def _granted(self, f: Fighter) -> set[str]:
        """The combat actions the fighter's feats grant (``effects`` of kind "action")."""
        return {
            a["id"]
            for a in self._derived(f).get("actions") or []
            if isinstance(a, dict) and isinstance(a.get("id"), str)
        }

    def _feat_part(self, f: Fighter, key: str, base: int) -> tuple[int, list[dict]]:
        """(base without feats, the feats' modifiers) of one derived number, to stack with the fight's."""
        bd = (self._derived(f).get("breakdown") or {}).get(key)
        if not isinstance(bd, dict):
            return base, []
        return bd.get("base", base), [dict(m) for m in bd.get("modifiers", [])]

    def _dying_max(self, f: Fighter) -> int:
        """The campaign's ``dying_max`` (house rule), raised by the fighter's feats (Diehard)."""
        return self._conditions(f).get("dying", {}).get("max", self.ctx_of(f).settings.get("dying_max", 4))

    def _conds(self, f: Fighter) -> list[dict]:
        state = f.state if isinstance(f.state, dict) else {}
        return [c for c in state.get("conditions") or [] if isinstance(c, dict)]

    def _cond_value(self, f: Fighter, cid: str) -> int:
        entry = next((c for c in self._conds(f) if c.get("id") == cid), None)
        if entry is None:
            return 0
        value = entry.get("value", 1)
        return value if is_int(value) else 1

    def _stamina(self, f: Fighter) -> int:
        value = (f.state or {}).get("stamina")
        if is_int(value):
            return max(0, value)
        top = self._derived(f).get("max_stamina")
        return top if is_int(top) else 0

    def cannot_act(self, f: Fighter, *, ctx: Context | None = None) -> tuple[str, str]:
        """("", "") when the fighter can act, else (reason, code)."""
        if self._cond_value(f, "dying") >= self._dying_max(f):
            return f"{f.name} is dead.", "ascendant.dead"
        if self._stamina(f) == 0 or self._cond_value(f, "unconscious") or self._cond_value(f, "dying"):
            return (
                f"{f.name} is unconscious and cannot act until healed above 0 Stamina.",
                "ascendant.unconscious",
            )
        return "", ""

    def _cond_mods(self, f: Fighter, tags: set[str]) -> list[dict]:
        return condition_modifiers(self._conditions(f), loaded(f.state, self._derived(f)), tags)

    def _weapon_attr(self, f: Fighter, weapon: dict) -> str:
        if weapon["attribute"] == "finesse":
            return "dex" if self._attr(f, "dex") > self._attr(f, "str") else "str"
        return weapon["attribute"]

    def _class(self, f: Fighter) -> dict:
        return (
            lookup(
                self.ctx_of(f).catalogue.get("classes", {}),
                f.build.get("class") if isinstance(f.build, dict) else "",
            )
            or {}
        )

    def _key_attr(self, f: Fighter) -> str:
        keys = self._class(f).get("key_attributes") or ["str"]
        return max(keys, key=lambda a: self._attr(f, a))

    def _attack(
        self, f: Fighter, attr: str, *, attacks: int = 0, agile: bool = False, tag: str = "attack"
    ) -> tuple[int, Stacked]:
        """(modifier, stacked) of an attack roll: proficiency + attribute, conditions, MAP."""
        base = self._derived(f).get("proficiency_bonus", 0) or 0
        mods = self._feat_part(f, "attack", 0)[1] + self._cond_mods(f, {"all", "attack", tag, f"attr:{attr}"})
        if attacks >= 1:
            sizes = self._attack_penalties(f, agile)
            penalty = -sizes[min(attacks, len(sizes)) - 1] if sizes else 0
            mods.append(
                {
                    "value": penalty,
                    "type": None,
                    "source": f"multiple attack penalty ({_ordinal(attacks + 1)} attack)",
                }
            )
        stacked = stack(mods)
        return base + self._attr(f, attr) + stacked["total"], stacked

    def _deflection(self, f: Fighter) -> tuple[int, Stacked]:
        base, mods = self._feat_part(
            f, "deflection", (self._derived(f).get("thresholds") or {}).get("deflection", 10)
        )
        mods += self._cond_mods(f, {"all", "deflection", "attr:dex"})
        if (f.combat or {}).get("shield_raised"):
            mods.append({"value": self._shield_bonus(f), "type": "circumstance", "source": "raised shield"})
        stacked = stack(mods)
        return base + stacked["total"], stacked

    def _perception(self, f: Fighter) -> tuple[int, Stacked]:
        # Initiative is a Perception check: the feats' initiative bonuses (Incredible Initiative) count.
        derived = self._derived(f)
        base, mods = self._feat_part(f, "initiative", derived.get("perception", 0) or 0)
        mods += self._cond_mods(f, {"all", "perception", "attr:wis"})
        stacked = stack(mods)
        return base + stacked["total"], stacked

    def _request(
        self, f: Fighter, modifier: int, stacked: Stacked, threshold: int, rollable_id: str | None = None
    ) -> dict[str, Any]:
        """The odds request of ``f``'s roll (the one the form shows and the one rolled), with the
        fighter's effects applied (``Ruleset.with_effects``: a roll of the sheet by its id, else only
        the effects on every roll): an effect's typed bonus or penalty is stacked with the roll's own
        (conditions, feats, the multiple attack penalty), so those are in the request as it goes to
        the effects; a request no effect changed stays plain. The conditions are the fighter's state
        already (native effects): they are counted once, in ``modifier``."""
        plain = {"modifier": modifier, "threshold": threshold}
        counted = checks.counted_modifiers(stacked)
        full = {**plain, "modifiers": counted} if counted else plain
        after = self.ruleset.with_effects(full, f.state, rollable_id)
        return plain if after is full else after

    @staticmethod
    def _effect_sources(request: dict[str, Any], stacked: Stacked) -> list[str]:
        """The effects' bonuses and penalties a request carries beyond the roll's own, by source."""
        own = len(checks.counted_modifiers(stacked))
        return [str(m.get("source", "")) for m in (request.get("modifiers") or [])[own:]]

    @staticmethod
    def _opponents(actor: Fighter, fighters: list[Fighter]) -> list[Fighter]:
        return [f for f in fighters if f.id != actor.id and f.is_npc != actor.is_npc]

    # ---------------------------------------------------------------- initiative and turns

    def roll_initiative(self, f: Fighter, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
        modifier, stacked = self._perception(f)
        # A Perception check: the effects on Perception (and on every roll) count.
        request = self._request(f, modifier, stacked, 0, "perception")
        modifier = request["modifier"]
        face = roller.d(20)
        return {
            "initiative": face + modifier,
            "initiative_roll": face,
            "initiative_modifier": modifier,
            "initiative_applied": [m.get("source") for m in stacked["applied"]]
            + self._effect_sources(request, stacked),
        }

    def fresh_turn(self) -> dict[str, Any]:
        return {
            "actions": ACTIONS_PER_TURN,
            "reaction": True,
            "attacks": 0,
            "free_used": False,
            "shield_raised": False,
        }

    def initiative_text(self, rolled: dict[str, Any]) -> str:
        return f"d20 {rolled['initiative_roll']} {rolled['initiative_modifier']:+d}"

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        out = Outcome()
        rolls: dict[int, dict] = {}
        for f in fighters:
            rolls[f.id] = self.roll_initiative(f, roller)
            out.combat[f.id] = {**self.fresh_turn(), **rolls[f.id]}

        def key(f: Fighter):
            return (
                -rolls[f.id]["initiative"],
                0 if f.is_npc else 1,
                -self._attr(f, "dex"),
                -rolls[f.id]["initiative_modifier"],
                f.id,
            )

        ordered = sorted(fighters, key=key)
        out.order = [f.id for f in ordered]
        parts = []
        for f in ordered:
            r = rolls[f.id]
            parts.append(f"{f.name} {r['initiative']} ({self.initiative_text(r)})")
        out.log(
            "initiative",
            "Initiative (Perception): " + ", ".join(parts) + ".",
            initiative={str(f.id): rolls[f.id]["initiative"] for f in ordered},
            faces=[rolls[f.id]["initiative_roll"] for f in ordered],
        )
        return out

    # ---------------------------------------------------------------- actions

    def _gate(self, spec: ActionSpec, actor: Fighter, *, on_turn: bool, cost: int) -> None:
        """Refuse ``spec`` with the first rule that stops it."""
        combat = actor.combat or {}
        left = combat.get("actions", 0) if is_int(combat.get("actions")) else 0
        reason, code = self.cannot_act(actor)
        if not reason and spec.reaction:
            if not combat.get("reaction", False):
                reason, code = (
                    f"{actor.name} has used their reaction this round; it comes back at the start of "
                    "their turn.",
                    "ascendant.reaction_used",
                )
        elif not reason and not on_turn:
            reason, code = self.not_your_turn(actor)
        elif not reason and cost > 0 and left == 0:
            reason, code = (
                f"{actor.name} has no actions left this turn: end the turn.",
                "ascendant.no_actions_left",
            )
        elif not reason and cost > left:
            reason, code = (
                f"{spec.label} costs {cost} actions but {actor.name} has {left} left: "
                f"take a 1-action activity or end the turn.",
                "ascendant.not_enough_actions",
            )
        if reason:
            spec.allowed, spec.reason, spec.code = False, reason, code

    def _strike_spec(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        sid: str,
        label: str,
        cost: int,
        *,
        attacks: int,
        reaction: bool = False,
    ) -> ActionSpec:
        weapons = self._weapons(actor)
        weapon_id = self._default_weapon(actor)
        weapon = weapons[weapon_id]
        modifier, stacked = self._attack(
            actor, self._weapon_attr(actor, weapon), attacks=attacks, agile=weapon["agile"]
        )
        foes = [f for f in self._opponents(actor, fighters) if not self.cannot_act(f)[1] == "ascendant.dead"]
        threshold = (
            self._deflection(foes[0])[0] if foes else self.ctx_of(actor).settings.get("default_threshold", 15)
        )
        params = [
            {
                "id": "weapon",
                "label": "Weapon",
                "kind": "choice",
                "default": weapon_id,
                "options": [
                    {
                        "id": wid,
                        "label": f"{w['name']} (d{w['die']}"
                        + (", agile" if w["agile"] else "")
                        + (", ranged" if w["ranged"] else "")
                        + (", finesse" if w["attribute"] == "finesse" else "")
                        + ")",
                    }
                    for wid, w in weapons.items()
                ],
            }
        ]
        cost_text = "reaction" if reaction else f"{cost} action{'s' if cost > 1 else ''}"
        if attacks and not reaction:
            agile = bool(weapon["agile"])
            sizes = self._attack_penalties(actor, agile)
            size = sizes[min(attacks, len(sizes)) - 1] if sizes else 0
            key = "agile_attack_penalty" if agile else "multiple_attack_penalty"
            whose = "house default" if sizes == self.ruleset.house_defaults.get(key) else "house rule"
            cost_text += f" ({_ordinal(attacks + 1)} attack: −{size}, {whose})"
        return ActionSpec(
            id=sid,
            label=label,
            cost=cost_text,
            target="enemy",
            params=params,
            odds=self._request(actor, modifier, stacked, threshold),
            reaction=reaction,
        )

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        combat = actor.combat or {}
        on_turn = current is not None and actor.id == current
        attacks = combat.get("attacks", 0) if is_int(combat.get("attacks")) else 0
        feats = self._granted(actor)
        specs: list[tuple[ActionSpec, int]] = []

        specs.append((self._strike_spec(actor, fighters, "strike", "Strike", 1, attacks=attacks), 1))
        specs.append((ActionSpec(id="stride", label="Stride", cost="1 action"), 1))
        specs.append(
            (
                ActionSpec(
                    id="raise_shield",
                    label="Raise a Shield",
                    cost="1 action (+2 circumstance to Deflection until your next turn)",
                ),
                1,
            )
        )
        if "power_attack" in feats:
            spec = self._strike_spec(actor, fighters, "power_attack", "Power Attack", 2, attacks=attacks)
            spec.cost = "2 actions (an extra weapon die; counts as two attacks)"
            specs.append((spec, 2))
        if "sudden_charge" in feats:
            spec = self._strike_spec(actor, fighters, "sudden_charge", "Sudden Charge", 2, attacks=attacks)
            spec.cost = "2 actions (Stride twice, then Strike)"
            specs.append((spec, 2))
        if "double_slice" in feats:
            spec = self._strike_spec(actor, fighters, "double_slice", "Double Slice", 2, attacks=attacks)
            spec.cost = "2 actions (two Strikes at the same penalty; counts as two attacks)"
            specs.append((spec, 2))
        if "whirlwind_strike" in feats:
            spec = self._strike_spec(
                actor, fighters, "whirlwind_strike", "Whirlwind Strike", 3, attacks=attacks
            )
            spec.cost = "3 actions (a Strike at every enemy still standing; counts as two attacks)"
            spec.target = None
            specs.append((spec, 3))
        caster = "spell_attribute" in self._derived(actor)
        if caster or "cast_spell" in feats:
            key = self._spell_attr(actor)
            modifier, stacked = self._attack(actor, key, tag="spell")
            foes = self._opponents(actor, fighters)
            threshold = (
                self._deflection(foes[0])[0]
                if foes
                else self.ctx_of(actor).settings.get("default_threshold", 15)
            )
            dice = self._spell_dice(actor)
            specs.append(
                (
                    ActionSpec(
                        id="cast_spell",
                        label="Cast a Spell (attack)",
                        cost=f"2 actions ({dice}d6 damage)",
                        target="enemy",
                        odds=self._request(actor, modifier, stacked, threshold),
                    ),
                    2,
                )
            )
            specs.append((self._spell_save_spec(actor, fighters, dice), 2))
        free = ActionSpec(
            id="free_action",
            label="Free action (speak, release, drop)",
            cost="free, once a turn",
            params=[{"id": "note", "label": "What", "kind": "text"}],
        )
        specs.append((free, 0))
        # Reactions.
        reactive = self._strike_spec(
            actor, fighters, "reactive_strike", "Reactive Strike", 0, attacks=0, reaction=True
        )
        specs.append((reactive, 0))
        if "reactive_shield" in feats:
            specs.append(
                (ActionSpec(id="reactive_shield", label="Reactive Shield", cost="reaction", reaction=True), 0)
            )

        out: list[ActionSpec] = []
        for spec, cost in specs:
            self._gate(spec, actor, on_turn=on_turn, cost=cost)
            if spec.allowed and spec.id == "free_action" and combat.get("free_used"):
                spec.allowed, spec.reason, spec.code = (
                    False,
                    f"{actor.name} has taken this turn's free action.",
                    "ascendant.free_action_used",
                )
            if spec.allowed and spec.id == "reactive_strike":
                last = es.get("last_action") or {}
                mover = next((f for f in fighters if f.id == last.get("actor")), None)
                if not (
                    last.get("action") in ("stride", "sudden_charge")
                    and mover is not None
                    and mover.is_npc != actor.is_npc
                ):
                    spec.allowed, spec.reason, spec.code = (
                        False,
                        "Reactive Strike: take it when a foe Strides out of your reach.",
                        "ascendant.no_trigger",
                    )
            if (
                spec.allowed
                and spec.id in ("raise_shield", "reactive_shield")
                and combat.get("shield_raised")
            ):
                spec.allowed, spec.reason, spec.code = (
                    False,
                    f"{actor.name}'s shield is already raised.",
                    "ascendant.shield_raised",
                )
            spec.__dict__["_cost"] = cost
            out.append(spec)
        out.extend(self._gm_specs(actor))
        return out

    def _conditions(self, f: Fighter) -> dict[str, dict]:
        """The campaign's conditions (Dying's maximum is its ``dying_max``, raised by Diehard)."""
        return self.ruleset.conditions_for(self.ctx_of(f), self._derived(f))

    def _gm_specs(self, actor: Fighter) -> list[ActionSpec]:
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        cond = {
            "id": "id",
            "label": "Condition",
            "kind": "choice",
            "options": [{"id": cid, "label": c["name"]} for cid, c in self._conditions(actor).items()],
        }
        value = {"id": "value", "label": "Value", "kind": "number", "min": 1}
        return [
            ActionSpec(
                id="gm_damage",
                label="Deal damage",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[amount],
            ),
            ActionSpec(
                id="gm_heal", label="Heal", cost="GM", gm=True, reaction=True, relative=True, params=[amount]
            ),
            ActionSpec(
                id="gm_add_condition",
                label="Add a condition",
                cost="GM",
                gm=True,
                reaction=True,
                params=[cond, value],
            ),
            ActionSpec(
                id="gm_remove_condition",
                label="Remove or lower a condition",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[cond, {**value, "label": "Lower by (empty: remove)"}],
            ),
            ActionSpec(
                id="gm_lose_actions",
                label="Lose actions (disrupted, slowed, stunned)",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[{**amount, "label": "Actions"}],
            ),
        ]

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        return self._specs(actor, fighters, encounter_state or {}, current)

    # ---------------------------------------------------------------- perform

    def _target(self, action: dict, actor: Fighter, fighters: list[Fighter]) -> Fighter:
        tid = whole_number(action.get("target"))
        target = next((f for f in fighters if f.id == tid), None) if tid is not None else None
        if target is None:
            raise CombatRefused(
                "combat.invalid_target", "Choose a combatant of this encounter as the target."
            )
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot strike themselves.")
        if self.cannot_act(target)[1] == "ascendant.dead":
            raise CombatRefused(
                "ascendant.target_dead", f"{target.name} is already dead; choose another target."
            )
        return target

    def perform(
        self,
        action: dict[str, Any],
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        current: int | None,
        by_gm: bool,
        ctx: Context | None = None,
    ) -> Outcome:
        es = encounter_state or {}
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        if spec.gm:
            return self._gm(spec, action, actor)
        if not spec.allowed:
            raise self.refusal(spec)
        cost = spec.__dict__["_cost"]
        out = Outcome()
        combat = self.combat_numbers(actor)
        if cost:
            combat["actions"] = combat.get("actions", 0) - cost
        spent = (
            "reaction"
            if spec.reaction
            else ("free" if cost == 0 else f"−{cost} action{'s' if cost > 1 else ''}")
        )
        if aid == "whirlwind_strike":
            weapon = self._weapon_of(action, actor)
            foes = [f for f in self._opponents(actor, fighters) if self.cannot_act(f)[1] != "ascendant.dead"]
            if not foes:
                raise CombatRefused(
                    "combat.invalid_target", "Whirlwind Strike needs an enemy still standing."
                )
            for foe in foes:
                self._strike(
                    out,
                    actor,
                    foe,
                    weapon,
                    roller,
                    attacks=combat.get("attacks", 0),
                    extra_dice=0,
                    what=spec.label,
                    spent=spent,
                )
            combat["attacks"] = combat.get("attacks", 0) + 2
        elif aid in ("strike", "power_attack", "sudden_charge", "reactive_strike", "double_slice"):
            target = self._target(action, actor, fighters)
            weapon = self._weapon_of(action, actor)
            attacks = 0 if spec.reaction else combat.get("attacks", 0)
            for _ in range(2 if aid == "double_slice" else 1):
                self._strike(
                    out,
                    actor,
                    target,
                    weapon,
                    roller,
                    attacks=attacks,
                    extra_dice=1 if aid == "power_attack" else 0,
                    what=spec.label,
                    spent=spent,
                )
            if spec.reaction:
                combat["reaction"] = False
            else:
                combat["attacks"] = combat.get("attacks", 0) + (
                    2 if aid in ("power_attack", "double_slice") else 1
                )
        elif aid == "cast_spell":
            target = self._target(action, actor, fighters)
            self._spell(out, actor, target, roller, spent=spent)
            combat["attacks"] = combat.get("attacks", 0) + 1
        elif aid == "cast_spell_save":
            target = self._target(action, actor, fighters)
            defense = action.get("defense") or SAVE_DEFAULT
            if defense not in DEFENSES:
                raise CombatRefused(
                    "ascendant.unknown_defense",
                    f"The target resists with one of: {', '.join(d.title() for d in DEFENSES)}.",
                )
            self._spell_save(out, actor, target, defense, roller, spent=spent)
        elif aid == "stride":
            out.log("stride", f"{actor.name} strides ({spent}).", actor.id, cost=cost)
        elif aid in ("raise_shield", "reactive_shield"):
            combat["shield_raised"] = True
            if spec.reaction:
                combat["reaction"] = False
            out.log(
                aid,
                f"{actor.name} raises a shield: +{self._shield_bonus(actor)} circumstance to Deflection until their "
                f"next turn ({spent}).",
                actor.id,
                cost=cost,
            )
        elif aid == "free_action":
            combat["free_used"] = True
            note = get_as(action, "note", str, "")
            out.log(
                "free_action",
                f"{actor.name} takes a free action"
                + (f": {note.strip()[:120]}" if note.strip() else "")
                + ".",
                actor.id,
            )
        out.combat[actor.id] = combat
        out.encounter_state = {**es, "last_action": {"actor": actor.id, "action": aid}}
        return out

    def _weapon_of(self, action: dict, actor: Fighter) -> dict:
        weapons = self._weapons(actor)
        weapon_id = action.get("weapon") or self._default_weapon(actor)
        if not isinstance(weapon_id, str) or weapon_id not in weapons:
            raise CombatRefused(
                "ascendant.unknown_weapon",
                f"{actor.name} strikes with one of: {', '.join(w['name'] for w in weapons.values())}.",
            )
        return weapons[weapon_id]

    def _apply_damage(self, out: Outcome, target: Fighter, amount: int) -> str:
        state = out.state.get(target.id, target.state)
        new_state, text = self.play_state_action(target, state, {"action": "damage", "amount": amount})
        out.state[target.id] = new_state
        return text

    def _strike(
        self,
        out: Outcome,
        actor: Fighter,
        target: Fighter,
        weapon: dict,
        roller: Roller,
        *,
        attacks: int,
        extra_dice: int,
        what: str,
        spent: str,
    ) -> None:
        attr = self._weapon_attr(actor, weapon)
        modifier, stacked = self._attack(actor, attr, attacks=attacks, agile=weapon["agile"])
        threshold, t_stacked = self._deflection(target)
        request = self._request(actor, modifier, stacked, threshold)
        modifier = request["modifier"]
        roll = checks.roll(request, roller)
        outcome = roll["outcome"]
        head = (
            f"{actor.name}: {what} at {target.name} with the {weapon['name'].lower()} ({spent}): "
            f"{d20_text(roll['faces'][0])} {modifier:+d} = {roll['total']} vs Deflection {threshold}: "
            f"{checks.DEGREE_TEXT[outcome]}"
        )
        data = {
            **roll_data(target, roll, threshold, request),
            "modifiers": [m.get("source") for m in stacked["applied"]]
            + self._effect_sources(request, stacked),
            "threshold_modifiers": [m.get("source") for m in t_stacked["applied"]],
        }
        if outcome in ("success", "critical_success"):
            dice = roller.roll(1 + extra_dice, weapon["die"])
            bonus = 0 if weapon["ranged"] else self._attr(actor, "str")
            damage = max(1, sum(dice) + bonus)
            if outcome == "critical_success":
                damage *= 2
            data.update(damage=damage, damage_faces=dice)
            dice_text = f"{len(dice)}d{weapon['die']} {'+'.join(map(str, dice))}" + (
                f" {bonus:+d}" if bonus else ""
            )
            crit = " ×2 (critical hit)" if outcome == "critical_success" else ""
            text = self._apply_damage(out, target, damage)
            out.log("strike", f"{head} — {damage} damage ({dice_text}{crit}). {text}", actor.id, **data)
        else:
            out.log("strike", f"{head} — miss.", actor.id, **data)

    def _gm(self, spec: ActionSpec, action: dict, actor: Fighter) -> Outcome:
        out = Outcome()

        def number(key: str) -> int:
            value = whole_number(action.get(key))
            if value is None or value < 1:
                raise CombatRefused(
                    "ascendant.invalid_amount", f"{key.title()} must be a whole number of 1 or more."
                )
            return value

        def optional_number(key: str) -> int | None:
            return None if action.get(key) in (None, "") else number(key)

        if spec.id in ("gm_damage", "gm_heal"):
            kind = "damage" if spec.id == "gm_damage" else "heal"
            new_state, text = self.play_state_action(
                actor, actor.state, {"action": kind, "amount": number("amount")}
            )
            out.state[actor.id] = new_state
            out.log(spec.id, f"GM: {text}", actor.id)
        elif spec.id == "gm_add_condition":
            cid = action.get("id")
            act: dict[str, Any] = {"action": "add_condition", "id": cid}
            if lookup(self._conditions(actor), cid, {}).get("valued"):
                act["value"] = optional_number("value") or 1
            new_state, text = self.play_state_action(actor, actor.state, act)
            out.state[actor.id] = new_state
            out.log(spec.id, f"GM: {text}", actor.id, condition=cid)
        elif spec.id == "gm_remove_condition":
            cid = action.get("id")
            act = {"action": "remove_condition", "id": cid}
            by = optional_number("value")
            if by is not None:
                act["value"] = by
            new_state, text = self.play_state_action(actor, actor.state, act)
            out.state[actor.id] = new_state
            out.log(spec.id, f"GM: {text}", actor.id, condition=cid)
        elif spec.id == "gm_lose_actions":
            lost = number("amount")
            combat = self.combat_numbers(actor)
            left = max(0, (combat.get("actions", 0) or 0) - lost)
            combat["actions"] = left
            out.combat[actor.id] = combat
            out.log(
                spec.id,
                f"GM: {actor.name} loses {lost} action{'s' if lost > 1 else ''} ({left} left).",
                actor.id,
                amount=lost,
            )
        return out

    # ---------------------------------------------------------------- the row

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        combat = fighter.combat or {}
        derived = self._derived(fighter)
        state = fighter.state if isinstance(fighter.state, dict) else {}
        stamina = f"{self._stamina(fighter)}/{derived.get('max_stamina', '?')}"
        temp = state.get("temp_stamina")
        if is_int(temp) and temp > 0:
            stamina += f" (+{temp} temp)"
        stats = [{"label": "Stamina", "value": stamina, "key": "stamina"}]
        if "actions" in combat:
            stats.append(
                {
                    "label": "Actions",
                    "value": f"{combat.get('actions', 0)}/{ACTIONS_PER_TURN}",
                    "key": "actions",
                }
            )
            stats.append(
                {
                    "label": "Reaction",
                    "value": "ready" if combat.get("reaction") else "used",
                    "key": "reaction",
                }
            )
        stats.append({"label": "Deflection", "value": str(self._deflection(fighter)[0]), "key": "deflection"})
        if "initiative" in combat:
            stats.append({"label": "Initiative", "value": str(combat["initiative"]), "key": "initiative"})
        status: list[str] = []
        reason, code = self.cannot_act(fighter)
        if code == "ascendant.dead":
            status.append("dead")
        for c in self._conds(fighter):
            cond = lookup(self._conditions(fighter), c.get("id"))
            if cond:
                status.append(cond["name"].lower() + (f" {c.get('value', 1)}" if cond.get("valued") else ""))
        if derived.get("encumbered"):
            status.append("encumbered (clumsy 1)")
        if combat.get("shield_raised"):
            status.append("shield raised")
        return {"stats": stats, "status": status}
