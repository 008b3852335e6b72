"""Ascendant's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's feats, ancestries, heritages, backgrounds and Lores against them
(character/homebrew.py checks the rest: a feat's owner, its prerequisites and effects)."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character.common import ATTRIBUTE_LABELS, ATTRIBUTES, FEAT_KINDS

_ATTRS = tuple((a, ATTRIBUTE_LABELS.get(a, a)) for a in ATTRIBUTES)
#: The ranks a feat may need (content/house.json "ranks" without "untrained").
_RANKS = ("trained", "expert", "master", "grandmaster", "legendary", "ascendant")

FORMS = {
    "feats": EntryForm(
        "Feats",
        "feat",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "kind",
                "Kind",
                "choice",
                choices=tuple((k, f"{k.capitalize()} feat") for k in FEAT_KINDS),
                required=True,
                default="general",
            ),
            Field(
                "rank",
                "Rank",
                "choice",
                choices=tuple((r, r.capitalize()) for r in _RANKS),
                required=True,
                default="trained",
            ),
            Field(
                "ancestry",
                "Ancestry (for an ancestry feat)",
                "choice",
                choices=((None, "None"),),
                catalogue="ancestries",
            ),
            Field(
                "class", "Class (for a class feat)", "choice", choices=((None, "None"),), catalogue="classes"
            ),
            Field(
                "archetype",
                "Archetype (for an archetype feat)",
                "choice",
                choices=((None, "None"),),
                catalogue="archetypes",
            ),
            Field(
                "skill", "Skill (for a skill feat)", "choice", choices=((None, "None"),), catalogue="skills"
            ),
            Field("text", "What it does", "longtext"),
        ),
        help="Prerequisites and effects come with an imported feat and are kept as they are.",
    ),
    "ancestries": EntryForm(
        "Ancestries",
        "ancestry",
        (
            Field("name", "Name", "text", required=True),
            Field("stamina", "Stamina", "number", min=0, required=True, default=8),
            Field("boosts", "Attribute boosts", "choices", choices=_ATTRS),
            Field("free_boosts", "Free boosts", "number", min=0, max=6, default=0),
            Field("speed", "Speed (feet)", "number", min=0, default=25),
            Field("text", "Description", "longtext"),
        ),
    ),
    "heritages": EntryForm(
        "Heritages",
        "heritage",
        (
            Field("name", "Name", "text", required=True),
            Field("ancestry", "Ancestry", "choice", catalogue="ancestries", required=True),
            Field("feat", "Feat it grants", "choice", catalogue="feats", required=True),
            Field("text", "Description", "longtext"),
        ),
    ),
    "backgrounds": EntryForm(
        "Backgrounds",
        "background",
        (
            Field("name", "Name", "text", required=True),
            Field("boosts", "Attribute boosts", "choices", choices=_ATTRS, required=True, min=1),
            Field("skill", "Trained skill", "choice", catalogue="skills", required=True),
            Field("lore", "Lore", "choice", catalogue="lores", required=True),
            Field("skill_feat", "Skill feat", "choice", catalogue="feats", required=True),
            Field("general_feat", "General feat", "choice", catalogue="feats", required=True),
            Field("text", "Description", "longtext"),
        ),
    ),
    "lores": EntryForm(
        "Lores",
        "Lore",
        (Field("name", "Name", "text", required=True), Field("text", "Description", "longtext")),
    ),
}
