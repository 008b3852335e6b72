"""The builder's field sections shaped for their templates: numbers, ranks, choices,
mappings, trees, multi-picks, records and objects."""

from __future__ import annotations

import re
from typing import Any

from rulesets.engine import registry

from .parsing import ptr_join

_ID_RE = re.compile(r"[^A-Za-z0-9_]")


def html_id(pointer: str, prefix: str = "f") -> str:
    """A stable, valid HTML id for a JSON pointer: "/attributes/strength" → "f-attributes-strength"."""
    return prefix + _ID_RE.sub("-", pointer)


def _label(ident: Any) -> str:
    """An id in words, as the sheet says it (``registry.label``: the rulesets' own words first)."""
    return registry.label(ident)


def _groups(rows: list[dict]) -> list[dict]:
    groups: list[dict] = []
    for row in rows:
        g = row.get("group") or ""
        if not groups or groups[-1]["key"] != g:
            groups.append({"key": g, "label": _label(g) if g else "", "rows": []})
        groups[-1]["rows"].append(row)
    return groups


def _shape_number(raw, value, control, build):
    # What the build holds: a number the build lacks (an import without it) shows empty, beside the
    # rules' message, and its + gives the minimum (binding._steps_apply). Showing the default there
    # made + count from a number the build never had (an imported draft with no level became level 2).
    shown = value
    lo, top = raw.get("min"), raw.get("max")
    number = isinstance(shown, int) and not isinstance(shown, bool)
    # Its − (its +) is disabled at the bound, as a group's numbers are: a step past it does nothing (#38).
    bounds = {
        # An empty box (the build lacks the number): nothing to lower; + gives the minimum.
        "at_min": shown is None or (number and lo is not None and shown <= lo),
        "at_max": number and top is not None and shown >= top,
    }
    return {
        "field": control(
            raw["path"],
            value,
            min=raw.get("min"),
            max=raw.get("max"),
            nullable=raw.get("nullable", False),
            label=raw.get("label", ""),
            # A number with a half step below 1 (``"half": true``: a half heart) takes any value in
            # its box, and its − stops at the half.
            **({"step": "any", "at_min": value == 0.5} if raw.get("half") else bounds),
        )
    }


def _shape_numbers(raw, value, control, build):
    obj = value if isinstance(value, dict) else {}
    rows = []
    for f in raw.get("fields", []):
        v = obj.get(f["id"], f.get("default"))
        rows.append(
            control(
                ptr_join(raw["path"], f["id"]),
                v,
                label=f.get("label", _label(f["id"])),
                min=f.get("min"),
                max=f.get("max"),
                group=f.get("group", ""),
                help=f.get("help", ""),
                stepper=True,
                at_min=isinstance(v, int) and f.get("min") is not None and v <= f["min"],
                at_max=isinstance(v, int) and f.get("max") is not None and v >= f["max"],
            )
        )
    return {"groups": _groups(rows)}


def _shape_ranks(raw, value, control, build):
    obj = value if isinstance(value, dict) else {}
    named = [r for r in raw.get("ranks") or [] if isinstance(r, dict)]
    if named:
        rows = []
        for o in raw.get("options", []):
            v = obj.get(o["id"], named[0]["id"])
            rows.append(
                control(
                    ptr_join(raw["path"], o["id"]),
                    v,
                    label=o.get("label", _label(o["id"])),
                    group=o.get("group", ""),
                    help=o.get("help", ""),
                    options=[
                        {"id": r["id"], "label": r.get("label", _label(r["id"])), "selected": r["id"] == v}
                        for r in named
                    ],
                )
            )
        return {"groups": _groups(rows), "named_ranks": True}
    lo, hi = raw.get("min", 0), raw.get("max")
    rows = []
    known = set()
    for o in raw.get("options", []):
        known.add(o["id"])
        v = obj.get(o["id"], 0)
        top = o.get("max", hi)
        rows.append(
            control(
                ptr_join(raw["path"], o["id"]),
                v,
                label=o.get("label", _label(o["id"])),
                min=lo,
                max=top,
                group=o.get("group", ""),
                help=o.get("help", ""),
                stepper=True,
                at_min=isinstance(v, int) and lo is not None and v <= lo,
                at_max=isinstance(v, int) and top is not None and v >= top,
            )
        )
    for key, v in obj.items():  # ranks the catalogue does not know (the rules report them)
        if key not in known:
            rows.append(
                control(
                    ptr_join(raw["path"], key),
                    v,
                    label=f"{key} (unknown)",
                    min=lo,
                    max=hi,
                    group="unknown",
                    stepper=True,
                    at_min=False,
                    at_max=False,
                )
            )
    return {"groups": _groups(rows)}


def _options(options, selected) -> list[dict]:
    out = []
    selected_set: set[str | int | None]
    if isinstance(selected, (list, tuple, set)):
        selected_set = {v for v in selected if isinstance(v, (str, int))}
    else:
        selected_set = {selected} if isinstance(selected, (str, int, type(None))) else set()
    for o in options or []:
        out.append(
            {
                "id": o["id"],
                "label": o.get("label", _label(o["id"])),
                "help": o.get("help", ""),
                "selected": o["id"] in selected_set,
            }
        )
    return out


def _shape_choice(raw, value, control, build):
    if value is None and not raw.get("nullable"):
        value = raw.get("default")
    options = _options(raw.get("options"), value)
    ids = {o["id"] for o in options}
    if value not in (None, "") and value not in ids:
        options.append({"id": value, "label": f"{value} (unknown)", "help": "", "selected": True})
    chosen = next((o for o in options if o["selected"]), None)
    return {
        "field": control(
            raw["path"],
            value,
            options=options,
            nullable=raw.get("nullable", False),
            chosen_help=chosen["help"] if chosen else "",
        )
    }


