"""What changed between two builds, trait by trait: used by history and by advancement review.

    build_diff({"attributes": {"strength": 1}}, {"attributes": {"strength": 2}})
    → [{"path": "/attributes/strength", "label": "Attributes › Strength", "old": 1, "new": 2}]

Objects are compared key by key down to their leaves (a key missing on one side is
``None`` there, so a sparse rank object diffs naturally); lists (skills, equipment)
are one trait each and compared whole, because their indices shift when an entry is
added or removed. The common ``format`` key is ignored.
"""

from __future__ import annotations

import re
from typing import Any

from rulesets.engine.lists import ID_KEYS, PLAIN
from rulesets.engine.pointer import ptr, split

_IGNORED = frozenset({"format"})


def humanise(token: str) -> str:
    return token.replace("_", " ").strip().capitalize() if token else token


def label_for(path: str, labels: dict[str, str] | None = None) -> str:
    """A person's label of a JSON pointer: the traits' label when known, else its words."""
    if labels and path in labels:
        return labels[path]
    tokens = split(path)
    out = []
    for i in range(len(tokens)):
        sub = ptr(*tokens[: i + 1])
        out.append(labels[sub] if labels and sub in labels else humanise(tokens[i]))
    return " › ".join(out)


def build_diff(old: Any, new: Any, *, labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The changes from ``old`` to ``new`` as [{"path", "label", "old", "new"}], in document order.

    ``labels`` optionally maps JSON pointers to people's labels (from the ruleset's traits).
    """
    changes: list[dict[str, Any]] = []
    _walk(old, new, [], changes, labels)
    return changes


def _walk(old: Any, new: Any, tokens: list, out: list, labels) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(old) + [k for k in new if k not in old]
        for key in keys:
            if not tokens and key in _IGNORED:
                continue
            _walk(old.get(key), new.get(key), tokens + [key], out, labels)
        return
    if isinstance(old, dict) and new is None:
        for key in old:
            _walk(old[key], None, tokens + [key], out, labels)
        return
    if old is None and isinstance(new, dict):
        for key in new:
            _walk(None, new[key], tokens + [key], out, labels)
        return
    if old == new and type(old) is type(new):
        return
    if _empty(old) and _empty(new):  # absent, null, [] and {} all mean "nothing" in a build
        return
    path = ptr(*tokens)
    out.append({"path": path, "label": label_for(path, labels), "old": old, "new": new})


def _empty(value: Any) -> bool:
    return value is None or value == [] or value == {}


# ------------------------------------------------------------------ in words

#: Keys that name what a list entry *is* (an item, a specialty's ability…): entries with the same
#: one are the same thing changed, not one removed and another added.
_IDENTITY_KEYS = ("item", "id", "ability", "skill", "feat", "name")


def describe(row: dict[str, Any], names: dict[str, str] | None = None) -> dict[str, Any]:
    """A diff row in words: {"text": a sentence, "added": [...], "removed": [...], "changed": [...]}.

    Lists say which entries were added and removed (never the whole list struck through);
    entries that are objects (equipment, specialties) and nested values read as phrases
    ("Longsword, held in the right hand"). ``names`` maps content ids to their names.
    """
    old, new = row.get("old"), row.get("new")
    if isinstance(old, list) or isinstance(new, list):
        return _describe_list(
            old if isinstance(old, list) else [], new if isinstance(new, list) else [], names
        )
    if _empty(old):
        text = f"now {_phrase(new, names)}"
    elif _empty(new):
        text = f"no longer {_phrase(old, names)}"
    else:
        text = f"{_phrase(old, names)} → {_phrase(new, names)}"
    return {"text": text, "added": [], "removed": [], "changed": []}


def _identity(entry: Any) -> Any:
    if isinstance(entry, dict):
        for key in _IDENTITY_KEYS:
            if key in entry and not isinstance(entry[key], (dict, list)):
                return (key, entry[key], entry.get("ability") if key == "name" else None)
        return None
    return ("value", entry)


def _describe_list(old: list, new: list, names) -> dict[str, Any]:
    removed = list(old)
    added = []
    for entry in new:
        if entry in removed:
            removed.remove(entry)  # kept as it was
        else:
            added.append(entry)
    changed = []
    for entry in list(added):
        key = _identity(entry)
        if key is None or not isinstance(entry, dict):
            continue
        match = next((o for o in removed if isinstance(o, dict) and _identity(o) == key), None)
        if match is not None:
            removed.remove(match)
            added.remove(entry)
            changed.append(f"{_phrase(match, names)} → {_phrase(entry, names, name=False)}")
    added_words = [_phrase(e, names) for e in added]
    removed_words = [_phrase(e, names) for e in removed]
    parts = []
    if added_words:
        parts.append("adds " + ", ".join(added_words))
    if removed_words:
        parts.append("removes " + ", ".join(removed_words))
    if changed:
        parts.append("changes " + "; ".join(changed))
    return {
        "text": "; ".join(parts) or "reordered",
        "added": added_words,
        "removed": removed_words,
        "changed": changed,
    }


#: A content id or a choice's key ("right_hand", "held"): re-cased for people; anything else
#: ("Approve Me", "Session 2") is words a person typed and stays as typed.
_ID_LIKE = re.compile(r"[a-z][a-z0-9_]*\Z")


def _word(value: Any, names) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        found = (names or {}).get(value)
        if found:
            return found
        return humanise(value) if _ID_LIKE.match(value) else value
    return str(value)


def _phrase(value: Any, names, *, name: bool = True) -> str:
    """A value as a phrase: "Longsword, held in the right hand"; "Investigation: Forensics"."""
    if value is None:
        return "nothing"
    if isinstance(value, list):
        return ", ".join(_phrase(v, names) for v in value) or "nothing"
    if not isinstance(value, dict):
        return _word(value, names)
    rest = dict(value)
    head = ""
    for key in ("item", "id", "feat", "skill"):
        if key in rest and not isinstance(rest[key], (dict, list)):
            head = _word(rest.pop(key), names)
            break
    if not head and "ability" in rest and "name" in rest:
        head = f"{_word(rest.pop('ability'), names)}: {rest.pop('name')}"
    elif not head and "name" in rest and isinstance(rest["name"], str):
        head = rest.pop("name")
    state = rest.pop("state", None)
    # Where an entry in a state is (its slots: a list of ids beside the state) reads "in the …".
    slots_key = next(
        (k for k, v in rest.items() if isinstance(v, list) and v and all(isinstance(x, str) for x in v)),
        None,
    )
    slots = rest.pop(slots_key) if slots_key is not None and state is not None else None
    bits = []
    if state is not None:
        where = f" in the {_and(slots, names)}" if slots else ""
        bits.append(f"{_word(state, names).lower()}{where}")
    for key, v in rest.items():
        if _empty(v):
            continue
        bits.append(
            f"{humanise(key).lower()} {_phrase(v, names).lower() if isinstance(v, (dict, list)) else _word(v, names)}"
        )
    if not name or not head:
        return ", ".join(bits) or head or "nothing"
    return ", ".join([head, *bits])


def phrase(value: Any, names: dict[str, str] | None = None, *, name: bool = True) -> str:
    """One build value in words (content ids by their names): what a review cell shows.
    ``name=False``: an entry without what it is ("worn", not "Longsword, worn")."""
    return _phrase(value, names, name=name)


def _and(items: list, names) -> str:
    words = [_word(i, names).lower() for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ------------------------------------------------------------------ three-way merge


_MISSING: Any = object()


def builds_equal(a: Any, b: Any) -> bool:
    """Whether two builds hold the same traits (``build_diff`` finds nothing between them)."""
    return not build_diff(a, b)


def build_merge(
    base: Any, mine: Any, theirs: Any, *, lists: Any = None, prefer_mine: bool = False
) -> tuple[Any, list[dict[str, Any]]]:
    """``theirs`` with the changes ``mine`` made since ``base`` put on top: a three-way merge.

    Used when a builder page saves a draft that was saved elsewhere since the page was drawn
    (another tab, another device): ``base`` is the build of the version the page was drawn from,
    ``mine`` what the page shows now, ``theirs`` the latest saved build. Objects merge key by key
    down to their leaves. Lists (lores, skills, gear, specialties, a level's feats) merge entry by
    entry: ``lists`` (the ruleset: ``list_entry_key(path, entry)``, ``list_allows_duplicates(path)``;
    default ``rulesets.engine.lists.PLAIN``) says what makes two entries the same (a catalogue
    id) and where one may be held twice. So two sides adding different entries keep both, an entry
    both added is held once (twice where the list allows two: each side added one), an entry
    removed on one side is removed, and an entry both changed (its fields) merges field by field.

    A trait changed on one side takes that side's value; changed on both sides to the same value is
    no conflict; changed on both to different values (a scalar, or one entry of a list: changed on
    one side and changed or removed on the other) is a conflict: [{"path", "label", "base", "mine",
    "theirs"}] (``None`` for a value that is absent; for a list's entry, ``path`` is the list's and
    ``entry`` is true, the three values being the entry on each side), and the merged document keeps
    ``theirs`` there (``prefer_mine``: ``mine``, for a page that shows both and saves on purpose),
    so nothing is written over silently.
    """
    conflicts: list[dict[str, Any]] = []
    rules = lists if lists is not None else PLAIN
    merged = _merge(base, mine, theirs, [], conflicts, rules, prefer_mine)
    return (None if merged is _MISSING else merged), conflicts


def _same(a: Any, b: Any) -> bool:
    """Equal as traits: absent, null, [] and {} all mean "nothing" (a form leaves out an empty
    rank object that the stored build has), and 1 is not True."""
    if a is _MISSING or b is _MISSING:
        return _empty(None if a is _MISSING else a) and _empty(None if b is _MISSING else b)
    return (a == b and type(a) is type(b)) or (_empty(a) and _empty(b))


def _listish(value: Any) -> bool:
    """A list, or nothing (absent, null: a list a side does not have yet)."""
    return isinstance(value, list) or value is _MISSING or value is None


def _merge(base: Any, mine: Any, theirs: Any, tokens: list, conflicts: list, rules, prefer: bool) -> Any:
    if _same(mine, base):
        return theirs
    if _same(theirs, base):
        return mine
    if (
        rules is not None
        and (isinstance(mine, list) or isinstance(theirs, list))
        and _listish(base)
        and _listish(mine)
        and _listish(theirs)
    ):
        return _merge_list(base, mine, theirs, tokens, conflicts, rules, prefer)
    if isinstance(mine, dict) and isinstance(theirs, dict):
        # Key by key even when both sides are equal: a list that may hold an entry twice keeps
        # an entry each side added (below), however alike the two builds are.
        old = base if isinstance(base, dict) else {}
        out: dict = {}
        for key in list(theirs) + [k for k in mine if k not in theirs]:
            value = _merge(
                old.get(key, _MISSING),
                mine.get(key, _MISSING),
                theirs.get(key, _MISSING),
                [*tokens, key],
                conflicts,
                rules,
                prefer,
            )
            if value is not _MISSING:
                out[key] = value
        return out
    if _same(mine, theirs):
        return mine
    path = ptr(*tokens)
    conflicts.append(
        {
            "path": path,
            "label": label_for(path),
            "base": None if base is _MISSING else base,
            "mine": None if mine is _MISSING else mine,
            "theirs": None if theirs is _MISSING else theirs,
        }
    )
    return mine if prefer else theirs


def _hashable(key: Any) -> Any:
    try:
        hash(key)
    except TypeError:
        return repr(key)
    return key


def _merge_list(
    base: Any, mine: Any, theirs: Any, tokens: list, conflicts: list, rules, prefer: bool
) -> list:
    """One list of the build, entry by entry (``build_merge``): theirs' entries in their order, then
    the entries only ``mine`` has, in its order."""
    path = ptr(*tokens)
    twice = bool(rules.list_allows_duplicates(path))

    def key_of(entry: Any) -> Any:
        return _hashable(rules.list_entry_key(path, entry))

    def groups(value: Any, renamed: dict[int, Any]) -> dict[Any, list]:
        out: dict[Any, list] = {}
        for i, entry in enumerate(value if isinstance(value, list) else []):
            out.setdefault(renamed.get(i, key_of(entry)), []).append(entry)
        return out

    old = groups(base, {})
    ours, their = groups(mine, _renamed(base, mine, key_of)), groups(theirs, _renamed(base, theirs, key_of))
    merged: list = []
    for key in list(their) + [k for k in ours if k not in their]:
        b, m, t = old.get(key, []), ours.get(key, []), their.get(key, [])
        if _same_entries(m, b):
            merged.extend(t)
        elif _same_entries(t, b):
            merged.extend(m)
        elif _same_entries(m, t) and not (twice and len(m) > len(b)):
            merged.extend(m)  # the same change on both sides: once (both added it: held once)
        else:
            # Entry by entry, as far as the base had them; then what each side added (both kept
            # where the list may hold an entry twice; else, as above, the same change once).
            for i in range(len(b)):
                value = _merge_entry(
                    b[i],
                    m[i] if i < len(m) else _MISSING,
                    t[i] if i < len(t) else _MISSING,
                    tokens,
                    conflicts,
                    rules,
                    prefer,
                )
                if value is not _MISSING:
                    merged.append(value)
            added_theirs, added_mine = t[len(b) :], m[len(b) :]
            merged.extend(added_theirs)
            if twice:
                merged.extend(added_mine)
            else:
                for i, entry in enumerate(added_mine):
                    if i >= len(added_theirs):
                        merged.append(entry)
                    elif not _same(entry, added_theirs[i]):
                        # Both added this entry, with different fields: one entry, changed both ways.
                        merged[len(merged) - len(added_theirs) + i] = _merge_entry(
                            _MISSING, entry, added_theirs[i], tokens, conflicts, rules, prefer
                        )
    return merged


def _named(entry: Any) -> bool:
    """A record a person names (a specialty: its ability and name), not a catalogue entry."""
    return isinstance(entry, dict) and not any(
        isinstance(entry.get(k), (str, int)) and not isinstance(entry.get(k), bool) for k in ID_KEYS
    )


def _renamed(base: Any, side: Any, key_of) -> dict[int, Any]:
    """{index in ``side``: the base entry's key} for a record ``side`` changed in place: what makes a
    record the same (its name) is what a person edits, so one record gone and one come on one side,
    both records, is that record changed (its name typed on), not one removed and another added
    (which, merged with a save of the name half-typed, would keep both)."""
    if not isinstance(base, list) or not isinstance(side, list):
        return {}
    base_keys, side_keys = [key_of(e) for e in base], [key_of(e) for e in side]
    gone = [i for i, k in enumerate(base_keys) if k not in side_keys]
    come = [j for j, k in enumerate(side_keys) if k not in base_keys]
    if len(gone) == 1 and len(come) == 1 and _named(base[gone[0]]) and _named(side[come[0]]):
        return {come[0]: base_keys[gone[0]]}
    return {}


def _same_entries(a: list, b: list) -> bool:
    return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))


def _merge_entry(
    base: Any, mine: Any, theirs: Any, tokens: list, conflicts: list, rules, prefer: bool
) -> Any:
    """One entry of a list, both sides' changes merged field by field; where they differ on one
    field (or one side removed what the other changed), one conflict of the whole entry. A list
    inside an entry (the hands a weapon is held in) is one value of it, compared whole."""
    inner: list[dict[str, Any]] = []
    value = _merge(base, mine, theirs, tokens, inner, None, prefer)
    if not inner:
        return value
    path = ptr(*tokens)
    conflicts.append(
        {
            "path": path,
            "label": label_for(path),
            "entry": True,
            "base": None if base is _MISSING else base,
            "mine": None if mine is _MISSING else mine,
            "theirs": None if theirs is _MISSING else theirs,
        }
    )
    return mine if prefer else theirs
