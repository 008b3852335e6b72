"""Template helpers of the character sheet: labels, JSON lookups and the roll chart."""

from __future__ import annotations

import re
from typing import Any

from django import template

from characters.selectors.play import label as _label
from rulesets.charts import odds_bars

register = template.Library()

BAR_HEIGHT = 18
BAR_GAP = 6
LABEL_WIDTH = 120
BAR_WIDTH = 160
CHART_WIDTH = LABEL_WIDTH + BAR_WIDTH + 56


@register.filter
def label(value: Any) -> str:
    """``max_speed`` → "Max speed"."""
    return _label(value)


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``{{ derived|get:"max_hp" }}``: a dict value by a key that is not a valid variable name."""
    if isinstance(mapping, dict):
        return mapping.get(key, mapping.get(str(key)))
    if isinstance(mapping, (list, tuple)):
        try:
            return mapping[int(key)]
        except (ValueError, IndexError, TypeError):
            return None
    return None


@register.filter
def kind(value: Any) -> str:
    """What shape a derived value has, so the generic renderer can pick a layout."""
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, dict):
        if all(not isinstance(v, (dict, list)) for v in value.values()):
            return "table"
        return "nested"
    if isinstance(value, (list, tuple)):
        if all(not isinstance(v, (dict, list)) for v in value):
            return "list"
        return "rows"
    return "scalar"


@register.filter
def signed(value: Any) -> str:
    """A modifier as the dice read it: +2, −1, 0."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "" if value is None else str(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{abs(value)}"
    return "0"


@register.filter
def pretty(value: Any) -> str:
    """A JSON value in one short line for people: lists joined, dicts as "k: v"."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{_label(k)}: {pretty(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(pretty(v) for v in value) or "—"
    if isinstance(value, str) and re.fullmatch(r"[a-z][a-z0-9_]*", value):
        return _label(value)
    return str(value)


def _norm(text: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "", str(text).lower())


def rolled_index(bars: list[dict[str, Any]], result: dict[str, Any]) -> int | None:
    """Which bar the roll landed on: by outcome name ("botch", "critical_success", "pass"),
    then by number ("2 EP", "3 successes" from the roll's total or outcome)."""
    if not isinstance(result, dict):
        return None
    outcome = result.get("outcome")
    names = {_norm(b["label"]): i for i, b in enumerate(bars)}
    synonyms = {"success": ["pass"], "failure": ["fail"], "fail": ["failure"], "pass": ["success"]}
    if outcome is not None:
        key = _norm(outcome)
        if key in names:
            return names[key]
        for other in synonyms.get(key, []):
            if other in names:
                return names[other]
    for number in (outcome, result.get("total"), result.get("ep"), result.get("successes")):
        if isinstance(number, bool):
            continue
        if isinstance(number, (int, str)) and str(number).lstrip("-").isdigit():
            for i, bar in enumerate(bars):
                if bar["label"].split(" ", 1)[0] == str(int(number)) and " " in bar["label"]:
                    return i
    return None


def chart_data(slug: str, odds: Any, result: Any = None) -> dict[str, Any]:
    """The geometry of the odds chart of one roll: a bar per outcome, the rolled one marked."""
    bars = [dict(b) for b in odds_bars(slug, odds if isinstance(odds, dict) else {})]
    rolled = rolled_index(bars, result) if result is not None else None
    for i, bar in enumerate(bars):
        bar["y"] = BAR_GAP + i * (BAR_HEIGHT + BAR_GAP)
        bar["text_y"] = bar["y"] + BAR_HEIGHT - 5
        bar["width"] = round(BAR_WIDTH * max(0.0, min(1.0, bar["p"])), 2)
        bar["rolled"] = i == rolled
        bar["percent_text"] = _percent(bar["p"])
    height = BAR_GAP + len(bars) * (BAR_HEIGHT + BAR_GAP)
    summary = "; ".join(f"{b['label']} {b['percent_text']}" for b in bars)
    rolled_label = bars[rolled]["label"] if rolled is not None else ""
    aria = f"Odds: {summary}." + (f" Rolled: {rolled_label}." if rolled_label else "")
    return {
        "bars": bars,
        "height": height,
        "width": CHART_WIDTH,
        "label_width": LABEL_WIDTH,
        "bar_x": LABEL_WIDTH,
        "percent_x": LABEL_WIDTH + BAR_WIDTH + 4,
        "bar_height": BAR_HEIGHT,
        "aria_label": aria,
        "rolled_label": rolled_label,
    }


def _percent(p: float) -> str:
    pct = p * 100
    if 0 < pct < 0.1:
        return "<0.1%"
    if 99.9 < pct < 100:
        return ">99.9%"
    return f"{pct:.1f}%"


@register.inclusion_tag("characters/_roll_chart.html")
def roll_chart(slug: str, odds: Any, result: Any = None, chart_id: str = "roll-chart") -> dict[str, Any]:
    """``{% roll_chart slug odds result %}``: the SVG odds chart with the rolled outcome highlighted."""
    return {**chart_data(slug, odds, result), "chart_id": chart_id}


@register.filter
def without(mapping: Any, keys: Any) -> list[tuple[str, Any]]:
    """``derived|without:"max_speed,protection"``: the items of a dict except those keys."""
    if not isinstance(mapping, dict):
        return []
    skip = {k.strip() for k in str(keys or "").split(",") if k.strip()}
    return [(k, v) for k, v in mapping.items() if k not in skip]


FIELD_TYPES = {
    "number": "number", "int": "number", "integer": "number",
    "choice": "choice", "select": "choice", "enum": "choice",
    "flag": "flag", "bool": "flag", "boolean": "flag", "checkbox": "flag",
}


@register.filter
def state_fields(fields: Any) -> list[dict[str, Any]]:
    """A state action's fields as the ruleset writes them (``"amount"`` or ``{"id", "label", "kind",
    "options", "min", "max", "default"}``) → one shape for the form template."""
    out = []
    for field in fields if isinstance(fields, (list, tuple)) else []:
        if isinstance(field, str):
            field = {"id": field}
        if not isinstance(field, dict):
            continue
        name = field.get("id") or field.get("name")
        if not isinstance(name, str) or not name:
            continue
        options = []
        for opt in field.get("options") or field.get("choices") or []:
            if isinstance(opt, dict):
                value = opt.get("id", opt.get("value"))
                options.append({"value": value, "label": opt.get("label") or _label(value)})
            elif isinstance(opt, (list, tuple)) and len(opt) == 2:
                options.append({"value": opt[0], "label": opt[1]})
            else:
                options.append({"value": opt, "label": _label(opt)})
        kind_ = FIELD_TYPES.get(str(field.get("kind") or field.get("type") or ""), "")
        if not kind_:
            kind_ = "choice" if options else "number" if name in {"amount", "value", "minutes"} else "text"
        out.append({
            "name": name,
            "label": field.get("label") or _label(name),
            "type": kind_,
            "options": options,
            "min": field.get("min"),
            "max": field.get("max"),
            "default": field.get("default"),
        })
    return out
