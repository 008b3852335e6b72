"""Ascendant's builder names what a situational bonus applies to, never a selector (moved from tests/characters/test_game_words.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.characters.test_game_words import _text
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_the_ascendant_builder_names_what_a_situational_bonus_applies_to(client):
    table = {"gm": make_user("gm"), "player": make_user("player"), "other": make_user("other")}
    character = character_at_table(table, "ascendant")
    draft = make_character(
        ruleset="ascendant", owner=table["player"], campaign=character.campaign, status="draft"
    )
    client.force_login(table["player"])
    html = client.get(reverse("character_builder", args=[draft.pk])).content.decode()
    derived = _text(re.search(r'<section id="builder-derived".*?</section>', html, re.DOTALL).group(0))
    assert re.findall(r"\b[a-z]+\.[a-z_]+\b", derived) == []
    assert "Crafting: +1 circumstance from Steady Hands when not rushed" in derived
    assert "Selector" not in derived
