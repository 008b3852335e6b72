"""What every action of Paragon's combat reads and does: ``ParagonCore``, the rules object's reading
of a fighter (pools, conditions, checks as the fighter rolls them now, defense), the gates, and the
steps the actions share (stamina spent, a hit, the exchange's order and end); and ``_Now``, what one
fighter's action specs read. The actions (one module each) are typed against it; ``ParagonCombat``
(rules.py) builds on it with set-up, turns and the dispatch, so no action module needs rules.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, lookup

from .. import dice
from ..state import maxima, normal
from .common import max_chain, weapons


class ParagonCore(CombatRules):
    def _maxima(self, f: Fighter) -> dict[str, int]:
        return maxima(f.build, self.report_of(f), self.ctx_of(f))

    def _pools(self, f: Fighter, state: dict | None = None) -> dict[str, int]:
        st = normal(f.state if state is None else state, f.build, self.report_of(f), self.ctx_of(f))
        return st["pools"]

    def _conditions(self, f: Fighter, state: dict | None = None) -> list[str]:
        fx = self.effects_of(f, state)
        return list(fx.get("conditions") or [])

    def _down(self, f: Fighter, state: dict | None = None) -> str:
        """ "dead", "incapacitated" or "" (can fight)."""
        found = self._conditions(f, state)
        if "bodily_death" in found:
            return "dead"
        if "incapacitated" in found:
            return "incapacitated"
        return ""

    @staticmethod
    def _forces(f: Fighter) -> dict[str, int]:
        raw = get_as(f.build, "forces", dict, {})
        return {k: v for k, v in raw.items() if is_int(v) and 0 <= v <= dice.ODDS_LIMIT}

    @staticmethod
    def _rank(f: Fighter, skill: str) -> int:
        raw = get_as(f.build, "skills", dict, {})
        value = raw.get(skill, 0)
        return value if is_int(value) and 0 <= value <= dice.ODDS_LIMIT else 0

    def _check(self, f: Fighter, skill: str, extra_dice: int = 0) -> dict[str, int]:
        """The odds request of a skill check (without its TN)."""
        entry = self.ctx_of(f).catalogue.get("skills", {}).get(skill, {})
        force = lookup(self._forces(f), entry.get("force"), 0)
        return {"force": min(force + extra_dice, dice.ODDS_LIMIT), "skill": self._rank(f, skill)}

    def _own(
        self, f: Fighter, request: dict[str, Any], skill: str, state: dict | None = None
    ) -> dict[str, Any]:
        """``request``, a check of ``f``'s with ``skill``, as ``f`` rolls it now, the action's odds and
        its roll alike: the effects on ``f`` that reach the sheet's roll ``skill:<skill>``
        (``Ruleset.with_effects``) and the numbers of the conditions its play state holds (tired: a
        force die fewer; state.py ``state_effects`` "changes"), force and skill kept within the
        odds' limit. A check without a TN (initiative, an opposed roll) keeps none."""
        st = f.state if state is None else state
        rid = f"skill:{skill}"
        out = self.ruleset.with_effects(request, st, rid)
        out = dice.shift(out, self.effects_of(f, st).get("changes") or [], rid)
        out = {
            k: min(v, dice.ODDS_LIMIT) if k in ("force", "skill") and is_int(v) else v for k, v in out.items()
        }
        if "tn" not in request:
            out.pop("tn", None)
        return out

    def _defense(self, f: Fighter, kind: str) -> int:
        d = f.derived or {}
        key = "defense_melee" if kind == "melee" else "defense_missile"
        values = [d[k] for k in (key, "defense_triarmatura") if is_int(d.get(k))]
        return max(values) if values else 10

    def _strike_skills(self, f: Fighter) -> list[str]:
        skills = ["melee", "missile"]
        if f.build.get("power_level") is not None:
            skills.append("triarmatura")
        return skills

    def _best_skill(self, f: Fighter, kind: str) -> str:
        options = self._strike_skills(f)
        if kind == "ranged":
            options = [s for s in options if s != "melee"]
        return max(options, key=lambda s: (self._rank(f, s), s == "triarmatura"))

    @staticmethod
    def _sorted(fighters: list[Fighter], combat: dict[int, dict]) -> list[int]:
        """Highest initiative first; ties keep the listed order (a stable sort)."""
        return [f.id for f in sorted(fighters, key=lambda f: -(combat.get(f.id, {}).get("initiative") or 0))]

    def _gate(
        self,
        actor: Fighter,
        es: dict,
        current: int | None,
        *,
        on_turn: bool,
        surprise_waived: bool = False,
        down: str | None = None,
    ) -> tuple[str, str]:
        """Why ``actor`` cannot act at all now ("", "" when it can). ``surprise_waived``: Hero Points
        seized the offensive of the actor's exchange, "regardless of ... surprise assaults" (seed)."""
        c = actor.combat or {}
        down = self._down(actor) if down is None else down
        if c.get("retreated"):
            return f"{actor.name} has quit the field.", "paragon.retreated"
        if down == "dead":
            return f"{actor.name} is dead (Health 0).", "paragon.dead"
        if down == "incapacitated":
            health, top = self._pools(actor)["health"], self._maxima(actor).get("health", 0)
            why = " (Health below half)" if health * 2 < top else ""
            return (
                f"{actor.name} is incapacitated{why}: spend a Hero Point to resist first.",
                "paragon.incapacitated",
            )
        if es.get("surprise_round") and c.get("surprised") and not surprise_waived:
            return f"{actor.name} is surprised and cannot act in the surprise round.", "paragon.surprised"
        if on_turn and current != actor.id:
            return self.not_your_turn(actor)
        if on_turn and c.get("forgo"):
            return (
                f"{actor.name} changed to Rearward for free and forgoes the turn's other actions.",
                "paragon.turn_forgone",
            )
        return "", ""

    def _stamina_spec(
        self, spec: ActionSpec, actor: Fighter, cost: int, what: str, pools: dict[str, int] | None = None
    ) -> None:
        have = (pools or self._pools(actor))["stamina"]
        if cost > have:
            spec.deny(
                f"{what} costs {cost} stamina but {actor.name} has {have}.", "paragon.not_enough_stamina"
            )

    @staticmethod
    def _first_reason(first: Fighter, actor: Fighter, ex: dict) -> str:
        """Why ``first``, not ``actor``, acts first in the exchange: the words of the rule that decided."""
        if ex.get("first_by") == "hero_points":
            spent = (ex.get("seized") or {}).get(str(first.id), 0)
            return (
                f"{first.name} seized the offensive with {spent} Hero Point{'s' if spent != 1 else ''} and "
                "acts first in this exchange."
            )
        if ex.get("first_by") == "surprise":
            return f"{first.name} took {actor.name} by surprise and acts first in this exchange."
        return f"{first.name} has the higher initiative and acts first in this exchange."

    def _target(self, action: dict, actor: Fighter, fighters: list[Fighter]) -> Fighter:
        """The foe ``action["target"]`` names (the engine's ``target_of``), never the actor itself."""
        target = self.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", f"{actor.name} cannot engage themselves.")
        return target

    def _spend_stamina(
        self, f: Fighter, state: dict, amount: int, roller: Roller, out: Outcome, why: str
    ) -> dict:
        """Spend stamina through the play-state hook (dropping below 10 and to 0 costs Morale)."""
        have = self._pools(f, state)["stamina"]
        if amount > have:
            raise CombatRefused(
                "paragon.not_enough_stamina", f"{why} costs {amount} stamina but {f.name} has {have}."
            )
        new_state, text = self.play_state_action(
            f, state, {"action": "damage", "pool": "stamina", "amount": amount}, roller
        )
        out.state[f.id] = new_state
        out.log("stamina", f"{why}: {text}", f.id, amount=amount)
        return new_state

    def _state_of(self, f: Fighter, out: Outcome) -> dict:
        return out.state.get(f.id, f.state)

    @staticmethod
    def _first(
        a: Fighter, b: Fighter, es: dict, seized: dict | None = None, tie: str = "initiative"
    ) -> tuple[int | None, str]:
        """(who acts first in an exchange of attacker ``a`` and defender ``b`` — None: simultaneously —,
        and why: "hero_points", "surprise" or "initiative"). Seed: "a combatant who expends more HP
        than their opponent always gets to act first, regardless of Initiative and surprise
        assaults"; "a combatant initiating an exchange against a surprised foe acts first regardless
        of Initiative"; "the combatant with the higher Initiative acts first". Equal spends: ``tie``."""
        spent_a, spent_b = (seized or {}).get(str(a.id), 0), (seized or {}).get(str(b.id), 0)
        if spent_a != spent_b:
            return (a.id if spent_a > spent_b else b.id), "hero_points"
        if spent_a and tie == "simultaneous":
            return None, "hero_points"
        if es.get("surprise_round") and (b.combat or {}).get("surprised"):
            return a.id, "surprise"
        ia, ib = (a.combat or {}).get("initiative") or 0, (b.combat or {}).get("initiative") or 0
        return (None if ia == ib else a.id if ia > ib else b.id), "initiative"

    @staticmethod
    def _maybe_close(ex: dict, es: dict, out: Outcome) -> None:
        if {ex["attacker"], ex["defender"]} <= set(ex["done"]):
            es["exchange"] = None
            out.log("exchange", "Both sides have acted: the exchange ends.")

    def _after_threat(self, es: dict, fighters: list[Fighter], out: Outcome) -> dict:
        """The threat is answered: a chain at 5 strikes is over; a fallen side ends the exchange."""
        threat = es["threat"]
        ex = copy.deepcopy(es["exchange"]) if es.get("exchange") else None
        new_es = {**es, "threat": None, "exchange": ex}
        if ex is None:
            return new_es
        chain = max_chain(self.ctx_of(next((f for f in fighters if f.id == threat["attacker"]), None)))
        if ex["strikes"].get(str(threat["attacker"]), 0) >= chain:
            ex["done"] = sorted(set(ex["done"]) | {threat["attacker"]})
        by = {f.id: f for f in fighters}
        defender = by[threat["defender"]]
        down = self._down(defender, out.state.get(defender.id))
        if down:
            what = "dead" if down == "dead" else "incapacitated"
            new_es["exchange"] = None
            out.log("exchange", f"{defender.name} is {what}: the exchange ends.")
            if ex.get("intercepted") and defender.id == ex["defender"]:
                attacker = by[ex["attacker"]]
                numbers = out.combat.get(attacker.id, self.combat_numbers(attacker))
                out.combat[attacker.id] = {**numbers, "engaged": False}
                out.log(
                    "intercept",
                    f"{attacker.name} defeated the interceptor and may carry out the declared exchange.",
                    attacker.id,
                )
            return new_es
        self._maybe_close(ex, new_es, out)
        return new_es

    def _hit(self, attacker: Fighter, defender: Fighter, weapon: str, roller: Roller, out: Outcome) -> None:
        """A confirmed hit: the weapon's d6 off Health, and 1d6 Morale (temporary Morale first)."""
        table = weapons(self.ctx_of(attacker))
        name, dice = table.get(weapon) or table.get("unarmed") or ("Unarmed strike", 1)
        faces = roller.roll(dice, 6)
        damage = sum(faces)
        state = self._state_of(defender, out)
        state, text = self.play_state_action(
            defender, state, {"action": "damage", "pool": "health", "amount": damage}, roller
        )
        morale = roller.d(6)
        c = {**self.combat_numbers(defender), **out.combat.get(defender.id, {})}
        temp = c.get("temp_morale") or 0
        absorbed = min(temp, morale)
        morale_text = ""
        if absorbed:
            c["temp_morale"] = temp - absorbed
            out.combat[defender.id] = c
            morale_text = f" {absorbed} temporary Morale lost ({c['temp_morale']} left)."
        if morale - absorbed > 0 and self._pools(defender, state)["health"] > 0:
            state, mtext = self.play_state_action(
                defender, state, {"action": "damage", "pool": "morale", "amount": morale - absorbed}, roller
            )
            morale_text += " " + mtext
        out.state[defender.id] = state
        out.log(
            "hit",
            f"{attacker.name} hits {defender.name} ({name.lower()} {dice}d6: "
            f"{'+'.join(map(str, faces))} = {damage}). {text} Morale −{morale}.{morale_text}",
            attacker.id,
            target=defender.id,
            damage=damage,
            morale=morale,
            faces=faces,
        )


