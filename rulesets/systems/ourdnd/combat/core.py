"""What every part of Our D&D's combat shares: the constants, the recording roller, and the
helpers that read a fighter (its play state, stats, HP, defense) and the scene (TD, distances)."""

from __future__ import annotations

from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.combat import CombatRules, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int

from .. import dice as dice_rules
from .. import state as play_rules
from ..character import STATS

MODES = dice_rules.MODES
MOVES = ("near", "far")


class _Recorder(Roller):
    """Passes rolls through to ``inner`` and remembers the faces (to spot a natural 20 in a
    roll the play-state hook makes)."""

    def __init__(self, inner: Roller):
        self.inner = inner
        self.faces: list[tuple[int, int]] = []

    def d(self, sides: int) -> int:
        face = self.inner.d(sides)
        self.faces.append((sides, face))
        return face


def _side(f: Fighter) -> str:
    return f.group or ("npcs" if f.is_npc else "pcs")


def _dying(f: Fighter) -> bool:
    """``state.normal(f.state)["dying"]`` without reading the whole state (the actions list asks it
    of every fighter)."""
    return isinstance(f.state, dict) and f.state.get("dying") is True


def _natural(faces: list[tuple[int, int]], mode: str) -> int | None:
    """The kept d20 of a check the play-state hook rolled (a ``_Recorder``'s faces): the first die,
    the higher of two when easy, the lower when hard."""
    d20s = [face for sides, face in faces if sides == 20][: 1 if mode == "normal" else 2]
    if not d20s:
        return None
    return max(d20s) if mode == "easy" else min(d20s)


def _flag(value: Any) -> bool:
    return value in (True, "true", "on", "1", 1)


class OurDnDCombatBase(CombatRules):
    """The helpers every action of Our D&D's combat reads (the actions are mixins of this class)."""

    def _st(self, f: Fighter, state: dict | None = None) -> dict:
        return play_rules.normal(
            f.state if state is None else state, f.build, self.report_of(f), self.ctx_of(f)
        )

    def _check(self, f: Fighter, stat: str, td: int, mode: str = "normal", *scene: dict) -> dict[str, Any]:
        """The check ``f`` rolls with ``stat`` against ``td`` in ``mode``, ``f``'s effects applied (on
        every roll, on every check, on this stat's check: the sheet's button ``check:<stat>:normal``)
        with the ``scene``'s changes (a target VERY FAR makes it hard), easy and hard combined at
        once (the ruleset's ``combine_modes``). The odds an action shows and the roll it makes both
        come from here, so they agree with each other and with the sheet."""
        request = {"stat": self._stats(f)[stat], "td": td, "mode": mode}
        if not scene:
            return self.ruleset.with_effects(request, f.state, dice_rules.check_id(stat))
        changes = [*fx.active_changes(f.state), *scene]
        return fx.apply_changes(self.ruleset, request, changes, dice_rules.check_id(stat))

    def _max_hp(self, f: Fighter) -> int:
        return play_rules.max_hp(f.build, self.report_of(f), self.ctx_of(f))

    @staticmethod
    def _stats(f: Fighter) -> dict[str, int]:
        derived = (f.derived or {}).get("stats")
        raw = derived if isinstance(derived, dict) else get_as(f.build, "stats", dict, {})
        return {
            s: raw[s] if is_int(raw.get(s)) and abs(raw[s]) <= dice_rules.ODDS_LIMIT else 0 for s in STATS
        }

    def _defense_target(self, f: Fighter) -> int:
        d = f.derived or {}
        if is_int(d.get("defense_target")):
            return d["defense_target"]
        return 10 + self._stats(f)["con"]

    def _td(self, es: dict, ctx: Context) -> int:
        """The scene's TD: set by the DM, else the campaign's ``default_td``."""
        td = es.get("td")
        return td if is_int(td) else ctx.settings.get("default_td", 12)

    def _seats(self, fighters: list[Fighter]) -> list[list[Fighter]]:
        """The table, in listed order: each PC a seat, every NPC at the DM's one seat."""
        seats: list[list[Fighter]] = []
        dm: list[Fighter] | None = None
        for f in fighters:
            if f.is_npc:
                if dm is None:
                    dm = []
                    seats.append(dm)
                dm.append(f)
            else:
                seats.append([f])
        return seats

    def _mark(self, actor: Fighter, out: Outcome, **changes: Any) -> dict:
        c = {**self.combat_numbers(actor), **out.combat.get(actor.id, {}), **changes}
        out.combat[actor.id] = c
        return c

    def _inspire(self, actor: Fighter, fighters: list[Fighter], out: Outcome, give_to: Any) -> None:
        """A natural 20: Heroic Inspiration, or, when already held, one for an ally without it."""
        state = out.state.get(actor.id, actor.state)
        if not self._st(actor, state)["inspiration"]:
            new_state, text = self.play_state_action(actor, state, {"action": "gain_inspiration"})
            out.state[actor.id] = new_state
            out.log("inspiration", f"Natural 20: {text}", actor.id)
            return
        allies = [
            f
            for f in fighters
            if f.id != actor.id
            and _side(f) == _side(actor)
            and not f.is_npc
            and not self._st(f, out.state.get(f.id))["inspiration"]
            and not self._st(f)["dead"]
        ]
        if give_to not in (None, ""):
            allies = [f for f in allies if str(f.id) == str(give_to)] or allies
        if not allies:
            out.log(
                "inspiration",
                f"Natural 20: {actor.name} already has Heroic Inspiration and no ally lacks one.",
                actor.id,
            )
            return
        ally = allies[0]
        new_state, _ = self.play_state_action(
            ally, out.state.get(ally.id, ally.state), {"action": "gain_inspiration"}
        )
        out.state[ally.id] = new_state
        out.log(
            "inspiration",
            f"Natural 20: {actor.name} already has Heroic Inspiration and gives one to {ally.name}.",
            actor.id,
            target=ally.id,
        )
