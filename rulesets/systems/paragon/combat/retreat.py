"""Retreat: quit the field.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    retreat = ActionSpec(id="retreat", label="Retreat from the battle", cost="the whole turn")
    retreat.deny(*now.turn_gate)
    if now.footing != "rearward":
        retreat.deny("Retreat needs Rearward footing: change footing first.", "paragon.not_rearward")
    elif now.c.get("engaged"):
        retreat.deny("Retreat must be the turn's only action.", "paragon.not_sole_action")
    return retreat


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    out = Outcome(end_turn=True)
    out.combat[actor.id] = {**rules.combat_numbers(actor), "retreating": True}
    out.log(
        "retreat",
        f"{actor.name} retreats: unless engaged in melee, they quit the field on their next turn.",
        actor.id,
    )
    return out
