"""Campaign homebrew: the GM edits it, a player only reads it. One game's homebrew in its builds
(added, malformed): tests/rulesets/<slug>/test_*_homebrew.py."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tests.characters.conftest import make_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

#: Whatever a player would send: refused before it is read.
ENTRY = {"id": "axes", "name": "Axes"}


def test_a_player_may_read_but_not_edit_homebrew(client):
    table = make_table(SLUGS[0])  # any ruleset: the page and its rights are the product's
    client.force_login(table.player)
    page = client.get(reverse("campaign_homebrew", args=[table.campaign.id]))
    assert page.status_code == 200 and b"Only the GM can change it" in page.content
    response = client.post(
        reverse("campaign_homebrew", args=[table.campaign.id]), {"kind-skills": json.dumps([ENTRY])}
    )
    assert response.status_code == 403
    table.campaign.refresh_from_db()
    assert table.campaign.homebrew == {}
    client.force_login(table.outsider)
    assert client.get(reverse("campaign_homebrew", args=[table.campaign.id])).status_code == 404
