"""An Our D&D build's verdict agrees with its Submit button (moved from
tests/characters/builder/test_builder_guided.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.characters.builder.test_builder_guided import check_verdict

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def demo(name: str) -> dict:
    """A demo character of this ruleset's folder (rulesets/systems/ourdnd/demo/)."""
    return json.loads((ROOT / "rulesets" / "systems" / "ourdnd" / "demo" / f"{name}.json").read_text())


@pytest.mark.parametrize(
    ("build", "ready", "heading"),
    [
        (demo("bram_shieldbearer"), "yes", "✓ The build is valid: ready to submit"),
        ({**demo("bram_shieldbearer"), "hearts": 9}, "no", "problem"),
    ],
)
def test_the_verdict_and_the_submit_button_always_agree(client, build, ready, heading):
    check_verdict(client, "ourdnd", build, ready, heading)
