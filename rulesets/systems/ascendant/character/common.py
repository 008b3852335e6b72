"""Ascendant's build: the attributes, defenses and feat kinds, and the codes every stage uses."""

from __future__ import annotations

ATTRIBUTES: tuple[str, ...] = ("str", "dex", "con", "int", "wis", "cha")
ATTRIBUTE_LABELS = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}
#: Each defense and the attribute it adds (seed, "Attributes").
DEFENSES: dict[str, str] = {
    "stability": "str",
    "evasion": "dex",
    "resilience": "con",
    "clarity": "int",
    "spirit": "wis",
    "resolve": "cha",
}
FEAT_KINDS: tuple[str, ...] = ("ancestry", "class", "archetype", "skill", "general")
GROUP_SLOTS = ("ancestry", "background", "class", "free")

MISSING = "ascendant.level_choices_missing"
TRADE = "ascendant.feat_trade_invalid"
