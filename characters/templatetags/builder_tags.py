"""Template helpers of the builder, history and homebrew pages.

The builder's repeated pieces (options, choice cards, steppers, a skill tree's nodes, the derived
numbers) are named partials of ``characters/builder/_builder_rows.html``; the tags below work out only the
plain values they print, in the ruleset's words (``label``: the same function the sheet uses)."""

from __future__ import annotations

import json
import re

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from characters.sheet.selectors import label as _label
from characters.templatetags.sheet_tags import pretty

register = template.Library()

ROWS = "characters/builder/_builder_rows.html"
_ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


#: A rules selector ("skill.performance", "lore.sailing"): what it names is the part after the dot.
_DOTTED = re.compile(r"[a-z]+\.([a-z][a-z0-9_]*)")


#: One lower-case word ("fleet", "warfare"): an id when the ruleset's catalogues name it.
_WORD_ID = re.compile(r"[a-z][a-z0-9]*")


def _word(value, names: dict[str, str] | None = None) -> str:
    """A scalar as players read it: a content id its catalogue name ("fleet" → "Fleet", "power_attack"
    → "Power Attack"), a snake_case id (``canny_acumen``) its words, a selector
    (``skill.performance``) the words of what it names ("Performance")."""
    if isinstance(value, str):
        names = names or {}
        if (_ID.fullmatch(value) or _WORD_ID.fullmatch(value)) and value in names:
            return names[value]
        if _ID.fullmatch(value):
            return _label(value)
        if dotted := _DOTTED.fullmatch(value):
            return _label(dotted.group(1))
    return str(value)


def _key_label(key, value) -> str:
    """A derived row's head: the entry's own label when it has one, else its key in words."""
    if isinstance(value, dict) and isinstance(value.get("label"), str) and value["label"]:
        return value["label"]
    dotted = _DOTTED.fullmatch(str(key))
    return _label(dotted.group(1) if dotted else key)


def _sentence(value: dict, names: dict[str, str] | None = None) -> str | None:
    """A derived entry the rules already put in words: a modifier's ``text`` (said of what it
    applies to: "Performance: +1 circumstance from …"), or a number's breakdown ("5 → 6: …")."""
    text = value.get("text")
    if isinstance(text, str) and text:
        selector = value.get("selector")
        if isinstance(selector, str) and selector:
            # A one-word selector is a key ("perception"): its label ("Perception").
            head = _word(selector, names) if not _WORD_ID.fullmatch(selector) else _label(selector)
            return f"{head}: {text}"
        return text
    if "base" in value and "total" in value and isinstance(value.get("label"), str):
        parts = [str(m["text"]) for m in value.get("applied") or () if isinstance(m, dict) and m.get("text")]
        return f"{value['base']} → {value['total']}" + (f": {', '.join(parts)}" if parts else "")
    return None


def derived_node(value, depth: int = 0, names: dict[str, str] | None = None) -> dict:
    """A derived value as ``derived-node`` prints it: a definition list of its labelled parts (three
    deep at most, deeper detail in one line of words), a line of words, or a dash for nothing."""
    if isinstance(value, dict):
        if not value:
            return {"k": "dash"}
        if (sentence := _sentence(value, names)) is not None:
            return {"k": "text", "text": sentence}
        if (named := _named(value, names)) is not None:
            return {"k": "text", "text": named}
        if depth >= 3:
            return {"k": "text", "text": pretty(value)}  # deep detail in one line of words, never a raw dict
        return {
            "k": "dl",
            "depth": depth,
            "rows": [(_key_label(k, v), derived_node(v, depth + 1, names)) for k, v in value.items()],
        }
    if isinstance(value, list):
        if not value:
            return {"k": "dash"}
        if all(not isinstance(v, (dict, list)) for v in value):
            return {"k": "text", "text": ", ".join(_word(v, names) for v in value)}
        if all(isinstance(v, dict) and _named(v, names) is not None for v in value):
            return {"k": "text", "text": ", ".join(_named(v, names) or "" for v in value)}
        return {"k": "divs", "items": [derived_node(v, depth + 1, names) for v in value]}
    if value is None:
        return {"k": "dash"}
    if isinstance(value, bool):
        return {"k": "text", "text": "yes" if value else "no"}
    return {"k": "text", "text": _word(value, names)}


def _named(value: dict, names: dict[str, str] | None = None) -> str | None:
    """An entry that names itself (``{"id", "label", "source"}``, scalars only): its label, and where
    it comes from when that says more ("Power Attack", "Darkvision (from Dwarf)"), never its keys."""
    label = value.get("label") or value.get("name")
    if not isinstance(label, str) or not label or any(isinstance(v, (dict, list)) for v in value.values()):
        return None
    source = value.get("source")
    source = _word(source, names) if isinstance(source, str) and source else ""
    return f"{label} (from {source})" if source and source != label else label


@register.inclusion_tag(f"{ROWS}#derived-list", takes_context=True)
def derived_list(context, derived):
    """The report's derived numbers as nested definition lists, content ids by their names."""
    from characters.templatetags.advancement_tags import _content_names

    ruleset = context.get("ruleset")
    slug = getattr(ruleset, "slug", None) or getattr(context.get("character"), "ruleset", None)
    names = _content_names(slug) if slug else {}
    return {"n": derived_node(derived, names=names) if derived else None}


