"""End one's action in the exchange (a chain that stops before a miss).

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    end = ActionSpec(id="end_action", label="End my action in this exchange (stop chaining)", reaction=True)
    end.deny(*now.exchange_gate)
    if now.ex is None or now.actor.id in (now.ex.get("done") or []):
        end.deny(f"{now.actor.name} has no action under way in an exchange.", "paragon.no_exchange")
    elif now.threat:
        end.deny("A threat is waiting for the defender's answer.", "paragon.threat_pending")
    return end


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    ex = copy.deepcopy(es["exchange"])
    ex["done"] = sorted(set(ex["done"]) | {actor.id})
    out = Outcome()
    out.log("exchange", f"{actor.name} ends their action in the exchange.", actor.id)
    new_es = {**es, "exchange": ex}
    rules._maybe_close(ex, new_es, out)
    out.encounter_state = new_es
    return out
