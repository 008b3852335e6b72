"""Coin's combat: in id order, each fighter flips a coin at an enemy on their turn; heads costs a life.
The flip is a roll like the sheet's, so the flipper's effects reach it (``with_effects``): Charmed flips
two coins, and any head will do."""

from __future__ import annotations

from typing import Any

from rulesets.engine import ActionSpec, CombatRefused, CombatRules, Context, Fighter, Outcome, Roller


class CoinCombat(CombatRules):
    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        outcome = Outcome(order=sorted(f.id for f in fighters))
        for f in fighters:
            outcome.combat[f.id] = {"flips": 0}
        outcome.log("start", "Coins out: the fight begins.")
        return outcome

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        spec = ActionSpec(
            id="flip", label="Flip at an enemy", cost="your turn", target="enemy", odds=self._flip(actor)
        )
        if current != actor.id:
            spec.deny(*self.not_your_turn(actor))
        elif actor.state.get("lives", 0) <= 0:
            spec.deny("Out of lives.", "coin.out")
        return [spec]

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
        spec = self.spec_for(action, actor, self.actions(actor, fighters, encounter_state, current=current))
        if not spec.allowed:
            raise self.refusal(spec)
        target = self.target_of(action, fighters)
        if target.id == actor.id:
            raise CombatRefused("combat.invalid_target", "Flip at someone else.")
        outcome = Outcome(end_turn=True)
        outcome.combat[actor.id] = self.combat_numbers(actor, flips=(actor.combat or {}).get("flips", 0) + 1)
        flip = self._flip(actor)
        if roller.roll(flip["coins"], 2).count(2) >= flip["heads"]:
            lives = max(0, target.state.get("lives", 0) - 1)
            outcome.state[target.id] = {**target.state, "lives": lives}
            outcome.log(
                "flip", f"{actor.name} flips heads: {target.name} loses a life ({lives} left).", actor.id
            )
        else:
            outcome.log("flip", f"{actor.name} flips tails at {target.name}.", actor.id)
        return outcome

    def _flip(self, actor: Fighter) -> dict[str, Any]:
        """The flip's request: one coin, one head needed, the flipper's effects applied."""
        return self.with_effects(actor, {"coins": 1, "heads": 1}, "flip")

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        lives = fighter.state.get("lives", 0)
        return {"stats": [{"label": "Lives", "value": f"{lives}/3"}], "status": ["out"] if lives <= 0 else []}
