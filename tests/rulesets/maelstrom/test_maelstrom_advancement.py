"""Maelstrom's advancement through the product (moved from tests/characters/advancement/
test_advancement.py and test_advancement_pages.py): a request its rules refuse, through the API
and in advance mode."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as svc
from characters.models import Advancement
from tests.characters.advancement.test_advancement import _character, table  # noqa: F401
from tests.characters.advancement.test_advancement_pages import _table, as_user, dict_of
from tests.characters.conftest import form_fields, parse_html
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_an_invalid_request_is_refused_with_the_rules_errors(table):  # noqa: F811
    character = _character(table, "maelstrom")
    svc.award_create(gm=table["gm"], character_id=character.pk, currency="xp", amount=7, reason="x")
    build = copy.deepcopy(BUILDS["maelstrom"])
    build["abilities"].update(investigation=3)
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    assert r.status_code == 422, r.json()
    assert "advancement.decrease" in [e["code"] for e in r.json()["errors"]]
    assert not Advancement.objects.filter(character=character).exists()


@pytest.fixture
def t(db):
    return _table("maelstrom")


def test_advance_mode_shows_rule_errors_and_refuses_to_send(t):
    ch = t["character"]
    player = as_user(t["player"])
    fields = form_fields(
        parse_html(player.get(f"/characters/{ch.pk}/advance/").content).by_id("builder-form")
    )
    fields = [(k, v) for k, v in fields if k != "/abilities/investigation"] + [
        ("/abilities/investigation", "2")
    ]
    r = player.post(f"/characters/{ch.pk}/advance/", {**dict_of(fields), "_request": "1"})
    assert r.status_code == 422
    assert b"advancement.decrease" in r.content
    assert not Advancement.objects.filter(character=ch).exists()
