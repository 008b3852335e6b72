"""The play actions a sheet offers, as the API (and the GM's party page) take them.

``play_actions`` reads them from the very views the sheet draws its forms from
(``presenters._section_views``: each section's action forms, each pool's −/+ and number box; the
Notes form), so the list and the page cannot part. ``action_from_body`` turns a request for one of
them into the state action the sheet's form of it posts, for ``services.character_state_action``.
"""

from __future__ import annotations

from typing import Any

from characters.models import Character
from characters.sheet.presenters import _section_views, _state_notes
from characters.sheet.selectors import NOTES, SheetRules, label
from config.errors import BadInput, rule_refused

SPEND = "spend"  # the body goes to character_spend_roll, not a state action


def play_actions(character: Character, rules: SheetRules) -> list[dict[str, Any]]:
    """The play actions the sheet offers now, as the API lists them (``GET
    /characters/<id>/actions/``): ``[{action, label, fields: [{name, label, type, choices?, min?,
    max?, default?}]}]``, read from the very views the sheet draws its forms from
    (``_section_views``: each section's action forms, each pool's −/+ and number box; the Notes
    form), so the list and the page cannot part. The pools' −/+ are one ``step`` (``path``,
    ``delta``) and their number boxes one ``set`` (``path``, ``value``), the pool a choice. A
    character not in play offers none. One action per name: the first section that offers it."""
    if character.status != Character.Status.ACTIVE or rules.ruleset is None:
        return []
    sections = rules.once("sections", lambda: _section_views(rules.sections))
    actions: dict[str, dict[str, Any]] = {}
    pools: list[dict[str, Any]] = []
    for section in sections:
        if not isinstance(section, dict):
            continue
        if section.get("kind") == "pools":
            for item in section.get("items") or ():
                if isinstance(item, dict) and isinstance(item.get("path"), str) and item["path"]:
                    pools.append({"value": item["path"], "label": str(item.get("label") or item["path"])})
            if pools and "step" not in actions:
                actions["step"] = {"action": "step", "label": "Raise or lower a pool", "fields": []}
                actions["set"] = {"action": "set", "label": "Set a pool", "fields": []}
        for action in section.get("actions") or ():
            if not isinstance(action, dict) or not isinstance(action.get("action"), str):
                continue
            if action["action"] in actions:
                continue
            actions[action["action"]] = {
                "action": action["action"],
                "label": str(action.get("label") or label(action["action"])),
                "fields": [_api_field(f) for f in action.get("form_fields") or () if isinstance(f, dict)],
            }
    if pools:
        pool = {"name": "path", "label": "Pool", "type": "choice", "choices": pools}
        actions["step"]["fields"] = [pool, {"name": "delta", "label": "By (− lowers)", "type": "number"}]
        actions["set"]["fields"] = [pool, {"name": "value", "label": "Value", "type": "number"}]
    pending = (
        (character.state or {}).get(rules.ruleset.TO_SPEND) if isinstance(character.state, dict) else None
    )
    if pending and SPEND not in actions:  # the last sheet roll's EP, to spend after it (CONTRACT)
        actions[SPEND] = {
            "action": SPEND,
            "label": "Spend the last roll",
            "fields": [
                {"name": "outcomes", "label": "Outcomes", "type": "list"},
                {"name": "obstacle", "label": "Obstacle", "type": "number"},
                {"name": "ep_to_obstacle", "label": "Into the obstacle", "type": "number"},
            ],
        }
    if _state_notes(character) is not None and NOTES not in actions:
        actions[NOTES] = {
            "action": NOTES,
            "label": "Save notes",
            "fields": [{"name": "notes", "label": "Notes", "type": "text"}],
        }
    return list(actions.values())


def _api_field(field: dict[str, Any]) -> dict[str, Any]:
    """A form field of the sheet (``state_fields``) as the API lists it."""
    out: dict[str, Any] = {"name": field["name"], "label": field.get("label") or label(field["name"])}
    out["type"] = field.get("type") or "text"
    if out["type"] == "choice":
        out["choices"] = [
            {"value": o.get("value"), "label": o.get("label")} for o in field.get("options") or ()
        ]
    for key in ("min", "max", "default"):
        if field.get(key) is not None:
            out[key] = field[key]
    return out


def action_from_body(offered: list[dict[str, Any]], body: dict[str, Any]) -> dict[str, Any]:
    """The body of ``POST …/actions/`` as the state action the sheet's form of it posts: only the
    fields that action has, each of its type (a choice one of its values), a field left out taking
    the default the form shows."""
    name = body["action"]
    spec = next((a for a in offered if a["action"] == name), None)
    if spec is None:
        words = ", ".join(f"“{a['label']}”" for a in offered) or "none"
        raise rule_refused(
            "state.unknown_action", f"The sheet offers no such action now (it offers {words})."
        )
    fields = {f["name"]: f for f in spec["fields"]}
    unknown = sorted(k for k in body if k not in fields and k not in {"action", "version"})
    if unknown:
        raise BadInput(
            f"“{spec['label']}” takes {', '.join(fields) or 'no fields'}; not {', '.join(unknown)}.",
            errors=[{"field": k, "message": f"“{spec['label']}” has no field {k}."} for k in unknown],
        )
    action: dict[str, Any] = {"action": name}
    for key, field in fields.items():
        if key not in body or body[key] is None:
            if "default" in field:
                action[key] = field["default"]
            continue
        action[key] = _field_value(field, body[key])
    return action


def _field_value(field: dict[str, Any], value: Any) -> Any:
    kind, key = field["type"], field["name"]
    if kind == "number":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise BadInput(f"{field['label']} is a whole number.", field=key)
    if kind == "flag":
        if isinstance(value, bool):
            return value
        raise BadInput(f"{field['label']} is true or false.", field=key)
    if kind == "choice":
        for choice in field.get("choices") or ():
            if choice["value"] == value or str(choice["value"]) == str(value):
                return choice["value"]
        words = ", ".join(str(c["value"]) for c in field.get("choices") or ())
        raise BadInput(f"{field['label']} is one of {words}.", field=key)
    if isinstance(value, str):
        return value
    raise BadInput(f"{field['label']} is text.", field=key)
