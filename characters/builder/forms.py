"""The builder form ↔ the build document, in one place.

Field names are JSON Pointers into the build (``name="/attributes/strength"``), so the
form needs no per-ruleset code: ``build_from_post`` walks the ruleset's traits
(``Ruleset.traits(ctx)["sections"]``) and reads each section by its kind.

Markers and actions that ride along in the same POST:

- ``_section`` (one per rendered section, its id): only those sections are read;
  the rest of the build (format, ruleset, budget, anything the form does not show)
  comes from ``base_build``.
- ``_count:<path>``: how many entries a list of objects (items, records) has on the page.
- ``<path>/-``: append (JSON Pointer's "end of list"): the id of an item to add.
- ``_add=<path>``: append an empty record; ``_remove=<path>/<i>``: remove an entry;
  ``_step=<path>|<delta>``: a stepper's − / + button.
- ``_list=<pointer>`` (custom widgets): the value at that pointer is a list of the
  values posted under it.

A value that does not parse keeps its raw string so that the rules service reports it
(``build.malformed`` at its path): the builder never answers a 500 to a typo.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulesets.engine.fields import get_as
from rulesets.engine.pointer import delete_at, ptr, resolve, set_at

_INT_RE = re.compile(r"^[+-]?\d{1,9}$")


# ------------------------------------------------------------------ parsing


def parse_int(raw: Any) -> Any:
    """A whole number when ``raw`` is one; else the raw (stripped) string, for the rules to report."""
    if isinstance(raw, str):
        text = raw.strip()
        if _INT_RE.match(text):
            return int(text)
        return text
    return raw


def _getlist(post, name: str) -> list:
    if hasattr(post, "getlist"):
        return post.getlist(name)
    value = post.get(name)
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


# ------------------------------------------------------------------ sections


def _read_number(section, post, build):
    path = section["path"]
    raw = post.get(path)
    if raw is None:
        return
    if raw.strip() == "":
        if section.get("nullable"):
            set_at(build, path, None)
        else:
            set_at(build, path, "")  # reported as malformed by the rules
        return
    set_at(build, path, parse_int(raw))


def _read_numbers(section, post, build):
    path = section["path"]
    current = resolve(build, path, None)
    obj = dict(current) if isinstance(current, dict) else {}
    for f in section.get("fields", []):
        raw = post.get(ptr_join(path, f["id"]))
        if raw is None:
            continue
        obj[f["id"]] = parse_int(raw) if raw.strip() != "" else ""
    set_at(build, path, obj)


def _read_ranks(section, post, build):
    path = section["path"]
    current = resolve(build, path, None)
    obj = dict(current) if isinstance(current, dict) else {}
    ids = [o["id"] for o in section.get("options", [])] + [
        k for k in obj if k not in {o["id"] for o in section.get("options", [])}
    ]
    named = [r["id"] for r in section.get("ranks") or [] if isinstance(r, dict)]
    for oid in ids:
        raw = post.get(ptr_join(path, oid))
        if raw is None:
            continue
        if named:  # ranks by name (a proficiency ladder): the first rank is the same as absent
            if raw in ("", named[0]):
                obj.pop(oid, None)
            else:
                obj[oid] = raw
            continue
        value = parse_int(raw) if raw.strip() != "" else 0
        if value == 0:
            obj.pop(oid, None)  # sparse: missing means 0
        else:
            obj[oid] = value
    set_at(build, path, obj)


def _read_choice(section, post, build):
    path = section["path"]
    raw = post.get(path)
    if raw is None:
        return
    if raw == "":
        if section.get("nullable"):
            set_at(build, path, None)
        else:
            delete_at(build, path)
        return
    set_at(build, path, raw)


def _read_mapping(section, post, build):
    path = section["path"]
    current = resolve(build, path, None)
    obj = dict(current) if isinstance(current, dict) else {}
    for key in section.get("keys", []):
        raw = post.get(ptr_join(path, key["id"]))
        if raw is None:
            continue
        if raw == "":
            obj.pop(key["id"], None)
        else:
            obj[key["id"]] = raw
    set_at(build, path, obj)


def _read_id_list(section, post, build):
    """Tree and multi: the checked ids, in the order they were learned, new ones in catalogue order."""
    path = section["path"]
    checked = [v for v in _getlist(post, path) if v]
    current = resolve(build, path, None)
    current = current if isinstance(current, list) else []
    checked_set = set(checked)
    kept = [v for v in current if isinstance(v, str) and v in checked_set]
    kept_set = set(kept)
    order = [n["id"] for n in section.get("nodes", section.get("options", []))]
    new = [v for v in order if v in checked_set and v not in kept_set]
    new_set = kept_set | set(new)
    extra = [v for v in checked if v not in new_set]  # posted ids the catalogue does not know
    set_at(build, path, kept + new + list(dict.fromkeys(extra)))


def _read_entries(section, post, build, fields_key):
    """Items and records: a list of objects; each entry's posted fields on top of its stored keys."""
    path = section["path"]
    current = resolve(build, path, None)
    current = current if isinstance(current, list) else []
    try:
        count = int(post.get(f"_count:{path}", len(current)))
    except (TypeError, ValueError):
        count = len(current)
    count = max(0, min(count, len(current) + 1000))
    lists = set(_getlist(post, "_list"))
    entries = []
    for i in range(count):
        base = current[i] if i < len(current) else {}
        entry = copy.deepcopy(base) if isinstance(base, dict) else {}
        prefix = ptr_join(path, i)
        if fields_key == "entry_fields":
            raw = post.get(prefix + "/item")
            if raw is not None and raw != "":
                entry["item"] = raw
        for f in section.get(fields_key, []):
            name = prefix + "/" + f["id"]
            kind = f.get("kind", "text")
            if kind == "multi":
                if name in lists:  # the checkboxes were on the page: none checked means none
                    values = [v for v in _getlist(post, name) if v]
                    if values or f["id"] in entry:
                        entry[f["id"]] = values
                continue
            raw = post.get(name)
            if raw is None:
                continue
            if raw.strip() == "":
                entry.pop(f["id"], None)
            elif kind == "number":
                entry[f["id"]] = parse_int(raw)
            else:
                entry[f["id"]] = raw.strip() if kind == "text" else raw
        entries.append(entry)
    set_at(build, path, entries)


