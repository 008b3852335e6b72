"""Template helpers of the character sheet: labels, JSON lookups and the roll chart."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import conditional_escape
from django.utils.translation import get_language

from characters.campaigns.selectors import campaign_rules_digest
from characters.sheet.selectors import label as _label
from rulesets.charts import odds_bars
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


@register.simple_tag(name="sheet_content_key")
def sheet_content_key(character: Any, slug: Any, *values: Any) -> str:
    """``{% sheet_content_key character slug derived effects character.build as key %}``: the key of a
    sheet block kept by what it shows, not by the character's version: the plain values it prints
    (every one the block reads), the campaign's rules, the ruleset and the language. A play-state
    change that leaves the numbers, the effects or the build as they were finds them drawn already
    (``sheet_fragment_key`` changes with every version)."""
    digest = campaign_rules_digest(getattr(character, "campaign", None))
    return f"{getattr(character, 'pk', '')}.{slug}.{digest}.{fragment_key(*values)}"


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


#: What a form's version field prints inside ``{% version_late %}``: a stand-in for the version the
#: form was drawn from, the same in every version, so a cached fragment outlives a change of play state.
VERSION_SLOT = "version-slot"
_VERSION_FIELD = '<input type="hidden" name="version" value="{}">'


class VersionLateNode(template.Node):
    """``{% version_late character.version %}…{% endversion_late %}``: cached forms that post the
    version they were drawn from (a pool's number box sets an absolute value, refused when someone
    changed the character since), each with the version drawn now.

    Inside the block ``drawn_version`` is the stand-in ``VERSION_SLOT``, which those forms print in
    their version field; after the block is rendered, every such field gets the version. So a
    fragment inside (a play-state section: ``_state_section.html``) is keyed by what it shows, not by
    the version: a change of play state draws again only the sections it changed. The whole field is
    replaced, which no escaped text of a page can imitate."""

    def __init__(self, version: template.base.FilterExpression, nodelist: template.NodeList) -> None:
        self.version, self.nodelist = version, nodelist

    def render(self, context: template.Context) -> str:
        with context.push(drawn_version=VERSION_SLOT):
            html = self.nodelist.render(context)
        version = conditional_escape(self.version.resolve(context))
        return html.replace(_VERSION_FIELD.format(VERSION_SLOT), _VERSION_FIELD.format(version))


@register.tag
def version_late(parser: template.base.Parser, token: template.base.Token) -> VersionLateNode:
    """``{% version_late character.version %}…{% endversion_late %}``: see ``VersionLateNode``."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError(
            "version_late takes the version: {% version_late character.version %}"
        )
    nodelist = parser.parse(("endversion_late",))
    parser.delete_first_token()
    return VersionLateNode(parser.compile_filter(bits[1]), nodelist)


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
    # The rolled outcome is said once, by the roll's own line beside the chart (#38, DiceCloud #267): the
    # chart's name says the odds only, and its caption ("Rolled: …") is for the eye.
    aria = f"Odds: {summary}."
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
