"""Reading a field of a build or state document that may hold anything.

Every ruleset reads its documents the same lenient way: a field of the wrong type counts as absent,
never as an error raised at the player (the rules engine never raises on a document).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def get_as(doc: dict[str, Any], key: str, kind: type[T], default: T) -> T:
    """``doc[key]`` when it is a ``kind`` (``dict``, ``list``, ``str``…), else ``default``."""
    value = doc.get(key)
    return value if isinstance(value, kind) else default
