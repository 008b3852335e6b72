"""The sanity bound on numbers that are stored: no game number is anywhere near a million.

The rules service answers any number (its prices and odds are closed forms, and a number past a
ruleset's range is an error on the report), but what the product stores — a build, an NPC, an
effect, a play state, the table's numbers of a roll — is read again by every later step: a sort,
a float average, a loop over dice. A number past ``SANITY_BOUND`` either way (a float that is not
finite included) is refused where it comes in, a 400 with the code ``value.out_of_bounds``, and
is never stored. Within the bound the rulesets' own ranges are the report's errors, as ever.
"""

from __future__ import annotations

import math
from typing import Any

from config.errors import BadInput

#: |n| ≤ this for any number stored in a build, an NPC, an effect or a table's numbers.
SANITY_BOUND = 1_000_000
CODE = "value.out_of_bounds"
#: Walking stops this deep (a document nested deeper is refused by its own checks, not here).
_MAX_DEPTH = 64


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _in_bounds(value: int | float) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return -SANITY_BOUND <= value <= SANITY_BOUND


def out_of_bounds(value: Any, path: str = "", *, depth: int = 0) -> list[str]:
    """The JSON Pointers (below ``path``) of every number in ``value`` past the bound, in order."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [] if _in_bounds(value) else [path]
    if depth >= _MAX_DEPTH:
        return []
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += out_of_bounds(item, f"{path}/{_escape(str(key))}", depth=depth + 1)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            found += out_of_bounds(item, f"{path}/{i}", depth=depth + 1)
    return found


class OutOfBounds(BadInput):
    """A number past the sanity bound (400, ``value.out_of_bounds``); nothing is stored."""

    code = CODE


def require_bounded(value: Any, *, what: str, path: str = "") -> None:
    """Refuse ``value`` (``what``: its name for people, "The build") when a number in it is past the
    bound: ``OutOfBounds`` with one error per such number, each at its JSON Pointer."""
    pointers = out_of_bounds(value, path)
    if not pointers:
        return
    message = (
        f"{what} has a number far beyond any game's: numbers go from −{SANITY_BOUND:,} to {SANITY_BOUND:,}."
    )
    raise OutOfBounds(message, errors=[{"code": CODE, "path": p, "message": message} for p in pointers])
