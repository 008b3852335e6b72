"""The builder driven like a browser with htmx (``start``, ``submit``): each game's walk from nothing to a
valid, submitted character is in tests/rulesets/<slug>/test_<slug>_builder.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from tests.characters.conftest import BuilderSession

pytestmark = pytest.mark.django_db


def start(client, table, name):
    client.force_login(table.player)
    response = client.post(reverse("character_create", args=[table.campaign.id]), {"name": name})
    assert response.status_code == 302
    character = Character.objects.get(campaign=table.campaign, name=name)
    assert response["Location"] == reverse("character_builder", args=[character.id])
    return character, BuilderSession(client, response["Location"])


def submit(client, session, character):
    response = session.press("_save")
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.report["valid"] is True, character.report["errors"]
    session = BuilderSession(client, session.url)
    assert not session.submit_disabled()
    response = session.press("_submit")
    assert response.status_code == 302
    assert response["Location"] == reverse("character_sheet", args=[character.id])
    character.refresh_from_db()
    assert character.status == Character.Status.ACTIVE
    return character
