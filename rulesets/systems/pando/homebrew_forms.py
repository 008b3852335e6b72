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
            Field(
                "price",
                "Price (money)",
                "number",
                min=0,
                default=0,
                help="What it costs to buy: out of the starting money at creation, or in play. 0 for nothing.",
            ),
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
    # A kind a campaign may extend once the ruleset lists it in ``homebrew_kinds`` (RULES.md W1).
    "outcomes": EntryForm(
        "Outcomes",
        "outcome",
        (
            Field("name", "Name", "text", required=True),
            Field("cost", "Cost (EP)", "number", min=0, max=30, required=True, default=1),
            Field("chainable", "Chainable (may be bought with others, several times)", "flag"),
            Field("harm", "Harm each time", "number", min=1, max=30),
            Field("effect", "Puts on the effect", "choice", choices=((None, "None"),), catalogue="effects"),
            Field("value", "The effect's value", "number", min=1),
            Field("disarm", "Disarms the target", "flag"),
            Field("actions", "Offered by the actions", "choices", catalogue="actions"),
            Field("items", "Offered by the items", "choices", catalogue="items"),
            Field("text", "What it does", "longtext"),
        ),
    ),
}
