"""Our D&D's sheet: HP, defense and effort (moved from tests/characters/sheet/test_sheet.py, which keeps the product's sheet on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet import pool, sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_ourdnd_sheet_shows_hp_defense_and_effort(client, table):
    character = character_at_table(table, "ourdnd")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_hp") == "10"
    assert stat(html, "defense") == "3"  # con 2 + shield 1
    assert re.search(r'data-key="sword"><th scope="row">Sword</th><td class="mono">d6</td>', html)
    assert pool(html, "hp") == (10, 10)
