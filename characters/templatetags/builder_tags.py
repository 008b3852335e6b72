"""Template helpers of the builder, history and homebrew pages."""

from __future__ import annotations

import json

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

register = template.Library()


def _label(key) -> str:
    return str(key).replace("_", " ").capitalize()


def _value_html(value, depth: int = 0):
    if isinstance(value, dict):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        if depth >= 3:
            return format_html("<code>{}</code>", json.dumps(value, ensure_ascii=False))
        rows = format_html_join(
            "", "<div class=\"derived-row\"><dt>{}</dt><dd>{}</dd></div>",
            ((_label(k), _value_html(v, depth + 1)) for k, v in value.items()),
        )
        return format_html('<dl class="derived-list derived-depth-{}">{}</dl>', depth, rows)
    if isinstance(value, list):
        if not value:
            return mark_safe('<span class="muted">—</span>')
        if all(not isinstance(v, (dict, list)) for v in value):
            return format_html("{}", ", ".join(str(v) for v in value))
        return format_html_join("", "<div>{}</div>", ((_value_html(v, depth + 1),) for v in value))
    if value is None:
        return mark_safe('<span class="muted">—</span>')
    if isinstance(value, bool):
        return "yes" if value else "no"
    return format_html("{}", value)


@register.simple_tag
def derived_list(derived):
    """The report's derived numbers as nested definition lists (computed in Python: fast)."""
    if not derived:
        return mark_safe('<p class="muted">Nothing derived yet: fix the problems above.</p>')
    return _value_html(derived)


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
        return format_html(' aria-describedby="{}" aria-invalid="true"', field["err_id"])
    return ""


# ------------------------------------------------------------------ hot loops, rendered in Python
# The live update re-renders the whole form on every change; these loops (a skill tree of
# 60 nodes, steppers, option lists) are ~10× faster as format_html than as template nodes.


def _issues_html(f) -> str:
    if not f.get("issues"):
        return ""
    return format_html(
        '<ul class="field-issues" id="{}">{}</ul>', f["err_id"],
        format_html_join("", '<li class="issue issue-{}" data-code="{}">{}</li>',
                         ((i.get("severity", "error"), i.get("code", ""), i.get("message", "")) for i in f["issues"])),
    )


@register.simple_tag
def issues(f):
    """The issues shown beside a control (the list its aria-describedby points at)."""
    return _issues_html(f)


@register.simple_tag
def options(opts, blank=None):
    """<option>s of a select, the selected one marked; ``blank`` adds a first empty option."""
    head = format_html('<option value="">{}</option>', blank) if blank else mark_safe("")
    return head + format_html_join(
        "", '<option value="{}"{}>{}</option>',
        ((o["id"], mark_safe(" selected") if o.get("selected") else "", o.get("label", o["id"])) for o in opts or []),
    )


@register.simple_tag
def tree_rows(rows, path):
    """The nodes of one branch of a skill tree: learned / available / locked (and why)."""
    out = []
    for f in rows:
        if f.get("issues"):
            described = format_html(' aria-describedby="{}" aria-invalid="true"', f["err_id"])
        elif f.get("reason"):
            described = format_html(' aria-describedby="{}-why"', f["id"])
        else:
            described = mark_safe("")
        cost = f"{f['cost']}" if f.get("cost") else "free"
        level = f" · L{f['level']}" if f.get("level") else ""
        why = format_html('<span class="node-why" id="{}-why">{}</span>', f["id"], f["reason"]) if f.get("reason") else ""
        out.append(format_html(
            '<li class="tree-node node-{state} depth-{depth}{err}" style="--depth: {depth}">'
            '<input type="checkbox" id="{id}" name="{path}" value="{value}"{checked}{described}>'
            '<label for="{id}">{label} <span class="node-cost">{cost}{level}</span></label>{why}{issues}</li>',
            state=f.get("state", ""), depth=f.get("depth", 0), err=" has-error" if f.get("issues") else "",
            id=f["id"], path=path, value=f["node_id"], checked=mark_safe(" checked") if f.get("checked") else "",
            described=described, label=f["label"], cost=cost, level=level, why=why, issues=_issues_html(f),
        ))
    return mark_safe("".join(out))


@register.simple_tag
def stepper(f, url):
    """A number with − / + buttons (plain submits without JavaScript) and the cost of the next point."""
    bounds = mark_safe("")
    if f.get("min") is not None:
        bounds += format_html(' min="{}"', f["min"])
    if f.get("max") is not None:
        bounds += format_html(' max="{}"', f["max"])
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
    return format_html(
        '<div class="stepper-row{err}"><label for="{id}">{label}</label><div class="stepper">'
        '<button type="submit" class="btn btn-small step" name="_step" value="{name}|-1" hx-post="{url}"{lo} '
        'aria-label="Lower {label}" aria-controls="{id}">−</button>'
        '<input type="number" inputmode="numeric" id="{id}" name="{name}" value="{value}"{bounds}{described}>'
        '<button type="submit" class="btn btn-small step" name="_step" value="{name}|1" hx-post="{url}"{hi} '
        'aria-label="{raise_label}" aria-controls="{id}">+</button></div>'
        '<span class="next-cost" id="{id}-next">{nxt}</span>{issues}</div>',
        err=" has-error" if f.get("issues") else "", id=f["id"], label=f["label"], name=f["name"], url=url,
        lo=mark_safe(" disabled") if f.get("at_min") else "", hi=mark_safe(" disabled") if f.get("at_max") else "",
        value=value, bounds=bounds, described=describedby(f), raise_label=raise_label, nxt=nxt,
        issues=_issues_html(f),
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
    template = context.template.engine.get_template(section["template"])
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
