"""Paragon's combat actions: which the page offers, in which order, and who performs each.

One module per action holds its ``spec`` (whether and why not the actor may take it now) and its
``perform`` side by side; the rules object (rules.py) offers ``specs`` and dispatches through
``PERFORM``. A new action is one module and one line in each table below.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

from . import (
    end_action,
    engage,
    evade,
    footing,
    gm,
    intercept,
    killing_intent,
    pursue,
    ready,
    resist_incapacitation,
    retreat,
    seize_offensive,
    strike,
    threat,
    use_power,
)

if TYPE_CHECKING:
    from .core import ParagonCore, _Now

#: ``perform(rules, action, actor, fighters, encounter_state, roller, ctx)``: the action's ``Outcome``.
Perform = Callable[..., Outcome]


def specs(rules: ParagonCore, now: _Now) -> list[ActionSpec]:
    """Every action the fighter of ``now`` could take, allowed or not (and why not), one named step
    each, in the order the page lists them; killing intent only in the opening, the GM's last."""
    out = [
        engage.spec(rules, now),
        strike.spec(rules, now),
        end_action.spec(rules, now),
        seize_offensive.spec(rules, now),
        *threat.specs(rules, now),
        footing.spec(rules, now),
        ready.spec(rules, now),
        intercept.spec(rules, now),
        evade.spec(rules, now),
        use_power.spec(rules, now),
        retreat.spec(rules, now),
        pursue.spec(rules, now),
        resist_incapacitation.spec(rules, now),
    ]
    if now.es.get("opening"):
        out.append(killing_intent.spec(rules, now))
    out.extend(gm.specs(rules, now.actor, now.es, list(now.by.values())))
    return out


#: The player's actions by id (the GM's go through ``gm.perform``).
PERFORM: dict[str, Perform] = {
    "engage": engage.perform,
    "strike": strike.perform,
    "end_action": end_action.perform,
    "seize_offensive": seize_offensive.perform,
    "avoid": threat.perform_avoid,
    "take_hit": threat.perform_take_hit,
    "footing": footing.perform,
    "ready": ready.perform,
    "intercept": intercept.perform,
    "evade": evade.perform,
    "use_power": use_power.perform,
    "retreat": retreat.perform,
    "pursue": pursue.perform,
    "resist_incapacitation": resist_incapacitation.perform,
    "killing_intent": killing_intent.perform,
}
