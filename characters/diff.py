"""What changed between two builds, trait by trait: used by history and by advancement review.

    build_diff({"attributes": {"strength": 1}}, {"attributes": {"strength": 2}})
    → [{"path": "/attributes/strength", "label": "Attributes › Strength", "old": 1, "new": 2}]

Objects are compared key by key down to their leaves (a key missing on one side is
``None`` there, so a sparse rank object diffs naturally); lists (skills, equipment)
are one trait each and compared whole, because their indices shift when an entry is
added or removed. The common ``format`` key is ignored.
"""

from __future__ import annotations

from typing import Any

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
