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
        for slug in registry.SYSTEMS
    }
    made = demo.seed_demo_characters(gm=gm, players=players, campaigns=campaigns)
    files = {slug: sorted((registry.get(slug).package_dir / "demo").glob("*.json")) for slug in campaigns}
    skipped = capsys.readouterr().err
    expected = sum(len(f) for f in files.values()) - skipped.count("skipped")
    assert len(made) == expected == Character.objects.count()
    assert all(c.status == "active" and c.report["valid"] for c in made)
    for slug, paths in files.items():  # each demo file a character, by its name
        names = {
            json.loads(p.read_text())["name"] for p in paths if f"{p.name} does not validate" not in skipped
        }
        assert {c.name for c in made if c.ruleset == slug} == names, slug
    assert {c.owner for c in made} == set(players)
    again = demo.seed_demo_characters(gm=gm, players=players, campaigns=campaigns)
    assert sorted(c.id for c in again) == sorted(c.id for c in made)
    assert Character.objects.count() == expected


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_a_demo_file_that_does_not_validate_is_skipped_with_a_warning(tmp_path, monkeypatch, capsys, slug):
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "bad.json").write_text(json.dumps({"ruleset": slug, "name": ""}))
    monkeypatch.setattr(registry.get(slug), "package_dir", tmp_path)
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    assert demo.seed_demo_characters(gm=gm, players=[player], campaigns={slug: campaign}) == []
    assert "bad.json does not validate" in capsys.readouterr().err
    assert not Character.objects.exists()
