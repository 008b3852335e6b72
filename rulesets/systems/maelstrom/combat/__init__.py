"""Maelstrom combat turns (RULES.md 5, seed 004 "Performing Actions", "Willpower").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. The health track and willpower change only through the ruleset's play-state
hook ``state_action`` (damage, heal, spend_willpower, lose_willpower, end_action, and
zero_willpower.py's out_of_combat, rally and rallied), so the
fight and the character sheet never disagree.

``Fighter.combat`` for Maelstrom::

    {"initiative": 12, "initiative_roll": 7,   # reflexes + wits + d10
     "acted": false,                          # the turn's one action is taken
     "willpower_spent": false,                # a dot was spent this turn to ignore wounds
     "willpower_roll": "failure" | null}      # the fighter's latest willpower roll this turn

``encounter_state``::

    {"difficulty": 6, "threshold": 0,         # set by the storyteller (GM action)
     "required": ["Swords"]}                  # optional: advanced specialties the scene's rolls require

The seed has no combat chapter (its Health section "isn't ready yet"), so most of this
is house default, shown to players on the page:

- **Initiative**: Reflexes + Wits + 1d10, highest first; ties: the higher Reflexes + Wits,
  then the higher Wits, then PCs before NPCs, then the earlier combatant. Kept all fight;
  a latecomer rolls and goes to the end of the order.
- **One action per turn** (``maelstrom.already_acted``). The seed does not let a pool be
  split between several actions, so there is no splitting.
- **Pools** (seed): one die per dot of at most two traits, the wound penalty of the
  current state taken off (not off soak or willpower rolls). Zero dots: a talent rolls the
  attribute alone, a skill rolls it at difficulty + 1, a knowledge cannot be attempted.
  Difficulty and threshold are the storyteller's: the encounter's (default 6 and 0).
- **Attacks**: melee is Strength + Melee, ranged Precision + Firearms. Each success left
  after botches hits; damage levels = the weapon's damage + every success beyond the first.
  The target soaks bashing and lethal damage with a Strength roll at difficulty 6 (each
  success removes a level; the seed: Strength "safely absorbs certain types of damage");
  aggravated damage cannot be soaked. The rest goes on the health track (filling from the
  top; a full track incapacitates, more damage kills — ``state.py``).
- **Willpower** (seed): once per turn, before the action, spend a dot to roll that action
  without the wound penalty (a fighter who spends the last dot this way acts first and is
  incapacitated after). A willpower roll (current dots, no wound penalty) is free when the
  storyteller calls for it; a botch loses a dot per uncancelled botch; after a roll that
  did not botch, spending a dot makes it an automatic success (not the last dot).
- Incapacitated (full track, or 0 willpower until a whole turn out of the fight or an ally's
  rally: zero_willpower.py, RULES.md W18) and dead fighters cannot act
  (``maelstrom.incapacitated``, ``maelstrom.dead``). GM actions always work.
- **Required specialties** (seed): the storyteller may require advanced specialties of the
  scene's rolls; each one the roll does not use adds 1 to the threshold. A fighter uses the
  required specialties they have of the ability rolled, at most as many as its dots.
- GM actions (``gm``): damage by type (soaked or not), heal, set the difficulty/threshold and
  the required specialties.
- **Effects** (engine/effects.py): every roll of the fight, shown (``ActionSpec.odds``) and rolled
  alike, takes the fighter's effects as the sheet's roll of the same traits does (``_with_effects``:
  ``strength__melee`` for a melee attack, ``reflexes`` for Reflexes alone, ``willpower``, and
  ``strength`` for the soak roll); the scene's difficulty and threshold are set first, so an effect
  on them shifts the scene's numbers. Wounds are the track's own penalty, never counted again.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, name_key, whole_number

from .. import dice, limbs, weapons
from .. import effects as named
from ..character import House, house
from ..state import DAMAGE_TYPES
from . import zero_willpower

SOAKABLE = ("bashing", "lethal")
DEFAULT_ROLL = ("reflexes", "athletics")  # the "other action" form's starting choice


def _flag(value: Any) -> bool:
    return value not in (None, False, "false", "0", "off", "", 0)


class MaelstromCombat(CombatRules):
    def __init__(self, ruleset):
        super().__init__(ruleset)
        self.attributes: dict[str, dict] = ruleset.catalogue.get("attributes", {})

    # ---------------------------------------------------------------- reading a fighter

    def _dots(self, f: Fighter, key: str, trait: str) -> int:
        raw = (f.build or {}).get(key) if isinstance(f.build, dict) else None
        value = raw.get(trait, 0) if isinstance(raw, dict) else 0
        return value if is_int(value) and value >= 0 else 0

    def _attr(self, f: Fighter, attr: str) -> int:
        return self._dots(f, "attributes", attr)

    def _house(self, ctx: Context) -> House:
        """The campaign's house rules, read once per context (build.house)."""
        return house(ctx, self.ruleset.house_defaults)

    def _attacks(self, ctx: Context) -> dict[str, dict[str, Any]]:
        """The campaign's weapon table (house default data, weapons.py; RULES.md W21)."""
        return weapons.attacks(ctx, self.ruleset.house_defaults)

    def _abilities(self, f: Fighter) -> dict[str, dict]:
        """The abilities of the campaign (its homebrew ones too)."""
        return self.ctx_of(f).catalogue.get("abilities", {})

    def cannot_act(
        self, f: Fighter, fx: dict | None = None, *, ctx: Context | None = None
    ) -> tuple[str, str]:
        """("", "") when the fighter can act, else (reason, code)."""
        fx = fx or self.effects_of(f)
        if fx["dead"]:
            return f"{f.name} is dead.", "maelstrom.dead"
        if fx["incapacitated"]:
            full = sum(fx["damage"].values()) >= len(self._chart_labels(f))
            if not full and fx["willpower"] == 0 and fx["ignore_wounds"]:
                return "", ""  # spent the last dot to push through: acts once more (seed)
            why = "the health track is full" if full else "no willpower left"
            return f"{f.name} is incapacitated ({why}) and cannot act.", "maelstrom.incapacitated"
        return "", ""

    def _with_effects(
        self, f: Fighter, request: dict[str, Any], rollable_id: str | None, notes: list[str] | None = None
    ) -> dict[str, Any]:
        """``request`` with ``f``'s effects applied as to the sheet's roll ``rollable_id``; the effects
        that changed it are named in ``notes``."""
        names = named.names_reaching(f.state, rollable_id)
        if not names:
            return request
        if notes is not None:
            notes.append(", ".join(names))
        return self.ruleset.with_effects(request, f.state, rollable_id)

    def _chart_labels(self, f: Fighter) -> list[str]:
        chart = (self.report_of(f).derived or {}).get("health_levels") or self._house(
            self.ctx_of(f)
        ).health_chart
        return [level["label"] for level in chart]

    def _difficulty(self, es: dict, ctx: Context) -> tuple[int, int]:
        """The scene's (difficulty, threshold): set by the GM, else the campaign's default difficulty."""
        default = self._house(ctx).default_difficulty
        d = es.get("difficulty", default)
        t = es.get("threshold", 0)
        return (d if is_int(d) and 2 <= d <= 10 else default, t if is_int(t) and t >= 0 else 0)

    def _pool(
        self, f: Fighter, attr: str, ability: str | None, es: dict, fx: dict | None = None
    ) -> tuple[dict[str, int], list[str]]:
        """The roll request of attribute + ability with the wound penalty, and notes on how."""
        fx = fx or self.effects_of(f)
        difficulty, threshold = self._difficulty(es, self.ctx_of(f))
        notes: list[str] = []
        dots = self._attr(f, attr)
        if ability:
            a_dots = self._dots(f, "abilities", ability)
            category = self._abilities(f).get(ability, {}).get("category", "talent")
            name = self._abilities(f).get(ability, {}).get("name", ability)
            if a_dots:
                dots += a_dots
            elif category == "skill":
                difficulty = min(10, difficulty + 1)
                notes.append(f"no {name} dots: difficulty +1")
            elif category == "knowledge":
                raise CombatRefused(
                    "maelstrom.untrained_knowledge",
                    f"{f.name} has no dots in {name}: a knowledge cannot be attempted untrained.",
                )
            else:
                notes.append(f"no {name} dots: {attr} alone")
            entry = self._abilities(f).get(ability, {})
            lame = limbs.crippled(f.state)
            if limbs.refusal(entry, lame):
                raise CombatRefused("maelstrom.crippled", f"{f.name}: {limbs.refusal(entry, lame)}")
            if limbs.note(entry, lame):
                notes.append(limbs.note(entry, lame))
        penalty = fx["wound_penalty"]
        if penalty:
            notes.append(f"wound penalty {penalty}")
        elif fx["ignore_wounds"]:
            notes.append("wound penalty ignored (willpower)")
        pool = max(0, min(dice.MAX_POOL, dots + penalty))
        request: dict[str, Any] = {"pool": pool, "difficulty": difficulty, "threshold": threshold}
        required = self._required(es)
        if required:
            a_dots = self._dots(f, "abilities", ability) if ability else 0
            used = self._specialties_for(f, ability, required, a_dots)
            request.update(required=required, specialties=used, ability_dots=a_dots)
            missing = dice.missing_specialties(request)
            if missing:
                notes.append(f"threshold +{len(missing)} without {', '.join(missing)}")
            if used:
                notes.append(f"uses {', '.join(used)}")
        request = self._with_effects(f, request, named.roll_id(attr, ability, self._abilities(f)), notes)
        return request, notes

    @staticmethod
    def _required(es: dict) -> list[str]:
        """The advanced specialties the storyteller requires of this scene's rolls (seed,
        "Required Specialties"; set with the GM's difficulty action)."""
        raw = es.get("required")
        return (
            [n for n in raw if isinstance(n, str) and n.strip()][: dice.MAX_NAMES]
            if isinstance(raw, list)
            else []
        )

    def _specialties_for(self, f: Fighter, ability: str | None, required: list[str], dots: int) -> list[str]:
        """The fighter's specialties of ``ability`` that meet a requirement, at most ``dots`` of them
        (seed: the specialties used in one roll are limited by the ability's dots)."""
        wanted = {name_key(n) for n in required}
        owned = (f.build or {}).get("specialties") if isinstance(f.build, dict) else None
        used: list[str] = []
        for spec in owned if isinstance(owned, list) else []:
            if (
                isinstance(spec, dict)
                and spec.get("ability") == ability
                and isinstance(spec.get("name"), str)
                and name_key(spec["name"]) in wanted
                and spec["name"] not in used
            ):
                used.append(spec["name"])
        return used[:dots]

    # ---------------------------------------------------------------- initiative and turns

    # join and turn_start are the engine's defaults, built on these four.

    def roll_initiative(
        self, fighter: Fighter, roller: Roller, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        traits, die = weapons.initiative(self.ctx_of(fighter, ctx), self.ruleset.house_defaults)
        base = sum(self._attr(fighter, t) for t in traits)
        face = roller.d(die)
        return {"initiative": base + face, "initiative_roll": face, "initiative_base": base}

    def initiative_text(self, rolled: dict[str, Any]) -> str:
        return f"{rolled['initiative_base']} + {rolled['initiative_roll']}"

    def turn_opening(self, fighter: Fighter, *, ctx: Context | None = None) -> tuple[dict | None, str]:
        return zero_willpower.turn_opening(self, fighter)

    def fresh_turn(self) -> dict[str, Any]:
        return {"acted": False, "willpower_spent": False, "willpower_roll": None}

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        out = Outcome()
        rolls = {f.id: self.roll_initiative(f, roller, ctx=ctx) for f in fighters}
        for f in fighters:
            out.combat[f.id] = {**self.fresh_turn(), **rolls[f.id]}

        traits, die = weapons.initiative(
            self.ctx_of(fighters[0] if fighters else None, ctx), self.ruleset.house_defaults
        )

        def key(f: Fighter):
            r = rolls[f.id]
            return (
                -r["initiative"],
                -r["initiative_base"],
                -self._attr(f, traits[-1]),
                1 if f.is_npc else 0,
                f.id,
            )

        ordered = sorted(fighters, key=key)
        out.order = [f.id for f in ordered]
        parts = [
            f"{f.name} {rolls[f.id]['initiative']} ({self.initiative_text(rolls[f.id])})" for f in ordered
        ]
        out.log(
            "initiative",
            f"Initiative ({' + '.join(self.attributes.get(t, {}).get('name', t) for t in traits)} + d{die}): "
            + ", ".join(parts)
            + ".",
            initiative={str(f.id): rolls[f.id]["initiative"] for f in ordered},
            faces=[rolls[f.id]["initiative_roll"] for f in ordered],
        )
        difficulty, threshold = self._difficulty(
            encounter_state or {}, self.ctx_of(fighters[0] if fighters else None, ctx)
        )
        out.encounter_state = {**(encounter_state or {}), "difficulty": difficulty, "threshold": threshold}
        return out

    # ---------------------------------------------------------------- actions

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        """Every action ``actor`` has now, each gated by the first rule that stops it."""
        fx = self.effects_of(actor)
        on_turn = current is not None and actor.id == current
        down = self.cannot_act(actor, fx)

        def gate(spec: ActionSpec, *, turn_action: bool) -> ActionSpec:
            spec.deny(*down)
            if not spec.reaction and not on_turn:
                spec.deny(*self.not_your_turn(actor))
            if turn_action and (actor.combat or {}).get("acted"):
                spec.deny(
                    f"{actor.name} has taken this turn's action: one action a turn; end the turn.",
                    "maelstrom.already_acted",
                )
            return spec

        specs = [gate(spec, turn_action=True) for spec in self._attack_specs(actor, es, fx)]
        specs.append(gate(self._roll_spec(actor, es, fx), turn_action=True))
        specs.append(
            self._spend_spec(
                actor,
                fx,
                gate(
                    ActionSpec(
                        id="spend_willpower",
                        label="Spend willpower: ignore wound penalties",
                        cost="1 willpower, once a turn, before the action",
                    ),
                    turn_action=True,
                ),
            )
        )
        specs.extend(self._willpower_specs(actor, es, fx, lambda spec: gate(spec, turn_action=False)))
        specs.extend(
            zero_willpower.specs(self, actor, fx, on_turn, lambda spec: gate(spec, turn_action=True))
        )
        specs.extend(self._gm_specs(es, self.ctx_of(actor)))
        return specs

    def _attack_specs(self, actor: Fighter, es: dict, fx: dict) -> list[ActionSpec]:
        specs = []
        for aid, attack in self._attacks(self.ctx_of(actor)).items():
            try:
                odds, notes = self._pool(actor, attack["attribute"], attack["ability"], es, fx)
            except CombatRefused as refused:  # a crippled limb (attacks use a talent and a skill)
                spec = ActionSpec(id=aid, label=attack["label"], cost="the turn's action", target="enemy")
                spec.deny(refused.message, refused.code)
                specs.append(spec)
                continue
            options = [
                {"id": wid, "label": f"{w['name']} ({w['damage']} {w['type']})"}
                for wid, w in attack["weapons"].items()
            ]
            traits = f"{self.attributes[attack['attribute']]['name']} + {self._abilities(actor)[attack['ability']]['name']}"
            how = "".join(f"; {n}" for n in notes)
            specs.append(
                ActionSpec(
                    id=aid,
                    label=attack["label"],
                    cost=f"the turn's action ({traits}: {odds['pool']} dice{how})",
                    target="enemy",
                    odds=odds,
                    params=[
                        {
                            "id": "weapon",
                            "label": "Weapon",
                            "kind": "choice",
                            "default": attack["default"],
                            "options": options,
                        }
                    ],
                )
            )
        return specs

    def _roll_spec(self, actor: Fighter, es: dict, fx: dict) -> ActionSpec:
        attr0, ability0 = DEFAULT_ROLL
        try:
            odds, _ = self._pool(actor, attr0, ability0, es, fx)
        except CombatRefused:  # pragma: no cover
            odds = None
        return ActionSpec(
            id="roll",
            label="Other action (roll a pool)",
            cost="the turn's action",
            odds=odds,
            params=[
                {
                    "id": "attribute",
                    "label": "Attribute",
                    "kind": "choice",
                    "default": attr0,
                    "options": [{"id": k, "label": a["name"]} for k, a in self.attributes.items()],
                },
                {
                    "id": "ability",
                    "label": "Ability",
                    "kind": "choice",
                    "default": ability0,
                    "options": [{"id": "", "label": "— (attribute alone)"}]
                    + [{"id": k, "label": a["name"]} for k, a in self._abilities(actor).items()],
                },
                {"id": "note", "label": "What", "kind": "text"},
            ],
        )

    @staticmethod
    def _spend_spec(actor: Fighter, fx: dict, spend: ActionSpec) -> ActionSpec:
        """Once a turn, before the action, a dot ignores the wound penalty (seed, "Spending Willpower")."""
        if (actor.combat or {}).get("willpower_spent") or fx["ignore_wounds"]:
            spend.deny(
                f"{actor.name} already ignores wound penalties for the next action (once a turn).",
                "maelstrom.wounds_already_ignored",
            )
        elif fx["willpower"] < 1:
            spend.deny(f"{actor.name} has no willpower left.", "maelstrom.no_willpower")
        elif not fx["wound_penalty"]:
            spend.deny(
                f"{actor.name} has no wound penalty to ignore; keep the dot.", "maelstrom.no_wound_penalty"
            )
        return spend

    def _willpower_specs(self, actor: Fighter, es: dict, fx: dict, gate) -> list[ActionSpec]:
        """The willpower roll and, after it, the automatic success (seed, "Willpower"); ``gate``
        applies the rules every action has first."""
        difficulty, _ = self._difficulty(es, self.ctx_of(actor))
        roll = gate(
            ActionSpec(
                id="willpower_roll",
                label="Willpower roll",
                cost="free (when the storyteller calls for it)",
                reaction=True,
                odds=self._willpower_request(actor, fx, difficulty),
                params=[
                    {
                        "id": "difficulty",
                        "label": "Difficulty",
                        "kind": "number",
                        "min": 2,
                        "max": 10,
                        "default": difficulty,
                    },
                    {"id": "note", "label": "Against", "kind": "text"},
                ],
            )
        )
        auto = gate(
            ActionSpec(
                id="willpower_auto",
                label="Spend willpower: succeed automatically",
                cost="1 willpower (successes = the dots left)",
                reaction=True,
            )
        )
        if (actor.combat or {}).get("willpower_roll") == "botch":
            auto.deny(
                "A botched willpower roll cannot be cancelled by spending willpower.",
                "maelstrom.botch_not_cancellable",
            )
        elif fx["willpower"] < 2:
            auto.deny(
                "The last willpower dot cannot buy an automatic success: it would leave zero successes. "
                "Roll instead.",
                "maelstrom.last_willpower",
            )
        return [roll, auto]

    def _willpower_request(self, actor: Fighter, fx: dict, difficulty: int) -> dict[str, Any]:
        """The willpower roll: current dots, no wound penalty, the actor's effects on it."""
        request = {"pool": min(dice.MAX_POOL, fx["willpower"]), "difficulty": difficulty, "threshold": 0}
        return self._with_effects(actor, request, "willpower")

    def _gm_specs(self, es: dict, ctx: Context) -> list[ActionSpec]:
        levels = {"id": "levels", "label": "Levels", "kind": "number", "min": 1, "default": 1}
        kind = {
            "id": "type",
            "label": "Damage",
            "kind": "choice",
            "default": "bashing",
            "options": [{"id": t, "label": t.title()} for t in DAMAGE_TYPES],
        }
        difficulty, threshold = self._difficulty(es, ctx)
        return [
            ActionSpec(
                id="gm_damage",
                label="Deal damage",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[
                    levels,
                    kind,
                    {
                        "id": "soak",
                        "label": "Soak with Strength (not aggravated)",
                        "kind": "flag",
                        "default": False,
                    },
                ],
            ),
            ActionSpec(
                id="gm_heal",
                label="Heal",
                cost="GM",
                gm=True,
                reaction=True,
                relative=True,
                params=[
                    levels,
                    {
                        **kind,
                        "default": None,
                        "options": [{"id": "", "label": "Least serious first"}, *kind["options"]],
                    },
                ],
            ),
            ActionSpec(
                id="gm_difficulty",
                label="Set the difficulty",
                cost="GM",
                gm=True,
                reaction=True,
                params=[
                    {
                        "id": "difficulty",
                        "label": "Difficulty",
                        "kind": "number",
                        "min": 2,
                        "max": 10,
                        "default": difficulty,
                    },
                    {
                        "id": "threshold",
                        "label": "Threshold",
                        "kind": "number",
                        "min": 0,
                        "default": threshold,
                    },
                    {
                        "id": "required",
                        "label": "Required advanced specialties (comma-separated)",
                        "kind": "text",
                        "default": ", ".join(self._required(es)),
                    },
                ],
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
        target = self.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot attack themselves.")
        if self.effects_of(target)["dead"]:
            raise CombatRefused(
                "maelstrom.target_dead", f"{target.name} is already dead; choose another target."
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
        spec = self.allowed_spec(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        out = Outcome()
        if aid in zero_willpower.ACTIONS:
            out.combat[actor.id] = zero_willpower.perform(self, aid, action, actor, fighters, out)
            return out
        if spec.gm:
            return self._gm(spec, action, actor, es, roller)
        combat = self.combat_numbers(actor)
        table = self._attacks(self.ctx_of(actor))
        if aid in table or aid == "roll":
            combat["out_of_fight"] = False  # acting brings a fighter back into the fight
        if aid in table:
            self._attack(out, table[aid], action, actor, fighters, es, roller)
            combat["acted"] = True
            self._end_action(out, actor)
        elif aid == "roll":
            self._other(out, action, actor, es, roller)
            combat["acted"] = True
            self._end_action(out, actor)
        elif aid == "spend_willpower":
            new_state, text = self.play_state_action(
                actor, actor.state, {"action": "spend_willpower", "purpose": "ignore_wounds"}
            )
            out.state[actor.id] = new_state
            combat["willpower_spent"] = True
            out.log("willpower", f"{actor.name}: {text} ({new_state['willpower']} left)", actor.id)
        elif aid == "willpower_roll":
            combat["willpower_roll"] = self._willpower_roll(out, action, actor, es, roller)
        elif aid == "willpower_auto":
            new_state, text = self.play_state_action(
                actor, actor.state, {"action": "spend_willpower", "purpose": "automatic_success"}
            )
            out.state[actor.id] = new_state
            combat["willpower_roll"] = "success"
            out.log("willpower", f"{actor.name}: {text}", actor.id, successes=new_state["willpower"])
        out.combat[actor.id] = combat
        return out

    def _end_action(self, out: Outcome, actor: Fighter) -> None:
        """The action that ignored wounds is over: wound penalties apply again."""
        state = out.state.get(actor.id, actor.state)
        if isinstance(state, dict) and state.get("ignore_wounds"):
            new_state, _ = self.play_state_action(actor, state, {"action": "end_action"})
            out.state[actor.id] = new_state

    def _soak(self, target: Fighter, kind: str, roller: Roller) -> tuple[int, str, list[int]]:
        """(levels soaked, text, faces) of the target's Strength roll against ``kind`` damage."""
        if kind not in SOAKABLE:
            return 0, "aggravated damage cannot be soaked", []
        soak = weapons.soak_attribute(self.ctx_of(target), self.ruleset.house_defaults)
        pool = self._attr(target, soak)
        difficulty = self._house(self.ctx_of(target)).default_difficulty
        notes: list[str] = []
        request = self._with_effects(
            target, {"pool": pool, "difficulty": difficulty, "threshold": 0}, soak, notes
        )
        roll = dice.pool_roll(request, roller)
        faces = ", ".join(map(str, roll["faces"])) or "no dice"
        how = f", {notes[0]}" if notes else ""
        return (
            roll["total"],
            f"soaks {roll['total']} ({self.attributes.get(soak, {}).get('name', soak)} {request['pool']}{how}: {faces})",
            list(roll["faces"]),
        )

    def _damage(self, out: Outcome, target: Fighter, levels: int, kind: str) -> str:
        state = out.state.get(target.id, target.state)
        new_state, text = self.play_state_action(
            target, state, {"action": "damage", "levels": levels, "type": kind}
        )
        out.state[target.id] = new_state
        return text

    def _attack(
        self,
        out: Outcome,
        attack: dict,
        action: dict,
        actor: Fighter,
        fighters: list[Fighter],
        es: dict,
        roller: Roller,
    ) -> None:
        target = self._target(action, actor, fighters)
        wid = action.get("weapon") or attack["default"]
        weapon = attack["weapons"].get(wid) if isinstance(wid, str) else None
        if weapon is None:
            raise CombatRefused(
                "maelstrom.unknown_weapon",
                f"{attack['label']}: use one of {', '.join(attack['weapons'])} (not {wid!r}).",
            )
        request, notes = self._pool(actor, attack["attribute"], attack["ability"], es)
        roll = dice.pool_roll(request, roller)
        how = f" ({'; '.join(notes)})" if notes else ""
        head = (
            f"{actor.name} attacks {target.name} with the {weapon['name'].lower()}: {request['pool']} dice"
            f"{how}. {roll['text']}"
        )
        data: dict[str, Any] = {
            "target": target.id,
            "faces": roll["faces"],
            "pool": request["pool"],
            "difficulty": request["difficulty"],
            "threshold": request["threshold"],
            "outcome": roll["outcome"],
            "successes": roll["total"],
            "odds": request,
        }
        if roll["total"] < 1:
            out.log("attack", f"{head} Miss.", actor.id, **data)
            return
        levels = weapon["damage"] + roll["total"] - 1
        soaked, soak_text, soak_faces = self._soak(target, weapon["type"], roller)
        left = max(0, levels - soaked)
        data.update(
            levels=levels, type=weapon["type"], soaked=min(soaked, levels), soak_faces=soak_faces, damage=left
        )
        dmg = f"Hit: {dice.plural(levels, 'level')} of {weapon['type']}; {target.name} {soak_text}"
        if left == 0:
            out.log("attack", f"{head} {dmg} — no damage.", actor.id, **data)
            return
        text = self._damage(out, target, left, weapon["type"])
        out.log("attack", f"{head} {dmg}. {target.name}: {text}", actor.id, **data)

    def _other(self, out: Outcome, action: dict, actor: Fighter, es: dict, roller: Roller) -> None:
        attr = action.get("attribute") or DEFAULT_ROLL[0]
        ability = action.get("ability") or None
        if attr not in self.attributes:
            raise CombatRefused(
                "maelstrom.unknown_trait", f"Roll one of the attributes {', '.join(self.attributes)}."
            )
        abilities = self._abilities(actor)
        if ability is not None and ability not in abilities:
            raise CombatRefused("maelstrom.unknown_trait", f"{ability!r} is not an ability.")
        request, notes = self._pool(actor, attr, ability, es)
        roll = dice.pool_roll(request, roller)
        what = self.attributes[attr]["name"] + (f" + {abilities[ability]['name']}" if ability else "")
        note = get_as(action, "note", str, "")
        how = f" ({'; '.join(notes)})" if notes else ""
        out.log(
            "roll",
            f"{actor.name} {('— ' + note.strip()[:120] + ' — ') if note.strip() else ''}rolls {what}, "
            f"{request['pool']} dice{how}. {roll['text']}",
            actor.id,
            faces=roll["faces"],
            outcome=roll["outcome"],
            successes=roll["total"],
            pool=request["pool"],
            odds=request,
        )

    def _willpower_roll(self, out: Outcome, action: dict, actor: Fighter, es: dict, roller: Roller) -> str:
        fx = self.effects_of(actor)
        difficulty = whole_number(action.get("difficulty"))
        if difficulty is None:
            difficulty = self._difficulty(es, self.ctx_of(actor))[0]
        if not 2 <= difficulty <= 10:
            raise CombatRefused(
                "maelstrom.invalid_difficulty", "The difficulty is a whole number from 2 to 10."
            )
        request = self._willpower_request(actor, fx, difficulty)
        roll = dice.pool_roll(request, roller)
        note = get_as(action, "note", str, "")
        against = f" against {note.strip()[:120]}" if note.strip() else ""
        names = named.names_reaching(actor.state, "willpower")
        how = f"; {', '.join(names)}" if names else ""
        text = f"{actor.name} rolls willpower{against} ({request['pool']} dice{how}). {roll['text']}"
        if roll["outcome"] == "botch":
            new_state, lost = self.play_state_action(
                actor, actor.state, {"action": "lose_willpower", "dots": max(1, roll["uncancelled_botches"])}
            )
            out.state[actor.id] = new_state
            text += f" {lost}"
        out.log(
            "willpower", text, actor.id, faces=roll["faces"], outcome=roll["outcome"], successes=roll["total"]
        )
        return roll["outcome"]

    def _gm(self, spec: ActionSpec, action: dict, actor: Fighter, es: dict, roller: Roller) -> Outcome:
        out = Outcome()

        def number(key: str, low: int, high: int | None = None, default: int | None = None) -> int:
            raw = action.get(key)
            value = default if raw in (None, "") else whole_number(raw)
            if value is None or value < low or (high is not None and value > high):
                span = f"from {low} to {high}" if high is not None else f"of {low} or more"
                raise CombatRefused(
                    "maelstrom.invalid_amount", f"{key.title()} must be a whole number {span}."
                )
            return value

        if spec.id == "gm_damage":
            kind = action.get("type")
            if kind not in DAMAGE_TYPES:
                raise CombatRefused("state.malformed", "Say which damage: bashing, lethal or aggravated.")
            levels = number("levels", 1)
            soak = ""
            if _flag(action.get("soak")):
                soaked, soak_text, _ = self._soak(actor, kind, roller)
                soak = f"{actor.name} {soak_text}. "
                levels -= soaked
            if levels <= 0:
                out.log(spec.id, f"GM: {soak}No damage gets through.", actor.id)
                return out
            text = self._damage(out, actor, levels, kind)
            out.log(spec.id, f"GM: {soak}{actor.name}: {text}", actor.id, levels=levels, type=kind)
        elif spec.id == "gm_heal":
            kind = action.get("type") or None
            act: dict[str, Any] = {"action": "heal", "levels": number("levels", 1)}
            if kind is not None:
                act["type"] = kind
            new_state, text = self.play_state_action(actor, actor.state, act)
            out.state[actor.id] = new_state
            out.log(spec.id, f"GM: {actor.name}: {text}", actor.id)
        elif spec.id == "gm_difficulty":
            current_d, current_t = self._difficulty(es, self.ctx_of(actor))
            difficulty = number("difficulty", 2, 10, current_d)
            threshold = number("threshold", 0, None, current_t)
            out.encounter_state = {**es, "difficulty": difficulty, "threshold": threshold}
            required = self._required(es)
            if "required" in action:
                raw = action.get("required")
                names = raw if isinstance(raw, list) else str(raw or "").split(",")
                required = [n.strip() for n in names if isinstance(n, str) and n.strip()][: dice.MAX_NAMES]
                out.encounter_state.pop("required", None)
                if required:
                    out.encounter_state["required"] = required
            out.log(
                spec.id,
                f"GM: rolls are now at difficulty {difficulty}"
                + (f", threshold {threshold}" if threshold else "")
                + (f", requiring {', '.join(required)}" if required else "")
                + ".",
                actor.id,
                difficulty=difficulty,
                threshold=threshold,
            )
        return out

    # ---------------------------------------------------------------- the row

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        combat = fighter.combat or {}
        fx = self.effects_of(fighter)
        damage = fx["damage"]
        track = ", ".join(f"{n} {t}" for t, n in damage.items() if n)
        stats = [
            {
                "label": "Health",
                "value": f"{fx['wound_level']} ({track})" if track else "Unhurt",
                "key": "health",
            },
            {
                "label": "Wound penalty",
                "value": f"{fx['wound_penalty']:+d}" if fx["wound_penalty"] else "0",
                "key": "wound_penalty",
            },
            {"label": "Willpower", "value": f"{fx['willpower']}/{fx['willpower_max']}", "key": "willpower"},
        ]
        if "acted" in combat:
            stats.append(
                {"label": "Action", "value": "taken" if combat.get("acted") else "ready", "key": "action"}
            )
        if "initiative" in combat:
            stats.append({"label": "Initiative", "value": str(combat["initiative"]), "key": "initiative"})
        return {"stats": stats, "status": list(fx["labels"])}
