"""Odds answers as bars, for the SVG chart partial ``rulesets/_odds_chart.html``.

    from rulesets.charts import odds_bars
    bars = odds_bars(slug, {"botch": 0.1, "failure": 0.3, "successes": {"1": 0.4, "2": 0.2}})
    # [{"label": "Botch", "p": 0.1, "percent": 10.0}, {"label": "Failure", ...},
    #  {"label": "1 success", ...}, {"label": "2 successes", ...}]

and in a template (or ``{% load rulesets_charts %}{% odds_chart slug answer %}``):

    {% include "rulesets/_odds_chart.html" with bars=bars caption="Pool 5, difficulty 6" %}

The helper knows nothing of any one ruleset: it walks the answer in its own key order, so a
sixth ruleset's odds chart without a line of code here. Nested objects of whole-number keys
(``{"ep": {"0": p, …}}``, ``{"successes": {"1": p, …}}``) become one bar per number, in numeric
order. A lone probability (``{"pass": p}``) gets its complement as a second bar.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine import registry
from rulesets.engine.fields import parse_whole_number

#: Words for the keys of the contract's answers; unknown keys are humanised ("near_miss" → "Near miss").
LABELS = {
    "pass": "Pass",
    "critical_success": "Critical success",
    "critical_failure": "Critical failure",
}
#: Nested counts: key → (singular, plural) of the unit, e.g. "1 success", "3 successes".
UNITS = {"ep": ("EP", "EP"), "successes": ("success", "successes")}
COMPLEMENT = {"pass": "Fail"}


def _label(key: str) -> str:
    return LABELS.get(key) or key.replace("_", " ").capitalize()


def _bar(label: str, p: float) -> dict[str, Any]:
    return {"label": label, "p": p, "percent": round(p * 100, 1)}


def _is_p(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _count_order(item: tuple[Any, Any]) -> tuple[int, int, str]:
    key = str(item[0])
    number = parse_whole_number(key)
    return (0, number, "") if number is not None else (1, 0, key)


def _ruleset_outcomes(slug: str, answer: dict[str, Any]) -> list[tuple[str, float]] | None:
    """The ruleset's own reading of its answer (its ``odds_chart`` hook: [(label, p)], each
    outcome once), when its answer's keys overlap; None: the generic walk below."""
    try:
        hook = getattr(registry.get(slug), "odds_chart", None)
        return hook(answer) if callable(hook) else None
    except Exception:  # a ruleset bug must not take a chart down: the generic bars instead
        return None


def odds_bars(slug: str, answer: dict[str, Any]) -> list[dict[str, Any]]:
    """Turn an odds answer (CONTRACT.md "Odds") into bars ``[{"label", "p", "percent"}]``.

    ``p`` is the probability (0–1), ``percent`` the same rounded to one decimal (0–100) for
    widths and text. ``slug`` is accepted so that a ruleset may one day need its own wording;
    today the answer's keys say everything. Values that are not probabilities are skipped.
    """
    bars: list[dict[str, Any]] = []
    if not isinstance(answer, dict):
        return bars
    outcomes = _ruleset_outcomes(slug, answer)
    if outcomes is not None:
        return [_bar(str(name), float(p)) for name, p in outcomes]
    for key, value in answer.items():
        if _is_p(value):
            bars.append(_bar(_label(key), float(value)))
            if len(answer) == 1 and key in COMPLEMENT:
                bars.append(_bar(COMPLEMENT[key], max(0.0, 1.0 - float(value))))
        elif isinstance(value, dict):
            one, many = UNITS.get(key, (key.replace("_", " "), key.replace("_", " ")))
            numbered = [(k, v) for k, v in value.items() if _is_p(v)]
            numbered.sort(key=_count_order)
            for k, v in numbered:
                unit = one if str(k) == "1" else many
                bars.append(_bar(f"{k} {unit}", float(v)))
    return bars
