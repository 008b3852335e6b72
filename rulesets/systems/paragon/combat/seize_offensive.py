"""Seize the offensive: Hero Points spent to act first in an exchange.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, CombatRefused, Outcome
from rulesets.engine.fields import whole_number

from .common import HOUSE_NOTE, SEIZE_TIES, seize_tie

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Seizing the offensive: either side of an exchange spends Hero Points before its first strike;
    the higher spender acts first (seed, the note on exchanges). Equal spends: the house default."""
    actor, ex = now.actor, now.ex
    tie = seize_tie(now.ctx)
    spec = ActionSpec(
        id="seize_offensive",
        label="Seize the offensive (spend Hero Points to act first)",
        reaction=True,
        cost=f"Hero Points: whoever spends more acts first; {SEIZE_TIES[tie]}{HOUSE_NOTE}",
        params=[
            {
                "id": "amount",
                "label": "Hero Points",
                "kind": "number",
                "min": 1,
                "max": max(1, now.pools["heroism"]),
                "default": 1,
            }
        ],
    )
    spec.deny(*rules._gate(actor, now.es, now.current, on_turn=False, surprise_waived=True, down=now.down))
    if ex is None:
        spec.deny(
            f"Hero Points seize the offensive in an exchange, and {actor.name} is in none.",
            "paragon.no_exchange",
        )
    elif ex.get("strikes") or now.threat:
        spec.deny(
            "The exchange is under way: the offensive is seized before its first strike.",
            "paragon.offensive_closed",
        )
    elif now.pools["heroism"] < 1:
        spec.deny(
            f"Hero Points can be expended to seize the offensive, but {actor.name} has none left.",
            "paragon.no_hero_points",
        )
    return spec


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    amount = whole_number(action.get("amount", 1))  # a number, or a form field's text
    if amount is None or amount < 1:
        raise CombatRefused("paragon.invalid_amount", "Spend a whole number of Hero Points, 1 or more.")
    have = rules._pools(actor)["heroism"]
    if amount > have:
        raise CombatRefused(
            "paragon.no_hero_points",
            f"Seizing the offensive with {amount} Hero Points needs {amount}, but {actor.name} has {have}.",
        )
    ex = copy.deepcopy(es["exchange"])
    by = {f.id: f for f in fighters}
    attacker, defender = by[ex["attacker"]], by[ex["defender"]]
    opponent = defender if actor.id == attacker.id else attacker
    new_state, _ = rules.play_state_action(
        actor,
        actor.state,
        {"action": "spend_hero_point", "amount": amount, "reason": "seizing the offensive"},
    )
    seized = dict(ex.get("seized") or {})
    seized[str(actor.id)] = seized.get(str(actor.id), 0) + amount
    tie = seize_tie(ctx or rules.ctx_of(actor))
    first, first_by = rules._first(attacker, defender, es, seized, tie)
    ex.update(seized=seized, first=first, first_by=first_by)
    out = Outcome()
    out.state[actor.id] = new_state
    mine, theirs = seized[str(actor.id)], seized.get(str(opponent.id), 0)
    points = "Hero Point" if amount == 1 else "Hero Points"
    text = (
        f"{actor.name} spends {amount} {points} to seize the offensive ({mine} against {opponent.name}'s "
        f"{theirs}; {new_state['pools']['heroism']} left): "
    )
    if first_by == "hero_points" and first is not None:
        text += f"{by[first].name} acts first in this exchange."
    elif first is None:
        text += f"equal spends, both act simultaneously{HOUSE_NOTE}."
    else:
        why = "surprise" if first_by == "surprise" else "initiative"
        text += f"equal spends cancel out, and by {why} {by[first].name} acts first{HOUSE_NOTE}."
    out.log("seize_offensive", text, actor.id, amount=amount, first=first, target=opponent.id)
    out.encounter_state = {**es, "exchange": ex}
    return out
