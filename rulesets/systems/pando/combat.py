"""Pando's action rounds (RULES.md 1 "Action rounds (combat)", seed 000 "Action Rounds").

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. Play state (stamina, harm, exhaustion) changes only through the ruleset's own
play-state hook ``state_action``, so combat and the sheet can never disagree.

``Fighter.combat`` for Pando::

    {"momentum": 5,            # the Momentum in effect this round (a group: the average of theirs)
     "own_momentum": 5,        # acrobatics + presence, before any group average
     "momentum_next": 6,       # set by the GM; takes effect at the next round start
     "speed": 4,               # speed left this round
     "uses": {"strike": 2}}    # earlier uses of each action this round

``encounter_state``::

    {"attack": {"attacker": id, "target": id | None, "weapon": "Longsword", "ep": 3}}

The attack is the latest strike whose efficiency points (EP) are not spent yet. Its
target may react (block, dodge, tough it out: each reaction's EP take EP off the
attack); the attacker (or the GM) then spends the EP on harm to a body part of the
target. Decisions where the seed is silent (documented for players on the page):

- "The same action" is the action kind: striking with the sword and then with the
  dagger is two uses of Strike (the second costs 2).
- Harm: each EP spent on harm is 1 harm to the chosen body part, minus the harm
  protection of that body part (armour, a shield on that arm) — ``state_action`` "harm"
  with ``protected``. Unspent EP are lost when the turn ends or the attacker strikes again.
- A group of NPCs shares one Momentum (the average of theirs) and acts together in the
  order: its members are adjacent and all of them are "current" during the group's turn.
  Ties with a group compare the group's average acrobatics, then presence.
- Tough it Out rolls Endurance with Capability (level 1); Dodge rolls Acrobatics with the
  best of Athletics, Dodge, Evasion, Evasion Mastery; Block rolls the wielded item's block
  roll (a shield's), or its strike roll (a weapon in the way).
- Use Item needs one usable arm and prefers a healthy one; a Bandage removes Bleeding
  from its target (yourself or an ally).
- Current stamina is kept from the sheet when the fight starts (not reset to the maximum).
"""

from __future__ import annotations

from typing import Any, Literal, overload

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, whole_number, whole_or

from .build import ATTRIBUTES, CAPABILITY, RESISTANCES, entry_item, label
from .dice import MAX_DICE, efficiency_roll

DODGE_SKILLS = ("athletics", "dodge", "evasion", "evasion_mastery")
DEFAULT_ARMS = ("left_arm", "right_arm")


def _num(value: float) -> int | float:
    """Momentum as people write it: 4, or 4.5 for a group average."""
    value = round(float(value), 2)
    return int(value) if value == int(value) else value


