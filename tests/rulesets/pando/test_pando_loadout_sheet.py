"""Pando's loadout on the sheet is its own hook, with its states and arms (moved from
tests/characters/sheet/test_generic_gear.py, which tests the engine's generic gear block)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_generic_gear import _client, _gear_block
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_pandos_loadout_is_its_own_hook_with_its_states_and_arms(table):
    pando = registry.get("pando")
    character = character_at_table(table, "pando")
    block = pando.equipment(character.build)
    assert block["states"] == [("wielded", "wielded"), ("worn", "worn"), ("carried", "carried")]
    held = next(r for r in block["rows"] if r["keep"].get("arms"))
    assert held["state"] == "wielded" and held["detail"]
    html = _client(table["player"]).get(reverse("character_sheet", args=[character.pk])).content.decode()
    block_html = _gear_block(html)
    assert "Equipment</h2>" in block_html and '<option value="wielded"' in block_html
    # The block's one form: the held entry's arms go with its index before the name (3-arms).
    assert (
        f'<input type="hidden" name="{held["index"]}-arms" value="{held["keep"]["arms"][0]}">' in block_html
    )
