"""Our D&D's combat: moving near or far, and the DM setting a distance (distance.py has the bands)."""

from __future__ import annotations

from typing import Literal, overload

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome
from rulesets.engine.words import a

from .. import distance
from .core import MOVES, OurDnDCombatBase


class MovementActions(OurDnDCombatBase):
    """Move near / move far and set_distance: their specs and handlers."""

    def _move_specs(self, actor: Fighter, gate: tuple[str, str]) -> list[ActionSpec]:
        """Move near (an action may follow) and move far (the whole turn), to a band from someone."""
        c = actor.combat or {}
        to_param = {
            "id": "to",
            "label": "To",
            "kind": "choice",
            "default": "close",
            "options": list(distance.BAND_OPTIONS),
        }
        specs = []
        for move in MOVES:
            spec = ActionSpec(
                id=f"move_{move}",
                label=f"Move {move}",
                target="any",
                params=[to_param],
                cost="the whole turn" if move == "far" else "the move (an action may follow)",
            )
            spec.deny(*gate)
            if c.get("move"):
                spec.deny(f"{actor.name} has already moved this turn.", "ourdnd.already_moved")
            elif c.get("acted"):
                spec.deny("After an action you cannot move this turn.", "ourdnd.already_acted")
            specs.append(spec)
        return specs

    @staticmethod
    def _band_param(action: dict, key: str = "to") -> str:
        band = action.get(key) or "close"
        if band not in distance.STEPS:
            raise CombatRefused(
                "ourdnd.invalid_distance", "A distance is CLOSE, NEAR, FAR, VERY FAR or OUT OF RANGE."
            )
        return band

    @overload
    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: Literal[True]
    ) -> Fighter: ...

    @overload
    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool
    ) -> Fighter | None: ...

    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool
    ) -> Fighter | None:
        other = self.target_of(action, fighters, required=required)
        if other is not None and other.id == actor.id:
            raise CombatRefused(
                "combat.invalid_target", "Choose another combatant to measure the distance from."
            )
        return other

    def _do_move(self, action, actor, fighters, es, roller) -> Outcome:
        move = action["action"].removeprefix("move_")
        other = self._other(action, actor, fighters, required=False)
        out = Outcome(end_turn=move == "far")
        tail = " (the whole turn)" if move == "far" else ""
        if other is None:  # a move that changes no distance (round a corner, into cover)
            self._mark(actor, out, move=move)
            out.log("move", f"{actor.name} moves {move}{tail}.", actor.id, distance=move)
            return out
        ctx = self.ctx_of(actor)
        band = self._band_param(action)
        there = distance.at(es, other, ctx) + distance.away_side(es, actor, other, ctx) * distance.STEPS[band]
        covered = abs(there - distance.at(es, actor, ctx))
        if covered > distance.MOVE_STEPS[move]:
            raise CombatRefused("ourdnd.too_far_to_move", self._too_far(actor, other, move, band, covered))
        self._mark(actor, out, move=move)
        out.encounter_state = distance.placed(es, {str(actor.id): there})
        out.log(
            "move",
            f"{actor.name} moves {move}{tail}: now {distance.phrase(band, other.name)}.",
            actor.id,
            distance=move,
            target=other.id,
            band=band,
        )
        return out

    @staticmethod
    def _too_far(actor: Fighter, other: Fighter, move: str, band: str, covered: int) -> str:
        goal = distance.phrase(band, other.name)
        trip = distance.word(distance.band_of(covered))
        if move == "near":
            return (
                f"A NEAR move is a few big steps; getting {goal} is {a(trip)} move for {actor.name}. Move far "
                "(the whole turn) instead, or move near to a nearer spot."
            )
        if trip == "OUT OF RANGE":
            return (
                f"Getting {goal} is OUT OF RANGE for {actor.name}: a distance you can't reach by any ways in "
                "one TURN of movement."
            )
        return (
            f"It's impossible to get a VERY FAR distance in a turn by normal ways: getting {goal} is a "
            f"{trip} move for {actor.name}, and moving FAR is as far as a turn goes."
        )

    def _do_set_distance(self, action, actor, fighters, es, roller) -> Outcome:
        other = self._other(action, actor, fighters, required=True)
        ctx = self.ctx_of(actor)
        band = self._band_param(action)
        there = distance.at(es, other, ctx) + distance.away_side(es, actor, other, ctx) * distance.STEPS[band]
        out = Outcome(
            encounter_state=distance.placed(es, {str(actor.id): there}, {str(actor.id): actor.name})
        )
        out.log(
            "distance",
            f"DM: {actor.name} is now {distance.phrase(band, other.name)}.",
            actor.id,
            target=other.id,
            band=band,
        )
        return out
