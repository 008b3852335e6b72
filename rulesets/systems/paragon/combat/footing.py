"""Footing: Forward or Rearward.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Rearward → Forward is free; Forward → Rearward costs 1 stamina or the turn's other actions."""
    to = "forward" if now.footing == "rearward" else "rearward"
    foot = ActionSpec(
        id="footing",
        label=f"Change footing to {to.title()}",
        cost="free"
        if to == "forward" or now.es.get("opening")
        else "1 stamina, or free by forgoing the turn's other actions",
        params=[]
        if to == "forward"
        else [
            {
                "id": "forgo",
                "label": "Forgo the turn's other actions instead of 1 stamina",
                "kind": "flag",
                "default": False,
            }
        ],
    )
    foot.deny(*now.turn_gate)
    if now.threat:
        foot.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
    return foot


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    c = rules.combat_numbers(actor)
    out = Outcome()
    to = "forward" if c.get("footing") == "rearward" else "rearward"
    how = "free"
    if to == "rearward" and not es.get("opening"):
        if action.get("forgo") in (True, "true", "on", "1", 1):
            if c.get("engaged"):
                raise CombatRefused(
                    "paragon.cannot_forgo",
                    f"{actor.name} has already acted this turn; the change to Rearward costs 1 stamina now.",
                )
            c["forgo"] = True
            how = "forgoing the turn's other actions"
            out.end_turn = True
        else:
            rules._spend_stamina(actor, actor.state, 1, roller, out, "Forward → Rearward")
            how = "1 stamina"
    c["footing"] = to
    out.combat[actor.id] = c
    out.log("footing", f"{actor.name} takes the {to.title()} footing ({how}).", actor.id, footing=to)
    return out
