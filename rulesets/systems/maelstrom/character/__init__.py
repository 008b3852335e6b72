"""Maelstrom build rules: checking, pricing and deriving a character (RULES.md section 5).

The build document (CONTRACT.md common keys plus)::

    "attributes":  {"strength": 2, ...}           all six, 0–5 (required)
    "abilities":   {"firearms": 4, ...}           sparse, missing = 0, 0–5 (optional)
    "willpower":   4                              1–10, at least 3 (optional, default 3)
    "specialties": [{"ability", "name", "kind"?}] (optional)
    "creation":    {"primary"?, "attributes"?, "abilities"?}   (optional)

Pricing. Every dot above the free creation dots is charged by its NEW rank
(``report.charge`` once per dot, so the builder can say "Firearms 4 costs 8 XP
because it is the 4th dot"): attribute 15, ability new rank × 2, willpower new
rank × 1 above the starting 3, specialty 2 (general) or 3 (advanced). The
numbers live in content/house.json and a campaign may override them.

Creation. With a ``creation`` section its dots are the free ones: it must be a
legal creation (``maelstrom.creation_attributes`` / ``maelstrom.creation_abilities``)
and no final value may be below it (``maelstrom.below_creation``). A part it
leaves out (``attributes`` or ``abilities``) is allocated as below. Without it
(a paper sheet, an import) the service takes the cheapest legal allocation:

- attributes: the group with more extra dots (final − 1) is primary, physical on
  a tie; legal when the primary group holds at least 6 extra dots and the other
  at least 4. Every such allocation frees the same 10 dots, so the cost is
  15 × (all extra dots − 10); the surplus is taken off the highest attributes.
- abilities: the creation slots (3, 3, 2, 2, 2, 2, 1 × 6) go to the highest
  finals; legal when two abilities have 3+ dots, six 2+ and twelve 1+, and then
  the creation saves exactly 60 XP: ability XP = Σ final × (final + 1) − 60.
  When illegal, the best partial allocation is priced (and the error reported).

The allocation used is in ``derived["creation"]``:
``{"source": "document"|"cheapest", "primary": "physical"|"mental",
"attributes": {id: creation dots}, "abilities": {id: creation dots}}`` — the
builder's "maelstrom_creation" widget shows those dots as free.

Codes beyond the common ones: ``attribute.zero`` (warning), ``specialty.kind_mismatch``,
``specialty.unlisted`` (warning), ``maelstrom.creation_attributes``,
``maelstrom.creation_abilities``, ``maelstrom.below_creation`` and, for
advancement (the approved build against the proposed one), ``advancement.decrease``
(an attribute, ability, willpower or specialty lower than or missing from the
approved build; path to the value, or ``/specialties`` for a dropped specialty)
and ``maelstrom.creation_changed`` (the recorded creation dots are fixed).


The code, one module per stage: ``common.py`` (groups, categories, keys), ``house.py`` (the
campaign's house rules read once per context, and their checks), ``lookup.py`` (ordinals, titles,
specialties found by name), ``sheet.py`` (``Sheet``: the usable values), ``check.py`` (``check``:
reading the document, then the stages in order), ``attributes.py``, ``abilities.py`` (with
willpower's price), ``specialties.py``, ``advancement.py``, ``homebrew.py`` and ``builder.py``
(traits, blank build).
"""

from __future__ import annotations

from .advancement import check_advancement
from .builder import blank_build, traits
from .check import check
from .common import CATEGORIES, CREATION_KEYS, GROUPS, KINDS, SPECIALTY_KEYS
from .homebrew import check_homebrew_entry, drop_orphan_specialties
from .house import House, check_settings, house
from .lookup import find_specialty, is_template, ordinal, specialty_identity, specialty_index
from .sheet import Sheet

__all__ = [
    "CATEGORIES",
    "CREATION_KEYS",
    "GROUPS",
    "House",
    "KINDS",
    "SPECIALTY_KEYS",
    "Sheet",
    "blank_build",
    "check",
    "check_advancement",
    "check_homebrew_entry",
    "check_settings",
    "drop_orphan_specialties",
    "find_specialty",
    "house",
    "is_template",
    "ordinal",
    "specialty_identity",
    "specialty_index",
    "traits",
]
