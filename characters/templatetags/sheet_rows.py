"""The sheet's repeated rows (roll buttons, the play-state sections' forms, the derived numbers…)
are named partials of ``characters/sheet/_sheet_rows.html``; each tag below only works out the plain
values its partial prints (labels, signs, dots…), and the template engine escapes them. What
does not change between requests (the derived numbers) is cached as a fragment by sheet.html.
The labels, lookups and roll chart these rows build on are ``sheet_tags``."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from characters.sheet.selectors import label as _label
from characters.templatetags.sheet_tags import get, kind, pretty, signed, without
from rulesets.engine import words
from rulesets.engine.fields import parse_whole_number

register = template.Library()

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
    return {
        "groups": _roll_rows(context),
        "url": context.get("roll_url", ""),
        "is_draft": context.get("is_draft"),
    }


@register.inclusion_tag(f"{ROWS}#roll-chances", takes_context=True)
def roll_chances(context: Any) -> dict[str, Any]:
    """Every roll's "Chance it" once more, each swapped in place (out of band): after a roll on this
    page changed the play state, the skill just chanced shows it cannot be chanced again, while the
    result its button brought stays below it (the whole Dice block swapped would wipe it)."""
    return {"groups": _roll_rows(context), "url": context.get("roll_url", ""), "oob": True}


def _roll_rows(context: Any) -> list[tuple[Any, list[dict[str, Any]]]]:
    groups = context.get("roll_groups")
    return [
        (
            group,
            [{k: _o(r, k) for k in ("id", "sid", "label")} | {k: _g(r, k) for k in _ROLL_EXTRA} for r in rs],
        )
        for group, rs in (groups.items() if isinstance(groups, dict) else ())
    ]


_ROLL_EXTRA = ("request_text", "cost", "reason", "disabled", "afford", "chance")


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
        # inside {% version_late %} the stand-in (sheet_tags.VersionLateNode), else the version
        "version": context.get("drawn_version") or getattr(context.get("character"), "version", ""),
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
    and, where it has states and the viewer may edit the build, its controls in the block's one form
    (``url``: the character's ``character_equipment_change``; none when no entry has controls)."""
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
                "form": form,
                "options": [(s, words, s == state) for s, words in states] if form else (),
            }
        )
    url = reverse("character_equipment_change", args=[character.id]) if any(r["form"] for r in rows) else ""
    return {"rows": rows, "url": url}


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
