"""Ascendant character rules: validate, price and derive a build document.

The document's shape is described in the package docstring (``__init__.py``). Every
number that RULES.md marks HD comes from ``content/house.json`` through
``ctx.settings``, so a campaign's house rules change it without code.

Checking walks the levels in order (1 → the character's level), the way a player
levels up: Class Proficiency and the attribute cap of level N, then that level's
attribute points, its skill increase, and its feats, whose ranks and
prerequisites are judged against the character *as of* level N (attributes after
that level's points, skills after that level's increase, feats of earlier levels
and of the same level — the seed lets a player take the steps of a level-up in
any order).


The code, one module per stage: ``common.py`` (attributes, defenses, feat kinds, codes), ``tables.py``
(``Rules``: the house tables of a context, and the catalogue's indexes), ``check.py`` (``check``: the
stages in order over a ``Check``), ``checking.py`` (``Check``: the character as the levels are
walked), ``attributes.py`` (creation
boosts, level points), ``levels.py`` (the levels object, walking the levels), ``skills.py`` (level-1
skills, Lores, skill increases), ``feat_slots.py`` (feats by slot: trades, ranks, prerequisites,
effects), ``derive.py`` (the derived numbers), ``advancement.py``, ``builder.py`` (traits, blank build)
and ``homebrew.py``.
"""

from __future__ import annotations

from .advancement import check_advancement
from .builder import blank_build, traits
from .check import check
from .common import ATTRIBUTE_LABELS, ATTRIBUTES, DEFENSES, FEAT_KINDS, GROUP_SLOTS, MISSING, TRADE
from .homebrew import check_homebrew_entry
from .tables import Rules, allowed_feats

__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_LABELS",
    "DEFENSES",
    "FEAT_KINDS",
    "GROUP_SLOTS",
    "MISSING",
    "Rules",
    "TRADE",
    "allowed_feats",
    "blank_build",
    "check",
    "check_advancement",
    "check_homebrew_entry",
    "traits",
]
