"""Paragon's sheet: defenses and checks (moved from tests/characters/sheet/test_sheet.py, which keeps the product's sheet on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet import sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_paragon_sheet_shows_defenses_and_checks(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "defense_melee") == "15"  # 10 + 3×fire 1 + 2×melee 1
    assert stat(html, "defense_triarmatura") == "28"  # 10 + 3×wind 4 + 2×triarmatura 3
    assert stat(html, "defense") == "28"
    assert re.search(
        r'data-key="triarmatura"><th scope="row">Triarmatura</th><td class="mono">d12!\+4d6\+6</td>', html
    )
    assert html.count('class="state-pool') >= 7  # the seven resource pools
