"""Our D&D's play state on the sheet: damage to zero HP is dying (moved from tests/characters/sheet/test_play.py, which tests the product's play state on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_play import act
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_ourdnd_damage_to_zero_is_dying(client, table):
    character = character_at_table(table, "ourdnd")
    client.force_login(table["player"])
    html = act(client, character, action="damage", amount="10")
    assert re.search(r'data-testid="pool-hp"><strong>0</strong> / 10', html)
    assert re.search(r'<li class="state-flag is-on" data-flag="dying">', html)
    character.refresh_from_db()
    assert character.state["hp"] == 0 and character.state["dying"] is True
