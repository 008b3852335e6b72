"""Review pages read right: list diffs as added/removed items, equipment as sentences. A game's
review page (who reviewed, its skills and gear in words): tests/rulesets/<slug>/test_*_review_words.py."""

from __future__ import annotations

import re

from characters.diff import build_diff, describe

NAMES = {"longsword": "Longsword", "round_shield": "Round shield", "dagger": "Dagger"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_list_diff_names_only_what_was_added_and_removed():
    rows = build_diff({"skills": ["melee", "blades", "shields"]}, {"skills": ["melee", "blades", "fencing"]})
    words = describe(rows[0], {"fencing": "Fencing", "shields": "Shields"})
    assert (words["added"], words["removed"], words["text"]) == (
        ["Fencing"],
        ["Shields"],
        "adds Fencing; removes Shields",
    )


def test_equipment_changes_read_as_sentences():
    old = [
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "carried"},
    ]
    new = [
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
        {"item": "dagger", "state": "carried"},
    ]
    words = describe(build_diff({"equipment": old}, {"equipment": new})[0], NAMES)
    assert words["text"] == "adds Dagger, carried; changes Round shield, carried → wielded in the left arm"


def test_nested_objects_diff_leaf_by_leaf_in_words():
    rows = build_diff({"attributes": {"strength": 2}}, {"attributes": {"strength": 3, "presence": 1}})
    assert [(r["label"], describe(r)["text"]) for r in rows] == [
        ("Attributes › Strength", "2 → 3"),
        ("Attributes › Presence", "now 1"),
    ]
