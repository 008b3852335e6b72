"""A Paragon character from nothing to valid and submitted in the builder, driven like a browser with htmx
(moved from tests/characters/builder/test_builder.py, which keeps the session helpers)."""

from __future__ import annotations

import pytest

from tests.characters.builder.test_builder import start, submit
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


def test_paragon_from_nothing_to_valid(client):
    table = make_table("paragon")
    character, s = start(client, table, "Sela")
    assert s.figure("budget", "skill_points") == 15
    s.set("/power_level", "1").change()
    assert s.figure("budget", "force_points") == 15
    s.change(("_step", "/power_level|1"))
    assert s.figure("budget", "force_points") == 20  # power level 2: 20 force points
    for force, rank in {"fire": 1, "wind": 4, "thunder": 2, "light": 1, "shadow": 2}.items():
        s.set(f"/forces/{force}", rank)
    s.change()
    assert (s.figure("spent", "force_points"), s.figure("remaining", "force_points")) == (18, 2)

    # Triarmatura above melee + missile: refused beside the triarmatura rank, gone once they are trained.
    s.set("/skills/triarmatura", 3).change()
    assert "paragon.triarmatura_cap" in s.issues_beside("f-skills-triarmatura")
    assert s.submit_disabled()
    s.set("/skills/melee", 1).set("/skills/missile", 2).change()
    assert "paragon.triarmatura_cap" not in s.summary_codes()
    assert s.figure("spent", "skill_points") == 1 + 3 + 6
    s.set("/skills/travel", 1).set("/skills/intuition", 2).change()
    assert (s.figure("spent", "skill_points"), s.figure("remaining", "skill_points")) == (14, 1)
    # The next rank of intuition (2 → 3) costs 3 skill points.
    assert "+3 skill points" in s.root.by_id("f-skills-intuition-next").text
    character = submit(client, s, character)
    assert character.build["skills"] == {
        "melee": 1,
        "missile": 2,
        "triarmatura": 3,
        "travel": 1,
        "intuition": 2,
    }
