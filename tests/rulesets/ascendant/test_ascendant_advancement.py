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


def test_gear_bought_later_is_priced_in_gp_and_never_booked_in_the_ledger(table):  # noqa: F811
    """W11: the golden pieces are the house rule's 15 at any level, priced but not awarded: an
    advancement buys gear out of them; the ledger holds XP only and its invariant stands."""
    from tests.characters.advancement.test_advancement import assert_invariant

    character = _character(table, "ascendant")
    build = copy.deepcopy(character.build)
    build["gear"] = [{"item": "longbow"}, {"item": "dagger"}]  # 6 + 1 gp
    advancement = svc.advancement_request(character_id=character.pk, user=table["player"], build=build)
    assert advancement.cost.get("gp") == 7 and not advancement.cost.get("xp")
    svc.advancement_approve(advancement_id=advancement.pk, gm=table["gm"])
    character.refresh_from_db()
    assert [e["item"] for e in character.build["gear"]] == ["longbow", "dagger"]
    assert character.report["spent"]["gp"] == 7 and character.report["remaining"]["gp"] == 8
    assert set(svc.ledger_totals(character=character)) == {"xp"}
    assert_invariant(character)
    too_much = copy.deepcopy(character.build)
    too_much["armor"] = "half_plate"  # 12 more gp of 8
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": too_much}, format="json"
    )
    assert r.status_code == 422, r.json()
    assert "/budget/gp" in [e["path"] for e in r.json()["errors"]]
