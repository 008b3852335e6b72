"""Pando's play log (moved from tests/characters/sheet/test_play_log.py): a harm click and a combat round
are one play version, a long pause or a loadout change starts another, a loadout change is a build
version."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import CharacterVersion
from characters.sheet import services as play
from combat import services as combat
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_play_log import _kinds
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


def test_a_harm_click_and_a_combat_round_add_play_log_rows_not_build_versions(client, table):  # noqa: F811
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
    # One session of play: the harm click and the combat round are one play version, numbered
    # with the latest change (the version counter still moved twice).
    pablo.refresh_from_db()
    assert pablo.version == 4
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (4, "play")]
    play_rows = CharacterVersion.objects.filter(character=pablo, kind="play").order_by("number")
    first, _, second = play_rows[0].reason.partition(" · ")
    assert first and second.startswith("Ford: ")
    assert play_rows[0].state == pablo.state

    client.force_login(table["player"])
    history = client.get(reverse("character_history", args=[pablo.pk])).content.decode()
    assert re.findall(r'<tr id="version-(\d+)"', history) == ["2", "1"]
    assert "Build versions, newest first" in history
    every = client.get(reverse("character_history", args=[pablo.pk]) + "?show=all").content.decode()
    assert re.findall(r'<tr id="version-(\d+)"', every) == ["4", "2", "1"]
    log = client.get(reverse("character_play_log", args=[pablo.pk])).content.decode()
    assert re.findall(r'<tr id="play-(\d+)"', log) == ["4"]
    assert first in log and "Ford: " in log


def _harm(table, part="legs"):  # noqa: F811
    return play.character_state_action(
        character_id=table["pablo"].pk,
        user=table["player"],
        action={"action": "harm", "body_part": part, "amount": 1},
    )[0]


def test_a_session_of_play_is_one_play_version_and_a_long_pause_or_a_build_change_starts_another(table):  # noqa: F811
    from datetime import timedelta

    from characters.versions import PLAY_SESSION_GAP

    pablo = table["pablo"]
    for _ in range(3):
        _harm(table)
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (5, "play")]
    # Hours later (the next evening): a new session, a new row.
    _hours_pass(pablo, PLAY_SESSION_GAP + timedelta(hours=1))
    _harm(table, "right_arm")
    _harm(table, "right_arm")
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (5, "play"), (7, "play")]
    # A build change between plays: play after it is a new row; the build version stays as it was.
    play.character_equipment_state(character_id=pablo.pk, user=table["player"], index=1, state="carried")
    _harm(table, "left_arm")
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (5, "play"), (7, "play"), (8, "build"), (9, "play")]
    pablo.refresh_from_db()
    rows = {v.number: v for v in CharacterVersion.objects.filter(character=pablo)}
    assert rows[9].state == pablo.state and rows[9].build == pablo.build
    assert rows[5].reason.count(" · ") == 2 and rows[7].reason.count(" · ") == 1
    assert rows[8].kind == "build" and rows[8].reason.startswith("loadout")


def _hours_pass(character, span) -> None:
    """As if ``span`` had passed since the character's last change and its last version's."""
    from characters.models import Character

    character.refresh_from_db()
    Character.objects.filter(pk=character.pk).update(updated=character.updated - span)
    latest = CharacterVersion.objects.filter(character=character).order_by("-number")[0]
    CharacterVersion.objects.filter(pk=latest.pk).update(changed=latest.changed - span)


def test_an_award_between_two_evenings_of_play_does_not_join_them(table):  # noqa: F811
    """An award changes the budget, not the version, and stamps the character as changed: the next
    evening's first harm still starts its own play row, not the last evening's (the award was made
    minutes before it; the last evening's row was days ago)."""
    from datetime import timedelta

    from characters.advancement.services import award_create

    pablo = table["pablo"]
    _harm(table)
    _harm(table)
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (4, "play")]
    _hours_pass(pablo, timedelta(days=2))
    award_create(gm=table["gm"], character_id=pablo.pk, currency="cp", amount=3, reason="Session 2")
    _harm(table, "right_arm")
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (4, "play"), (5, "play")]
    rows = {v.number: v for v in CharacterVersion.objects.filter(character=pablo, kind="play")}
    assert rows[4].reason.count(" · ") == 1 and " · " not in rows[5].reason
    pablo.refresh_from_db()
    assert pablo.shown_version == 4  # created, submitted, the two evenings
    assert [v.shown_number for v in sorted(rows.values(), key=lambda v: v.number)] == [3, 4]
    # Later that evening: it joins its own evening's row.
    _harm(table, "left_arm")
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (4, "play"), (6, "play")]


def test_a_loadout_change_is_a_build_version(table):  # noqa: F811
    pablo = table["pablo"]
    play.character_equipment_state(character_id=pablo.pk, user=table["player"], index=1, state="carried")
    assert _kinds(pablo)[-1] == (3, "build")
