"""Pando's build (RULES.md section 1, seed 000): check, price and derive a build, the builder's
traits and blank build, and the checks of campaign homebrew (skills, items, species).

Everything here reads plain data and writes into a ``Report``; nothing raises on a document. The
efficiency roll is in ``dice.py``, the play state in ``state.py``, action rounds in ``combat/``.


The code, one module per stage: ``common.py`` (the attributes, resistances, equipment fields and
costs), ``settings.py`` (house rules), ``check.py`` (``check_build``: the stages in order, over
``learned.py``'s ``_Build``), ``attributes.py`` (attributes, species, resistances), ``skills.py``,
``equipment.py`` (items, arms, wear, requirements), ``derive.py``, ``advancement.py``,
``homebrew.py`` (items, skills, species) and ``builder.py`` (traits, blank build).
"""

from __future__ import annotations

from .advancement import check_advancement
from .builder import blank_build, traits
from .check import check_build
from .common import (
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    CAPABILITY,
    DEFAULT_RESISTANCES,
    ENTRY_KEYS,
    EQUIPMENT_STATES,
    HOUSE_NOTE,
    ITEM_FIELDS,
    MONEY,
    RESISTANCE_ATTRIBUTES,
    RESISTANCES,
    attribute_total_cost,
    label,
    price_of,
    skill_cost,
    skill_total_cost,
)
from .derive import protection_of
from .equipment import resolve_item
from .homebrew import (
    entry_item,
    finish_homebrew,
    homebrew_problems,
    item_problems,
    normalise_item,
    skill_problems,
    species_problems,
    tree_problems,
)
from .settings import attribute_max, check_settings, starting_money

__all__ = [
    "ATTRIBUTES",
    "ATTRIBUTE_GROUPS",
    "CAPABILITY",
    "DEFAULT_RESISTANCES",
    "ENTRY_KEYS",
    "EQUIPMENT_STATES",
    "HOUSE_NOTE",
    "ITEM_FIELDS",
    "MONEY",
    "RESISTANCES",
    "RESISTANCE_ATTRIBUTES",
    "attribute_max",
    "attribute_total_cost",
    "blank_build",
    "check_advancement",
    "check_build",
    "check_settings",
    "entry_item",
    "finish_homebrew",
    "homebrew_problems",
    "item_problems",
    "label",
    "normalise_item",
    "price_of",
    "protection_of",
    "resolve_item",
    "skill_cost",
    "skill_problems",
    "skill_total_cost",
    "species_problems",
    "starting_money",
    "traits",
    "tree_problems",
]
