"""A ruleset with gear but no loadout rules (the toy coin plugin: trinkets in slots) gets the engine's
generic gear block: its own item names and slot words, no state pill or form; and no page of it
shows another game's words. A game's own loadout hook (states, arms) is tested in its folder."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.sheet import services as play
from combat import services as combat
from config.errors import RuleRefused
from rulesets.engine import registry
from rulesets.engine.errors import StateError
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db

#: Another game's words that a ruleset without them must never show.
FOREIGN = ("Wield", "wielded", "Momentum", "bashing", "lethal", "aggravated", "Equipment")


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def _gear_block(html: str) -> str:
    found = re.search(r'<section class="card sheet-block" id="sheet-equipment".*?</section>', html, re.DOTALL)
    assert found, "no gear block"
    return found.group(0)


def test_the_generic_hook_names_items_by_the_catalogue_and_has_no_states():
    coin = registry.get("coin")
    build = coin.contract_data()["sheet"]
    block = coin.equipment(build)
    assert block["label"] == "Trinkets" and block["states"] == []
    assert [(r["name"], r["detail"], r["has_state"]) for r in block["rows"]] == [
        ("Lucky penny", "Left pocket", False),
        ("Cloak of many pockets", "Shoulders", False),
    ]
    assert coin.equipment({"ruleset": "coin", "name": "X"}) is None  # no gear list, no block
    with pytest.raises(StateError) as refused:
        coin.equipment_change(build, 0, "worn")
    assert refused.value.code == "equipment.fixed"
    assert coin.item_summary({"id": "lucky", "summary": "Heads more often"}) == "Heads more often"


def test_a_coin_sheet_shows_its_trinkets_by_name_with_no_empty_pill(table):
    character = character_at_table(table, "coin")
    html = _client(table["player"]).get(reverse("character_sheet", args=[character.pk])).content.decode()
    block = _gear_block(html)
    assert "Trinkets</h2>" in block
    assert "Lucky penny" in block and "Cloak of many pockets" in block and "(Left pocket)" in block
    assert 'class="badge"' not in block and "<form" not in block and "—" not in block
    for word in FOREIGN:
        assert word not in html, word
    with pytest.raises(RuleRefused):
        play.character_equipment_state(character_id=character.pk, user=table["player"], index=0, state="worn")


def test_a_coin_encounter_shows_none_of_another_games_words(table):
    character = character_at_table(table, "coin")
    encounter = combat.encounter_create(campaign=character.campaign, user=table["gm"], name="Alley")
    combat.encounter_add_combatant(encounter=encounter, user=table["gm"], character=character)
    npc = registry.get("coin").quick_npc()
    combat.encounter_add_combatant(encounter=encounter, user=table["gm"], name=npc["name"], build=npc)
    combat.encounter_start(encounter=encounter, user=table["gm"])
    page = _client(table["gm"]).get(reverse("encounter_detail", args=[encounter.pk])).content.decode()
    assert character.name in page
    for word in FOREIGN:
        assert word not in page, word
    if 'id="gm-actions"' in page:
        assert "<summary>GM actions</summary>" in page
    sheet = _client(table["gm"]).get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "Lucky penny" in sheet and "Cloak of many pockets" in sheet
