"""Finds the rulesets once and caches them. A sixth ruleset is one line here."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Ruleset

SYSTEMS: tuple[str, ...] = ("pando", "paragon", "ascendant", "ourdnd", "maelstrom")


@cache
def _load(slug: str) -> "Ruleset":
    module = import_module(f"rulesets.systems.{slug}")
    return module.RULESET


def get(slug: object) -> "Ruleset | None":
    """The ruleset for ``slug``, or None when there is no such ruleset."""
    if not isinstance(slug, str) or slug not in SYSTEMS:
        return None
    return _load(slug)


def all_rulesets() -> list["Ruleset"]:
    return [_load(slug) for slug in SYSTEMS]


def choices() -> list[tuple[str, str]]:
    return [(rs.slug, rs.name) for rs in all_rulesets()]
