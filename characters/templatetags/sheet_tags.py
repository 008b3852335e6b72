"""Template helpers of the character sheet: labels, JSON lookups and the roll chart."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.translation import get_language

from characters.campaigns.selectors import campaign_rules_digest
from characters.sheet.selectors import label as _label
from rulesets.charts import odds_bars
from rulesets.engine import words
from rulesets.engine.fields import parse_whole_number

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


@register.simple_tag(takes_context=True, name="sheet_fragment_key")
def sheet_fragment_key_tag(context: Any, character: Any, slug: Any) -> str:
    """``{% sheet_fragment_key character slug as key %}``: ``sheet_fragment_key`` (the campaign's
    rules are digested once per loaded campaign, ``campaign_rules_digest``)."""
    return sheet_fragment_key(character, slug)


def sheet_fragment_key(character: Any, slug: Any) -> str:
    """The key of the sheet's cached blocks (``{% cache %}`` in sheet.html): everything the rules work
    them out from. The character and its version (every change of build or play state makes a new
    version), the campaign's settings (house rules) and homebrew, the ruleset and the language.
    Nothing of the viewer: a block that prints something of the viewer adds it to its ``{% cache %}``
    (the play state: whether the viewer may edit it; the equipment: the build) and keeps their CSRF
    tokens out (``{% csrf_late %}``); the derived numbers, effects and build hold nothing of the viewer."""
    digest = campaign_rules_digest(getattr(character, "campaign", None))
    return (
        f"{getattr(character, 'pk', '')}.{getattr(character, 'version', '')}.{slug}.{digest}.{get_language()}"
    )


@register.simple_tag
def fragment_key(*values: Any) -> str:
    """The key of a cached fragment made from the very plain values (dicts, lists, strings, numbers)
    it prints, and the language: ``{% fragment_key rolls as k %}{% cache 600 roll-log k %}…``. Such a
    fragment cannot be stale, nor shown to a viewer whose values differ (they make another key); it
    must read nothing else (no CSRF token, no request)."""
    digest = hashlib.blake2b(repr(values).encode(), digest_size=16).hexdigest()
    return f"{digest}.{get_language()}"


#: What ``{% csrf_token %}`` prints inside ``{% csrf_late %}``: a stand-in for the token, the same
#: for every viewer, so a cached fragment holds no one's token.
CSRF_SLOT = "csrf-token-slot"


class CsrfLateNode(template.Node):
    """``{% csrf_late %}{% cache … %}…forms…{% endcache %}{% endcsrf_late %}``: cached forms, each
    with this request's own CSRF token.

    Inside the block ``{% csrf_token %}`` prints the stand-in ``CSRF_SLOT``, so what the fragment
    cache keeps (and may serve to another viewer whose key is the same: the GM and the owner both
    editing the play state) holds no token; after the cache, every stand-in input becomes the input
    Django's own tag prints for this request. Why not cache the tokens: a masked token is accepted
    with the CSRF cookie whose secret it masks (any earlier mask of the same secret too), so a
    fragment cached with one viewer's token would make every other viewer's plain (no-JavaScript)
    post fail with 403 — the form field is read before the ``X-CSRFToken`` header htmx sends
    (``<body hx-headers>``), so the header would not save it. Keying the fragment by the cookie's
    secret would be correct but would cache per browser; this way one render serves every viewer
    with the same rights."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        with context.push(csrf_token=CSRF_SLOT):
            html = self.nodelist.render(context)
            slot = CsrfTokenNode().render(context)
        return html.replace(slot, CsrfTokenNode().render(context))


@register.tag
def csrf_late(parser: template.base.Parser, token: template.base.Token) -> CsrfLateNode:
    """``{% csrf_late %}…{% endcsrf_late %}``: see ``CsrfLateNode``."""
    nodelist = parser.parse(("endcsrf_late",))
    parser.delete_first_token()
    return CsrfLateNode(nodelist)


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
        "label_x": LABEL_WIDTH - 6,
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


