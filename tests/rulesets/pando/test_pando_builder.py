"""A Pando character from nothing to valid and submitted in the builder, driven like a browser with htmx
(moved from tests/characters/builder/test_builder.py, which keeps the session helpers)."""

from __future__ import annotations

import pytest

from tests.characters.builder.test_builder import start, submit
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


def test_pando_from_nothing_to_valid(client):
    table = make_table("pando")
    character, s = start(client, table, "Alex")
    assert (s.figure("spent", "cp"), s.figure("budget", "cp"), s.figure("remaining", "cp")) == (0, 40, 40)

    # Attribute steppers: coordination 1 → 3 costs 4 + 6; the stepper says what the next point costs.
    s.change(("_step", "/attributes/coordination|1"))
    assert s.figure("spent", "cp") == 4
    assert "next: +6 CP" in s.root.by_id("f-attributes-coordination-next").text
    s.change(("_step", "/attributes/coordination|1"))
    assert (s.figure("spent", "cp"), s.figure("remaining", "cp")) == (10, 30)
    s.set("/attributes/strength", "2").change()
    assert s.figure("spent", "cp") == 14

    # Blades without Melee: the prerequisite error appears beside Blades, the tree says why.
    s.check("/skills", "blades").change()
    assert "skill.prerequisite_missing" in s.issues_beside("n-skills-blades")
    assert "skill.prerequisite_missing" in s.summary_codes()
    assert s.submit_disabled()
    blades = s.root.by_id("n-skills-blades")
    assert "needs Melee" in blades.parent.text
    # Adding Melee clears it.
    s.check("/skills", "melee").change()
    assert s.issues_beside("n-skills-blades") == []
    assert "skill.prerequisite_missing" not in s.summary_codes()
    assert s.figure("spent", "cp") == 14 + 2 + 3
    s.check("/skills", "shields").change()
    assert s.figure("spent", "cp") == 22

    # Equipment: a sword in the right hand, a shield in the left.
    s.set("/equipment/-", "longsword").change()
    assert s.get("/equipment/0/item") == ["longsword"]
    state = s.root.by_id("f-equipment-0-state")
    # A sword is never worn; it is added wielded, in the first free arm (issue 13: natural state).
    assert [o.attrs["value"] for o in state.find_all("option")] == ["wielded", "carried"]
    assert s.get("/equipment/0/state") == ["wielded"]
    assert s.get("/equipment/0/arms") == ["right_arm"]
    assert s.root.by_id("f-attributes-strength").attrs.get("min") == "1"
    s.set("/equipment/0/state", "wielded").change()
    s.check("/equipment/0/arms", "right_arm").change()
    s.set("/equipment/-", "round_shield").change()
    assert (s.get("/equipment/1/state"), s.get("/equipment/1/arms")) == (
        ["wielded"],
        ["left_arm"],
    )  # the free arm
    s.uncheck("/equipment/1/arms", "left_arm").check("/equipment/1/arms", "right_arm").change()
    assert "equipment.arm_conflict" in s.summary_codes()
    s.uncheck("/equipment/1/arms", "right_arm").check("/equipment/1/arms", "left_arm").change()
    assert "equipment.arm_conflict" not in s.summary_codes()
    body = s.root.by_id("sec-body")
    assert "Longsword" in body.text and "Round shield" in body.text.replace("Round Shield", "Round shield")
    assert s.figure("remaining", "cp") == 18
    assert not s.submit_disabled()

    character = submit(client, s, character)
    # Every edit saves (as the browser's autosave does): the draft keeps the order they were learned in.
    assert character.build["skills"] == ["blades", "melee", "shields"]
    assert character.build["equipment"][0] == {"item": "longsword", "state": "wielded", "arms": ["right_arm"]}
    assert character.state  # the ruleset's initial play state
