"""Ascendant's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the
engine checks every campaign's feats, ancestries, heritages, backgrounds and Lores against them
(character/homebrew.py checks the rest: a feat's owner, its prerequisites and effects)."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character.common import ATTRIBUTE_LABELS, ATTRIBUTES, FEAT_KINDS

_ATTRS = tuple((a, ATTRIBUTE_LABELS.get(a, a)) for a in ATTRIBUTES)
#: The ranks a feat may need (content/house.json "ranks" without "untrained").
_RANKS = ("trained", "expert", "master", "grandmaster", "legendary", "ascendant")

#: Bulk: "L" (light) or a whole number (W12).
_BULK = (("L", "Light"), *((n, str(n)) for n in range(11)))
_PRICE = Field("price", "Price (gp)", "number", min=0, default=0)

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
            Field(
                "prerequisites",
                "Prerequisites",
                "records",
                fields=(
                    Field("feat", "Feat", "choice", catalogue="feats"),
                    Field("attribute", "Attribute", "choice", choices=_ATTRS),
                    Field("min", "At least", "number", min=-5, max=10),
                    Field("skill", "Skill", "choice", catalogue="skills"),
                    Field("rank", "Rank", "choice", choices=tuple((r, r.capitalize()) for r in _RANKS)),
                ),
                shapes=(("feat",), ("attribute", "min"), ("skill", "rank")),
                help="Each prerequisite is a feat; or an attribute and its least modifier; or a skill and its rank.",
            ),
            Field("text", "What it does", "longtext"),
        ),
        help="A feat's effects on the numbers come with an imported feat and are kept as they are.",
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
            Field(
                "feat",
                "Feat it grants",
                "choice",
                catalogue="feats",
                where=(("kind", "ancestry"),),
                required=True,
            ),
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
            Field(
                "skill_feat",
                "Skill feat",
                "choice",
                catalogue="feats",
                where=(("kind", "skill"),),
                required=True,
            ),
            Field(
                "general_feat",
                "General feat",
                "choice",
                catalogue="feats",
                where=(("kind", "general"),),
                required=True,
            ),
            Field("text", "Description", "longtext"),
        ),
    ),
    "lores": EntryForm(
        "Lores",
        "Lore",
        (Field("name", "Name", "text", required=True), Field("text", "Description", "longtext")),
    ),
    # Kinds a campaign may extend once the ruleset lists them in ``homebrew_kinds`` (W11/W12).
    "weapons": EntryForm(
        "Weapons",
        "weapon",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "die",
                "Damage die",
                "choice",
                choices=tuple((d, f"d{d}") for d in (4, 6, 8, 10, 12)),
                required=True,
            ),
            Field(
                "attribute",
                "Attacks with",
                "choice",
                choices=(
                    ("str", "Strength"),
                    ("dex", "Dexterity"),
                    ("finesse", "Finesse (the better of the two)"),
                ),
            ),
            Field("agile", "Agile", "flag"),
            Field("ranged", "Ranged", "flag"),
            _PRICE,
            Field("bulk", "Bulk", "choice", choices=_BULK, default=1),
            Field("text", "Description", "longtext"),
        ),
    ),
    "armor": EntryForm(
        "Armor",
        "armor",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "category",
                "Category",
                "choice",
                choices=tuple((c, c.capitalize()) for c in ("unarmored", "light", "medium", "heavy")),
                required=True,
                default="light",
            ),
            Field("bonus", "Item bonus", "number", min=0, max=20, default=1),
            _PRICE,
            Field("bulk", "Bulk", "choice", choices=_BULK, default=1),
            Field("text", "Description", "longtext"),
        ),
    ),
    "gear": EntryForm(
        "Gear",
        "piece of gear",
        (
            Field("name", "Name", "text", required=True),
            _PRICE,
            Field("bulk", "Bulk", "choice", choices=_BULK, default="L"),
            Field("text", "Description", "longtext"),
        ),
    ),
}
