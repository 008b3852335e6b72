"""Paragon's guided builder (moved from tests/characters/builder/test_builder_guided.py): power level is
ordinary or one to five, and sets the force points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.characters.builder.test_builder_guided import check_verdict, options_of, session_with

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def demo(name: str) -> dict:
    """A demo character of this ruleset's folder (rulesets/systems/paragon/demo/)."""
    return json.loads((ROOT / "rulesets" / "systems" / "paragon" / "demo" / f"{name}.json").read_text())


def test_paragon_power_level_is_ordinary_or_one_to_five(client):
    _, c, s = session_with(client, "paragon")
    assert options_of(s, "/power_level") == ["", "1", "2", "3", "4", "5"]
    assert "Ordinary person" in s.root.by_id("sec-power_level").text
    s.set("/power_level", "").change()
    assert s.figure("budget", "force_points") == 10  # an ordinary person's force points
    s.set("/power_level", "3").change()
    assert s.figure("budget", "force_points") == 25


@pytest.mark.parametrize(
    ("build", "ready", "heading"),
    [(demo("sela_windborn"), "yes", "✓ The build is valid: ready to submit")],
)
def test_the_verdict_and_the_submit_button_always_agree(client, build, ready, heading):
    check_verdict(client, "paragon", build, ready, heading)
