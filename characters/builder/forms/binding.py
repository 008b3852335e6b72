"""A builder POST bound to the build document: the posted sections on top of the base build,
then the actions that ride along (add, remove, step)."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.fields import get_as
from rulesets.engine.pointer import delete_at, resolve, set_at

from .parsing import READERS, _getlist


def _natural_state(spec: dict | None, option: dict | None, entries: list) -> dict:
    """The fields an item gets on adding (``builder.json`` ``item_states``): its natural state (the
    first of ``natural``'s [catalogue key, state] pairs the item has) and, in a state that takes
    slots (the item's ``needs[state]`` entry says how many, under ``slots_field``), the first free
    of ``slots``; else the fallback state."""
    if not spec or not isinstance(option, dict):
        return {}
    field = spec.get("field", "state")
    state = next((s for need, s in spec.get("natural", []) if option.get(need)), spec.get("fallback"))
    out: dict = {field: state} if state else {}
    slots_field = spec.get("slots_field")
    need_key = spec.get("needs", {}).get(state)
    held = get_as(option, need_key, dict, {}) if slots_field and need_key else {}
    if slots_field and slots_field in held:
        need = held.get(slots_field) or 1
        busy = {
            a
            for e in entries
            if isinstance(e, dict) and e.get(field) == state
            for a in (e.get(slots_field) or [])
            if isinstance(a, str)
        }
        free = [a for a in spec.get("slots", []) if a not in busy]
        if len(free) >= need:
            out[slots_field] = free[:need]
        else:  # no free slot: the fallback state until the player frees one
            out = {field: spec.get("fallback")} if spec.get("fallback") else {}
    return out


def _apply_actions(sections, post, build, meta: dict | None = None) -> None:
    by_path = {s["path"]: s for s in sections if s.get("kind") != "custom"}
    for s in sections:
        by_path.setdefault(s["path"], s)
    # Append an item chosen in an "add" select (items sections).
    for section in sections:
        if section.get("kind") != "items":
            continue
        raw = post.get(section["path"] + "/-")
        if raw:
            entry = {"item": raw}
            for f in section.get("entry_fields", []):
                if "default" in f:
                    entry[f["id"]] = copy.deepcopy(f["default"])
            current = resolve(build, section["path"], None)
            if not isinstance(current, list):
                set_at(build, section["path"], [])
                current = []
            spec = ((meta or {}).get("item_states") or {}).get(section.get("id"))
            option = next((o for o in section.get("options", []) if o.get("id") == raw), None)
            entry.update(_natural_state(spec, option, current))
            set_at(build, section["path"] + "/-", entry)
    for target in _getlist(post, "_add"):
        section = by_path.get(target)
        if section and section.get("kind") in ("records", "items"):
            current = resolve(build, target, None)
            if not isinstance(current, list):
                set_at(build, target, [])
            set_at(build, target + "/-", {})
    for target in _getlist(post, "_remove"):
        parent, _, index = target.rpartition("/")
        if parent in by_path and index.isdigit():
            delete_at(build, target)
        elif (by_path.get(target) or {}).get("optional"):
            delete_at(build, target)  # an optional part dropped whole (a recorded creation the rules refuse)
    _steps_apply(by_path, _getlist(post, "_step"), build)


def _bounds(by_path: dict, pointer: str) -> tuple[Any, Any]:
    """The (min, max) the ruleset gives the number at ``pointer``: a number section's own, or a field's
    of its numbers section; (None, None) when none is declared."""
    own = by_path.get(pointer)
    if isinstance(own, dict) and own.get("kind") == "number":
        return own.get("min"), own.get("max")
    parent, _, key = pointer.rpartition("/")
    section = by_path.get(parent)
    if isinstance(section, dict) and section.get("kind") == "numbers":
        for f in section.get("fields", []):
            if isinstance(f, dict) and f.get("id") == key:
                return f.get("min"), f.get("max")
    return None, None


def _steps_apply(by_path: dict, steps: list[str], build: dict) -> None:
    for step in steps:
        pointer, _, raw = step.rpartition("|")
        if not pointer.startswith("/"):
            continue
        try:
            delta = int(raw)
        except ValueError:
            continue
        value = resolve(build, pointer, None)
        if value is None or value == "":
            # A number the build lacks (shown empty): + gives its minimum, or the step from 0.
            if delta > 0:
                lo, _top = _bounds(by_path, pointer)
                set_at(build, pointer, delta if lo is None else max(lo, delta))
            continue
        half = (by_path.get(pointer) or {}).get("half")  # a number with a half step below 1
        if half and value == 0.5 and isinstance(value, float):
            if delta > 0:
                set_at(build, pointer, delta)
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if half and value + delta < 1 <= value:
            set_at(build, pointer, 0.5)
            continue
        parent = pointer.rpartition("/")[0]
        section = by_path.get(parent)
        lo, top = _bounds(by_path, pointer)
        if (delta < 0 and lo is not None and value + delta < lo) or (
            delta > 0 and top is not None and value + delta > top
        ):
            continue  # a step never goes past the field's bound (its button is disabled there)
        if value + delta == 0 and section is not None and section.get("kind") == "ranks":
            delete_at(build, pointer)
        else:
            set_at(build, pointer, value + delta)


def apply_steps(ruleset_traits: dict, steps: list[str], build: dict) -> None:
    """Apply a builder POST's ``_step`` values ("<path>|<delta>") to ``build`` in place.

    The builder page reads the form without them (``build_from_post`` of a POST less ``_step``)
    and applies them to the saved result, so that a click counts on top of the latest build
    rather than on the number the page showed when the click left."""
    sections = [s for s in (ruleset_traits or {}).get("sections", []) if isinstance(s, dict) and "path" in s]
    by_path = {s["path"]: s for s in sections if s.get("kind") != "custom"}
    for s in sections:
        by_path.setdefault(s["path"], s)
    _steps_apply(by_path, steps, build)


def builder_meta(ruleset) -> dict:
    """The ruleset's builder metadata (``content/builder.json``: creation steps, option filters,
    natural item states, choices), or none. The builder, advance mode and the NPC builder all
    pass it to ``build_from_post`` and ``builder_form``: the same guidance everywhere."""
    meta = ruleset.tables.get("builder") if ruleset is not None else None
    return meta if isinstance(meta, dict) else {}


def build_from_post(ruleset_traits: dict, post_data, base_build: Any, meta: dict | None = None) -> dict:
    """The build document a builder form describes: ``base_build`` with the posted sections on top.

    ``post_data`` is a QueryDict (or a plain dict of strings / lists). Never raises on what a
    browser can send; unparseable values stay strings for the rules service to report.
    """
    if not hasattr(post_data, "getlist"):
        from django.utils.datastructures import MultiValueDict

        post_data = MultiValueDict(
            {
                k: [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]
                for k, v in dict(post_data).items()
            }
        )
    build = copy.deepcopy(base_build) if isinstance(base_build, dict) else {}
    sections = [s for s in (ruleset_traits or {}).get("sections", []) if isinstance(s, dict) and "path" in s]
    present = set(_getlist(post_data, "_section"))
    shown = [s for s in sections if s.get("id") in present]
    own = {s["path"] for s in sections}
    # The common keys every ruleset shares, unless the ruleset describes them itself.
    if "/name" not in own and post_data.get("/name") is not None:
        build["name"] = post_data.get("/name").strip()
    if "/notes" not in own and post_data.get("/notes") is not None:
        notes = post_data.get("/notes").replace("\r\n", "\n")
        if notes.strip():
            build["notes"] = notes
        else:
            build.pop("notes", None)
    for section in shown:
        reader = READERS.get(section.get("kind", ""))
        if reader is not None:
            reader(section, post_data, build)
    _apply_actions(shown, post_data, build, meta)
    return build
