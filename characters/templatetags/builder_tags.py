"""Template helpers of the builder, history and homebrew pages."""

from __future__ import annotations

import json
import re
from html import escape as _html_escape

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()


def _label(key) -> str:
    return str(key).replace("_", " ").capitalize()


def _e(value) -> str:
    """``conditional_escape`` without its SafeString wrapping: the hot loops below build one
    string and mark it safe once (format_html per row was most of their time)."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return _html_escape(str(value))


_MUTED_DASH = '<span class="muted">—</span>'
_ID = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")


#: A rules selector ("skill.performance", "lore.sailing"): what it names is the part after the dot.
_DOTTED = re.compile(r"[a-z]+\.([a-z][a-z0-9_]*)")


def _word(value) -> str:
    """A scalar as players read it: a snake_case id (``canny_acumen``) becomes its words, a
    selector (``skill.performance``) the words of what it names ("Performance")."""
    if isinstance(value, str):
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


def _sentence(value: dict) -> str | None:
    """A derived entry the rules already put in words: a modifier's ``text`` (said of what it
    applies to: "Performance: +1 circumstance from …"), or a number's breakdown ("5 → 6: …")."""
    text = value.get("text")
    if isinstance(text, str) and text:
        selector = value.get("selector")
        return f"{_word(selector)}: {text}" if isinstance(selector, str) and selector else text
    if "base" in value and "total" in value and isinstance(value.get("label"), str):
        parts = [str(m["text"]) for m in value.get("applied") or () if isinstance(m, dict) and m.get("text")]
        return f"{value['base']} → {value['total']}" + (f": {', '.join(parts)}" if parts else "")
    return None


def _value_html(value, depth: int = 0) -> str:
    """The HTML of a derived value (already escaped; the caller marks it safe)."""
    if isinstance(value, dict):
        if not value:
            return _MUTED_DASH
        if (sentence := _sentence(value)) is not None:
            return _e(sentence)
        if depth >= 3:
            from characters.templatetags.sheet_tags import pretty

            return _e(pretty(value))  # deep detail in one line of words, never a raw dict
        rows = "".join(
            f'<div class="derived-row"><dt>{_e(_key_label(k, v))}</dt><dd>{_value_html(v, depth + 1)}</dd></div>'
            for k, v in value.items()
        )
        return f'<dl class="derived-list derived-depth-{depth}">{rows}</dl>'
    if isinstance(value, list):
        if not value:
            return _MUTED_DASH
        if all(not isinstance(v, (dict, list)) for v in value):
            return _e(", ".join(_word(v) for v in value))
        return "".join(f"<div>{_value_html(v, depth + 1)}</div>" for v in value)
    if value is None:
        return _MUTED_DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    return _e(_word(value))


@register.simple_tag
def derived_list(derived):
    """The report's derived numbers as nested definition lists (computed in Python: fast)."""
    if not derived:
        return mark_safe('<p class="muted">Nothing derived yet: fix the problems above.</p>')
    return mark_safe(_value_html(derived))


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


# ------------------------------------------------------------------ hot loops, rendered in Python
# A live update re-renders the section that changed; these loops (a skill tree of 60 nodes,
# steppers, option lists) are much faster as Python than as template nodes, and faster again
# as f-strings escaped with ``_e`` than as one format_html per row. The output is the same.


def _issues_html(f) -> str:
    if not f.get("issues"):
        return ""
    rows = "".join(
        f'<li class="issue issue-{_e(i.get("severity", "error"))}" data-code="{_e(i.get("code", ""))}">'
        f"{_e(i.get('message', ''))}</li>"
        for i in f["issues"]
    )
    return f'<ul class="field-issues" id="{_e(f["err_id"])}">{rows}</ul>'


@register.simple_tag
def issues(f):
    """The issues shown beside a control (the list its aria-describedby points at)."""
    return mark_safe(_issues_html(f))


