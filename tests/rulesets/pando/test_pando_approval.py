"""Pando's creation approval through the product (moved from
tests/characters/advancement/test_approval.py): approval re-checks the build under the campaign's
house rules of today (Pando's ``attribute_max``)."""

from __future__ import annotations

import pytest

from characters.models import Character, LedgerEntry
from tests.characters.advancement.test_approval import _submit, _table
from tests.factories import api_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    return _table("pando")


def test_approval_rechecks_the_build_under_todays_house_rules(table):
    _submit(table)
    campaign = table["campaign"]
    campaign.settings = {**campaign.settings, "house_rules": {"attribute_max": 2}}  # Alex has coordination 3
    campaign.save(update_fields=["settings"])
    response = api_client(table["gm"]).post(
        f"/api/v1/characters/{table['draft'].id}/approve/", {}, format="json"
    )
    assert response.status_code == 422
    assert "attribute.above_maximum" in [e["code"] for e in response.json()["errors"]]
    assert Character.objects.get(pk=table["draft"].id).status == "pending"
    assert not LedgerEntry.objects.filter(character_id=table["draft"].id, kind="spend").exists()
