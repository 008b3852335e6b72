"""Paragon's play state on the sheet: health below half is incapacitated (moved from tests/characters/sheet/test_play.py, which tests the product's play state on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_play import act
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_paragon_health_below_half_is_incapacitated(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    html = act(client, character, action="damage", pool="health", amount="11")
    pool = re.search(r'<li class="state-pool has-status" id="pool-pools-health".*?</li>', html, re.S).group(0)
    assert (
        "<strong>9</strong> / 20" in pool and '<span class="badge state-status">incapacitated</span>' in pool
    )
    assert "Incapacitated" in re.search(r'id="sheet-effects".*?</section>', html, re.S).group(0)
    character.refresh_from_db()
    assert character.state["pools"]["health"] == 9
