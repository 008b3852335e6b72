"""Our D&D's words on the pages (moved from tests/characters/test_game_words.py): the review of a new character names the ruleset and keeps the
name as typed, each row its real cost; the ledger says who did what, in points."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.advancement import services as svc
from tests.characters.test_game_words import _ledger_rows, _rows, _submitted_for_approval, _text
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_the_review_of_a_new_our_dnd_character_names_the_ruleset_and_keeps_the_name_as_typed(client):
    gm, _, campaign, _ = _submitted_for_approval("ourdnd")
    client.force_login(gm)
    html = client.get(reverse("campaign_review", args=[campaign.pk])).content.decode()
    rows = _rows(html)
    assert rows["Ruleset"][0] == "Our D&D"
    assert rows["Name"][0] == "Approve Me"
    assert "Ourdnd" not in html and "Approve me" not in html
    header = _text(re.search(r'data-testid="advancement-cost">(.*?)</strong>', html).group(1))
    assert header == "+6 points"
    costs = [cost for _, cost in rows.values()]
    assert sorted(costs) == sorted(["+2 points"] * 3 + ["free"] * (len(rows) - 3)), rows


def test_the_ledger_says_who_did_what_in_one_shape(client):
    gm, player, _, draft = _submitted_for_approval("ourdnd")
    api_client(gm).post(f"/api/v1/characters/{draft.id}/approve/", {"comment": ""}, format="json")
    svc.award_create(gm=gm, character_id=draft.pk, currency="points", amount=5, reason="Session 2")
    client.force_login(player)
    assert _ledger_rows(client, draft) == [
        ("Created by player: starting budget", "+6 points", "6 points"),
        ("Approved by gm: initial build", "−6 points", "0 points"),
        ("Awarded by gm: Session 2", "+5 points", "5 points"),
    ]
    client.force_login(gm)
    assert _ledger_rows(client, draft)[1] == ("Approved by gm: initial build", "−6 points", "0 points")
