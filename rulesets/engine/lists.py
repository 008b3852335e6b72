"""The build's lists entry by entry: what makes two entries the same, and where one may be held twice.

Two tabs of one draft that each add to a list (a lore, a piece of gear, a specialty) both keep
their entries when the builder merges their saves (``characters.diff.build_merge``): the lists
merge by entry, not whole. What an entry *is* decides which entries are "the same": a plain
value is itself (a lore's id), an object is its catalogue id (``item``, ``id``, ``feat``,
``skill``), else what a person named it (a specialty's ability and name), else all of it. In most
lists an entry is held once (two tabs adding it hold it once); ``Ruleset.duplicate_lists`` names
the lists where one may be held twice (two daggers), and there two tabs that each add one keep both.

Plain Python: the merge calls these through the ruleset (``Ruleset.list_entry_key``,
``Ruleset.list_allows_duplicates``), or these defaults when it has none.
"""

from __future__ import annotations

import json
from typing import Any

from .pointer import split

#: Keys that hold an entry's catalogue id, in the order they are looked for.
ID_KEYS = ("item", "id", "feat", "skill")


def entry_key(entry: Any) -> Any:
    """What makes ``entry`` the same entry as another in a list (hashable): see the docstring."""
    if isinstance(entry, dict):
        for key in ID_KEYS:
            value = entry.get(key)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return (key, value)
        name = entry.get("name")
        if isinstance(name, str):
            ability = entry.get("ability")
            return ("name", ability if isinstance(ability, str) else None, name.strip().casefold())
        return ("whole", json.dumps(entry, sort_keys=True, default=str))
    if isinstance(entry, (str, int, float, bool)) or entry is None:
        return ("value", type(entry).__name__, entry)
    return ("whole", json.dumps(entry, sort_keys=True, default=str))


def pointer_matches(pattern: str, path: str) -> bool:
    """Whether the JSON pointer ``path`` is ``pattern``, where a ``*`` token stands for any one key
    or index ("/levels/*/feats/general" matches "/levels/3/feats/general")."""
    want, got = split(pattern), split(path)
    return len(want) == len(got) and all(w == "*" or w == g for w, g in zip(want, got, strict=True))


class PlainLists:
    """The default answers (every list holds an entry once): the merge's rules without a ruleset."""

    def list_entry_key(self, path: str, entry: Any) -> Any:
        return entry_key(entry)

    def list_allows_duplicates(self, path: str) -> bool:
        return False


PLAIN = PlainLists()
