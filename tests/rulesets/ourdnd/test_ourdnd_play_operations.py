"""Our D&D's HP through a fight and the sheet (moved from tests/characters/sheet/test_play_operations.py):
the GM's damage in an encounter and a step on the sheet both count."""

from __future__ import annotations

import pytest

from characters.models import Character
from characters.sheet import services as play
from combat import services as combat
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table


def _hp(character) -> int:
    return Character.objects.get(pk=character.pk).state["hp"]


def _step(character, user, delta=-1):
    return play.character_state_action(
        character_id=character.pk, user=user, action={"action": "step", "path": "/hp", "delta": delta}
    )


@pytest.mark.django_db
def test_encounter_damage_then_a_step_on_the_sheet_count_both(table):
    character = character_at_table(table, "ourdnd")
    e = combat.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    fighter = combat.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    combat.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([15]))
    combat.encounter_act(
        encounter=e, user=table["gm"], combatant_id=fighter.pk, action={"action": "gm_damage", "amount": 2}
    )
    assert _hp(character) == 8
    _step(character, table["player"])
    assert _hp(character) == 7
