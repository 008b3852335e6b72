"""Killing intent: declared in the opening, +1d6 initiative and 5 temporary Morale.

One action of Paragon's combat (actions.py lists them). ``spec`` says whether and why (not) the
actor may take it now; ``perform`` takes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.combat import ActionSpec, Outcome

from .common import killing_intent_morale

if TYPE_CHECKING:
    from .core import ParagonCore, _Now


def spec(rules: ParagonCore, now: _Now) -> ActionSpec:
    """Killing intent, declared while nobody has acted yet."""
    intent = ActionSpec(
        id="killing_intent",
        label="Declare killing intent",
        cost=f"+1d6 initiative, +{killing_intent_morale(now.ctx)} temporary Morale; radiates a murderous aura",
        reaction=True,
    )
    if now.c.get("killing_intent"):
        intent.deny(f"{now.actor.name} has already declared killing intent.", "paragon.intent_declared")
    return intent


def perform(rules: ParagonCore, action, actor, fighters, es, roller, ctx=None) -> Outcome:
    out = Outcome()
    c = rules.combat_numbers(actor)
    morale = killing_intent_morale(rules.ctx_of(actor, ctx))
    bonus = roller.d(6)
    c.update(
        killing_intent=True,
        temp_morale=morale,
        initiative=(c.get("initiative") or 0) + bonus,
        initiative_text=f"{c.get('initiative_text', '')} + killing intent d6 {bonus}".strip(" +"),
    )
    out.combat[actor.id] = c
    combat = {f.id: (c if f.id == actor.id else (f.combat or {})) for f in fighters}
    out.order = rules._sorted(fighters, combat)
    out.log(
        "killing_intent",
        f"{actor.name} declares killing intent: initiative +{bonus} = {c['initiative']}, "
        f"+{morale} temporary Morale.",
        actor.id,
        bonus=bonus,
        faces=[bonus],
    )
    return out
