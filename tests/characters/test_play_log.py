"""History shows the character, not every bruise: play-state changes (a harm click, a combat round)
are "play" versions, listed in the play log; History lists build versions by default."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import CharacterVersion
from characters.services import play
from combat import services as combat
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import GOBLIN, pando_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    return pando_table()


HX = {"HTTP_HX_REQUEST": "true"}


def _kinds(character) -> list[tuple[int, str]]:
    return list(
        CharacterVersion.objects.filter(character=character).order_by("number").values_list("number", "kind")
    )


def test_a_harm_click_and_a_combat_round_add_play_log_rows_not_build_versions(client, table):
    pablo = table["pablo"]
    assert _kinds(pablo) == [(1, "build"), (2, "build")]  # created, submitted
    play.character_state_action(
        character_id=pablo.pk,
        user=table["player"],
        action={"action": "harm", "body_part": "left_arm", "amount": 1},
    )
    e = combat.encounter_create(campaign=table["campaign"], user=table["gm"], name="Ford")
    fighter = combat.encounter_add_combatant(encounter=e, user=table["gm"], character=pablo)[0]
    combat.encounter_add_combatant(encounter=e, user=table["gm"], name="Goblin", build=GOBLIN)
    combat.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([]))
    combat.encounter_act(
        encounter=e,
        user=table["gm"],
        combatant_id=fighter.pk,
        action={"action": "gm_harm", "body_part": "right_arm", "amount": 1},
    )
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (3, "play"), (4, "play")]
    play_rows = CharacterVersion.objects.filter(character=pablo, kind="play").order_by("number")
    assert play_rows[1].reason.startswith("Ford: ")

    client.force_login(table["player"])
    history = client.get(reverse("character_history", args=[pablo.pk])).content.decode()
    assert re.findall(r'<tr id="version-(\d+)"', history) == ["2", "1"]
    assert "Build versions, newest first" in history
    every = client.get(reverse("character_history", args=[pablo.pk]) + "?show=all").content.decode()
    assert re.findall(r'<tr id="version-(\d+)"', every) == ["4", "3", "2", "1"]
    log = client.get(reverse("character_play_log", args=[pablo.pk])).content.decode()
    assert re.findall(r'<tr id="play-(\d+)"', log) == ["4", "3"]
    assert play_rows[0].reason in log and "Ford: " in log


def test_a_loadout_change_is_a_build_version(table):
    pablo = table["pablo"]
    play.character_equipment_state(character_id=pablo.pk, user=table["player"], index=1, state="carried")
    assert _kinds(pablo)[-1] == (3, "build")


def test_the_play_log_is_the_character_s_own(client, table):
    client.force_login(table["stranger"])
    assert client.get(reverse("character_play_log", args=[table["pablo"].pk])).status_code == 404


def test_the_migration_files_existing_play_versions_and_rolls(table):
    """0004: a version whose build is the one before it becomes a play version; rolls get their
    campaign."""
    import importlib

    from django.apps import apps

    from characters.models import RollLog

    migration = importlib.import_module("characters.migrations.0004_table_rolls_and_play_log")
    pablo = table["pablo"]
    play.character_state_action(
        character_id=pablo.pk,
        user=table["player"],
        action={"action": "harm", "body_part": "legs", "amount": 1},
    )
    roll = play.character_roll(
        character_id=pablo.pk,
        user=table["player"],
        rollable_id="skill:capability",
        roller=FixedRoller([1, 1, 1]),
    )
    CharacterVersion.objects.filter(character=pablo).update(kind="build")
    RollLog.objects.filter(pk=roll.pk).update(campaign=None)
    migration.forwards(apps, None)
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (3, "play")]  # created, submitted, harm
    assert RollLog.objects.get(pk=roll.pk).campaign_id == pablo.campaign_id