# ------------------------------------------------------------------ rows of the sheet
# The sheet's repeated rows (roll buttons, the play-state sections' forms, the derived numbers…)
# are named partials of ``characters/sheet/_sheet_rows.html``; each tag below only works out the plain
# values its partial prints (labels, signs, dots…), and the template engine escapes them. What
# does not change between requests (the derived numbers) is cached as a fragment by sheet.html.

from django.utils.html import format_html  # noqa: E402

ROWS = "characters/sheet/_sheet_rows.html"

_MISSING = object()


def _o(obj: Any, key: str) -> Any:
    """A lookup as ``{{ obj.key }}`` prints it: a failed one prints nothing."""
    if isinstance(obj, dict):
        value = obj.get(key, _MISSING)
        if value is not _MISSING:
            return value
    return ""


def _g(obj: Any, key: str) -> Any:
    """A lookup as ``{% if obj.key %}`` reads it: a failed one is None."""
    return obj.get(key) if isinstance(obj, dict) else None


def _seq(value: Any) -> list[Any]:
    """``{% for x in value %}``'s sequence of a JSON value: anything but a list loops nothing."""
    return list(value) if isinstance(value, (list, tuple)) else []


@register.inclusion_tag(f"{ROWS}#roll-buttons", takes_context=True)
def roll_buttons(context: Any) -> dict[str, Any]:
    """The Dice block's groups of roll buttons (``roll_groups``: views_sheet._roll_groups), inside
    the block's one form (sheet.html): each button posts the form (the table's numbers, the GM's
    private toggle) with its roll, and its result lands in the live region right below it."""
    groups = context.get("roll_groups")
    rows = [
        (
            group,
            [{k: _o(r, k) for k in ("id", "sid", "label")} | {k: _g(r, k) for k in _ROLL_EXTRA} for r in rs],
        )
        for group, rs in (groups.items() if isinstance(groups, dict) else ())
    ]
    return {"groups": rows, "url": context.get("roll_url", ""), "is_draft": context.get("is_draft")}


_ROLL_EXTRA = ("request_text", "cost", "reason", "disabled", "afford")


def _field(field: dict[str, Any]) -> dict[str, Any]:
    default = _g(field, "default")
    return {
        "fid": _o(field, "fid"),
        "name": _o(field, "name"),
        "label": _o(field, "label"),
        "type": _g(field, "type"),
        "default": default,
        "min": _g(field, "min"),
        "max": _g(field, "max"),
        "options": [
            {"value": _o(opt, "value"), "label": _o(opt, "label"), "selected": _g(opt, "value") == default}
            for opt in (_g(field, "options") or ())
        ],
    }


@register.inclusion_tag(f"{ROWS}#state-action-forms", takes_context=True)
def state_action_forms(context: Any, section: Any) -> dict[str, Any]:
    """A play-state section's action forms (``form_fields``: views_sheet._action_view)."""
    actions = [
        {
            "action": _o(action, "action"),
            "label": _g(action, "label") or _o(action, "action"),
            "button_id": _o(action, "button_id"),
            "fields": [_field(f) for f in _seq(_g(action, "form_fields")) if isinstance(f, dict)],
        }
        for action in (_g(section, "actions") or ())
    ]
    return {"actions": actions, "url": context.get("action_url", "")}


def _gt_zero(value: Any) -> bool:
    try:
        return bool(value > 0)
    except TypeError:
        return False


