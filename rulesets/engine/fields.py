"""Reading a build or state document that may hold anything.

Every ruleset reads its documents the same lenient way: a field of the wrong type counts as absent,
never as an error raised at the player (the rules engine never raises on a document). Names and
numbers people type are read here too: ``name_key``, ``whole_number``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar, overload

from typing_extensions import TypeIs

from .errors import StateError
from .pointer import ptr

_NAME_KEY_RE = re.compile(r"[^a-z0-9]+")


_NAME_KEYS: dict[str, str] = {}


def name_key(text: str) -> str:
    """Compare names typed by people: "Space Flight" == "spaceflight" (RULES.md)."""
    if type(text) is str:
        key = _NAME_KEYS.get(text)
        if key is None:
            key = _NAME_KEY_RE.sub("", text.lower())
            if len(_NAME_KEYS) > 4096:
                _NAME_KEYS.clear()
            _NAME_KEYS[text] = key
        return key
    return _NAME_KEY_RE.sub("", text.lower())


def is_int(value: Any) -> TypeIs[int]:
    """A JSON whole number (bools are not numbers here)."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


#: A whole number as people type it: an optional sign, then ASCII digits (at most 15: past that it is
#: not a game number, and ``int()`` of thousands of digits is slow or refused). Nothing else —
#: "-+1", "²", "1e3", "1_000", "٣" and "" are not whole numbers.
WHOLE_NUMBER_RE = re.compile(r"[+-]?[0-9]{1,15}")


def parse_whole_number(text: str) -> int | None:
    """The whole number ``text`` spells (spaces around it allowed), else None. Never raises."""
    stripped = text.strip(" \t\r\n")
    if WHOLE_NUMBER_RE.fullmatch(stripped):
        return int(stripped)
    return None


def whole_number(value: Any) -> int | None:
    """A whole number from JSON (``is_int``) or a form field ("3", " -2 "), else None."""
    if is_int(value):
        return value
    if isinstance(value, str):
        return parse_whole_number(value)
    return None


def action_amount(action: dict, key: str = "amount", low: int = 0) -> int:
    """The whole number ``action[key]`` (≥ ``low``) of a play-state action, else ``StateError``
    ("state.malformed" at ``/key``): the amounts of harm, healing, pools and condition values."""
    value = action.get(key)
    if not is_int(value) or value < low:
        raise StateError("state.malformed", f'"{key}" must be a whole number ≥ {low}.', ptr(key))
    return value


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