@register.filter
def jsonvalue(value) -> str:
    """A build value for people: strings bare, the rest as compact JSON."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value) if value else "—"
    return json.dumps(value, ensure_ascii=False)


@register.filter
def signed(value) -> str:
    try:
        return f"{int(value):+d}"
    except (TypeError, ValueError):
        return str(value)


@register.filter
def describedby(field) -> str:
    """The aria-describedby attribute of a control with issues (its error list's id)."""
    if field and field.get("issues"):
        if has_error(field["issues"]):
            return format_html(' aria-describedby="{}" aria-invalid="true"', field["err_id"])
        return format_html(' aria-describedby="{}"', field["err_id"])
    return ""


@register.inclusion_tag(f"{ROWS}#issues")
def issues(f):
    """The issues shown beside a control (the list its aria-describedby points at)."""
    return {"f": f}


@register.inclusion_tag(f"{ROWS}#options")
def options(opts, blank=None, titles=False):
    """<option>s of a select, the selected one marked; ``blank`` adds a first empty option;
    ``titles`` shows each option's help as its title (a tooltip)."""
    rows = [
        {
            "id": o["id"],
            "label": o.get("label", o["id"]),
            "selected": o.get("selected"),
            "title": o.get("help") if titles else None,
        }
        for o in opts or []
    ]
    return {"options": rows, "blank": blank}


@register.inclusion_tag(f"{ROWS}#choice-cards")
def choice_cards(f):
    """A choice's options as radio cards, each with its rules text in view."""
    value = f.get("value")
    cards = [
        {
            "id": o["id"],
            "label": o.get("label", o["id"]),
            "selected": o.get("selected"),
            "help": o.get("help"),
        }
        for o in f.get("options") or []
    ]
    return {
        "name": f["name"],
        "dom_id": f["id"],
        "none": f.get("nullable") or value is None,
        "none_checked": value in (None, ""),
        "cards": cards,
    }


@register.inclusion_tag(f"{ROWS}#step-nav")
def step_nav(steps):
    """The creation steps as links, each with its state."""
    return {"steps": steps or []}


@register.inclusion_tag(f"{ROWS}#step-head")
def step_head(st):
    """A step's title, state and rules text."""
    return {"st": st}


@register.inclusion_tag(f"{ROWS}#tree-rows")
def tree_rows(rows, path):
    """The nodes of one branch of a skill tree: learned / available / locked (and why)."""
    nodes = []
    for f in rows:
        if f.get("issues"):
            described = ("issues", f["err_id"], has_error(f["issues"]))
        elif f.get("reason"):
            described = ("why", f"{f['id']}-why", False)
        else:
            described = None
        nodes.append(
            {
                "f": f,
                "described": described,
                "cost": f"{f['cost']}" if f.get("cost") else "free",
                "level": f" · L{f['level']}" if f.get("level") else "",
                "depth": f.get("depth", 0),
                "error": has_error(f.get("issues")),
            }
        )
    return {"nodes": nodes, "path": path}


@register.inclusion_tag(f"{ROWS}#stepper")
def stepper(f, url):
    """A number with − / + buttons (plain submits without JavaScript) and the cost of the next point.

    Each button has an id (the number's, then -lower / -raise) so that the focus returns to it
    after the swap that replaces it (static/js/app.js gives the focus back by id)."""
    if f.get("at_max"):
        nxt = "maximum"
    elif f.get("next_text"):
        nxt = "next: " + f["next_text"]
    elif f.get("next"):
        nxt = "next: free"
    else:
        nxt = ""
    return {
        "f": f,
        "url": url,
        "value": "" if f.get("value") is None else f["value"],
        "next": nxt,
        "raise_label": f"Raise {f['label']}" + (f" ({f['next_text']})" if f.get("next_text") else ""),
        "error": has_error(f.get("issues")),
    }


@register.inclusion_tag(f"{ROWS}#creation-dots")
def creation_dots(item):
    """A row of dots, each of its kind ("base", "free", "xp"…), for a ruleset's dot widget."""
    return {
        "label": item.get("label", ""),
        "final": item.get("final") or 0,
        "dots": list(item.get("dots") or []),
    }


# ------------------------------------------------------------------ sections, re-rendered only when they change
# A live update changes one control, so most sections come out exactly as on the update before.
# A section's HTML is a function of its model (built by ``builder_form``) and the builder's URL
# alone, so the last HTML of each section of each builder is kept with a fingerprint of what it
# was rendered from, and reused while the fingerprint is the same. The fingerprint is the repr of
# the model (repr, not ==: True == 1 but they render differently); the template object is part
# of it, so that without the cached loader (DEBUG) an edited template is never masked.

_SECTION_HTML: dict[tuple[str, str], tuple[object, str, SafeString]] = {}
_SECTION_HTML_MAX = 4096


def section_fingerprint(section: dict) -> str:
    """What a section's HTML depends on: its model less the raw traits (which it copies from)."""
    return repr([(k, v) for k, v in section.items() if k != "raw"])


@register.simple_tag(takes_context=True)
def builder_section(context, section):
    """One section of the builder form, rendered with only its model and the builder's URL."""
    builder_url = context.get("builder_url", "")
    names = section["template"]  # a name, or the names to try in turn (a ruleset's widget, then a fallback)
    engine = context.template.engine
    template = engine.get_template(names) if isinstance(names, str) else engine.select_template(names)
    key = (builder_url, section.get("dom_id", ""))
    fingerprint = section_fingerprint(section)
    hit = _SECTION_HTML.get(key)
    if hit is not None and hit[0] is template and hit[1] == fingerprint:
        return hit[2]
    # Only these two: the fingerprint above must be all the section's HTML depends on. The
    # template engine's answer is a SafeString (escaped as it rendered), kept and returned as is.
    html = template.render(context.new({"section": section, "builder_url": builder_url}))
    if len(_SECTION_HTML) >= _SECTION_HTML_MAX:
        _SECTION_HTML.clear()
    _SECTION_HTML[key] = (template, fingerprint, html)
    return html


@register.filter
def has_error(issues) -> bool:
    """Whether a control's issues hold an error (a warning alone draws no red border)."""
    return any(i.get("severity", "error") == "error" for i in issues or ())