def _read_object(section, post, build):
    path = section["path"]
    current = resolve(build, path, None)
    obj = dict(current) if isinstance(current, dict) else {}
    for f in section.get("fields", []):
        raw = post.get(ptr_join(path, f["id"]))
        if raw is None:
            continue
        if raw.strip() == "":
            obj.pop(f["id"], None)
        elif f.get("kind") == "number":
            obj[f["id"]] = parse_int(raw)
        else:
            obj[f["id"]] = raw
    set_at(build, path, obj)


def _read_custom(section, post, build):
    """Custom widgets post plain pointers under the section's path (ints parsed, "" deletes)."""
    path = section["path"]
    optional = set(_getlist(post, "_list_opt"))  # lists that are absent rather than empty
    lists = set(_getlist(post, "_list")) | optional
    prefix = path + "/" if path else "/"
    keys = [k for k in post.keys() if k.startswith(prefix) and not k.endswith("/-")]
    for name in sorted(lists):
        if name == path or name.startswith(prefix):
            values = [parse_int(v) for v in _getlist(post, name) if v != ""]
            if not values and name in optional:
                delete_at(build, name)
            else:
                set_at(build, name, values)
    for name in keys:
        if name in lists:
            continue
        raw = post.get(name)
        if raw is None:
            continue
        if raw.strip() == "":
            delete_at(build, name)
        else:
            set_at(build, name, parse_int(raw))


