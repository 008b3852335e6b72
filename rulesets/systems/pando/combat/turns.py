"""Pando's combat: initiative order, units and ties, the opening, rounds and turns."""

from __future__ import annotations

import math
from fractions import Fraction

from rulesets.engine.combat import CombatRefused, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import is_int, whole_or

from .core import PandoCombatBase, _num


def _exact(value: object) -> Fraction:
    """A momentum as an exact fraction (a JSON number; anything else counts 0)."""
    if is_int(value):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(value)
    return Fraction(0)


class TurnOrder(PandoCombatBase):
    """start, join, round_start, turn_start and the turn order they share."""

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
                    # Exact averages (fractions), not floats: any whole number sorts, however large.
                    "momentum": sum((_exact(combat[m.id].get("momentum", 0)) for m in members), Fraction(0))
                    / n,
                    "acrobatics": Fraction(sum(a.get("acrobatics", 0) for a in attrs), n),
                    "presence": Fraction(sum(a.get("presence", 0) for a in attrs), n),
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
            avg = _num(Fraction(sum(combat[m.id]["own_momentum"] for m in members), len(members)))
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
