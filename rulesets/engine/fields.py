"""Reading a build or state document that may hold anything.

Every ruleset reads its documents the same lenient way: a field of the wrong type counts as absent,
never as an error raised at the player (the rules engine never raises on a document).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, overload

from rulesets.engine.base import is_int

T = TypeVar("T")
V = TypeVar("V")
D = TypeVar("D")


def get_as(doc: dict[str, Any], key: str, kind: type[T], default: T) -> T:
    """``doc[key]`` when it is a ``kind`` (``dict``, ``list``, ``str``…), else ``default``."""
    value = doc.get(key)
    return value if isinstance(value, kind) else default


def whole_or(doc: dict[str, Any], key: str, default: int) -> int:
    """``doc[key]`` when it is a whole number (``is_int``: not a bool), else ``default``."""
    value = doc.get(key)
    return value if is_int(value) else default


@overload
def lookup(table: Mapping[str, V], key: object) -> V | None: ...
@overload
def lookup(table: Mapping[str, V], key: object, default: D) -> V | D: ...
def lookup(table: Mapping[str, Any], key: object, default: Any = None) -> Any:
    """``table[key]`` when ``key`` is a text key of the table, else ``default``: an id read from a
    document that is absent, ``None`` or of the wrong type (a number, a list) finds nothing instead
    of raising."""
    return table.get(key, default) if isinstance(key, str) else default
