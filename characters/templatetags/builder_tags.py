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
