"""A Maelstrom character from a paper sheet to valid and submitted in the builder, driven like a browser
with htmx (moved from tests/characters/builder/test_builder.py, which keeps the session helpers)."""

from __future__ import annotations

import pytest

from tests.characters.builder.test_builder import start, submit
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


MAELSTROM_SHEET = {
    "attributes": {
        "strength": 2,
        "precision": 3,
        "reflexes": 2,
        "perception": 3,
        "intelligence": 3,
        "wits": 3,
    },
    "abilities": {
        "investigation": 4,
        "computer_science": 3,
        "alertness": 2,
        "technology": 2,
        "medicine": 2,
        "science": 2,
        "stealth": 1,
        "streetwise": 1,
        "driving": 1,
        "firearms": 1,
        "humanities": 1,
    },
}


def test_maelstrom_from_a_paper_sheet_to_valid(client):
    from rulesets.engine import validate

    table = make_table("maelstrom")
    character, s = start(client, table, "Kestrel")
    for group, values in MAELSTROM_SHEET.items():
        for key, value in values.items():
            s.set(f"/{group}/{key}", value)
    s.change()
    # Eleven abilities: the creation needs twelve.
    assert "maelstrom.creation_abilities" in s.summary_codes()
    s.set("/abilities/statecraft", 1).change()
    assert "maelstrom.creation_abilities" not in s.summary_codes()
    s.change(("_step", "/willpower|1"))
    s.change(("_add", "/specialties"))
    s.set("/specialties/0/ability", "investigation").set("/specialties/0/name", "Forensics").change()
    build = {
        "ruleset": "maelstrom",
        "name": "Kestrel",
        "budget": {"xp": 30},
        **MAELSTROM_SHEET,
        "willpower": 4,
        "specialties": [{"ability": "investigation", "name": "Forensics"}],
    }
    build["abilities"] = {**build["abilities"], "statecraft": 1}
    expected = validate(build)
    assert expected.valid, expected.errors
    assert s.figure("spent", "xp") == expected.spent["xp"] > 0
    assert s.figure("remaining", "xp") == 30 - expected.spent["xp"]
    # The creation widget shows free (creation) dots and XP dots.
    creation = s.root.by_id("sec-creation")
    assert creation.find_all("span", class_="dot free") and creation.find_all("span", class_="dot xp")
    # The Derived panel says which dots were the creation's in words (it said "Source: cheapest").
    derived = " ".join(s.root.by_id("builder-derived").text.split())
    assert (
        "Creation dots worked out from the sheet: the cheapest legal allocation, Mental the primary group."
        in derived
    )
    assert "Source" not in derived and "cheapest " not in derived.replace("the cheapest legal", "")
    character = submit(client, s, character)
    assert character.build["willpower"] == 4


def test_an_illegal_recorded_creation_can_be_dropped_for_the_cheapest_one(client):
    """An imported sheet (or an old build) records creation dots that break the rules: the build
    stayed invalid with nothing in the builder to change it. The creation section offers to work the
    dots out from the sheet instead; the record goes and the sheet is priced by the cheapest legal
    creation."""
    from characters.models import Character
    from tests.characters.conftest import BuilderSession

    table = make_table("maelstrom")
    character, s = start(client, table, "Rook")
    build = {
        **character.build,
        **MAELSTROM_SHEET,
        "abilities": {**MAELSTROM_SHEET["abilities"], "statecraft": 1},
        # Nine extra attribute dots all in one group: not a legal creation (6 and 4).
        "creation": {
            "primary": "mental",
            "attributes": {
                "strength": 1,
                "precision": 1,
                "reflexes": 1,
                "perception": 4,
                "intelligence": 4,
                "wits": 4,
            },
        },
    }
    Character.objects.filter(pk=character.pk).update(build=build)
    s = BuilderSession(client, s.url)
    assert "maelstrom.creation_attributes" in s.summary_codes()
    # The problem says what the player can do here (the record's dots have no buttons of their own).
    said = " ".join(s.root.by_id("sec-creation").text.split())
    assert "Drop the record to have the cheapest legal creation worked out from the sheet" in said
    assert "“Work the creation dots out from the sheet instead” under Creation dots" in said
    button = s.root.by_id("sec-creation-drop")
    assert button.attrs["name"] == "_remove" and button.attrs["value"] == "/creation"
    assert button.text.strip() == "Work the creation dots out from the sheet instead"

    s.change(("_remove", "/creation"))
    saved = Character.objects.get(pk=character.pk).build
    assert "creation" not in saved and saved["attributes"] == MAELSTROM_SHEET["attributes"]
    assert not {"maelstrom.creation_attributes", "maelstrom.below_creation"} & set(s.summary_codes())
    assert s.root.by_id("sec-creation-drop") is None
    derived = " ".join(s.root.by_id("builder-derived").text.split())
    assert "the cheapest legal allocation" in derived
