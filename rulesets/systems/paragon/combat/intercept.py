"""Intercept: step in for a Rearward ally a melee attacker declared against.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

from .common import _side, seize_tie

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """A Forward ally of a Rearward foe steps into a melee exchange declared against it."""
    actor, ex, attacker = now.actor, now.es.get("exchange") or {}, now.attacker  # read once declared
    intercept = ActionSpec(
        id="intercept",
        label=f"Intercept {attacker.name}" if attacker else "Intercept",
        cost="1 stamina",
        reaction=True,
    )
    intercept.deny(*now.any_gate)
    if (
        not now.declared
        or attacker is None
        or _side(attacker) == _side(actor)
        or actor.id == ex.get("defender")
    ):
        intercept.deny(
            "Interception answers a melee exchange declared against a Rearward ally.",
            "paragon.no_interception",
        )
    elif now.footing != "forward":
        intercept.deny("Only a combatant in Forward footing can intercept.", "paragon.not_forward")
    rules._stamina_spec(intercept, actor, 1, "Interception", now.pools)
    return intercept


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    ex = copy.deepcopy(es["exchange"])
    by = {f.id: f for f in fighters}
    attacker, target = by[ex["attacker"]], by[ex["defender"]]
    out = Outcome()
    rules._spend_stamina(actor, actor.state, 1, roller, out, f"{actor.name} intercepts")
    # A new exchange with the interceptor: the attacker's Hero Points stay spent on it.
    seized = {k: v for k, v in (ex.get("seized") or {}).items() if k == str(attacker.id)}
    first, first_by = rules._first(attacker, actor, es, seized, seize_tie(ctx or rules.ctx_of(actor)))
    ex.update(
        defender=actor.id,
        declared=False,
        intercepted=target.id,
        strikes={},
        done=[],
        first=first,
        first_by=first_by,
        seized=seized,
    )
    out.log(
        "intercept",
        f"{actor.name} intercepts {attacker.name} before they reach {target.name}: a melee "
        f"exchange between {attacker.name} and {actor.name}.",
        actor.id,
        target=attacker.id,
    )
    out.encounter_state = {**es, "exchange": ex, "threat": None}
    return out
