"""Money spent at the table reaches every open sheet (RULES.md W5, the sheet's live updates,
characters/sheet/live.py): the owner's and the GM's sockets hear the play version, and the blocks
each sheet then fetches show the money left."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from tests.characters.conftest import parse_html
from tests.characters.sheet.test_sheet_live import (  # noqa: F401  (its autouse fixture closes the sockets' connections)
    _heard_by_owner_and_gm,
    _stray_connections_closed,
)
from tests.factories import api_client
from tests.rulesets.pando.test_pando_money import _alex_in_play

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_spend_reaches_the_owner_s_and_the_gm_s_open_sheets_with_the_money_left(layer, client, table):
    character = _alex_in_play(table)

    def spend():
        answer = api_client(table["player"]).post(
            f"/api/v1/characters/{character.pk}/actions/",
            {"action": "spend_money", "amount": 4, "what": "a lantern"},
            format="json",
        )
        assert answer.status_code == 200, answer.json()

    to_owner, to_gm = _heard_by_owner_and_gm(table, character, spend)
    saved = Character.objects.get(pk=character.pk)
    assert (
        to_owner
        == to_gm
        == {
            "character": character.pk,
            "version": saved.version,
            "stamp": saved.live_stamp,
            "build": False,
        }
    )
    # Each open sheet fetches its blocks on that notice: the GM's shows 1 money left.
    client.force_login(table["gm"])
    blocks = parse_html(
        client.get(reverse("character_sheet_live", args=[character.pk]), HTTP_HX_REQUEST="true").content
    )
    assert blocks.find_all(**{"data-testid": "pool-money"})[0].text.strip() == "1"