@dataclass(frozen=True)
class _Now:
    """What every action spec of one fighter reads: the fighter, the exchange it is in, the threat, and
    the gates — why it cannot act on its turn, at all, or inside its exchange ("", "" when it can)."""

    actor: Fighter
    by: dict[int, Fighter]
    es: dict
    current: int | None
    ctx: Context
    c: dict
    footing: str
    ex: dict | None  # the exchange the actor is part of
    opponent: Fighter | None  # the other side of it
    attacker: Fighter | None  # the attacker of the exchange under way (the actor's or not)
    declared: bool  # a melee exchange against a Rearward foe, before its first strike
    threat: dict | None
    down: str  # "dead", "incapacitated" or ""
    pools: dict[str, int]  # the actor's current pools
    turn_gate: tuple[str, str]
    any_gate: tuple[str, str]
    exchange_gate: tuple[str, str]

    @classmethod
    def of(
        cls,
        hooks: ParagonCore,
        actor: Fighter,
        fighters: list[Fighter],
        es: dict,
        current: int | None,
        ctx: Context,
    ) -> _Now:
        by = {f.id: f for f in fighters}
        under_way = es.get("exchange") or None
        ex = (
            under_way
            if under_way and actor.id in (under_way.get("attacker"), under_way.get("defender"))
            else None
        )
        opponent = by.get(ex["defender"] if ex["attacker"] == actor.id else ex["attacker"]) if ex else None
        # Hero Points seized the offensive of the actor's exchange "regardless of ... surprise assaults".
        seized = ex is not None and ex.get("first") == actor.id and ex.get("first_by") == "hero_points"
        down = hooks._down(actor)
        return cls(
            actor=actor,
            by=by,
            es=es,
            current=current,
            ctx=ctx,
            c=actor.combat or {},
            footing=(actor.combat or {}).get("footing", "forward"),
            ex=ex,
            opponent=opponent,
            attacker=by.get(under_way.get("attacker")) if under_way else None,
            declared=under_way is not None and bool(under_way.get("declared")),
            threat=es.get("threat") or None,
            down=down,
            pools=hooks._pools(actor),
            turn_gate=hooks._gate(actor, es, current, on_turn=True, down=down),
            any_gate=hooks._gate(actor, es, current, on_turn=False, down=down),
            exchange_gate=hooks._gate(actor, es, current, on_turn=False, surprise_waived=seized, down=down),
        )
