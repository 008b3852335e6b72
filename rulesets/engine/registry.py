"""Finds the rulesets once and caches them.

Every package under ``rulesets/systems/`` whose ``__init__.py`` defines ``RULESET`` is a
ruleset, listed in the order of ``rulesets.systems.ORDER`` (then alphabetically). A sixth
ruleset is one folder there and one word in ``ORDER``. Tests (and plugins shipped elsewhere)
add one at run time with ``register(ruleset)`` and take it away with ``unregister(slug)``.

A folder that fails to import (a name the engine no longer has, a typo, content it cannot read at
import) is left out: the others are served, its error is logged once per process (with the
traceback), ``broken()`` names it with the error, and ``manage.py check`` reports it (rulesets/checks.py).
"""

from __future__ import annotations

import logging
import pkgutil
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

from . import words

if TYPE_CHECKING:
    from .ruleset import Ruleset

logger = logging.getLogger(__name__)

_PACKAGE = "rulesets.systems"

_found: dict[str, Ruleset] | None = None
_extra: dict[str, Ruleset] = {}
#: Folders that failed to import at the last discovery: folder name → the error, in one line.
_broken: dict[str, str] = {}
#: Folders whose failure this process has logged already (each is logged once).
_logged: set[str] = set()
# ``SYSTEMS``, the slugs in order, is set on first use (see ``__getattr__``).
SYSTEMS: tuple[str, ...]


def _discover() -> dict[str, Ruleset]:
    package = import_module(_PACKAGE)
    order = list(getattr(package, "ORDER", ()))
    names = sorted(
        (m.name for m in pkgutil.iter_modules(package.__path__) if m.ispkg),
        key=lambda n: (order.index(n) if n in order else len(order), n),
    )
    found: dict[str, Ruleset] = {}
    _broken.clear()
    for name in names:
        try:
            module = import_module(f"{_PACKAGE}.{name}")
        except Exception as exc:  # one folder's mistake must not take the other games down
            _broken[name] = f"{type(exc).__name__}: {exc}"
            if name not in _logged:
                _logged.add(name)
                logger.error(
                    "The ruleset folder rulesets/systems/%s/ failed to load and is left out; "
                    "the other rulesets are served.",
                    name,
                    exc_info=True,
                )
            continue
        ruleset = getattr(module, "RULESET", None)
        if ruleset is not None:
            found[ruleset.slug] = ruleset
    return found


def broken() -> dict[str, str]:
    """The ruleset folders that failed to import, each with its error in one line (none: ``{}``)."""
    _rulesets()
    return dict(_broken)


def _rulesets() -> dict[str, Ruleset]:
    global _found
    if _found is None:
        _found = _discover()
        _refresh()
    return {**_found, **_extra} if _extra else _found


def _refresh() -> None:
    global SYSTEMS  # noqa: PLW0603
    SYSTEMS = tuple(_found or {}) + tuple(s for s in _extra if s not in (_found or {}))
    labels.cache_clear()


def get(slug: object) -> Ruleset | None:
    """The ruleset for ``slug``, or None when there is no such ruleset."""
    if not isinstance(slug, str):
        return None
    return _rulesets().get(slug)


def all_rulesets() -> list[Ruleset]:
    return list(_rulesets().values())


def slugs() -> tuple[str, ...]:
    _rulesets()
    return SYSTEMS


def choices() -> list[tuple[str, str]]:
    return [(rs.slug, rs.name) for rs in all_rulesets()]


def register(ruleset: Ruleset) -> None:
    """Add a ruleset found elsewhere (a test's, a plugin's); it is listed after the others."""
    _rulesets()
    _extra[ruleset.slug] = ruleset
    _refresh()


def unregister(slug: str) -> None:
    """Take away a ruleset added with ``register``."""
    _extra.pop(slug, None)
    _refresh()


@cache
def labels() -> dict[str, str]:
    """Every ruleset's display words for keys (``Ruleset.labels``), the earlier ruleset first."""
    out: dict[str, str] = {}
    for ruleset in reversed(all_rulesets()):
        out.update(ruleset.labels())
    return out


def label(key: object) -> str:
    """A key in words for a page that shows no one ruleset's: the rulesets' own words (``labels``),
    else the key humanised (``words.label``). A page of one ruleset asks ``Ruleset.label``."""
    return words.label(key, labels())


def __getattr__(name: str):
    # ``registry.SYSTEMS`` read before any ruleset was asked for: discover them first.
    if name == "SYSTEMS":
        return slugs()
    raise AttributeError(name)
