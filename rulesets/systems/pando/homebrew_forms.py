"""Pando's homebrew kinds as fields (engine entries.py): the editor is drawn from them and the engine
checks every campaign's skills, items and species against them (character/homebrew.py checks the
rest: the skill tree, a species' arms among its body parts)."""

from __future__ import annotations

from rulesets.engine.entries import EntryForm, Field

from .character.common import ATTRIBUTES, CAPABILITY, label

_ATTRIBUTES = tuple((a, label(a)) for a in ATTRIBUTES)

FORMS = {
    "skills": EntryForm(
        "Skills",
        "skill",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "level",
                "Level",
                "number",
                min=2,
                max=5,
                required=True,
                default=2,
                help="Level 2 skills grow from Capability; a level 3 skill from a level 2 one, and so on.",
            ),
            Field(
                "parent",
                "Grows from",
                "choice",
                choices=((CAPABILITY, "Capability (for a level 2 skill)"),),
                catalogue="skills",
                required=True,
                default=CAPABILITY,
            ),
            Field("attribute", "Usual attribute", "choice", choices=((None, "None"), *_ATTRIBUTES)),
            Field("description", "Description", "longtext"),
        ),
    ),
    "items": EntryForm(
        "Items",
        "item",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "wield",
                "Held in",
                "choice",
                choices=((None, "Not wielded"), ({"arms": 1}, "One hand"), ({"arms": 2}, "Two hands")),
            ),
            Field(
                "wear/body_parts",
                "Worn on",
                "names",
                help="Body parts it covers, separated by commas (Head); leave empty when it is not worn.",
            ),
            Field("wear/slots", "Takes the slots", "names", help="Separated by commas: Helmet, Gloves."),
            Field("encumbrance", "Encumbrance", "number", min=0, default=0),
            Field("range", "Range", "decimal", min=0, help="Leave empty when the item does not reach."),
            Field(
                "requires/attributes", "Needs attributes of at least", "numbers", choices=_ATTRIBUTES, min=0
            ),
            Field("requires/skills", "Needs the skills", "choices", catalogue="skills"),
        ),
        help="Protection and the item’s actions come with an imported item and are kept as they are.",
    ),
    "species": EntryForm(
        "Species",
        "species",
        (
            Field("name", "Name", "text", required=True),
            Field(
                "body_parts",
                "Body parts",
                "names",
                required=True,
                min=1,
                help="Separated by commas: Head, Torso, Left arm, Right arm, Legs.",
            ),
            Field("arms", "Arms (hold items)", "names", help="Some of its body parts, separated by commas."),
            Field("vital", "Vital parts (maimed means death)", "names", help="Some of its body parts."),
            Field("description", "Description", "longtext"),
        ),
    ),
}
