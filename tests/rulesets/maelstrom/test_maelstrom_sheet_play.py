"""Maelstrom's play state on the sheet: lethal damage's wound penalty on the pools and the roll picker,
and a heal of damage it does not have refused, changing nothing (moved from tests/characters/sheet/test_play.py, which tests the product's play state on every ruleset)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import CharacterVersion
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from tests.characters.sheet.test_play import HX, act
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_maelstrom_two_lethal_give_a_wound_penalty_and_lower_the_pools(client, table):
    character = character_at_table(table, "maelstrom")
    client.force_login(table["player"])
    before = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    shown = re.search(r'name="in_wounds_shown" value="([^"]*)"', before).group(1)
    response = client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": "damage", "levels": "2", "type": "lethal"},
        **HX,
    )
    html = response.content.decode()
    assert re.search(r'data-testid="wound-penalty">−1<', html)
    assert html.count('data-damage="lethal"') == 2
    # The roll form's odds ask again once the change settles, and the picker's wounds line is redrawn:
    # Strength alone is 2 dice − 1 for the wound penalty, and a willpower dot is offered against it.
    assert response["HX-Trigger-After-Settle"] == "sheet-state-changed"
    odds = client.get(
        reverse("character_roll_odds", args=[character.pk]),
        {"preview": "picked", "in_attribute": "strength", "in_ability": "", "in_wounds_shown": shown},
        **HX,
    ).content.decode()
    assert "Odds of Strength with these numbers" in odds
    maelstrom = registry.get("maelstrom")
    bars = chart_data("maelstrom", maelstrom.odds({"pool": 1, "difficulty": 6, "threshold": 0}))["bars"]
    assert re.findall(r"<title>([^<]+)</title>", odds) == [f"{b['label']}: {b['percent_text']}" for b in bars]
    wounds = re.search(
        r'<div class="roll-pick-wounds" id="roll-pick-wounds"[^>]*hx-swap-oob="true">.*?</div>', odds, re.S
    )
    assert wounds and "Spend a willpower dot: no wound penalty (−1 dice)" in wounds.group(0)
    character.refresh_from_db()
    assert character.state["health"][:3] == ["lethal", "lethal", None]


def test_a_refused_action_changes_nothing_and_says_why(client, table):
    character = character_at_table(table, "maelstrom")
    v0 = character.version
    client.force_login(table["player"])
    html = act(client, character, action="heal", levels="1", type="lethal")
    error = re.search(r'data-testid="state-error">([^<]*)<', html).group(1)
    assert "no lethal damage to heal" in error
    character.refresh_from_db()
    assert character.version == v0 and character.state["health"] == [None] * 8
    assert CharacterVersion.objects.filter(character=character).count() == v0