@register.inclusion_tag(f"{ROWS}#state-pools", takes_context=True)
def state_pools(context: Any, section: Any) -> dict[str, Any]:
    """A "pools" section's items: value, meter, −/+ buttons and the typed value (``steps``:
    views_sheet._pool_steps). −/+ are steps applied to the value the pool has when they arrive;
    the number box is an absolute value, sent with the version this page shows (refused when stale)."""
    items = []
    for item in _g(section, "items") or ():
        high = _g(item, "max")
        items.append(
            {
                "id": _o(item, "id"),
                "label": _o(item, "label"),
                "value": _o(item, "value"),
                "status": _g(item, "status"),
                "max": high,
                "min": _g(item, "min"),
                "meter": high is not None and _gt_zero(high),
                "path": _g(item, "path"),
                "steps": [
                    {k: _o(step, k) for k in ("delta", "dir", "verb", "sign")}
                    | {"disabled": _g(step, "disabled")}
                    for step in (_g(item, "steps") or ())
                ],
            }
        )
    return {
        "items": items,
        "sid": _o(section, "id"),
        "url": context.get("action_url", ""),
        "edit": context.get("can_edit_state"),
        "version": getattr(context.get("character"), "version", ""),
    }


@register.inclusion_tag(f"{ROWS}#roll-log-rows")
def roll_log_rows(rolls: Any) -> dict[str, Any]:
    """The roll log's table rows (``rolls``: views_sheet._roll_rows)."""
    keys = ("pk", "when_iso", "when", "who", "sheet_url", "detail_url", "label", "text")
    return {"rolls": [{k: _o(roll, k) for k in keys} for roll in rolls or ()]}


def value_view(value: Any) -> dict[str, Any]:
    """A value of the build, the derived numbers or the effects, as its partial prints it: one
    line of words, a table or list of labelled words, or a list."""
    k = kind(value)
    if k in ("scalar", "flag", "list"):
        return {"kind": "text", "text": pretty(value)}
    if k in ("table", "nested"):
        return {"kind": k, "rows": [(key, _label(key), pretty(v)) for key, v in value.items()]}
    return {"kind": "rows", "items": [pretty(v) for v in value]}


@register.inclusion_tag(f"{ROWS}#sheet-value")
def sheet_value(value: Any) -> dict[str, Any]:
    """A value of the build, the derived numbers or the effects."""
    return {"v": value_view(value)}


