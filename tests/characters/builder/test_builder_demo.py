"""The demo seed: one finished character per demo file, idempotent."""

from __future__ import annotations

import json

import pytest

from characters.campaigns import demo
from characters.models import Character
from rulesets.engine import registry
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


def test_demo_characters_are_active_valid_and_seeded_once(capsys):
    gm = make_user()
    players = [make_user(), make_user()]
    campaigns = {
        slug: make_campaign(gm=gm, ruleset=slug, players=players, name=f"Demo {slug}")
        for slug in ("pando", "paragon", "ascendant", "ourdnd", "maelstrom")
    }
    made = demo.seed_demo_characters(gm=gm, players=players, campaigns=campaigns)
    files = {slug: sorted((registry.get(slug).package_dir / "demo").glob("*.json")) for slug in campaigns}
    skipped = capsys.readouterr().err
    expected = sum(len(f) for f in files.values()) - skipped.count("skipped")
    assert len(made) == expected == Character.objects.count()
    assert all(c.status == "active" and c.report["valid"] for c in made)
    pando = {c.name for c in made if c.ruleset == "pando"}
    assert {"Alex", "Pablo", "Charlotte", "Ira"} <= pando
    assert {c.owner for c in made} == set(players)
    again = demo.seed_demo_characters(gm=gm, players=players, campaigns=campaigns)
    assert sorted(c.id for c in again) == sorted(c.id for c in made)
    assert Character.objects.count() == expected


def test_a_demo_file_that_does_not_validate_is_skipped_with_a_warning(tmp_path, monkeypatch, capsys):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "bad.json").write_text(
        json.dumps({"ruleset": "pando", "name": "Bad", "skills": ["blades"]})
    )
    monkeypatch.setattr(registry.get("pando"), "package_dir", tmp_path)
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    assert demo.seed_demo_characters(gm=gm, players=[player], campaigns={"pando": campaign}) == []
    assert "bad.json does not validate" in capsys.readouterr().err
    assert not Character.objects.exists()
