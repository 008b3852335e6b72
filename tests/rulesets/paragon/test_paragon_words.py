"""Paragon's new-character words (issue #38, point 3): no "remove force_points from the budget" on a
fresh draft, the new-character page and the builder agree on the starting points, "Costs in force
points" (was "What the force points buys"), and a draft created through the API without forces is
told what to give in words, not JSON. Each page read as text, tags stripped."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from tests.characters.conftest import make_table
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    body = response.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _player(table) -> Client:
    c = Client()
    c.force_login(table.player)
    return c


@pytest.mark.parametrize("stored", [None, {"force_points": 0, "skill_points": 15}])
def test_a_new_paragon_starts_with_the_force_points_its_builder_shows(stored):
    """``stored``: a campaign whose starting budget holds "force points: 0" (what the campaign
    forms wrote before, asking for a currency the rules budget)."""
    table = make_table("paragon")
    if stored is not None:
        table.campaign.settings = {**table.campaign.settings, "starting_budget": stored}
        table.campaign.save(update_fields=["settings"])
    player = _player(table)
    new_page = _text(player.get(reverse("character_create", args=[table.campaign.pk])))
    assert "It starts as a draft with 15 force points, 15 skill points." in new_page, new_page
    response = player.post(reverse("character_create", args=[table.campaign.pk]), {"name": "Ilse"})
    character = Character.objects.get(name="Ilse")
    assert character.build["budget"] == {"skill_points": 15}
    builder = _text(player.get(reverse("character_builder", args=[character.pk])))
    assert response.status_code == 302
    assert "force_points" not in builder and "remove" not in builder.lower()
    assert "buys" not in builder
    assert re.search(r"\b0 of 15\b", builder), builder


def test_the_campaign_forms_do_not_ask_for_the_force_points_the_rules_give():
    table = make_table("paragon")
    gm = Client()
    gm.force_login(table.gm)
    for url in (
        reverse("campaign_create") + "?ruleset=paragon",
        reverse("campaign_settings", args=[table.campaign.pk]),
    ):
        page = _text(gm.get(url))
        assert "Starting skill points" in page and "Starting force points" not in page, url


def test_a_draft_made_through_the_api_without_forces_is_told_in_words():
    table = make_table("paragon")
    build = {"format": "sheetforge.build/1", "ruleset": "paragon", "name": "Bare"}
    response = api_client(table.player).post(
        reverse("api-character-list"), {"campaign": table.campaign.id, "build": build}, format="json"
    )
    assert response.status_code == 201, response.json()
    messages = [i["message"] for i in response.json()["report"]["errors"] if i["path"] == "/forces"]
    assert messages == ["Give each of the five forces a rank: Fire, Wind, Thunder, Light and Shadow."]
    builder = _text(_player(table).get(reverse("character_builder", args=[response.json()["id"]])))
    assert "Give each of the five forces a rank: Fire, Wind, Thunder, Light and Shadow." in builder
    assert '"forces"' not in builder and "{" not in builder