READERS = {
    "number": _read_number,
    "numbers": _read_numbers,
    "ranks": _read_ranks,
    "choice": _read_choice,
    "mapping": _read_mapping,
    "tree": _read_id_list,
    "multi": _read_id_list,
    "items": lambda s, p, b: _read_entries(s, p, b, "entry_fields"),
    "records": lambda s, p, b: _read_entries(s, p, b, "fields"),
    "object": _read_object,
    "custom": _read_custom,
}


def ptr_join(path: str, token: Any) -> str:
    return path + ptr(token)


def _natural_state(spec: dict | None, option: dict | None, entries: list) -> dict:
    """The fields an item gets on adding (``builder.json`` ``item_states``): its natural state
    (armour worn, a weapon wielded) and, wielded, the first free arms; else the fallback state."""
    if not spec or not isinstance(option, dict):
        return {}
    field = spec.get("field", "state")
    state = next((s for need, s in spec.get("natural", []) if option.get(need)), spec.get("fallback"))
    out: dict = {field: state} if state else {}
    arms_field = spec.get("arms_field")
    if arms_field and spec.get("needs", {}).get(state) == "wield":
        wield = get_as(option, "wield", dict, {})
        need = wield.get("arms") or 1
        busy = {
            a
            for e in entries
            if isinstance(e, dict) and e.get(field) == state
            for a in (e.get(arms_field) or [])
            if isinstance(a, str)
        }
        free = [a for a in spec.get("arms", []) if a not in busy]
        if len(free) >= need:
            out[arms_field] = free[:need]
        else:  # no free arm: it is carried until the player frees one
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
    _steps_apply(by_path, _getlist(post, "_step"), build)


def _steps_apply(by_path: dict, steps: list[str], build: dict) -> None:
    for step in steps:
        pointer, _, raw = step.rpartition("|")
        if not pointer.startswith("/"):
            continue
        try:
            delta = int(raw)
        except ValueError:
            continue
        value = resolve(build, pointer, 0)
        if value is None:
            value = 0
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        parent = pointer.rpartition("/")[0]
        section = by_path.get(parent)
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


# ------------------------------------------------------------------ rendering


_ID_RE = re.compile(r"[^A-Za-z0-9_]")


def html_id(pointer: str, prefix: str = "f") -> str:
    """A stable, valid HTML id for a JSON pointer: "/attributes/strength" → "f-attributes-strength"."""
    return prefix + _ID_RE.sub("-", pointer)


def _parent(pointer: str) -> str:
    return pointer.rpartition("/")[0]


def _label(ident: Any) -> str:
    return str(ident).replace("_", " ").capitalize()


class _Anchors:
    """Where each issue is shown: the deepest rendered control whose pointer is a prefix of its path."""

    def __init__(self) -> None:
        self.slots: dict[str, dict] = {}

    def add(self, pointer: str, dom_id: str) -> list:
        slot = self.slots.get(pointer)
        if slot is None:
            slot = self.slots[pointer] = {"dom_id": dom_id, "issues": []}
        return slot["issues"]

    def place(self, issue: dict) -> str | None:
        path = issue.get("path") or ""
        while True:
            slot = self.slots.get(path)
            if slot is not None:
                slot["issues"].append(issue)
                return slot["dom_id"]
            if not path:
                return None
            path = _parent(path)


@dataclass(frozen=True, slots=True)
class WidgetUI:
    """What a ruleset's custom builder widget may use (``Ruleset.builder_widget``)."""

    control: Callable[..., dict]
    html_id: Callable[..., str]
    label: Callable[[Any], str]
    sections: list


def _cost_text(cost: dict | None, label_of) -> str:
    if not cost:
        return ""
    return ", ".join(f"{'+' if v >= 0 else ''}{v} {label_of(c)}" for c, v in cost.items())


