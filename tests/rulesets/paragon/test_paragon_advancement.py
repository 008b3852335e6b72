"""Paragon's advancement through the product (moved from tests/characters/advancement/test_advancement.py):
a rise of power level is a warning the GM sees, and its force points are not awardable."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as svc
from characters.models import LedgerEntry
from tests.characters.advancement.test_advancement import _character, _gm_review_page, assert_invariant, table  # noqa: F401
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.factories import api_client

pytestmark = pytest.mark.django_db


def test_paragon_power_level_rise_is_a_warning_the_gm_sees(table):  # noqa: F811
    character = _character(table, "paragon")
    build = copy.deepcopy(BUILDS["paragon"])
    build["power_level"] = 3  # 25 force points, one more than before to spend on fire
    build["forces"]["fire"] = 2
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    assert r.status_code == 201, r.json()
    codes = [w["code"] for w in r.json()["report"]["warnings"]]
    assert "paragon.power_level_changed" in codes
    assert r.json()["cost"] == {"force_points": 2, "skill_points": 0}
    page = _gm_review_page(table, character)
    assert "paragon.power_level_changed" in page
    svc.advancement_approve(advancement_id=r.json()["id"], gm=table["gm"])
    character.refresh_from_db()
    assert character.build["power_level"] == 3
    assert not LedgerEntry.objects.filter(
        character=character, currency="force_points"
    ).exists()  # not awardable
    assert_invariant(character)