def _shape_mapping(raw, value, control, build):
    obj = value if isinstance(value, dict) else (raw.get("default") or {})
    rows = [
        control(
            ptr_join(raw["path"], k["id"]),
            obj.get(k["id"]),
            label=k.get("label", _label(k["id"])),
            options=_options(raw.get("options"), obj.get(k["id"])),
        )
        for k in raw.get("keys", [])
    ]
    return {"rows": rows}


def _shape_tree(raw, value, control, build):
    learned_list = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    index = {}
    for i, v in enumerate(learned_list):
        index.setdefault(v, i)
    nodes = raw.get("nodes", [])
    by_id = {n["id"]: n for n in nodes}
    children: dict[Any, list] = {}
    for n in nodes:
        children.setdefault(n.get("parent"), []).append(n)
    roots = [n for n in nodes if n.get("parent") not in by_id]
    branches = []

    def row(n, depth):
        learned = n["id"] in index
        parent = by_id.get(n.get("parent"))
        if learned:
            state, reason = "learned", ""
        elif parent is None or parent["id"] in index:
            state, reason = "available", ""
        else:
            state, reason = "locked", f"needs {parent.get('label', _label(parent['id']))}"
        pointer = ptr_join(raw["path"], index[n["id"]]) if learned else ptr_join(raw["path"], "#" + n["id"])
        return control(
            pointer,
            n["id"],
            label=n.get("label", _label(n["id"])),
            level=n.get("level"),
            depth=depth,
            cost=n.get("cost"),
            checked=learned,
            state=state,
            reason=reason,
            help=n.get("help", ""),
            node_id=n["id"],
            dom_id=html_id(raw["path"] + "/" + n["id"], "n"),
        )

    for root in roots:
        rows = []
        stack = [(root, 0)]
        while stack:
            n, depth = stack.pop()
            rows.append(row(n, depth))
            for child in reversed(children.get(n["id"], [])):
                stack.append((child, depth + 1))
        branches.append({"label": rows[0]["label"], "rows": rows, "learned": sum(r["checked"] for r in rows)})
    unknown = [
        control(
            ptr_join(raw["path"], i),
            v,
            label=f"{v} (unknown)",
            checked=True,
            state="unknown",
            reason="",
            node_id=v,
            dom_id=html_id(raw["path"] + "/" + v, "n"),
            depth=0,
            level=None,
            cost=None,
            help="",
        )
        for v, i in index.items()
        if v not in by_id
    ]
    return {"branches": branches, "unknown": unknown, "learned_count": len(learned_list)}


def _shape_multi(raw, value, control, build):
    chosen = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    index = {v: i for i, v in reversed(list(enumerate(chosen)))}
    rows = []
    for o in raw.get("options", []):
        pointer = (
            ptr_join(raw["path"], index[o["id"]])
            if o["id"] in index
            else ptr_join(raw["path"], "#" + o["id"])
        )
        rows.append(
            control(
                pointer,
                o["id"],
                label=o.get("label", _label(o["id"])),
                checked=o["id"] in index,
                help=o.get("help", ""),
                dom_id=html_id(raw["path"] + "/" + o["id"], "n"),
            )
        )
    return {"rows": rows}


def _entry_fields(raw_fields, entry, prefix, control):
    fields = []
    for f in raw_fields or []:
        when = f.get("when")
        if isinstance(when, dict) and any(entry.get(k) != v for k, v in when.items()):
            continue
        kind = f.get("kind", "text")
        value = entry.get(f["id"], f.get("default") if kind == "choice" else None)
        fields.append(
            control(
                prefix + "/" + f["id"],
                value,
                label=f.get("label", _label(f["id"])),
                kind=kind,
                options=_options(f.get("options"), value if value is not None else []),
                list_id=f.get("list"),
            )
        )
    return fields


def _shape_records(raw, value, control, build):
    entries_raw = value if isinstance(value, list) else []
    entries = []
    for i, entry in enumerate(entries_raw):
        prefix = ptr_join(raw["path"], i)
        e = entry if isinstance(entry, dict) else {}
        head = control(prefix, None, label=f"{raw.get('label', 'Entry')} {i + 1}")
        entries.append({**head, "index": i, "fields": _entry_fields(raw.get("fields"), e, prefix, control)})
    suggestions = raw.get("suggestions")
    names: list[str] = []
    if isinstance(suggestions, dict):
        for group in suggestions.values():
            for s in group or []:
                names.append(s.get("name") if isinstance(s, dict) else str(s))
    elif isinstance(suggestions, list):
        names = [s.get("name") if isinstance(s, dict) else str(s) for s in suggestions]
    return {
        "entries": entries,
        "count": len(entries_raw),
        "suggestions": sorted({n for n in names if n}),
        "datalist_id": "dl-" + str(raw.get("id", "")),
    }


def _shape_object(raw, value, control, build):
    obj = value if isinstance(value, dict) else {}
    # A field holding a nested value (a path's granted ranks) is not a text box: it is kept as stored.
    fields = [
        control(
            ptr_join(raw["path"], f["id"]),
            obj.get(f["id"]),
            label=f.get("label", _label(f["id"])),
            kind=f.get("kind", "text"),
            options=_options(f.get("options"), obj.get(f["id"])),
        )
        for f in raw.get("fields", [])
        if not isinstance(obj.get(f["id"]), (dict, list))
    ]
    return {"fields": fields}