def builder_form(
    traits: dict,
    build: Any,
    report: dict,
    *,
    next_costs: dict[str, dict] | None = None,
    currency_label=None,
    ruleset=None,
    meta: dict | None = None,
) -> dict:
    """Everything the builder template shows, computed once in Python (templates stay simple and fast).

    Returns {"sections": [...], "summary": [...issues with the id of the control they are shown
    beside], "general": [...issues with no control], "name": {...}, "notes": {...}}.
    """
    label_of = currency_label or (lambda c: c.upper() if c in ("cp", "xp") else c.replace("_", " "))
    build = build if isinstance(build, dict) else {}
    next_costs = next_costs or {}
    spent_at: dict[str, dict[str, int]] = {}
    for line in report.get("costs") or []:
        per = spent_at.setdefault(line.get("path", ""), {})
        per[line.get("currency")] = per.get(line.get("currency"), 0) + (line.get("cost") or 0)
    anchors = _Anchors()

    def control(pointer: str, value: Any, dom_id: str | None = None, **extra) -> dict:
        dom_id = dom_id or html_id(pointer)
        issues = anchors.add(pointer, dom_id)
        nxt = next_costs.get(pointer)
        return {
            "name": pointer,
            "id": dom_id,
            "value": value,
            "issues": issues,
            "err_id": dom_id + "-err",
            "spent": _cost_text(spent_at.get(pointer), label_of).lstrip("+"),
            "next": nxt,
            "next_text": _cost_text(nxt.get("cost"), label_of) if nxt else "",
            **extra,
        }

    ui = WidgetUI(control=control, html_id=html_id, label=_label, sections=(traits or {}).get("sections", []))
    name = control("/name", build.get("name", ""), label="Name")
    notes = control("/notes", build.get("notes", ""), label="Notes")
    anchors.add("/budget", "builder-costs")
    meta = meta or {}
    filters = meta.get("option_filters") or {}
    choices = meta.get("choices") or {}
    item_states = meta.get("item_states") or {}
    sections = []
    for raw in (traits or {}).get("sections", []):
        if not isinstance(raw, dict) or "path" not in raw:
            continue
        if raw.get("id") in filters:
            raw = _filtered(raw, filters[raw["id"]], build)
        if raw.get("id") in item_states:
            raw = _with_item_states(raw, item_states[raw["id"]])
        kind = raw.get("kind", "")
        path = raw["path"]
        value = resolve(build, path, None)
        model = {
            "id": raw.get("id", ""),
            "label": raw.get("label", ""),
            "kind": kind,
            "path": path,
            "help": raw.get("help", ""),
            "raw": raw,
            "dom_id": "sec-" + str(raw.get("id", "")),
            "value": value,
            "spent": _cost_text(spent_at.get(path), label_of).lstrip("+"),
        }
        if kind == "custom":
            widget = str(raw.get("widget") or "")
            slug = ruleset.slug if ruleset is not None else ""
            # The ruleset's own widget template, else a generic "this widget is not available" box.
            model["template"] = (
                f"{slug}/builder/{widget}.html",
                "characters/builder/_builder_section_unknown.html",
            )
            # Issues beside the widget's own controls, else at the section (unless another section
            # already shows that path: then the widget lists every issue under it, see below).
            model["shared_path"] = path in anchors.slots
            model["issues"] = [] if model["shared_path"] else anchors.add(path, model["dom_id"])
            if ruleset is not None and widget:
                model.update(ruleset.builder_widget(widget, raw, build, report, ui))
        else:
            model["template"] = f"characters/builder/_builder_section_{kind}.html"
            model["issues"] = anchors.add(path, model["dom_id"])
            shaper = SHAPERS.get(kind)
            if shaper is not None:
                model.update(shaper(raw, value, control, build))
            else:
                model["template"] = "characters/builder/_builder_section_unknown.html"
            if raw.get("id") in filters and not raw.get("options"):
                model["empty_text"] = (meta.get("empty_filter_text") or {}).get(
                    raw["id"], "Nothing to choose yet."
                )
            if kind == "number" and raw.get("id") in choices:
                current = "" if value is None else str(value)
                model["choices"] = [
                    {"id": o["id"], "label": o.get("label", o["id"]), "selected": o["id"] == current}
                    for o in choices[raw["id"]].get("options", [])
                ]
        sections.append(model)

    summary, general = [], []
    for severity, key in (("error", "errors"), ("warning", "warnings")):
        for issue in report.get(key) or []:
            item = {**issue, "severity": severity}
            dom_id = anchors.place(item)
            item["dom_id"] = dom_id
            summary.append(item)
            if dom_id is None:
                general.append(item)
    for model in sections:
        if model["kind"] == "custom" and model["shared_path"]:
            prefix = model["path"]
            model["issues"] = [i for i in summary if i.get("path", "").startswith(prefix) and prefix]
    return {
        "sections": sections,
        "summary": summary,
        "general": general,
        "name": name,
        "notes": notes,
        "budget_issues": anchors.slots["/budget"]["issues"],
        "steps": _steps(meta.get("steps"), sections, report),
        "warnings": [i for i in summary if i["severity"] == "warning"],
        "errors": [i for i in summary if i["severity"] == "error"],
    }