@register.simple_tag
def options(opts, blank=None, titles=False):
    """<option>s of a select, the selected one marked; ``blank`` adds a first empty option;
    ``titles`` shows each option's help as its title (a tooltip)."""
    head = f'<option value="">{_e(blank)}</option>' if blank else ""
    return mark_safe(
        head
        + "".join(
            f'<option value="{_e(o["id"])}"{" selected" if o.get("selected") else ""}'
            f"{_title(o) if titles else ''}>{_e(o.get('label', o['id']))}</option>"
            for o in opts or []
        )
    )


@register.simple_tag
def choice_cards(f):
    """A choice's options as radio cards, each with its rules text in view (the hot path of a
    guided step: Python, like ``options``)."""
    name, dom_id = _e(f["name"]), _e(f["id"])
    value = f.get("value")
    out = []
    if f.get("nullable") or value is None:
        checked = " checked" if value in (None, "") else ""
        out.append(
            f'<label class="choice-card choice-none"><input type="radio" name="{name}" value=""{checked}>'
            ' <span class="choice-label">None yet</span></label>'
        )
    for o in f.get("options") or []:
        oid = _e(o["id"])
        sel = o.get("selected")
        text = f'<span class="choice-text">{_e(o["help"])}</span>' if o.get("help") else ""
        out.append(
            f'<label class="choice-card{" selected" if sel else ""}" for="{dom_id}-{oid}">'
            f'<input type="radio" id="{dom_id}-{oid}" name="{name}" value="{oid}"{" checked" if sel else ""}>'
            f'<span class="choice-label">{_e(o.get("label", o["id"]))}</span>{text}</label>'
        )
    return mark_safe("".join(out))


def _step_status(st) -> str:
    if st["state"] == "complete":
        return '<span class="ok">✓ complete</span>'
    if st["state"] == "error":
        return f"{st['errors']} problem{'s' if st['errors'] != 1 else ''}"
    return "to do"


@register.simple_tag
def step_nav(steps):
    """The creation steps as links, each with its state (Python: it is on every update)."""
    rows = "".join(
        f'<li class="step-link step-{_e(st["state"])}" data-step="{_e(st["id"])}">'
        f'<a href="#{_e(st["dom_id"])}">{st["number"]}. {_e(st["label"])}</a> '
        f'<span class="step-status">{_step_status(st)}</span></li>'
        for st in steps or []
    )
    return mark_safe(f'<ol class="step-nav">{rows}</ol>')


@register.simple_tag
def step_head(st):
    """A step's title, state and rules text."""
    text = f'<p class="step-text">{_e(st["text"])}</p>' if st.get("text") else ""
    return mark_safe(
        f'<h2 class="step-title"><span class="step-number">Step {st["number"]}</span> {_e(st["label"])} '
        f'<span class="step-status">{_step_status(st)}</span></h2>{text}'
    )


def _title(option) -> str:
    return f' title="{_e(option["help"])}"' if option.get("help") else ""


@register.simple_tag
def tree_rows(rows, path):
    """The nodes of one branch of a skill tree: learned / available / locked (and why)."""
    out = []
    path = _e(path)
    for f in rows:
        dom_id = _e(f["id"])
        if f.get("issues"):
            invalid = ' aria-invalid="true"' if has_error(f["issues"]) else ""
            described = f' aria-describedby="{_e(f["err_id"])}"{invalid}'
        elif f.get("reason"):
            described = f' aria-describedby="{dom_id}-why"'
        else:
            described = ""
        cost = f"{f['cost']}" if f.get("cost") else "free"
        level = f" · L{f['level']}" if f.get("level") else ""
        why = f'<span class="node-why" id="{dom_id}-why">{_e(f["reason"])}</span>' if f.get("reason") else ""
        depth = _e(f.get("depth", 0))
        out.append(
            f'<li class="tree-node node-{_e(f.get("state", ""))} depth-{depth}{" has-error" if has_error(f.get("issues")) else ""}"'
            f' style="--depth: {depth}">'
            f'<input type="checkbox" id="{dom_id}" name="{path}" value="{_e(f["node_id"])}"'
            f"{' checked' if f.get('checked') else ''}{described}>"
            f'<label for="{dom_id}">{_e(f["label"])} <span class="node-cost">{_e(cost)}{_e(level)}</span></label>'
            f"{why}{_issues_html(f)}</li>"
        )
    return mark_safe("".join(out))


