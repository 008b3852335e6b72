"""Our D&D's combat: the scene's TD, lowered by a helper or set by the DM."""

from __future__ import annotations

from rulesets.engine.combat import ActionSpec, CombatRefused, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.fields import get_as, is_int, whole_number

from .. import dice as dice_rules
from .core import OurDnDCombatBase


class DifficultyActions(OurDnDCombatBase):
    """lower_td / set_td: their specs and handlers."""

    def _lower_spec(self, actor: Fighter, es: dict, td: int, ctx: Context) -> ActionSpec:
        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        room = self._room(es, ctx)
        lower = ActionSpec(
            id="lower_td",
            label="Lower the TD (a torch, a spell…)",
            cost="not an action",
            reaction=True,
            relative=True,
            params=[
                {
                    "id": "amount",
                    "label": "By",
                    "kind": "number",
                    "min": 1,
                    "max": max(room, 1),
                    "default": 1,
                },
                {"id": "reason", "label": "How", "kind": "text"},
            ],
        )
        if actor.is_npc:
            lower.deny("Players lower the TD; the DM sets it.", "ourdnd.players_only")
        elif room <= 0:
            lower.deny(
                f"The TD has been lowered {lowered} already: players never lower it more than "
                f"{self._max_lower(ctx)} below where it started ({es.get('td_start', td)}).",
                "ourdnd.td_floor",
            )
        return lower

    @staticmethod
    def _max_lower(ctx: Context) -> int:
        return ctx.settings.get("td_max_reduction", 3)

    def _room(self, es: dict, ctx: Context) -> int:
        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        return self._max_lower(ctx) - lowered

    def _do_lower_td(self, action, actor, fighters, es, roller) -> Outcome:
        amount = whole_number(action.get("amount", 1))
        if amount is None or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "Lower the TD by a whole number of 1 or more.")
        room = self._room(es, self.ctx_of(actor))
        start = es.get("td_start", self._td(es, self.ctx_of(actor)))
        if amount > room:
            raise CombatRefused(
                "ourdnd.td_floor",
                f"Players never lower the TD more than {self._max_lower(self.ctx_of(actor))} below where it started "
                f"({start}); it can go down by {max(room, 0)} more, not {amount}.",
            )
        td = self._td(es, self.ctx_of(actor)) - amount
        reason = get_as(action, "reason", str, "")
        how = f" ({reason.strip()[:80]})" if reason.strip() else ""
        out = Outcome(encounter_state={**es, "td": td, "td_lowered": (es.get("td_lowered") or 0) + amount})
        out.log(
            "td", f"{actor.name} lowers the TD by {amount}{how}: TD {td}.", actor.id, td=td, amount=amount
        )
        return out

    def _do_set_td(self, action, actor, fighters, es, roller) -> Outcome:
        td = whole_number(action.get("td"))
        if td is None or not 1 <= td <= dice_rules.ODDS_LIMIT:
            raise CombatRefused(
                "ourdnd.invalid_td",
                f"The TD is a whole number from 1 to {dice_rules.ODDS_LIMIT} "
                "(usually 10 easy, 12 average, 15 hard, 18 brutal).",
            )
        out = Outcome(encounter_state={**es, "td": td, "td_start": td, "td_lowered": 0})
        out.log("td", f"DM: the scene's TD is now {td}.", td=td)
        return out
