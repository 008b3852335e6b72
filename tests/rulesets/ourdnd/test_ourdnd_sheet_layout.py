"""Our D&D's sheet draws its hearts as a tally said in words (moved from
tests/characters/sheet/test_sheet_layout.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table


@pytest.mark.django_db
def test_our_dnd_shows_hearts(client, table):
    client.force_login(table["player"])
    ourdnd = character_at_table(table, "ourdnd")
    html = client.get(reverse("character_sheet", args=[ourdnd.pk])).content.decode()
    assert (
        '<div data-key="hearts"><dt>Hearts</dt><dd><span class="tally" aria-hidden="true">♥</span><span class="visually-hidden">1 heart</span></dd>'
        in html
    )
