"""Pando's guided builder (moved from tests/characters/builder/test_builder_guided.py): worn gear is never
offered as wielded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.characters.builder.test_builder_guided import check_verdict, options_of, session_with

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]


def demo(name: str) -> dict:
    """A demo character of this ruleset's folder (rulesets/systems/pando/demo/)."""
    return json.loads((ROOT / "rulesets" / "systems" / "pando" / "demo" / f"{name}.json").read_text())


def test_pando_never_offers_wielding_a_cap_and_adds_armour_worn(client):
    _, _, s = session_with(client, "pando")
    catalogue = {o.attrs.get("value") for o in s.root.by_id("f-equipment--").find_all("option")}
    worn = next(i for i in ("leather_cap", "cap", "helmet", "leather_helmet") if i in catalogue)
    s.set("/equipment/-", worn).change()
    assert s.get("/equipment/0/state") == ["worn"]
    assert "wielded" not in options_of(s, "/equipment/0/state")


@pytest.mark.parametrize(
    ("build", "ready", "heading"),
    [
        (demo("alex"), "yes", "✓ The build is valid: ready to submit"),
        ({**demo("alex"), "attributes": {**demo("alex")["attributes"], "strength": 9}}, "no", "problem"),
    ],
)
def test_the_verdict_and_the_submit_button_always_agree(client, build, ready, heading):
    check_verdict(client, "pando", build, ready, heading)