@register.inclusion_tag(f"{ROWS}#skill-rows")
def skill_rows(skills: Any, effects: Any) -> dict[str, Any]:
    """Table rows of named modifiers (``skills``: {id: modifier}) and, where the play state's effects
    lower one (``effects.checks["skill.<id>"]``), the lowered modifier beside it."""
    rows = []
    checks = effects.get("checks", "") if isinstance(effects, dict) else ""
    for key, value in skills.items() if isinstance(skills, dict) else ():
        now = get(checks, f"skill.{key}") if isinstance(key, str) else get(checks, "")
        modifier = now.get("modifier") if now and isinstance(now, dict) else None
        lowered = signed(modifier) if modifier is not None and modifier != value else None
        rows.append({"key": key, "label": _label(key), "value": signed(value), "lowered": lowered})
    return {"rows": rows}


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
        return format_html('<span class="muted">{}</span>', "—")
    most = max(most, n)
    return format_html(
        '<span class="dots" role="img" aria-label="{} of {}">{}<span class="dot-empty">{}</span></span>',
        n,
        most,
        "●" * n,
        "○" * (most - n),
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
def tally(value: Any, words: Any = "●,,") -> str:
    """``{{ 2|tally:"♥,heart,hearts" }}``: a count drawn with its mark (♥♥) and said ("2 hearts");
    ``words`` is the mark, the thing's name and its plural, as the ruleset's template says them."""
    mark, _, names = str(words).partition(",")
    one, _, many = names.partition(",")
    n = _count(value)
    if n is None or n < 0:
        return format_html('<span class="muted">{}</span>', "—")
    return format_html(
        '<span class="tally" aria-hidden="true">{}</span><span class="visually-hidden">{}{}</span>{}',
        (mark or "●") * min(n, 20),
        n,
        f" {one if n == 1 else (many or one)}" if one else "",
        f" {n}" if n > 20 else "",
    )


@register.filter
def a_an(word: Any) -> str:
    """``{{ "Orc"|a_an }}`` → "an Orc", ``{{ "ancestry"|a_an }}`` → "an ancestry": the
    article by the word's first sound (the engine's ``words.a``, which the rules' messages use too)."""
    return words.a(word)


@register.filter
def where(pointer: Any) -> str:
    """``{{ "/skills/0/id"|where }}`` → "Skills, entry 1, id": where an issue is, in words."""
    return words.where(pointer)


@register.inclusion_tag(f"{ROWS}#derived-rows")
def derived_rows(derived: Any, skip: Any = "") -> dict[str, Any]:
    """The generic Numbers list's entries (``characters/sheet/_sheet_derived.html``): every derived value
    but those ``skip`` names (``"a,b"``), each labelled; none, and nothing skipped, says so."""
    rows = [(key, _label(key), value_view(value)) for key, value in without(derived, skip)]
    return {"rows": rows, "skip": skip}


@register.inclusion_tag(f"{ROWS}#kv-rows")
def kv_rows(mapping: Any, prefix: str = "", sign: bool = False, third: Any = None) -> dict[str, Any]:
    """Table rows of a dict: ``<tr data-key="<prefix><key>"><th>label</th><td>value</td></tr>``,
    the value ``signed`` if ``sign``; with ``third`` (a dict), a third cell with its value of the
    same key ("—" where it has none)."""
    rows = []
    for key, value in mapping.items() if isinstance(mapping, dict) else ():
        found = get(third, key) if third is not None else None
        rows.append(
            {
                "key": key,
                "label": _label(key),
                "value": signed(value) if sign else value,
                "third": "—" if found is None else found,
            }
        )
    return {"rows": rows, "prefix": prefix, "has_third": third is not None}


@register.inclusion_tag(f"{ROWS}#breakdown-rows")
def breakdown_rows(breakdown: Any) -> dict[str, Any]:
    """Where each number comes from: ``{key: {label, base, total, applied: [{text}], ignored:
    [{text, reason}]}}`` as ``<div data-key="breakdown-<key>"><dt>…</dt><dd>base → total…</dd></div>``."""
    rows = [
        {
            "key": key,
            "label": _o(part, "label"),
            "base": _o(part, "base"),
            "total": _o(part, "total"),
            "applied": [_o(m, "text") for m in _seq(_g(part, "applied"))],
            "ignored": [(_o(m, "text"), _o(m, "reason")) for m in _seq(_g(part, "ignored"))],
        }
        for key, part in (breakdown.items() if isinstance(breakdown, dict) else ())
    ]
    return {"rows": rows}


@register.inclusion_tag(f"{ROWS}#dot-options")
def dot_options(options: Any, top: Any = 5) -> dict[str, Any]:
    """``<option>``s of rated choices (``[{id, name, dots, selected?, disabled?, note?}]``): "Name ●●○○○ 2",
    its note after a dash."""
    rows = [
        {
            "id": _o(o, "id"),
            "name": _o(o, "name"),
            "selected": _g(o, "selected"),
            "disabled": _g(o, "disabled"),
            "dots": dot_text(o.get("dots", "") if isinstance(o, dict) else "", top),
            "note": _g(o, "note"),
        }
        for o in _seq(options)
    ]
    return {"options": rows}


def _body_part(p: Any) -> dict[str, Any]:
    shape = _g(p, "shape")
    gear = _g(p, "equipment")
    return {
        "id": _o(p, "id"),
        "label": _o(p, "label"),
        "harm": _o(p, "harm"),
        "status": _g(p, "status"),
        "css": _g(p, "status") or "healthy",
        "vital": _g(p, "vital"),
        "max": _g(p, "max"),
        "protection": pretty(p.get("protection", "") if isinstance(p, dict) else ""),
        "gear": gear,
        "shape": _g(shape, "shape"),
        "d": {k: _o(shape, k) for k in ("cx", "cy", "r", "x", "y", "width", "height", "rx")},
    }


@register.simple_tag
def body_parts(items: Any) -> list[dict[str, Any]]:
    """The body section's parts (``characters/sheet/_state_body.html``) as its diagram and table print them:
    ``{% body_parts section.items as parts %}``."""
    return [_body_part(p) for p in _seq(items)]


@register.inclusion_tag(f"{ROWS}#preview-options")
def preview_options(previews: Any, chosen: Any) -> dict[str, Any]:
    """The odds preview's ``<option>``s (``roll_previews``: [{id, label}]), the ``chosen`` roll selected."""
    return {
        "options": [
            {"id": _o(p, "id"), "label": _o(p, "label"), "selected": _g(p, "id") == chosen}
            for p in previews or ()
        ]
    }


@register.inclusion_tag(f"{ROWS}#roll-number-fields")
def roll_number_fields(numbers: Any) -> dict[str, Any]:
    """The Dice form's fields of the table's numbers (``roll_numbers``: sheet.selectors.roll_inputs):
    a select of its choices, else a number box within its bounds."""
    fields = []
    for n in numbers or ():
        value = _g(n, "value")
        choices = _seq(n.get("choices") if isinstance(n, dict) else None)
        fields.append(
            {
                "name": _o(n, "name"),
                "label": _o(n, "label"),
                "choice": _g(n, "kind") == "choice",
                "value": _o(n, "value"),
                "min": _g(n, "min"),
                "max": _g(n, "max"),
                "choices": [(c, _label(c), c == value) for c in choices],
            }
        )
    return {"fields": fields}


@register.inclusion_tag(f"{ROWS}#equipment-rows", takes_context=True)
def equipment_rows(context: Any) -> dict[str, Any]:
    """The gear block's items (``equipment``: the ruleset's ``equipment`` hook), each with its state
    and, where it has states and the viewer may edit the build, the form that changes it."""
    from django.urls import reverse

    character, editable = context["character"], context.get("can_edit_build")
    states = [
        (s[0], s[1]) if isinstance(s, (list, tuple)) else (s, s)
        for s in context.get("equipment_states") or ()
    ]
    rows = []
    for row in context.get("equipment") or ():
        state = row.get("state")
        form = bool(row.get("has_state") and editable and states)
        keep = row.get("keep") or {}
        rows.append(
            {
                "index": row["index"],
                "name": row["name"],
                "state": state,
                "state_label": row.get("state_label") or state or "",
                "has_state": bool(row.get("has_state")),
                "detail": row.get("detail") or "",
                "keep": [(k, v) for k, values in keep.items() for v in values]
                if isinstance(keep, dict)
                else [],
                "url": reverse("character_equipment", args=[character.id, row["index"]]) if form else "",
                "options": [(s, words, s == state) for s, words in states] if form else (),
            }
        )
    return {"rows": rows}


@register.inclusion_tag(f"{ROWS}#dot-traits")
def dot_traits(mapping: Any, top: Any = 5) -> dict[str, Any]:
    """A ``<dl>``'s entries of rated traits (``{key: dots}``): the label, the dots out of ``top``."""
    rows = [(key, _label(key), value) for key, value in mapping.items()] if isinstance(mapping, dict) else []
    return {"rows": rows, "top": top}


@register.inclusion_tag(f"{ROWS}#track-boxes")
def track_boxes(items: Any) -> dict[str, Any]:
    """A "track" section's boxes (``characters/sheet/_state_track.html``): label, penalty, the damage
    held and its mark (the box's own ``mark``, as the ruleset draws that damage; else a filled box),
    and how serious the ruleset says that damage is (``severity``, 1 up: the box's shade)."""
    boxes = []
    for box in _seq(items):
        damage, penalty, severity = _g(box, "damage"), _g(box, "penalty"), _g(box, "severity")
        boxes.append(
            {
                "label": _o(box, "label"),
                "held": damage or "",
                "penalty": "—" if penalty is None else signed(penalty),
                "mark": (_g(box, "mark") or "■") if damage else "□",
                "said": damage or "empty",
                "severity": severity if damage and isinstance(severity, int) else "",
            }
        )
    return {"boxes": boxes}
