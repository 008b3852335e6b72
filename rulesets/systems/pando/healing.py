"""Healing with the campaign's clock (RULES.md C1; the HD healing rates of ``content/house.json``).

Each new day the clock begins is a day of rest (RULINGS.md): wounded body parts heal the day's
amount (HD 1) and stamina is full; each of the campaign's weeks that begins (days 1–7, 8–14, …)
heals lame parts the week's amount (HD 1). Maimed parts never heal; the dead do not heal. Hours
within a day change nothing (a rest of minutes is the sheet's own action). Active care by someone
with Medicine stays the sheet's "A day of rest" / "A week of rest" with care.
"""

from __future__ import annotations

import copy

from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as
from rulesets.engine.report import Report

from .character import HOUSE_NOTE, label
from .state import _full_stamina, _refuse_if_dead, _rest_heal, body_of, normalise


def time_passes(state: dict, build: dict, report: Report, *, span: Span, ctx: Context) -> Passage:
    if span.days <= 0:
        return Passage(state)
    body = body_of(build, report, ctx)
    s = normalise(copy.deepcopy(state), body)
    try:
        _refuse_if_dead(s, body, "heal")
    except StateError:
        return Passage(state)
    name = get_as(build, "name", str, "The character")
    before = copy.deepcopy(s["harm"])
    stamina = s["stamina"]
    for _ in range(span.days):
        _rest_heal(s, body, {}, "day")
        _full_stamina(s, body)
    week = body.healing.get("lame_per_week", 1)
    for _ in range(span.weeks):
        for part in body.parts:
            if body.status(s["harm"][part]) == "lame":
                s["harm"][part] = max(0, s["harm"][part] - week)
    healed = [
        f"{label(part).lower()} {before[part]}→{s['harm'][part]}"
        for part in body.parts
        if s["harm"][part] != before[part]
    ]
    if not healed and s["stamina"] == stamina:
        return Passage(state)
    days = f"{span.days} day{'s' if span.days != 1 else ''} of rest"
    weeks = f" (a new week: lame parts heal{HOUSE_NOTE})" if span.weeks else ""
    what = "; ".join(healed) if healed else "no harm heals"
    return Passage(s, [f"{name}: {days}{weeks}: {what}; stamina {s['stamina']}."])
