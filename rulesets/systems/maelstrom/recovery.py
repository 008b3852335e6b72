"""Willpower coming back with the campaign's clock (seed "Recovering Willpower"; RULES.md C1, W19).

"Once a character is able to recover willpower, if they are at zero dots, they may immediately
recover the first dot [state.py ``safe_place``]. Otherwise, they will regain 1 dot every 12 hours.
If they actively rest or relax for that time, they may regain 1 additional dot per success on a
difficulty 8 willpower roll."

Only hours at a safe place count (``safe``: the GM says so); they add up across moves of the clock
(``safe_hours``), and every ``willpower_recovery_hours`` (house default 12) brings a dot. Actively
resting (``resting``), each such stretch also rolls willpower (the current dots, after the stretch's
dot) at difficulty 8, rolled by the server: each success a dot more, and a botch loses a dot per
uncancelled botch as any botched willpower roll does (seed "Willpower"). Never above the permanent
rating; at the permanent rating the hours stop counting.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.report import Report

from . import dice
from .state import chart_of, house_of, normalised, permanent_willpower, set_willpower

#: The seed's difficulty of the resting roll.
REST_DIFFICULTY = 8


def time_passes(
    state: dict, build: dict, report: Report, *, span: Span, roller: Roller | None, ctx: Context
) -> Passage:
    h = house_of(ctx)
    permanent = permanent_willpower(build, report, h.willpower_start)
    s = normalised(state, chart_of(report, h.health_chart), permanent)
    if not s["safe"] or s["dead"] or span.hours <= 0:
        return Passage(state)
    roller = roller or Roller()
    every = h.willpower_recovery_hours
    hours = s["safe_hours"] + span.hours
    messages: list[str] = []
    rolls: list[dict[str, Any]] = []
    while hours >= every and s["willpower"] < permanent:
        hours -= every
        set_willpower(s, s["willpower"] + 1)
        messages.append(
            f"{every} hours at a safe place: a willpower dot back ({s['willpower']} of {permanent})."
        )
        if s["resting"] and s["willpower"] < permanent:
            request = {
                "pool": min(dice.MAX_POOL, s["willpower"]),
                "difficulty": REST_DIFFICULTY,
                "threshold": 0,
            }
            result = dice.pool_roll(request, roller, h.default_difficulty)
            rolls.append({"label": "Willpower (resting)", "request": request, "result": result})
            if result["outcome"] == "botch":
                lost = min(s["willpower"], max(1, result.get("uncancelled_botches", 1)))
                set_willpower(s, s["willpower"] - lost)
                messages.append(f"Resting, rolls willpower: {result['text']} Loses {lost} willpower.")
            else:
                gained = min(result["total"], permanent - s["willpower"])
                set_willpower(s, s["willpower"] + gained)
                messages.append(
                    f"Resting, rolls willpower: {result['text']} "
                    f"{'+' + str(gained) + ' willpower' if gained else 'No dot more'} ({s['willpower']} of {permanent})."
                )
    s["safe_hours"] = hours if s["willpower"] < permanent else 0
    if s["safe_hours"] and not messages:
        messages.append(f"At a safe place: {s['safe_hours']} of {every} hours towards a willpower dot.")
    return Passage(s, messages, rolls) if messages else Passage(state)
