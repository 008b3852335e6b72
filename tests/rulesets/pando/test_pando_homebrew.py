"""Pando campaign homebrew in the builder (moved from tests/characters/builder/test_homebrew.py): the GM
adds a skill and a build using it validates; a malformed skill is shown and nothing is saved."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from tests.characters.conftest import BuilderSession, make_table, parse_html

pytestmark = pytest.mark.django_db

AXES = {"id": "axes", "name": "Axes", "level": 3, "parent": "melee"}


def test_a_gm_adds_a_skill_and_a_build_using_it_validates(client):
    table = make_table("pando")
    c = character_create(campaign=table.campaign, owner=table.player, name="Ira")
    c = character_save_draft(
        character_id=c.id, user=table.player, version=1, build={**c.build, "skills": ["melee", "axes"]}
    )
    assert [e["code"] for e in c.report["errors"]] == ["skill.unknown"]

    client.force_login(table.gm)
    page = client.get(reverse("campaign_homebrew", args=[table.campaign.id]))
    assert page.status_code == 200 and b"Add skill" in page.content
    response = client.post(
        reverse("campaign_homebrew", args=[table.campaign.id]), {"kind-skills": json.dumps([AXES])}
    )
    assert response.status_code == 302
    table.campaign.refresh_from_db()
    assert table.campaign.homebrew == {"skills": [AXES]}

    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    assert s.summary_codes() == []
    axes = s.root.by_id("n-skills-axes")
    assert axes is not None and "checked" in axes.attrs
    assert s.figure("spent", "cp") == 2 + 3


def test_a_malformed_entry_is_shown_and_nothing_is_saved(client):
    table = make_table("pando")
    client.force_login(table.gm)
    bad = [{"id": "axes", "name": "Axes", "level": "three", "parent": "melee"}]
    response = client.post(
        reverse("campaign_homebrew", args=[table.campaign.id]), {"kind-skills": json.dumps(bad)}
    )
    assert response.status_code == 422
    issues = parse_html(response.content).by_id("hb-skills-err")
    assert [li.attrs["data-code"] for li in issues.find_all("li")] == ["homebrew.malformed"]
    assert issues.text.startswith("Entry 1, level: ")  # where, in words (not "/skills/0/level")
    response = client.post(reverse("campaign_homebrew", args=[table.campaign.id]), {"kind-items": "[{oops"})
    assert response.status_code == 422 and b"Not valid JSON" in response.content
    table.campaign.refresh_from_db()
    assert table.campaign.homebrew == {}
