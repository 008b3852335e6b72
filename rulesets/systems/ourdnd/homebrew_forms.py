"""Our D&D's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's gear against them."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character import EFFORT_DICE, REACHES, STATS

_KINDS = ("weapon", "armor", "shield", "heavy", "light", "gunpowder", "magic", "tool")
_KIND_WORDS = {
    "armor": "Armour",
    "heavy": "Heavy weapon",
    "gunpowder": "Gunpowder weapon",
    "magic": "Magic item",
}
_STAT_WORDS = {
    "str": "Strength",
    "dex": "Dexterity",
    "con": "Constitution",
    "int": "Intelligence",
    "wis": "Wisdom",
    "cha": "Charisma",
}

FORMS = {
    "gear": EntryForm(
        "Gear",
        "piece of gear",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "kind",
                "Kind",
                "choice",
                choices=((None, "Other"), *((k, _KIND_WORDS.get(k, k.capitalize())) for k in _KINDS)),
                default="weapon",
            ),
            Field("effort", "Effort die", "choice", choices=((None, "None"), *((d, d) for d in EFFORT_DICE))),
            Field(
                "critical_ultimate",
                "CRITICAL ULTIMATE! EFFORT",
                "flag",
                help="A d12 replaces its effort die (RULES.md W16).",
            ),
            Field(
                "reach",
                "Reaches",
                "choice",
                choices=(
                    (None, "Only within reach of a hand"),
                    *((r, r.replace("_", " ").upper()) for r in REACHES),
                ),
            ),
            Field("defense", "Defense bonus", "number", min=0, max=5, default=0),
            Field(
                "td_modifier",
                "Lowers the TD by",
                "number",
                min=-3,
                max=0,
                default=0,
                help="0 to −3: players never lower a TD by more than 3.",
            ),
            Field("stats", "Stat bonuses", "numbers", choices=tuple((s, _STAT_WORDS[s]) for s in STATS)),
            Field("help", "Description", "longtext"),
        ),
    ),
}
