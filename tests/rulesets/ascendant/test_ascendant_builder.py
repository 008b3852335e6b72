"""An Ascendant character from nothing to valid and submitted in the builder, driven like a browser with
htmx (moved from tests/characters/builder/test_builder.py, which keeps the session helpers)."""

from __future__ import annotations

import pytest

from tests.characters.builder.test_builder import start, submit
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


def test_ascendant_from_nothing_to_valid(client):
    table = make_table("ascendant")
    character, s = start(client, table, "Ysolde")
    for key, value in {
        "/ancestry": "human",
        "/heritage": "skilled_human",
        "/background": "scholar",
        "/class": "wizard",
    }.items():
        s.set(key, value)
    s.change()
    for group, attrs in {
        "ancestry": ["int", "dex"],
        "background": ["int", "wis", "con"],
        "free": ["int", "dex", "con"],
    }.items():
        for a in attrs:
            s.check(f"/boosts/{group}", a)
    s.set("/boosts/class", "int").change()
    # Three free boosts where four are due: reported at the free boosts.
    free_codes = s.issues_beside("f-boosts-free")
    assert free_codes, s.summary_codes()
    s.check("/boosts/free", "wis").change()
    assert s.issues_beside("f-boosts-free") == []
    for skill in ("society", "medicine", "nature"):
        s.set(f"/skills/{skill}", "trained")
    s.change()
    # Level 1 asks for its feats: a warning while building, so submitting is refused until chosen.
    assert "ascendant.level_choices_missing" in s.summary_codes()
    assert s.submit_disabled()
    for kind, feat in {
        "ancestry": "natural_ambition",
        "class": "reach_spell",
        "archetype": "linguist_dedication",
        "general": "toughness",
    }.items():
        s.set(f"/levels/1/feats/{kind}", feat)
    s.change()
    assert "ascendant.level_choices_missing" not in s.summary_codes()
    assert (s.figure("spent", "xp"), s.figure("budget", "xp")) == (0, 0)
    # One more level needs 1000 XP this character does not have; the stepper says so.
    assert "+1000 XP" in s.root.by_id("f-level-next").text
    s.change(("_step", "/level|1"))
    assert "budget.exceeded" in s.summary_codes()
    assert s.figure("remaining", "xp") == -1000
    s.change(("_step", "/level|-1"))
    assert "budget.exceeded" not in s.summary_codes()
    character = submit(client, s, character)
    assert character.build["levels"]["1"]["feats"]["class"] == "reach_spell"
