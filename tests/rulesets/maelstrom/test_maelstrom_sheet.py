"""Maelstrom's sheet: the health chart (moved from tests/characters/sheet/test_sheet.py, which keeps the product's sheet on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet import cell, sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_maelstrom_sheet_shows_the_health_chart(client, table):
    character = character_at_table(table, "maelstrom")
    client.force_login(table["player"])
    html = sheet(client, character)
    chart = re.search(r'<table class="table sheet-health-chart">(.*?)</table>', html, re.S).group(1)
    labels = re.findall(r'<th scope="row">([^<]+)</th>', chart)
    assert labels == [
        "Bruised",
        "Scratched",
        "Hurt",
        "Injured",
        "Wounded",
        "Mauled",
        "Crippled",
        "Incapacitated",
    ]
    assert re.search(r'data-level="crippled"><th scope="row">Crippled</th><td>−5</td>', chart)
    assert stat(html, "willpower") == "4"
    assert cell(html, "wound-penalty") == "0"
    # The track section of the play state has the eight boxes too.
    assert html.count('class="track-box') == 8
