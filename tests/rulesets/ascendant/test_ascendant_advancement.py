"""Ascendant's advancement through the product (moved from
tests/characters/advancement/test_advancement.py): a request its rules refuse."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as svc
from characters.models import Advancement
from tests.characters.advancement.test_advancement import _character, table  # noqa: F401
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_an_invalid_request_is_refused_with_the_rules_errors(table):  # noqa: F811
    character = _character(table, "ascendant")
    svc.award_create(gm=table["gm"], character_id=character.pk, currency="xp", amount=1000, reason="x")
    build = copy.deepcopy(BUILDS["ascendant"])
    build.update(level=2)
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    assert r.status_code == 422, r.json()
    assert "ascendant.level_choices_missing" in [e["code"] for e in r.json()["errors"]]
    assert not Advancement.objects.filter(character=character).exists()
