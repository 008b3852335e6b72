"""Our D&D's combat: the DM's actions on a combatant (damage, heal, Heroic Inspiration)."""

from __future__ import annotations

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome
from rulesets.engine.fields import whole_number

from .. import distance
from .core import OurDnDCombatBase


class GMActions(OurDnDCombatBase):
    """gm_damage / gm_heal / gm_inspiration: their specs and handlers."""

    def _gm_specs(self, actor: Fighter, td: int) -> list[ActionSpec]:
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        return [
            ActionSpec(
                id="set_td",
                label="Set the scene's TD",
                cost="GM",
                gm=True,
                reaction=True,
                params=[{"id": "td", "label": "TD", "kind": "number", "min": 1, "default": td}],
            ),
            ActionSpec(
                id="gm_damage",
                label="Damage",
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
                id="gm_inspiration", label="Award Heroic Inspiration", cost="GM", gm=True, reaction=True
            ),
            ActionSpec(
                id="set_distance",
                label="Set distance",
                cost="GM",
                gm=True,
                reaction=True,
                target="any",
                params=[
                    {
                        "id": "to",
                        "label": "Distance",
                        "kind": "choice",
                        "default": "near",
                        "options": list(distance.BAND_OPTIONS),
                    }
                ],
            ),
        ]

    def _gm_amount(self, action: dict) -> int:
        amount = whole_number(action.get("amount"))
        if amount is None or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "The amount is a whole number of 1 or more.")
        return amount

    def _do_gm_damage(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "damage", "amount": self._gm_amount(action)}
        )
        out = Outcome(state={actor.id: new_state})
        out.log("gm_damage", f"DM: {text}", actor.id)
        return out

    def _do_gm_heal(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "heal", "amount": self._gm_amount(action)}
        )
        out = Outcome(state={actor.id: new_state})
        out.log("gm_heal", f"DM: {text}", actor.id)
        return out

    def _do_gm_inspiration(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(actor, actor.state, {"action": "gain_inspiration"})
        out = Outcome(state={actor.id: new_state})
        out.log("inspiration", f"DM: {text}", actor.id)
        return out
