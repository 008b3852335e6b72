"""The engine's check of a homebrew entry against its kind's fields (rulesets.engine ``check_entry``),
as a table: a field, a value, what the GM reads (None: fine). And a filled-in form read back."""

from __future__ import annotations

import pytest

from rulesets.engine import EntryForm, Field, check_entry, entry_from_form, entry_words

LEVEL = Field("level", "Level", "number", min=2, max=5, required=True)
NAME = Field("name", "Name", "text", required=True)
HELD = Field("wield", "Held in", "choice", choices=((None, "Not wielded"), ({"arms": 1}, "One hand")))
BOOSTS = Field("boosts", "Boosts", "choices", choices=(("str", "Strength"), ("dex", "Dexterity")), max=1)
STATS = Field("stats", "Stat bonuses", "numbers", choices=(("str", "Strength"),), min=-2, max=2)
PARTS = Field("body_parts", "Body parts", "names", required=True)
RANGE = Field("range", "Range", "decimal", min=0)
PARENT = Field("parent", "Grows from", "choice", catalogue="skills", required=True)
NEEDS = Field(
    "needs",
    "Prerequisites",
    "records",
    fields=(
        Field("feat", "Feat", "choice", choices=(("toughness", "Toughness"),)),
        Field("attribute", "Attribute", "choice", choices=(("str", "Strength"),)),
        Field("min", "At least", "number", min=0, max=5),
    ),
    shapes=(("feat",), ("attribute", "min")),
    help="a feat, or an attribute and its least modifier.",
)

TABLE = [
    (NAME, "Axes", None),
    (NAME, None, "Give the thing a name."),
    (NAME, "   ", "Give the thing a name."),
    (NAME, 3, "Name is words."),
    (LEVEL, 3, None),
    (LEVEL, 6, "Level is a whole number from 2 to 5."),
    (LEVEL, 2.5, "Level is a whole number from 2 to 5."),
    (LEVEL, True, "Level is a whole number from 2 to 5."),
    (LEVEL, None, "Level: give a value."),
    (HELD, None, None),
    (HELD, {"arms": 1}, None),
    (HELD, {"arms": 3}, "Held in is one of: Not wielded, One hand."),
    (BOOSTS, ["str"], None),
    (BOOSTS, ["str", "dex"], "Boosts: choose at most 1."),
    (BOOSTS, ["luck"], "Boosts: choose among Strength, Dexterity."),
    (STATS, {"str": 2}, None),
    (STATS, {"str": 3}, "Stat bonuses: Strength is a whole number from -2 to 2."),
    (STATS, {"luck": 1}, "Stat bonuses: give numbers for Strength."),
    (PARTS, ["head", "left_arm"], None),
    (PARTS, ["head", "head"], "Body parts: name each one once."),
    (PARTS, ["Left Arm"], "Body parts: write names of letters and digits, separated by commas."),
    (RANGE, 1.5, None),
    (RANGE, -1, "Range is a number of 0 or more."),
    (NEEDS, [{"feat": "toughness"}, {"attribute": "str", "min": 2}], None),
    (NEEDS, [{"attribute": "str"}], "Prerequisites, 1: a feat, or an attribute and its least modifier."),
    (
        NEEDS,
        [{"feat": "toughness"}, {"attribute": "str", "min": 9}],
        "Prerequisites, 2: At least is a whole number from 0 to 5.",
    ),
    (
        NEEDS,
        [{"feat": "toughness", "colour": "red"}],
        "Prerequisites, 1: a feat, or an attribute and its least modifier.",
    ),
    # Without a campaign, a catalogue choice is any well-formed id (it may be another homebrew entry's).
    (PARENT, "melee", None),
    (PARENT, "Melee!", "Grows from: choose one from the list."),
]


@pytest.mark.parametrize(("field", "value", "said"), TABLE)
def test_check_entry_says_what_is_wrong_at_the_field(field, value, said):
    form = EntryForm("Things", "thing", (field,))
    entry = {} if value is None else {field.name: value}
    issues = check_entry(form, entry, "/things/0")
    assert [(i.path, i.message) for i in issues] == (
        [] if said is None else [(f"/things/0/{field.name}", said)]
    )


def test_a_form_is_read_into_an_entry_keeping_what_no_field_names():
    form = EntryForm(
        "Items",
        "item",
        (
            NAME,
            HELD,
            Field("requires/skills", "Skills", "choices", choices=(("melee", "Melee"),)),
            STATS,
            PARTS,
        ),
    )
    data = {
        "name": ["Hook"],
        "wield": ["1"],
        "requires/skills": ["0"],
        "stats.0": ["-1"],
        "body_parts": ["Head, Left arm"],
    }
    entry, problems = entry_from_form(form, data, base={"actions": [{"action": "strike"}]})
    assert problems == {}
    assert entry == {
        "actions": [{"action": "strike"}],
        "name": "Hook",
        "wield": {"arms": 1},
        "requires": {"skills": ["melee"]},
        "stats": {"str": -1},
        "body_parts": ["head", "left_arm"],
    }
    assert entry_words(form, entry) == [
        ("Held in", "One hand"),
        ("Skills", "Melee"),
        ("Stat bonuses", "Strength -1"),
        ("Body parts", "Head, Left arm"),
        ("Also has", "Actions"),  # kept from the entry edited, named
    ]
    _, problems = entry_from_form(form, {"stats.0": ["two"], "wield": ["9"]})
    assert problems == {
        "stats": "Stat bonuses: Strength is a whole number.",
        "wield": "Held in: choose from the list.",
    }


def test_records_are_read_row_by_row_and_said_in_words():
    form = EntryForm("Feats", "feat", (NAME, NEEDS))
    data = {
        "name": ["Grit"],
        "needs.0.feat": ["0"],
        "needs.0.attribute": [""],
        "needs.0.min": [""],
        "needs.1.feat": [""],
        "needs.1.attribute": ["0"],
        "needs.1.min": ["2"],
        "needs.2.feat": [""],  # the blank row to add another: left out
        "needs.2.min": [""],
    }
    entry, problems = entry_from_form(form, data)
    assert problems == {}
    assert entry == {"name": "Grit", "needs": [{"feat": "toughness"}, {"attribute": "str", "min": 2}]}
    assert entry_words(form, entry) == [("Prerequisites", "Toughness; Strength 2")]
    _, problems = entry_from_form(form, {"needs.0.min": ["lots"]})
    assert problems == {"needs": "Prerequisites, 1: At least: write a number."}