@register.simple_tag
def stepper(f, url):
    """A number with − / + buttons (plain submits without JavaScript) and the cost of the next point.

    Each button has an id (the number's, then -lower / -raise) so that the focus returns to it
    after the swap that replaces it (static/js/app.js gives the focus back by id)."""
    bounds = ""
    if f.get("min") is not None:
        bounds += f' min="{_e(f["min"])}"'
    if f.get("max") is not None:
        bounds += f' max="{_e(f["max"])}"'
    value = "" if f.get("value") is None else f["value"]
    if f.get("at_max"):
        nxt = "maximum"
    elif f.get("next_text"):
        nxt = "next: " + f["next_text"]
    elif f.get("next"):
        nxt = "next: free"
    else:
        nxt = ""
    raise_label = f"Raise {f['label']}" + (f" ({f['next_text']})" if f.get("next_text") else "")
    dom_id, label, name, url = _e(f["id"]), _e(f["label"]), _e(f["name"]), _e(url)
    return mark_safe(
        f'<div class="stepper-row{" has-error" if has_error(f.get("issues")) else ""}"><label for="{dom_id}">{label}</label>'
        f'<div class="stepper">'
        f'<button type="submit" class="btn btn-small step" id="{dom_id}-lower" name="_step" value="{name}|-1" hx-post="{url}"'
        f"{' disabled' if f.get('at_min') else ''} "
        f'aria-label="Lower {label}" aria-controls="{dom_id}">−</button>'
        f'<input type="number" inputmode="numeric" id="{dom_id}" name="{name}" value="{_e(value)}"{bounds}'
        f"{_e(describedby(f))}>"
        f'<button type="submit" class="btn btn-small step" id="{dom_id}-raise" name="_step" value="{name}|1" hx-post="{url}"'
        f"{' disabled' if f.get('at_max') else ''} "
        f'aria-label="{_e(raise_label)}" aria-controls="{dom_id}">+</button></div>'
        f'<span class="next-cost" id="{dom_id}-next">{_e(nxt)}</span>{_issues_html(f)}</div>'
    )


@register.simple_tag
def creation_dots(item):
    """A row of dots, each of its kind ("base", "free", "xp"…), for a ruleset's dot widget
    (every dot can change with one edit: a hot loop, so no template loop)."""
    dots = [_e(d) for d in item.get("dots") or []]
    final = item.get("final") or 0
    return mark_safe(
        f'<span class="dots" role="img" aria-label="{_e(item.get("label", ""))} {_e(final)}: {", ".join(dots)}">'
        + "".join(f'<span class="dot {d}"></span>' for d in dots)
        + "</span>"
    )


# ------------------------------------------------------------------ sections, re-rendered only when they change
# A live update changes one control, so most sections come out exactly as on the update before.
# A section's HTML is a function of its model (built by ``builder_form``) and the builder's URL
# alone, so the last HTML of each section of each builder is kept with a fingerprint of what it
# was rendered from, and reused while the fingerprint is the same. The fingerprint is the repr of
# the model (repr, not ==: True == 1 but they render differently); the template object is part
# of it, so that without the cached loader (DEBUG) an edited template is never masked.

_SECTION_HTML: dict[tuple[str, str], tuple[object, str, str]] = {}
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
        return mark_safe(hit[2])
    # Only these two: the fingerprint above must be all the section's HTML depends on.
    html = template.render(context.new({"section": section, "builder_url": builder_url}))
    if len(_SECTION_HTML) >= _SECTION_HTML_MAX:
        _SECTION_HTML.clear()
    _SECTION_HTML[key] = (template, fingerprint, html)
    return mark_safe(html)


@register.filter
def has_error(issues) -> bool:
    """Whether a control's issues hold an error (a warning alone draws no red border)."""
    return any(i.get("severity", "error") == "error" for i in issues or ())
