"""Template helpers of the character sheet: labels, JSON lookups and the roll chart."""

from __future__ import annotations

import re
from typing import Any

from django import template

from characters.sheet.selectors import label as _label
from rulesets.charts import odds_bars
from rulesets.engine import words
from rulesets.engine.base import parse_whole_number

register = template.Library()

BAR_HEIGHT = 22  # room for 13 px text: drawn ~0.85 of its size on a phone, 11 px read as 9
BAR_GAP = 6
LABEL_WIDTH = 120
BAR_WIDTH = 160
CHART_WIDTH = LABEL_WIDTH + BAR_WIDTH + 56


@register.filter
def label(value: Any) -> str:
    """``max_speed`` → "Max speed"."""
    return _label(value)


@register.simple_tag
def ruleset_template(slug: Any, name: str, fallback: str) -> tuple[str, str]:
    """A ruleset's own template for a piece of a page (``<slug>/<name>.html``, in its folder),
    else the generic ``fallback``: ``{% ruleset_template slug "sheet_derived" "x.html" as t %}{% include t %}``."""
    return (f"{slug}/{name}.html", fallback)


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
        # A named entry (a specialty, an item) reads by its name, the rest after it:
        # "Rifles (General, Firearms)", not "Kind: General, Name: Rifles, Ability: Firearms".
        name_key = next(
            (k for k in ("name", "label", "item") if isinstance(value.get(k), str) and value[k]), None
        )
        if name_key is not None:
            rest = [pretty(v) for k, v in value.items() if k != name_key and v not in (None, "", [], {})]
            head = value[name_key] if name_key != "item" else pretty(value[name_key])
            return f"{head} ({', '.join(rest)})" if rest else head
        return ", ".join(f"{_label(k)}: {pretty(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(pretty(v) for v in value) or "—"
    if isinstance(value, str) and re.fullmatch(r"\d*d\d+", value):
        return value  # dice as the rulebooks write them: "d6", "2d6" (not "D6")
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
        if isinstance(number, (int, str)) and parse_whole_number(str(number)) is not None:
            for i, bar in enumerate(bars):
                if (
                    bar["label"].split(" ", 1)[0] == str(parse_whole_number(str(number)))
                    and " " in bar["label"]
                ):
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


@register.inclusion_tag("characters/sheet/_roll_chart.html")
def roll_chart(slug: str, odds: Any, result: Any = None, chart_id: str = "roll-chart") -> dict[str, Any]:
    """``{% roll_chart slug odds result %}``: the SVG odds chart with the rolled outcome highlighted."""
    return {**chart_data(slug, odds, result), "chart_id": chart_id}


@register.simple_tag
def roll_outcome(slug: str, result: Any) -> str:
    """What a roll came to, in the words of its odds chart ("1 EP", "Failure", "Pass"): the bar it
    landed on; else the ruleset's outcome word, never a bare code such as "none"."""
    if not isinstance(result, dict):
        return ""
    chart = chart_data(slug, result.get("odds"), result)
    if chart["rolled_label"]:
        return chart["rolled_label"]
    outcome = result.get("outcome")
    return _label(outcome) if isinstance(outcome, str) and outcome not in ("none", "") else ""


@register.filter
def without(mapping: Any, keys: Any) -> list[tuple[str, Any]]:
    """``derived|without:"max_speed,protection"``: the items of a dict except those keys."""
    if not isinstance(mapping, dict):
        return []
    skip = {k.strip() for k in str(keys or "").split(",") if k.strip()}
    return [(k, v) for k, v in mapping.items() if k not in skip]


FIELD_TYPES = {
    "number": "number",
    "int": "number",
    "integer": "number",
    "choice": "choice",
    "select": "choice",
    "enum": "choice",
    "flag": "flag",
    "bool": "flag",
    "boolean": "flag",
    "checkbox": "flag",
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
        out.append(
            {
                "name": name,
                "label": field.get("label") or _label(name),
                "type": kind_,
                "options": options,
                "min": field.get("min"),
                "max": field.get("max"),
                "default": field.get("default"),
            }
        )
    return out


# ------------------------------------------------------------------ hot loops in Python
# The sheet's biggest loops (fifty roll buttons, each its own form; the play-state sections'
# forms) built as one string with the standard library's escaping, as builder_tags does: the
# template engine's per-variable machinery was most of the page's time. The output is exactly
# what the templates these replace printed.

from html import escape as _html_escape  # noqa: E402

from django.template.defaultfilters import join as _join  # noqa: E402
from django.template.defaulttags import CsrfTokenNode  # noqa: E402
from django.utils.formats import localize as _localize  # noqa: E402
from django.utils.safestring import mark_safe  # noqa: E402

_MISSING = object()
#: Every swap of the sheet keeps the player's place: no scroll to the new content, no scroll on the
#: focus htmx gives back to the control of the same id (static/js/app.js keeps the scroll too).
SWAP = "outerHTML show:none focus-scroll:false"


def _dom_id(value: Any) -> str:
    """A rollable's id (``skill:blades``) as an element id that CSS and querySelector take as is."""
    return _html_escape(re.sub(r"[^A-Za-z0-9_-]+", "-", str(value)))


def _e(value: Any) -> str:
    """``{{ value }}``: localized like the template engine does, then escaped (safe strings kept)."""
    if type(value) is int:  # what localize gives a whole number (no thousands separator), minus its cost
        return str(value)
    value = _localize(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return _html_escape(str(value))


def _g(obj: Any, key: str) -> Any:
    """A lookup as ``{% if obj.key %}`` reads it: a failed one is None."""
    if isinstance(obj, dict):
        return obj.get(key)
    return None


def _o(obj: Any, key: str) -> str:
    """A lookup as ``{{ obj.key }}`` prints it: a failed one prints nothing."""
    if isinstance(obj, dict):
        value = obj.get(key, _MISSING)
        if value is not _MISSING:
            return _e(value)
    return ""


def _csrf(context: Any) -> str:
    return str(CsrfTokenNode().render(context))


@register.simple_tag(takes_context=True)
def roll_buttons(context: Any) -> str:
    """The Dice block's groups of roll buttons (``roll_groups``: views_sheet._roll_groups), inside
    the block's one form (sheet.html): each button posts the form (the table's numbers, the GM's
    private toggle) with its roll, and its result lands in the live region right below it."""
    groups = context.get("roll_groups")
    if not groups or not isinstance(groups, dict):
        draft = " until the build is valid" if context.get("is_draft") else ""
        return mark_safe(f'\n          <p class="muted">No rolls{draft}.</p>\n        ')
    url = _e(context.get("roll_url", ""))
    out = []
    for group, rollables in groups.items():
        out.append(
            f'\n          <h3 class="sheet-subhead">{_e(group)}</h3>\n          <ul class="sheet-rollables">'
        )
        for r in rollables:
            rid, sid = _o(r, "id"), _o(r, "sid")
            request_text = _g(r, "request_text")
            speed = _g(r, "speed_cost")
            reason = _g(r, "reason")
            out.append(
                f'\n            <li id="rollable-{sid}">\n'
                f'              <button type="submit" name="rollable" value="{rid}" id="roll-btn-{sid}"'
                f' class="btn btn-small sheet-roll-button" data-rollable="{rid}" hx-post="{url}"'
                f' hx-target="#roll-here-{sid}" hx-swap="innerHTML show:none focus-scroll:false" aria-describedby="roll-label-{sid}"'
                f"{' disabled' if _g(r, 'disabled') else ''}>Roll</button>\n"
                f'              <span class="sheet-roll-label" id="roll-label-{sid}">{_o(r, "label")}</span>\n'
                + (
                    f'              <span class="sheet-roll-request muted" data-testid="request-{rid}">{_e(request_text)}</span>\n'
                    if request_text
                    else ""
                )
                + (f'              <span class="muted">· {_e(speed)} speed</span>\n' if speed else "")
                + (f'              <span class="sheet-roll-reason">{_e(reason)}</span>\n' if reason else "")
                + f'              <div class="roll-here" id="roll-here-{sid}" role="status" aria-live="polite"></div>\n'
                "            </li>"
            )
        out.append("\n          </ul>\n        ")
    return mark_safe("".join(out))


def _field_html(field: dict[str, Any]) -> str:
    fid, name, label_ = _o(field, "fid"), _o(field, "name"), _o(field, "label")
    kind_ = _g(field, "type")
    default = _g(field, "default")
    if kind_ == "choice":
        options = "".join(
            f'<option value="{_o(opt, "value")}"{" selected" if _g(opt, "value") == default else ""}>{_o(opt, "label")}</option>'
            for opt in (_g(field, "options") or ())
        )
        body = (
            f'\n          <label for="{fid}">{label_}</label>\n'
            f'          <select name="{name}" id="{fid}">{options}</select>\n        '
        )
    elif kind_ == "flag":
        body = (
            f'\n          <input type="hidden" name="{name}" value="false">\n'
            f'          <label class="state-flag-field"><input type="checkbox" name="{name}" value="true"'
            f' id="{fid}"{" checked" if default else ""}> {label_}</label>\n        '
        )
    else:
        value = "" if default is None else _e(default)
        if kind_ == "number":
            low, high = _g(field, "min"), _g(field, "max")
            body = (
                f'\n          <label for="{fid}">{label_}</label>\n'
                f'          <input type="number" name="{name}" id="{fid}" value="{value}" class="state-number"'
                + (f' min="{_e(low)}"' if low is not None else "")
                + (f' max="{_e(high)}"' if high is not None else "")
                + ">\n        "
            )
        else:
            body = (
                f'\n          <label for="{fid}">{label_}</label>\n'
                f'          <input type="text" name="{name}" id="{fid}" value="{value}">\n        '
            )
    return f"\n        \n        {body}\n        \n      "


@register.simple_tag(takes_context=True)
def state_action_forms(context: Any, section: Any) -> str:
    """A play-state section's action forms (``form_fields``: views_sheet._action_view)."""
    url = _e(context.get("action_url", ""))
    csrf = _csrf(context)
    out = []
    for action in _g(section, "actions") or ():
        act = _o(action, "action")
        fields = _g(action, "form_fields")
        out.append(
            f'\n    <form method="post" action="{url}" class="state-action-form"\n'
            f'          hx-post="{url}" hx-target="#sheet-state" hx-swap="{SWAP}"\n'
            f'          data-action="{act}">\n      {csrf}\n'
            f'      <input type="hidden" name="action" value="{act}">\n      '
            + "".join(
                _field_html(f) if isinstance(f, dict) else ""
                for f in (fields if isinstance(fields, (list, tuple)) else ())
            )
            + f'\n      <button type="submit" class="btn btn-small" id="{_o(action, "button_id")}">{_e(_g(action, "label") or act)}</button>\n    </form>\n    '
        )
    return mark_safe("".join(out))


def _gt_zero(value: Any) -> bool:
    try:
        return value > 0
    except TypeError:
        return False


@register.simple_tag(takes_context=True)
def state_pools(context: Any, section: Any) -> str:
    """A "pools" section's items: value, meter, −/+ buttons and the typed value (``steps``:
    views_sheet._pool_steps)."""
    url = _e(context.get("action_url", ""))
    csrf = _csrf(context)
    edit = context.get("can_edit_state")
    sid = _o(section, "id")
    form_open = (
        f'\n      <form method="post" action="{url}" class="inline-form"\n'
        f'            hx-post="{url}" hx-target="#sheet-state" hx-swap="{SWAP}">\n        {csrf}'
    )
    # −/+ are steps applied to the value the pool has when they arrive; the number box is an
    # absolute value, sent with the version this page shows (refused when stale).
    step_head = (
        f'{form_open}<input type="hidden" name="action" value="step"><input type="hidden" name="path" value="'
    )
    version = _e(getattr(context.get("character"), "version", ""))
    set_head = (
        f'{form_open}<input type="hidden" name="action" value="set">'
        f'<input type="hidden" name="version" value="{version}"><input type="hidden" name="path" value="'
    )
    out = []
    for item in _g(section, "items") or ():
        iid, label_, value = _o(item, "id"), _o(item, "label"), _o(item, "value")
        status, high, low = _g(item, "status"), _g(item, "max"), _g(item, "min")
        out.append(
            f'\n  <li class="state-pool{" has-status" if status else ""}" id="pool-{sid}-{iid}" data-pool="{iid}">\n'
            f'    <span class="state-pool-label">{label_}</span>\n'
            f'    <span class="state-pool-value" data-testid="pool-{iid}"><strong>{value}</strong>'
            + (f" / {_e(high)}" if high is not None else "")
            + "</span>\n    "
            + (
                f'<meter min="{_e(_g(item, "min") or 0)}" max="{_e(high)}" value="{value}" aria-label="{label_}"></meter>'
                if high is not None and _gt_zero(high)
                else ""
            )
            + "\n    "
            + (f'<span class="badge state-status">{_e(status)}</span>' if status else "")
            + "\n    "
        )
        path = _g(item, "path")
        if edit and path:
            p = _e(path)
            out.append('\n    <span class="state-pool-controls no-print">\n      ')
            for step in _g(item, "steps") or ():
                out.append(
                    f'{step_head}{p}">\n        <input type="hidden" name="delta" value="{_o(step, "delta")}">\n'
                    f'        <button type="submit" class="btn btn-small btn-ghost stepper" id="step-{sid}-{iid}-{_o(step, "dir")}" aria-label="{_o(step, "verb")} {label_} by 1"\n'
                    f"          {' disabled' if _g(step, 'disabled') else ''}>{_o(step, 'sign')}</button>\n      </form>\n      "
                )
            out.append(
                f'{set_head}{p}">\n'
                f'        <label class="visually-hidden" for="set-{sid}-{iid}">Set {label_}</label>\n'
                f'        <input type="number" class="state-number" name="value" id="set-{sid}-{iid}" value="{value}"'
                + (f' min="{_e(low)}"' if low is not None else "")
                + (f' max="{_e(high)}"' if high is not None else "")
                + f'>\n        <button type="submit" class="btn btn-small btn-ghost" id="set-{sid}-{iid}-submit" aria-label="Set {label_}">Set</button>\n      </form>\n    </span>\n    '
            )
        out.append("\n  </li>\n  ")
    return mark_safe("".join(out))


@register.simple_tag
def roll_log_rows(rolls: Any) -> str:
    """The roll log's table rows (``rolls``: views_sheet._roll_rows)."""
    return mark_safe(
        "".join(
            f'\n            <tr id="roll-{_o(roll, "pk")}">\n'
            f'              <td><time datetime="{_o(roll, "when_iso")}">{_o(roll, "when")}</time></td>\n'
            f"              <td>{_o(roll, 'who')}</td>\n"
            f'              <td><a href="{_o(roll, "sheet_url")}"\n'
            f'                     hx-get="{_o(roll, "detail_url")}" hx-target="#roll-result" hx-swap="{SWAP}">{_o(roll, "label")}</a></td>\n'
            f"              <td>{_o(roll, 'text')}</td>\n            </tr>\n          "
            for roll in rolls or ()
        )
    )


def _value_html(value: Any) -> str:
    k = kind(value)
    if k in ("scalar", "flag", "list"):
        return f'<span class="sheet-value">{_e(pretty(value))}</span>\n\n'
    if k == "table":
        rows = "".join(
            f'<tr data-key="{_e(key)}"><th scope="row">{_e(_label(key))}</th><td>{_e(pretty(v))}</td></tr>'
            for key, v in value.items()
        )
        return f'<table class="table sheet-kv"><tbody>{rows}</tbody></table>\n\n'
    if k == "nested":
        rows = "".join(
            f'<div data-key="{_e(key)}"><dt>{_e(_label(key))}</dt><dd>{_e(pretty(v))}</dd></div>'
            for key, v in value.items()
        )
        return f'<dl class="sheet-dl sheet-nested">{rows}</dl>\n\n'
    return f'<ul class="sheet-rows">{"".join(f"<li>{_e(pretty(v))}</li>" for v in value)}</ul>\n'


@register.simple_tag
def sheet_value(value: Any) -> str:
    """A value of the build, the derived numbers or the effects."""
    return mark_safe(_value_html(value))


@register.simple_tag
def skill_rows(skills: Any, effects: Any) -> str:
    """Table rows of named modifiers (``skills``: {id: modifier}) and, where the play state's effects
    lower one (``effects.checks["skill.<id>"]``), the lowered modifier beside it."""
    if not isinstance(skills, dict):
        return ""
    checks = effects.get("checks", "") if isinstance(effects, dict) else ""
    out = []
    for key, value in skills.items():
        now = get(checks, f"skill.{key}") if isinstance(key, str) else get(checks, "")
        lowered = ""
        if now:
            modifier = now.get("modifier") if isinstance(now, dict) else None
            if modifier is not None and modifier != value:
                lowered = f' → <strong class="sheet-lowered">{_e(signed(modifier))}</strong>'
        k = _e(key)
        out.append(
            f'<tr data-key="{k}"><th scope="row">{_e(_label(key))}</th>'
            f'<td data-testid="skill-{k}">{_e(signed(value))}{lowered}</td></tr>'
        )
    return mark_safe("".join(out))


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    return parse_whole_number(str(value)) if value is not None else None


@register.filter
def dots(value: Any, top: Any = 5) -> str:
    """``{{ 3|dots:5 }}``: a rating as filled and empty dots (●●●○○), read out as "3 of 5"."""
    n, most = _count(value), _count(top) or 5
    if n is None or n < 0:
        return mark_safe('<span class="muted">—</span>')
    most = max(most, n)
    return mark_safe(
        f'<span class="dots" role="img" aria-label="{n} of {most}">'
        f'{"●" * n}<span class="dot-empty">{"○" * (most - n)}</span></span>'
    )


@register.filter
def dot_text(value: Any, top: Any = 5) -> str:
    """``{{ 3|dot_text:5 }}``: the dots as plain text with their count, "●●●○○ 3", where markup cannot
    go (an option of a select)."""
    n, most = _count(value), _count(top) or 5
    if n is None or n < 0:
        return "—"
    return f"{'●' * n}{'○' * (max(most, n) - n)} {n}"


@register.filter
def hearts(value: Any) -> str:
    """``{{ 2|hearts }}``: hearts drawn (♥♥) and said ("2 hearts")."""
    n = _count(value)
    if n is None or n < 0:
        return mark_safe('<span class="muted">—</span>')
    return mark_safe(
        f'<span class="hearts" aria-hidden="true">{"♥" * min(n, 20)}</span>'
        f'<span class="visually-hidden">{n} heart{"" if n == 1 else "s"}</span>' + (f" {n}" if n > 20 else "")
    )


@register.filter
def a_an(word: Any) -> str:
    """``{{ "Our D&D"|a_an }}`` → "an Our D&D", ``{{ "ancestry"|a_an }}`` → "an ancestry": the
    article by the word's first sound (the engine's ``words.a``, which the rules' messages use too)."""
    return words.a(word)


@register.filter
def where(pointer: Any) -> str:
    """``{{ "/skills/0/id"|where }}`` → "Skills, entry 1, id": where an issue is, in words."""
    return words.where(pointer)


# Rows of the derived numbers, worked out in Python: a template loop costs a variable lookup, a
# localize and an escape per cell, and the Numbers block is on every sheet page and htmx update.

_NOTHING_DERIVED = '<div><dt>—</dt><dd class="muted">The rules derive nothing from this build yet.</dd></div>'


@register.simple_tag
def derived_rows(derived: Any, skip: Any = "") -> str:
    """The generic Numbers list's entries (``characters/sheet/_sheet_derived.html``): every derived value
    but those ``skip`` names (``"a,b"``), each labelled; none, and nothing skipped, says so."""
    items = without(derived, skip)
    if not items:
        return "" if skip else mark_safe(_NOTHING_DERIVED)
    return mark_safe(
        "".join(
            f'\n  <div data-key="{_e(key)}"><dt>{_e(_label(key))}</dt><dd>{_value_html(value)}</dd></div>\n  '
            for key, value in items
        )
    )


@register.simple_tag
def kv_rows(mapping: Any, prefix: str = "", sign: bool = False, third: Any = None) -> str:
    """Table rows of a dict: ``<tr data-key="<prefix><key>"><th>label</th><td>value</td></tr>``,
    the value ``signed`` if ``sign``; with ``third`` (a dict), a third cell with its value of the
    same key ("—" where it has none)."""
    if not isinstance(mapping, dict):
        return ""
    out = []
    for key, value in mapping.items():
        cell = _e(signed(value)) if sign else _e(value)
        extra = ""
        if third is not None:
            found = get(third, key)
            extra = f"<td>{_e('—' if found is None else found)}</td>"
        out.append(
            f'<tr data-key="{_e(prefix)}{_e(key)}"><th scope="row">{_e(_label(key))}</th><td>{cell}</td>{extra}</tr>'
        )
    return mark_safe("".join(out))


def _items(obj: Any, key: str) -> Any:
    """``{% for x in obj.key %}``'s sequence of a JSON value: a missing one loops nothing."""
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, (list, tuple)) else ()


@register.simple_tag
def breakdown_rows(breakdown: Any) -> str:
    """Where each number comes from: ``{key: {label, base, total, applied: [{text}], ignored:
    [{text, reason}]}}`` as ``<div data-key="breakdown-<key>"><dt>…</dt><dd>base → total…</dd></div>``."""
    if not isinstance(breakdown, dict):
        return ""
    out = []
    for key, part in breakdown.items():
        applied = "".join(
            f'<span class="sheet-modifier">{_o(m, "text")}</span>' for m in _items(part, "applied")
        )
        ignored = "".join(
            f'<span class="sheet-modifier muted">{_o(m, "text")}: not added, {_o(m, "reason")}</span>'
            for m in _items(part, "ignored")
        )
        out.append(
            f'<div data-key="breakdown-{_e(key)}"><dt>{_o(part, "label")}</dt><dd>{_o(part, "base")} → '
            f"<strong>{_o(part, 'total')}</strong>{applied}{ignored}</dd></div>\n  "
        )
    return mark_safe("".join(out))


def _u(value: Any) -> str:
    """``{{ value }}`` inside ``{% localize off %}``: escaped, numbers as the engine prints them unlocalized."""
    if type(value) is int:
        return str(value)
    value = _localize(value, use_l10n=False)
    if hasattr(value, "__html__"):
        return value.__html__()
    return _html_escape(str(value))


@register.simple_tag(takes_context=True)
def chart_bars(context: Any) -> str:
    """The bars of ``characters/sheet/_roll_chart.html`` (its context: ``chart_data``), one ``<g>`` each."""
    label_x = _u(int(context["label_width"]) - 6)
    bar_x, bar_height, percent_x = _u(context["bar_x"]), _u(context["bar_height"]), _u(context["percent_x"])
    out = []
    for bar in context["bars"]:
        rolled = bar.get("rolled")
        marks = (" is-rolled", ' data-rolled="true"', "▶ ") if rolled else ("", "", "")
        name, y, text_y, percent = _u(bar["label"]), _u(bar["y"]), _u(bar["text_y"]), _u(bar["percent_text"])
        out.append(
            f'\n    <g class="roll-bar{marks[0]}" data-label="{name}"{marks[1]}>\n'
            f'      <text class="roll-bar-label" x="{label_x}" y="{text_y}" text-anchor="end">'
            f"{marks[2]}{name}</text>\n"
            f'      <rect class="roll-bar-track" x="{bar_x}" y="{y}" width="160" height="{bar_height}"></rect>\n'
            f'      <rect class="roll-bar-fill" x="{bar_x}" y="{y}" width="{_u(bar["width"])}" height="{bar_height}">'
            f"<title>{name}: {percent}</title></rect>\n"
            f'      <text class="roll-bar-value" x="{percent_x}" y="{text_y}">{percent}</text>\n'
            "    </g>\n    "
        )
    return mark_safe("".join(out))


@register.simple_tag
def dot_options(options: Any, top: Any = 5) -> str:
    """``<option>``s of rated choices (``[{id, name, dots, selected?, disabled?, note?}]``): "Name ●●○○○ 2",
    its note after a dash."""
    out = []
    for o in options if isinstance(options, (list, tuple)) else ():
        note = _g(o, "note")
        out.append(
            f'<option value="{_o(o, "id")}"{" selected" if _g(o, "selected") else ""}'
            f"{' disabled' if _g(o, 'disabled') else ''}>{_o(o, 'name')} "
            f"{_e(dot_text(o.get('dots', '') if isinstance(o, dict) else '', top))}"
            f"{f' — {_e(note)}' if note else ''}</option>"
        )
    return mark_safe("".join(out))


def _parts(items: Any) -> list[Any]:
    return list(items) if isinstance(items, (list, tuple)) else []


@register.simple_tag
def body_aria(items: Any) -> str:
    """The body diagram's spoken summary (``characters/sheet/_state_body.html``): "Head 0 harm; Legs 2 harm maimed"."""
    out = []
    for p in _parts(items):
        status = _g(p, "status")
        out.append(f"{_o(p, 'label')} {_o(p, 'harm')} harm{' ' + _e(status) if status else ''}")
    return mark_safe("; ".join(out))


@register.simple_tag
def body_shapes(items: Any) -> str:
    """The body diagram's shapes, one ``<circle>`` or ``<rect>`` per part (its ``shape``), coloured by status."""
    out = []
    for p in _parts(items):
        s = _e(_g(p, "status") or "healthy")
        d = _g(p, "shape")
        kind = _g(d, "shape")
        title = f"<title>{_o(p, 'label')}: {_o(p, 'harm')} harm, {s}</title>"
        head = f'class="body-part body-{s}" data-part="{_o(p, "id")}"'
        shape = ""
        if kind == "circle":
            shape = f'<circle {head} cx="{_o(d, "cx")}" cy="{_o(d, "cy")}" r="{_o(d, "r")}">{title}</circle>\n    '
        elif kind == "rect":
            shape = (
                f'<rect {head} x="{_o(d, "x")}" y="{_o(d, "y")}" width="{_o(d, "width")}" '
                f'height="{_o(d, "height")}" rx="{_o(d, "rx")}">{title}</rect>'
            )
        out.append(f"\n    {shape}\n    ")
    return mark_safe("".join(out))


@register.simple_tag
def body_rows(items: Any) -> str:
    """The body table's rows: part (✚ if vital), harm of its most, status, protection and the gear giving it."""
    out = []
    for p in _parts(items):
        pid, s = _o(p, "id"), _e(_g(p, "status") or "healthy")
        vital = ' <span class="muted" title="vital">✚</span>' if _g(p, "vital") else ""
        most = f" / {_o(p, 'max')}" if _g(p, "max") else ""
        gear = _g(p, "equipment")
        gear_html = f' <span class="muted">({_join(gear, ", ", autoescape=True)})</span>' if gear else ""
        protection = p.get("protection", "") if isinstance(p, dict) else ""
        out.append(
            f'\n      <tr id="body-{pid}" data-part="{pid}" class="body-row body-{s}">\n'
            f'        <th scope="row">{_o(p, "label")}{vital}</th>\n'
            f"        <td>{_o(p, 'harm')}{most}</td>\n"
            f'        <td class="body-status">{s}</td>\n'
            f"        <td>{_e(pretty(protection))}{gear_html}</td>\n"
            "      </tr>\n    "
        )
    return mark_safe("".join(out))


@register.simple_tag
def preview_options(previews: Any, chosen: Any) -> str:
    """The odds preview's ``<option>``s (``roll_previews``: [{id, label}]), the ``chosen`` roll selected."""
    return mark_safe(
        "".join(
            f'<option value="{_o(p, "id")}"{" selected" if _g(p, "id") == chosen else ""}>{_o(p, "label")}</option>'
            for p in previews or ()
        )
    )


@register.simple_tag
def roll_number_fields(numbers: Any) -> str:
    """The Dice form's fields of the table's numbers (``roll_numbers``: selectors.play.roll_inputs):
    a select of its choices, else a number box within its bounds."""
    out = []
    for n in numbers or ():
        name = _o(n, "name")
        if _g(n, "kind") == "choice":
            value = _g(n, "value")
            choices = n.get("choices") if isinstance(n, dict) else None
            options = "".join(
                f'<option value="{_e(c)}"{" selected" if c == value else ""}>{_e(_label(c))}</option>'
                for c in (choices if isinstance(choices, (list, tuple)) else ())
            )
            field = f'<select name="in_{name}" id="roll-in-{name}">{options}</select>\n              '
        else:
            low, high = _g(n, "min"), _g(n, "max")
            field = (
                f'<input type="number" name="in_{name}" id="roll-in-{name}" value="{_o(n, "value")}" '
                f'class="state-number"{"" if low is None else f" min={chr(34)}{_e(low)}{chr(34)}"}'
                f'{"" if high is None else f" max={chr(34)}{_e(high)}{chr(34)}"} inputmode="numeric">'
            )
        out.append(
            f'\n            <span class="roll-number">\n              <label for="roll-in-{name}">{_o(n, "label")}'
            f"</label>\n              {field}\n            </span>\n            "
        )
    return mark_safe("".join(out))


@register.simple_tag(takes_context=True)
def equipment_rows(context: Any) -> str:
    """The Equipment block's items (``equipment``: views_sheet._equipment), each with the form that
    changes its state (held, worn…) where it has one and the viewer may edit the build."""
    from django.urls import reverse

    character, editable = context["character"], context.get("can_edit_build")
    states = context.get("equipment_states") or ()
    csrf = None
    out = []
    for row in context.get("equipment") or ():
        i, name, state, arms = _e(row["index"]), _e(row["name"]), row.get("state"), row.get("arms")
        arms_text = f' <span class="muted">({_e(pretty(arms))})</span>' if arms else ""
        form = ""
        if row.get("has_state") and editable:
            url = _html_escape(reverse("character_equipment", args=[character.id, row["index"]]))
            csrf = _csrf(context) if csrf is None else csrf
            options = "".join(
                f'<option value="{_e(s)}"{" selected" if s == state else ""}>{_e(s)}</option>' for s in states
            )
            hidden = "".join(f'<input type="hidden" name="arms" value="{_e(a)}">' for a in arms or ())
            form = (
                f'\n            <form method="post" class="inline-form no-print" action="{url}"\n'
                f'                  hx-post="{url}" hx-target="#sheet-equipment" hx-swap="outerHTML show:none '
                f'focus-scroll:false">\n              {csrf}\n'
                f'              <label class="visually-hidden" for="equipment-state-{i}">State of {name}</label>\n'
                f'              <select name="state" id="equipment-state-{i}">\n                {options}\n'
                f"              </select>\n              {hidden}\n"
                f'              <button type="submit" class="btn btn-small btn-ghost" id="equipment-change-{i}" '
                f'aria-label="Change the state of {name}">Change</button>\n            </form>\n            '
            )
        out.append(
            f'\n          <li id="equipment-{i}">\n            <span class="sheet-item-name">{name}</span>\n'
            f'            <span class="badge">{_e(state or "—")}</span>{arms_text}\n            {form}\n'
            "          </li>\n          "
        )
    return mark_safe("".join(out))


@register.simple_tag
def dot_traits(mapping: Any, top: Any = 5) -> str:
    """A ``<dl>``'s entries of rated traits (``{key: dots}``): the label, the dots out of ``top``."""
    if not isinstance(mapping, dict):
        return ""
    return mark_safe(
        "".join(
            f'<div data-key="{_e(key)}"><dt>{_e(_label(key))}</dt><dd>{dots(value, top)}</dd></div>'
            for key, value in mapping.items()
        )
    )


_TRACK_MARKS = {"bashing": "/", "lethal": "X", "aggravated": "✱"}


@register.simple_tag
def track_boxes(items: Any) -> str:
    """A "track" section's boxes (``characters/sheet/_state_track.html``): label, penalty and the damage held."""
    out = []
    for box in _parts(items):
        damage, penalty = _g(box, "damage"), _g(box, "penalty")
        held = _e(damage or "")
        mark = (_TRACK_MARKS.get(damage, "■") if isinstance(damage, str) else "■") if damage else "□"
        out.append(
            f'\n  <li class="track-box{f" track-{held}" if damage else ""}" data-damage="{held}">\n'
            f'    <span class="track-label">{_o(box, "label")}</span>\n'
            f'    <span class="track-penalty">{"—" if penalty is None else _e(signed(penalty))}</span>\n'
            f'    <span class="track-mark" aria-label="{_e(damage or "empty")}">{mark}</span>\n'
            f'    <span class="track-damage">{held}</span>\n  </li>\n  '
        )
    return mark_safe("".join(out))