class PandoCombat(CombatRules):
    def __init__(self, ruleset):
        super().__init__(ruleset)
        self.kinds: dict[str, dict] = ruleset.catalogue.get("actions", {})

    # ---------------------------------------------------------------- reading a fighter

    @staticmethod
    def _attrs(f: Fighter) -> dict[str, int]:
        raw = f.build.get("attributes") if isinstance(f.build, dict) else None
        if not isinstance(raw, dict):
            return {}
        return {k: v for k, v in raw.items() if k in ATTRIBUTES and is_int(v) and v >= 0}

    @staticmethod
    def _levels(f: Fighter) -> dict[str, int]:
        """Learned skills → level (homebrew included: the report priced them at cost = level)."""
        levels = {CAPABILITY: 1}
        listed = get_as(f.build, "skills", list, [])
        for cost in getattr(f.report, "costs", None) or []:
            path = cost.get("path", "")
            if path.startswith("/skills/"):
                try:
                    sid = listed[int(path.rsplit("/", 1)[1])]
                except (ValueError, IndexError):
                    continue
                if isinstance(sid, str):
                    levels[sid] = cost["cost"]
        return levels

    def _effects(self, f: Fighter) -> dict[str, Any]:
        if f.report is None:
            return {}
        try:
            return self.effects_of(f) or {}
        except Exception:  # an odd state must not stop the fight page
            return {}

    def _roll_request(
        self, f: Fighter, attribute: str, skills: list[str] | tuple[str, ...]
    ) -> dict[str, int]:
        attrs, levels = self._attrs(f), self._levels(f)
        known = [s for s in skills if s in levels]
        level = max((levels[s] for s in known), default=1)
        return {"dice": min(max(attrs.get(attribute, 0), 0), MAX_DICE), "skill": min(level, 6)}

    def _item_of(self, f: Fighter, entry: Any) -> dict | None:
        """The item an equipment entry of ``f`` names (the campaign's homebrew items too)."""
        return entry_item(entry, self.ctx_of(f).catalogue) if isinstance(entry, dict) else None

    def _equipment(self, f: Fighter):
        """(index, item, state, arms) of each readable equipment entry."""
        equipment = get_as(f.build, "equipment", list, [])
        for i, entry in enumerate(equipment):
            item = self._item_of(f, entry)
            if item is None:
                continue
            arms = (
                [a for a in entry.get("arms") or [] if isinstance(a, str)]
                if entry.get("state") == "wielded"
                else []
            )
            yield i, item, entry.get("state"), arms

    def _arms(self, f: Fighter) -> list[str]:
        species = self.ctx_of(f).catalogue.get("species", {}).get(f.build.get("species") or "humanoid") or {}
        return list(species.get("arms") or DEFAULT_ARMS)

    @staticmethod
    def _item_action(item: dict | None, kind: str) -> dict | None:
        if item is None:
            return None
        return next(
            (a for a in item.get("actions") or [] if isinstance(a, dict) and a.get("action") == kind), None
        )

    # ---------------------------------------------------------------- turn order

    def _on_turn(self, actor: Fighter, fighters: list[Fighter], current: int | None) -> bool:
        if current is None:
            return False
        if actor.id == current:
            return True
        cur = next((f for f in fighters if f.id == current), None)
        return bool(cur and actor.is_npc and cur.is_npc and actor.group and actor.group == cur.group)

    def turn_span(self, order: list[int], turn: int, fighters: dict[int, Fighter]) -> int:
        first = fighters.get(order[turn]) if 0 <= turn < len(order) else None
        if first is None or not (first.is_npc and first.group):
            return 1
        span = 1
        while turn + span < len(order):
            f = fighters.get(order[turn + span])
            if f is None or not (f.is_npc and f.group == first.group):
                break
            span += 1
        return span

    def _units(self, fighters: list[Fighter], combat: dict[int, dict]) -> list[dict]:
        """Who takes a place in the order: each PC, each lone NPC, each NPC group (members together)."""
        units: dict[str, dict] = {}
        for f in fighters:
            key = f"group:{f.group}" if f.is_npc and f.group else f"id:{f.id}"
            units.setdefault(key, {"members": [], "label": f.group if key.startswith("group:") else f.name})
            units[key]["members"].append(f)
        out = []
        for unit in units.values():
            members = unit["members"]
            n = len(members)
            attrs = [self._attrs(m) for m in members]
            out.append(
                {
                    "label": unit["label"],
                    "ids": [m.id for m in sorted(members, key=lambda m: m.id)],
                    "momentum": sum(float(combat[m.id].get("momentum", 0)) for m in members) / n,
                    "acrobatics": sum(a.get("acrobatics", 0) for a in attrs) / n,
                    "presence": sum(a.get("presence", 0) for a in attrs) / n,
                }
            )
        return out

    def _break_ties(self, tied: list[dict], roller: Roller, out: Outcome) -> list[dict]:
        """d6 roll-offs among ``tied``, higher first, repeated among those still tied."""
        if len(tied) < 2:
            return tied
        rolls = [(unit, roller.d(6)) for unit in tied]
        out.log(
            "order",
            "Tie for the turn order: " + ", ".join(f"{u['label']} rolls {r}" for u, r in rolls) + ".",
            rolls={u["label"]: r for u, r in rolls},
            faces=[r for _, r in rolls],
        )
        ordered: list[dict] = []
        for face in sorted({r for _, r in rolls}, reverse=True):
            ordered.extend(self._break_ties([u for u, r in rolls if r == face], roller, out))
        return ordered

    def _order(
        self, fighters: list[Fighter], combat: dict[int, dict], roller: Roller, out: Outcome
    ) -> list[int]:
        units = self._units(fighters, combat)
        key = lambda u: (u["momentum"], u["acrobatics"], u["presence"])  # noqa: E731
        units.sort(key=key, reverse=True)
        ordered: list[dict] = []
        i = 0
        while i < len(units):
            j = i
            while j + 1 < len(units) and key(units[j + 1]) == key(units[i]):
                j += 1
            ordered.extend(self._break_ties(units[i : j + 1], roller, out) if j > i else [units[i]])
            i = j + 1
        out.log(
            "order",
            "Turn order by Momentum: "
            + ", ".join(f"{u['label']} ({_num(u['momentum'])})" for u in ordered)
            + ".",
            order=[u["ids"] for u in ordered],
        )
        return [fid for u in ordered for fid in u["ids"]]

    def _opening(self, fighters: list[Fighter]) -> dict[int, dict]:
        """Momentum = acrobatics + presence; an NPC group shares the average of theirs."""
        combat: dict[int, dict] = {}
        for f in fighters:
            own = whole_or(f.derived, "momentum", 0)
            combat[f.id] = {
                **self.combat_numbers(f),
                "own_momentum": own,
                "momentum": own,
                "uses": {},
                "speed": (f.combat or {}).get("speed", 0),
            }
            combat[f.id].pop("momentum_next", None)
        groups: dict[str, list[Fighter]] = {}
        for f in fighters:
            if f.is_npc and f.group:
                groups.setdefault(f.group, []).append(f)
        for members in groups.values():
            avg = _num(sum(combat[m.id]["own_momentum"] for m in members) / len(members))
            for m in members:
                combat[m.id]["momentum"] = avg
        return combat

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        out = Outcome()
        combat = self._opening(fighters)
        out.order = self._order(fighters, combat, roller, out)
        out.combat = combat
        return out

    def join(
        self,
        fighter: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        """A latecomer: its own Momentum (or its group's), and speed for this round already;
        it takes its place by Momentum at the next round start."""
        out = Outcome()
        mates = [
            f
            for f in fighters
            if f.is_npc
            and fighter.is_npc
            and fighter.group
            and f.group == fighter.group
            and f.id != fighter.id
            and (f.combat or {}).get("momentum") is not None
        ]
        own = whole_or(fighter.derived, "momentum", 0)
        momentum = mates[0].combat["momentum"] if mates else own
        stamina = self._stamina(fighter)
        max_speed = whole_or(fighter.derived, "max_speed", 0)
        out.combat[fighter.id] = {
            "own_momentum": own,
            "momentum": momentum,
            "uses": {},
            "speed": max(0, min(max_speed, stamina)),
            "reorder": True,
        }
        out.log(
            "join",
            f"{fighter.name} joins the fight (Momentum {_num(momentum)}); "
            "they take their place in the order next round.",
            fighter.id,
        )
        return out

    # ---------------------------------------------------------------- rounds and turns

    @staticmethod
    def _stamina(f: Fighter) -> int:
        value = (f.state or {}).get("stamina")
        if is_int(value):
            return max(0, value)
        top = f.derived.get("max_stamina")
        return top if is_int(top) and top > 0 else 0

    def round_start(
        self,
        fighters: list[Fighter],
        encounter_state: dict,
        round_no: int,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        out = Outcome()
        combat = {f.id: self.combat_numbers(f) for f in fighters}
        changed = [f for f in fighters if "momentum_next" in combat[f.id]]
        for f in changed:
            combat[f.id]["momentum"] = combat[f.id].pop("momentum_next")
            out.log("momentum", f"{f.name}'s Momentum is now {_num(combat[f.id]['momentum'])}.", f.id)
        if changed or any(c.pop("reorder", False) for c in combat.values()):
            out.order = self._order(fighters, combat, roller, out)
        speeds = []
        for f in fighters:
            fx = self._effects(f)
            stamina = self._stamina(f)
            loss = fx.get("stamina_loss_per_round", 0) or 0
            if loss and stamina and f.report is not None:
                spent = min(loss, stamina)
                try:
                    new_state, _ = self.play_state_action(
                        f, None, {"action": "spend_stamina", "amount": spent}, ctx=ctx
                    )
                except CombatRefused:
                    new_state = None
                if new_state is not None:
                    out.state[f.id] = new_state
                    endurance = self._attrs(f).get("endurance", 0)
                    out.log(
                        "stamina",
                        f"{f.name} loses {spent} stamina (exhaustion "
                        f"{fx.get('exhaustion', {}).get('total', 0)} − endurance {endurance}): "
                        f"{stamina}→{new_state['stamina']}.",
                        f.id,
                        amount=spent,
                    )
                    stamina = new_state["stamina"]
            max_speed = whole_or(f.derived, "max_speed", 0)
            speed = 0 if fx.get("dead") else max(0, min(max_speed, stamina))
            combat[f.id]["speed"] = speed
            combat[f.id]["uses"] = {}
            speeds.append(f"{f.name} {speed}")
        out.combat = combat
        out.log("speed", f"Round {round_no}: speed " + ", ".join(speeds) + ".", round=round_no)
        if encounter_state.get("attack"):
            out.encounter_state = {k: v for k, v in encounter_state.items() if k != "attack"}
        return out

    def turn_start(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        out = Outcome()
        attack = encounter_state.get("attack")
        if attack:
            out.encounter_state = {k: v for k, v in encounter_state.items() if k != "attack"}
            if attack.get("ep"):
                who = next((f.name for f in fighters if f.id == attack.get("attacker")), "The attacker")
                out.log("attack", f"{who}'s unspent {attack['ep']} EP are lost.", attack.get("attacker"))
        return out

    # ---------------------------------------------------------------- actions

    def _part_cost(self, fx: dict, parts: list[str]) -> tuple[int, list[str], list[str]]:
        """(extra speed for wounded parts, wounded parts, unusable parts) among ``parts``."""
        body = fx.get("body") or {}
        unusable = [p for p in parts if p in body and not body[p].get("usable", True)]
        wounded = [p for p in parts if body.get(p, {}).get("status") == "wounded"]
        extra = (fx.get("wounded_speed_cost", 1) or 0) if wounded else 0
        return extra, wounded, unusable

    def _spec(
        self,
        actor: Fighter,
        fx: dict,
        *,
        kind: str,
        id: str,
        label_: str,
        parts: list[str],
        on_turn: bool,
        reaction: bool = False,
        triggered: bool = False,
        target: str | None = None,
        odds: dict | None = None,
        params: list | None = None,
        trigger_text: str = "",
    ) -> ActionSpec:
        combat = actor.combat or {}
        uses = (combat.get("uses") or {}).get(kind, 0)
        extra, wounded, unusable = self._part_cost(fx, parts)
        cost = 1 + uses + extra
        speed = combat.get("speed", 0) or 0
        notes = [
            f"+{uses} used before" if uses else "",
            f"+{extra} wounded {', '.join(label(p).lower() for p in wounded)}" if extra else "",
        ]
        note = "; ".join(n for n in notes if n)
        spec = ActionSpec(
            id=id,
            label=label_,
            cost=f"{cost} speed" + (f" ({note})" if note else ""),
            target=target,
            odds=odds,
            params=params or [],
            reaction=reaction,
        )
        reason, code = "", ""
        if fx.get("dead"):
            reason, code = f"{actor.name} is dead.", "pando.dead"
        elif reaction and not triggered:
            reason, code = f"{label_}: {trigger_text or 'its trigger has not happened'}.", "pando.no_trigger"
        elif not reaction and not on_turn:
            reason, code = self.not_your_turn(actor)
        elif unusable:
            which = " and ".join(f"{label(p).lower()} ({fx['body'][p]['status']})" for p in unusable)
            reason, code = f"The {which} cannot be used until healed.", "pando.body_part_unusable"
        elif cost > speed:
            reason, code = (
                f"{label_} costs {cost} speed but {actor.name} has {speed} left this round.",
                "pando.not_enough_speed",
            )
        if reason:
            spec.allowed, spec.reason, spec.code = False, reason, code
        spec.__dict__["_meta"] = {"kind": kind, "cost": cost, "parts": parts}
        return spec

    def _parts_present(self, fx: dict, parts: list[str]) -> list[str]:
        body = fx.get("body") or {}
        return [p for p in parts if not body or p in body]

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        fx = self._effects(actor)
        on_turn = self._on_turn(actor, fighters, current)
        attack = es.get("attack") or {}
        attacked = attack.get("target") == actor.id and (attack.get("ep") or 0) > 0
        specs: list[ActionSpec] = []
        kinds = self.kinds
        equipment = list(self._equipment(actor))

        def name(kind: str) -> str:
            return (kinds.get(kind) or {}).get("name") or label(kind)

        specs.append(
            self._spec(
                actor,
                fx,
                kind="move",
                id="move",
                label_=name("move"),
                parts=self._parts_present(fx, ["legs"]),
                on_turn=on_turn,
            )
        )
        for i, item, state, arms in equipment:
            strike = self._item_action(item, "strike")
            if state == "wielded" and strike and isinstance(strike.get("attribute"), str):
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="strike",
                        id=f"strike:{i}",
                        label_=f"{name('strike')} with the {item['name'].lower()}",
                        parts=arms,
                        on_turn=on_turn,
                        target="enemy",
                        odds=self._roll_request(actor, strike["attribute"], strike.get("skills") or []),
                    )
                )
        for i, item, state, arms in equipment:
            roll = self._item_action(item, "block") or self._item_action(item, "strike")
            if state == "wielded" and roll and isinstance(roll.get("attribute"), str):
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="block",
                        id=f"block:{i}",
                        label_=f"{name('block')} with the {item['name'].lower()}",
                        parts=arms,
                        on_turn=on_turn,
                        reaction=True,
                        triggered=attacked,
                        trigger_text="take it when you are attacked",
                        odds=self._roll_request(actor, roll["attribute"], roll.get("skills") or []),
                    )
                )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="dodge",
                id="dodge",
                label_=name("dodge"),
                parts=self._parts_present(fx, ["legs"]),
                on_turn=on_turn,
                reaction=True,
                triggered=attacked,
                trigger_text="take it when you are attacked",
                odds=self._roll_request(actor, "acrobatics", DODGE_SKILLS),
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="tough_it_out",
                id="tough_it_out",
                label_=name("tough_it_out"),
                parts=self._parts_present(fx, ["torso"]),
                on_turn=on_turn,
                reaction=True,
                triggered=attacked,
                trigger_text="take it when a blow is coming at you",
                odds=self._roll_request(actor, "endurance", [CAPABILITY]),
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="catch_breath",
                id="catch_breath",
                label_=name("catch_breath"),
                parts=self._parts_present(fx, ["torso"]),
                on_turn=on_turn,
            )
        )
        specs.append(
            self._spec(
                actor,
                fx,
                kind="aid",
                id="aid",
                label_=name("aid"),
                parts=[],
                on_turn=on_turn,
                target="ally",
                params=[{"id": "note", "label": "How", "kind": "text"}],
            )
        )
        arms = [a for a in self._arms(actor) if not fx.get("body") or a in fx["body"]]
        body = fx.get("body") or {}
        usable_arms = [a for a in arms if body.get(a, {}).get("usable", True)]
        healthy = [a for a in usable_arms if body.get(a, {}).get("status", "healthy") == "healthy"]
        arm = (healthy or usable_arms or arms or [None])[0]
        for i, item, state, _ in equipment:
            use = self._item_action(item, "use_item")
            if state in ("carried", "wielded") and use:
                odds = (
                    self._roll_request(actor, use["attribute"], use.get("skills") or [])
                    if isinstance(use.get("attribute"), str)
                    else None
                )
                specs.append(
                    self._spec(
                        actor,
                        fx,
                        kind="use_item",
                        id=f"use_item:{i}",
                        label_=f"Use the {item['name'].lower()}",
                        parts=[arm] if arm else [],
                        on_turn=on_turn,
                        target="ally" if use.get("effect") else None,
                        odds=odds,
                    )
                )
        if attack.get("attacker") == actor.id and (attack.get("ep") or 0) > 0:
            target = next((f for f in fighters if f.id == attack.get("target")), None)
            parts = list(((self._effects(target).get("body") or {}) if target else {}).keys())
            spec = ActionSpec(
                id="harm",
                label=f"Spend EP on harm to {target.name if target else 'the target'}",
                cost=f"no speed ({attack['ep']} EP to spend)",
                target=None,
                params=[
                    {
                        "id": "body_part",
                        "label": "Body part",
                        "kind": "choice",
                        "options": [{"id": p, "label": label(p)} for p in parts],
                    },
                    {
                        "id": "amount",
                        "label": "EP",
                        "kind": "number",
                        "min": 1,
                        "max": attack["ep"],
                        "default": attack["ep"],
                    },
                ],
            )
            if target is None:
                spec.allowed, spec.reason, spec.code = (
                    False,
                    "The strike has no target: name one when striking.",
                    "pando.no_target",
                )
            specs.append(spec)
        specs.extend(self._gm_specs(actor, fx))
        return specs

    def _gm_specs(self, actor: Fighter, fx: dict) -> list[ActionSpec]:
        parts = list((fx.get("body") or {}).keys())
        part_field = {
            "id": "body_part",
            "label": "Body part",
            "kind": "choice",
            "options": [{"id": p, "label": label(p)} for p in parts],
        }
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        return [
            ActionSpec(
                id="gm_harm",
                label="Apply harm",
                cost="GM",
                gm=True,
                reaction=True,
                params=[
                    part_field,
                    amount,
                    {"id": "protected", "label": "Armour protects", "kind": "flag", "default": True},
                ],
            ),
            ActionSpec(
                id="gm_exhaustion",
                label="Add exhaustion",
                cost="GM",
                gm=True,
                reaction=True,
                params=[{"id": "type", "label": "Type", "kind": "text", "default": "bleeding"}, amount],
            ),
            ActionSpec(
                id="gm_resistance_harm",
                label="Harm a resistance",
                cost="GM",
                gm=True,
                reaction=True,
                params=[
                    {
                        "id": "resistance",
                        "label": "Resistance",
                        "kind": "choice",
                        "options": [{"id": r, "label": label(r)} for r in RESISTANCES],
                    },
                    amount,
                ],
            ),
            ActionSpec(
                id="gm_momentum",
                label="Set Momentum (from next round)",
                cost="GM",
                gm=True,
                reaction=True,
                params=[
                    {
                        "id": "value",
                        "label": "Momentum",
                        "kind": "number",
                        "min": 0,
                        "default": _num((actor.combat or {}).get("momentum", 0)),
                    }
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

    @overload
    def _target(
        self,
        action: dict,
        actor: Fighter,
        fighters: list[Fighter],
        *,
        required: Literal[True],
        allow_self: bool,
    ) -> Fighter: ...
    @overload
    def _target(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool, allow_self: bool
    ) -> Fighter | None: ...
    def _target(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool, allow_self: bool
    ) -> Fighter | None:
        target = self.target_of(action, fighters, required=required)
        if target is None:
            return None
        if target.id == actor.id and not allow_self:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot target themselves with that.")
        return target

    def _roll(self, request: dict | None, roller: Roller) -> dict:
        return efficiency_roll(request, roller)

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
            return self._gm(spec, action, actor, fighters, es)
        if not spec.allowed:
            raise self.refusal(spec)
        if aid == "harm":
            return self._spend_harm(action, actor, fighters, es)
        meta = spec.__dict__["_meta"]
        kind, cost = meta["kind"], meta["cost"]
        out = Outcome()
        combat = self.combat_numbers(actor)
        combat["speed"] = (combat.get("speed") or 0) - cost
        uses = combat.setdefault("uses", {})
        uses[kind] = uses.get(kind, 0) + 1
        out.combat[actor.id] = combat
        speed_text = f"−{cost} speed"
        if kind == "strike":
            target = self._target(action, actor, fighters, required=False, allow_self=False)
            roll = self._roll(spec.odds, roller)
            weapon = spec.label.split(" with the ", 1)[-1]
            whom = f" {target.name}" if target else ""
            out.log(
                "strike",
                f"{actor.name} strikes{whom} with the {weapon}: {roll['total']} EP, {speed_text}.",
                actor.id,
                faces=roll["faces"],
                ep=roll["total"],
                odds=spec.odds,
                cost=cost,
                target=target.id if target else None,
            )
            new_es = {k: v for k, v in es.items() if k != "attack"}
            if roll["total"] > 0:
                new_es["attack"] = {
                    "attacker": actor.id,
                    "target": target.id if target else None,
                    "weapon": weapon,
                    "ep": roll["total"],
                }
            out.encounter_state = new_es
        elif kind in ("block", "dodge", "tough_it_out"):
            roll = self._roll(spec.odds, roller)
            attack = dict(es["attack"])
            before = attack["ep"]
            attack["ep"] = max(0, before - roll["total"])
            what = (
                spec.label.lower()
                if kind == "block"
                else {"dodge": "dodges", "tough_it_out": "toughs it out"}[kind]
            )
            verb = f"{'blocks' + what[5:] if kind == 'block' else what}"
            out.log(
                kind,
                f"{actor.name} {verb}: {roll['total']} EP, {speed_text}; the attack drops "
                f"{before}→{attack['ep']} EP.",
                actor.id,
                faces=roll["faces"],
                ep=roll["total"],
                odds=spec.odds,
                cost=cost,
            )
            out.encounter_state = (
                {**es, "attack": attack} if attack["ep"] else {k: v for k, v in es.items() if k != "attack"}
            )
        elif kind == "catch_breath":
            new_state, text = self.play_state_action(actor, None, {"action": "catch_breath"})
            out.state[actor.id] = new_state
            out.log(kind, f"{text.rstrip('.')}, {speed_text}.", actor.id, cost=cost)
        elif kind == "aid":
            target = self._target(action, actor, fighters, required=True, allow_self=False)
            note = get_as(action, "note", str, "")
            how = f" ({note.strip()[:120]})" if note.strip() else ""
            out.log(
                kind,
                f"{actor.name} aids {target.name}{how}, {speed_text}.",
                actor.id,
                cost=cost,
                target=target.id,
            )
        elif kind == "use_item":
            item = spec.label.removeprefix("Use the ")
            index = int(aid.split(":", 1)[1])
            entry = actor.build["equipment"][index]
            use = self._item_action(self._item_of(actor, entry), "use_item") or {}
            effect = use.get("effect") or {}
            if effect.get("remove_exhaustion"):
                target = self._target(action, actor, fighters, required=False, allow_self=True) or actor
                kind_of = effect["remove_exhaustion"]
                act = (
                    {"action": "bandage"}
                    if kind_of == "bleeding"
                    else {"action": "remove_exhaustion", "type": kind_of}
                )
                new_state, text = self.play_state_action(target, None, act)
                out.state[target.id] = new_state
                out.log(
                    kind,
                    f"{actor.name} uses the {item} on {target.name}: {text} {speed_text}.",
                    actor.id,
                    cost=cost,
                    target=target.id,
                )
            elif spec.odds:
                roll = self._roll(spec.odds, roller)
                out.log(
                    kind,
                    f"{actor.name} uses the {item}: {roll['total']} EP, {speed_text}.",
                    actor.id,
                    faces=roll["faces"],
                    ep=roll["total"],
                    odds=spec.odds,
                    cost=cost,
                )
            else:
                out.log(kind, f"{actor.name} uses the {item}, {speed_text}.", actor.id, cost=cost)
        else:  # move
            out.log(kind, f"{actor.name} moves, {speed_text}.", actor.id, cost=cost)
        return out

    def _spend_harm(self, action: dict, actor: Fighter, fighters: list[Fighter], es: dict) -> Outcome:
        attack = es["attack"]
        target = next(f for f in fighters if f.id == attack["target"])
        amount = action.get("amount", attack["ep"])
        if isinstance(amount, str) and whole_number(amount) is not None:
            amount = whole_number(amount)
        if not is_int(amount) or not 1 <= amount <= attack["ep"]:
            raise CombatRefused("pando.invalid_amount", f"Spend between 1 and {attack['ep']} EP on harm.")
        new_state, text = self.play_state_action(
            target,
            None,
            {"action": "harm", "body_part": action.get("body_part"), "amount": amount, "protected": True},
        )
        out = Outcome()
        out.state[target.id] = new_state
        left = attack["ep"] - amount
        new_es = {k: v for k, v in es.items() if k != "attack"}
        if left:
            new_es["attack"] = {**attack, "ep": left}
        out.encounter_state = new_es
        out.log(
            "harm",
            f"{actor.name} spends {amount} EP on harm: {text}",
            actor.id,
            target=target.id,
            amount=amount,
            body_part=action.get("body_part"),
        )
        return out

    def _gm(
        self, spec: ActionSpec, action: dict, actor: Fighter, fighters: list[Fighter], es: dict
    ) -> Outcome:
        out = Outcome()

        def amount_of(key: str = "amount", minimum: int = 1) -> int:
            value = whole_number(action.get(key))
            if value is None or value < minimum:
                raise CombatRefused(
                    "pando.invalid_amount", f"{label(key)} must be a whole number of {minimum} or more."
                )
            return value

        if spec.id == "gm_harm":
            protected = action.get("protected", True)
            protected = protected not in (False, "false", "0", "off", "")
            new_state, text = self.play_state_action(
                actor,
                None,
                {
                    "action": "harm",
                    "body_part": action.get("body_part"),
                    "amount": amount_of(),
                    "protected": protected,
                },
            )
            out.state[actor.id] = new_state
            out.log("gm_harm", f"GM: {text}", actor.id)
        elif spec.id == "gm_exhaustion":
            new_state, text = self.play_state_action(
                actor, None, {"action": "add_exhaustion", "type": action.get("type"), "amount": amount_of()}
            )
            out.state[actor.id] = new_state
            out.log("gm_exhaustion", f"GM: {text}", actor.id)
        elif spec.id == "gm_resistance_harm":
            new_state, text = self.play_state_action(
                actor,
                None,
                {"action": "resistance_harm", "resistance": action.get("resistance"), "amount": amount_of()},
            )
            out.state[actor.id] = new_state
            out.log("gm_resistance_harm", f"GM: {text}", actor.id)
        elif spec.id == "gm_momentum":
            value = amount_of("value", 0)
            who = [
                f
                for f in fighters
                if f.id == actor.id or (actor.is_npc and actor.group and f.is_npc and f.group == actor.group)
            ]
            for f in who:
                out.combat[f.id] = {**self.combat_numbers(f), "momentum_next": value}
            names = actor.group if len(who) > 1 else actor.name
            out.log(
                "gm_momentum",
                f"GM: {names}'s Momentum becomes {value} from the next round.",
                actor.id,
                value=value,
            )
        return out

    # ---------------------------------------------------------------- the row

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        fx = self._effects(fighter)
        combat = fighter.combat or {}
        derived = fighter.derived or {}
        stats = []
        if "speed" in combat:
            stats.append(
                {
                    "label": "Speed",
                    "value": f"{combat['speed']}/{derived.get('max_speed', '?')}",
                    "key": "speed",
                }
            )
        stats.append(
            {
                "label": "Stamina",
                "value": f"{self._stamina(fighter)}/{derived.get('max_stamina', '?')}",
                "key": "stamina",
            }
        )
        momentum = combat.get("momentum", derived.get("momentum"))
        if momentum is not None:
            text = str(_num(momentum))
            if "momentum_next" in combat:
                text += f" → {_num(combat['momentum_next'])}"
            stats.append({"label": "Momentum", "value": text, "key": "momentum"})
        status: list[str] = []
        if fx.get("dead"):
            status.append("dead")
        for part, info in (fx.get("body") or {}).items():
            if info.get("status") not in (None, "healthy"):
                status.append(f"{info['status']} {label(part).lower()} ({info['harm']})")
        for kind, info in ((fx.get("exhaustion") or {}).get("by_type") or {}).items():
            if info.get("total"):
                status.append(f"{kind} {info['total']}")
        attack = (encounter_state or {}).get("attack") or {}
        if attack.get("target") == fighter.id and attack.get("ep"):
            status.append(f"attacked: {attack['ep']} EP incoming")
        if attack.get("attacker") == fighter.id and attack.get("ep"):
            status.append(f"{attack['ep']} EP to spend")
        return {"stats": stats, "status": status}
