"""Ascendant's play state on the sheet: a condition lowers a skill's modifier (moved from tests/characters/sheet/test_play.py, which tests the product's play state on every ruleset)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.characters.sheet.test_play import act, request_of
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_ascendant_a_condition_lowers_a_skill_modifier(client, table):
    character = character_at_table(table, "ascendant")
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert request_of(before, "skill.arcana") == "Modifier: 6"  # the threshold is the form's
    html = act(client, character, action="add_condition", id="frightened", value="2")
    assert request_of(html, "skill.arcana") == "Modifier: 4"
    assert re.search(r'data-testid="skill-arcana">\+6 → <strong class="sheet-lowered">\+4</strong>', html)
    character.refresh_from_db()
    assert character.state["conditions"] == [{"id": "frightened", "value": 2}]
