"""Reading a builder POST, one section kind at a time: the readers that turn posted
strings into the build's values (a value that does not parse stays a string for the
rules to report)."""

from __future__ import annotations

import copy
import re
from typing import Any

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


#: What ``resolve`` answers for a key the build lacks (its own MISSING makes it raise instead).
_ABSENT = object()


def _read_number(section, post, build):
    path = section["path"]
    raw = post.get(path)
    if raw is None:
        return
    if raw.strip() == "":
        if section.get("nullable"):
            set_at(build, path, None)
        elif resolve(build, path, _ABSENT) is not _ABSENT:
            set_at(build, path, "")  # reported as malformed by the rules
        # else: an empty box for a number the build lacks leaves it lacking (the rules say so)
        return
    value = parse_int(raw)
    if section.get("half") and isinstance(value, str) and _is_half(value):
        value = 0.5  # a number section with a half step below 1 (a half heart)
    set_at(build, path, value)


def _is_half(text: str) -> bool:
    """Whether ``text`` is one half ("0.5", ".5", "0,5")."""
    return text.replace(",", ".").lstrip("0") in (".5", ".50")


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
