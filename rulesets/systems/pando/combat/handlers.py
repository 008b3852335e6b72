"""Pando's combat: what ``perform`` uses to take an action: targets, rolls, harm spent, the GM's actions."""

from __future__ import annotations

from typing import Literal, overload

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome
from rulesets.engine.dice import Roller
from rulesets.engine.fields import is_int, whole_number

from ..character import label
from ..dice import efficiency_roll
from .core import PandoCombatBase


class ActionHandlers(PandoCombatBase):
    """The helpers of ``perform``."""

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