def _filtered(raw: dict, spec: dict, build: dict) -> dict:
    """Only the options legal for the earlier picks (``builder.json`` ``option_filters``:
    {section id: {option key: pointer}}): an option whose key names another value than the
    build's at the pointer is left out. The current value stays listed (marked unknown) so that
    nothing is silently lost; the rules report it."""
    picks = {key: resolve(build, pointer, None) for key, pointer in spec.items()}
    options = [o for o in raw.get("options", []) if all(o.get(k) in (None, picks[k]) for k in picks)]
    return {**raw, "options": options}


def _with_item_states(raw: dict, spec: dict) -> dict:
    """Items whose state field offers only the states each catalogue item allows (a cap is never wielded)."""
    field, needs = spec.get("field", "state"), spec.get("needs") or {}
    allowed = {o["id"]: [s for s, need in needs.items() if not o.get(need)] for o in raw.get("options", [])}
    return {**raw, "state_field": field, "forbidden_states": allowed}


def _steps(spec: Any, sections: list[dict], report: dict) -> list[dict]:
    """The ruleset's creation order (``builder.json`` ``steps``): each step's sections and whether
    it is complete. An error belongs to the step whose section path is the longest prefix of its
    path; a step with an error is never complete. Without steps, one step holds every section."""
    by_id = {m["id"]: m for m in sections}
    steps: list[dict[str, Any]] = []
    placed: set[str] = set()
    for i, st in enumerate(spec or []):
        if not isinstance(st, dict):
            continue
        mine = [by_id[sid] for sid in st.get("sections", []) if sid in by_id and sid not in placed]
        placed.update(m["id"] for m in mine)
        steps.append(
            {
                "id": st.get("id", str(i)),
                "number": len(steps) + 1,
                "label": st.get("label", ""),
                "text": st.get("text", ""),
                "sections": mine,
                "errors": 0,
                "warnings": 0,
                "dom_id": "step-" + str(st.get("id", i)),
            }
        )
    rest = [m for m in sections if m["id"] not in placed]
    if rest:
        steps.append(
            {
                "id": "more",
                "number": len(steps) + 1,
                "label": "More" if steps else "The build",
                "text": "",
                "sections": rest,
                "errors": 0,
                "warnings": 0,
                "dom_id": "step-more",
            }
        )
    owners = sorted(((m["path"], st) for st in steps for m in st["sections"]), key=lambda x: -len(x[0]))
    for key, severity in (("errors", "errors"), ("warnings", "warnings")):
        for issue in report.get(key) or []:
            path = issue.get("path") or ""
            owner = next((st for p, st in owners if p and (path == p or path.startswith(p + "/"))), None)
            if owner is not None:
                owner[severity] += 1
    for st in steps:
        st["complete"] = st["errors"] == 0 and st["warnings"] == 0
        st["state"] = "error" if st["errors"] else ("todo" if st["warnings"] else "complete")
    return steps


