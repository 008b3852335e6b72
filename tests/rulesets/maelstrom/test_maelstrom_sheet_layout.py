"""Maelstrom's sheet draws its traits as dots and its specialties by name (moved from
tests/characters/sheet/test_sheet_layout.py; Our D&D's hearts are in its folder)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table


@pytest.mark.django_db
def test_maelstrom_shows_dots(client, table):
    client.force_login(table["player"])
    maelstrom = character_at_table(table, "maelstrom")
    html = client.get(reverse("character_sheet", args=[maelstrom.pk])).content.decode()
    assert re.search(
        r'data-key="precision"><dt>Precision</dt><dd><span class="dots" role="img" aria-label="3 of 5">', html
    )
    assert re.search(
        r'data-key="investigation"><dt>Investigation</dt><dd><span class="dots" role="img" aria-label="4 of 5">',
        html,
    )
    assert (
        'data-key="willpower-dots"><dt>Willpower</dt><dd><span class="dots" role="img" aria-label="4 of 10">'
        in html
    )
    assert "Forensics (Investigation)" in html and "Name: Forensics" not in html
