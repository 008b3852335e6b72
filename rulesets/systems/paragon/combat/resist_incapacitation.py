"""Resist incapacitation: a Hero Point to act below half Health.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Seed: "A combatant may resist incapacitation by expending one Hero Point"."""
    actor = now.actor
    resist = ActionSpec(
        id="resist_incapacitation",
        label="Spend a Hero Point to resist incapacitation",
        cost="1 Hero Point",
        reaction=True,
    )
    if now.down != "incapacitated":
        resist.deny(
            "Dead." if now.down == "dead" else f"{actor.name} is not incapacitated.",
            "paragon.not_incapacitated",
        )
    elif now.pools["heroism"] < 1:
        resist.deny(f"{actor.name} has no Hero Points left.", "paragon.no_hero_points")
    return resist


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    out = Outcome()
    new_state, text = rules.play_state_action(actor, actor.state, {"action": "resist_incapacitation"})
    out.state[actor.id] = new_state
    out.log("hero_point", text, actor.id)
    return out