def _groups(rows: list[dict]) -> list[dict]:
    groups: list[dict] = []
    for row in rows:
        g = row.get("group") or ""
        if not groups or groups[-1]["key"] != g:
            groups.append({"key": g, "label": _label(g) if g else "", "rows": []})
        groups[-1]["rows"].append(row)
    return groups


def _shape_number(raw, value, control, build):
    default = raw.get("default")
    return {
        "field": control(
            raw["path"],
            default if value is None and not raw.get("nullable") else value,
            min=raw.get("min"),
            max=raw.get("max"),
            nullable=raw.get("nullable", False),
            label=raw.get("label", ""),
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


def _shape_items(raw, value, control, build):
    entries_raw = value if isinstance(value, list) else []
    catalogue = {o["id"]: o for o in raw.get("options", [])}
    entries = []
    for i, entry in enumerate(entries_raw):
        prefix = ptr_join(raw["path"], i)
        e = entry if isinstance(entry, dict) else {}
        item_id = e.get("item")
        option = catalogue.get(item_id)
        if option is not None:
            label = option.get("label", _label(item_id))
        elif isinstance(e.get("custom"), dict):
            label = str(e["custom"].get("name") or "Custom item")
        else:
            label = f"{item_id} (unknown)" if item_id else "Item"
        head = control(prefix, item_id, label=label)
        fields = _entry_fields(raw.get("entry_fields"), e, prefix, control)
        forbidden = (raw.get("forbidden_states") or {}).get(item_id)
        if forbidden:
            for f in fields:
                if f["name"] == prefix + "/" + raw["state_field"]:
                    f["options"] = [o for o in f["options"] if o["id"] not in forbidden or o["selected"]]
        entries.append(
            {**head, "index": i, "item": item_id, "summary": _item_summary(option), "fields": fields}
        )
    add = control(
        raw["path"] + "/-",
        "",
        label=f"Add to {raw.get('label', 'the list').lower()}",
        options=[
            {"id": o["id"], "label": o.get("label", _label(o["id"])), "summary": _item_summary(o)}
            for o in raw.get("options", [])
        ],
    )
    return {"entries": entries, "add": add, "count": len(entries_raw)}


_SUMMARIES: dict[int, tuple[dict, str]] = {}


def _item_summary(option: dict | None) -> str:
    """A short line about a catalogue entry (cached: catalogue entries come from cached traits)."""
    if not option:
        return ""
    hit = _SUMMARIES.get(id(option))
    if hit is not None and hit[0] is option:
        return hit[1]
    if len(_SUMMARIES) > 4096:
        _SUMMARIES.clear()
    text = _item_summary_text(option)
    _SUMMARIES[id(option)] = (option, text)
    return text


def _item_summary_text(option: dict) -> str:
    """How it is held or worn, what it protects, its die."""
    bits = []
    wield = option.get("wield")
    if isinstance(wield, dict) and wield.get("arms"):
        bits.append(f"{wield['arms']}-handed" if wield["arms"] > 1 else "one hand")
    wear = option.get("wear")
    if isinstance(wear, dict):
        bits.append("worn: " + ", ".join(_label(p).lower() for p in wear.get("body_parts", [])))
    for p in option.get("protection") or []:
        if isinstance(p, dict):
            bits.append(f"protection {p.get('kind')} {p.get('value')}")
    if option.get("encumbrance"):
        bits.append(f"encumbrance {option['encumbrance']}")
    for key in ("die", "effort", "defense"):
        if option.get(key) not in (None, "", 0):
            bits.append(f"{key} {option[key]}")
    if option.get("summary"):
        bits.append(str(option["summary"]))
    return "; ".join(bits)


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


SHAPERS = {
    "number": _shape_number,
    "numbers": _shape_numbers,
    "ranks": _shape_ranks,
    "choice": _shape_choice,
    "mapping": _shape_mapping,
    "tree": _shape_tree,
    "multi": _shape_multi,
    "items": _shape_items,
    "records": _shape_records,
    "object": _shape_object,
}
