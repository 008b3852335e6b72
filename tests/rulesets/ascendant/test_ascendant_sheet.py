"""Ascendant's sheet: defenses, thresholds and stamina (moved from tests/characters/sheet/test_sheet.py, which keeps the product's sheet on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet import sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_ascendant_sheet_shows_defenses_thresholds_and_stamina(client, table):
    character = character_at_table(table, "ascendant")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_stamina") == "17"  # human 8 + 1 × (wizard 6 + con 2) + Toughness 1 per level (#15)
    assert re.search(r'<tr data-key="int"><th scope="row">Int</th><td>\+4</td>', html)
    derived = character.report["derived"]
    for key in derived["defenses"]:
        assert f'<tr data-key="{key}">' in html
        assert f"<td>{derived['thresholds'][key]}</td>" in html
