"""An Our D&D character from nothing to valid and submitted in the builder, driven like a browser with
htmx (moved from tests/characters/builder/test_builder.py, which keeps the session helpers)."""

from __future__ import annotations

import pytest

from tests.characters.builder.test_builder import start, submit
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


def test_ourdnd_from_nothing_to_valid(client):
    table = make_table("ourdnd")
    character, s = start(client, table, "Bram")
    assert (s.figure("spent", "points"), s.figure("budget", "points")) == (0, 6)
    s.set("/stats/str", 2).set("/stats/con", 2).set("/stats/cha", 2).change()
    assert s.figure("remaining", "points") == 0
    # A second heart costs 3 points it does not have.
    s.change(("_step", "/hearts|1"))
    assert "budget.exceeded" in s.summary_codes()
    assert (
        "budget.exceeded"
        in [li.attrs.get("data-code") for li in s.root.by_id("builder-costs").find_all("li")]
        or s.root.by_id("builder-costs").text.count("spends") == 1
    )
    assert s.figure("remaining", "points") == -3
    s.change(("_step", "/hearts|-1"))
    assert "budget.exceeded" not in s.summary_codes()
    s.set("/gear/-", "sword").change()
    s.set("/gear/-", "shield").change()
    assert s.get("/gear/1/item") == ["shield"]
    s.set("/gear/-", "sword").change()
    s.change(("_remove", "/gear/2"))
    assert s.get("/gear/2/item") == []
    character = submit(client, s, character)
    assert character.build["gear"] == [{"item": "sword"}, {"item": "shield"}]
