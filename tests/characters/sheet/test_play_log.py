"""History shows the character, not every bruise: play-state changes are "play" versions, listed in
the play log; History lists build versions by default. One game's play log through a fight and its
loadout: tests/rulesets/<slug>/test_*_play_log.py."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse

from characters.models import CharacterVersion
from characters.sheet import services as play
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


#: The registry's first ruleset with a play-state action and a roll button.
SLUG = vehicles.first(
    lambda rs: rs.contract_data()["play_actions"] and vehicles.rollable(rs), "a ruleset with play and dice"
)


@pytest.fixture
def table(db):
    gm, player, stranger = make_user("gm"), make_user("player"), make_user("stranger")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    pablo = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    return {"gm": gm, "player": player, "stranger": stranger, "campaign": campaign, "pablo": pablo}


HX = {"HTTP_HX_REQUEST": "true"}


def _kinds(character) -> list[tuple[int, str]]:
    return list(
        CharacterVersion.objects.filter(character=character).order_by("number").values_list("number", "kind")
    )


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
    ruleset = registry.get(SLUG)
    play.character_state_action(
        character_id=pablo.pk, user=table["player"], action=vehicles.play_action(ruleset)
    )
    roll = play.character_roll(
        character_id=pablo.pk,
        user=table["player"],
        rollable_id=vehicles.rollable(ruleset),
        roller=Roller(random.Random(1)),
    )
    CharacterVersion.objects.filter(character=pablo).update(kind="build")
    RollLog.objects.filter(pk=roll.pk).update(campaign=None)
    migration.forwards(apps, None)
    assert _kinds(pablo) == [(1, "build"), (2, "build"), (3, "play")]  # created, submitted, the play action
    assert RollLog.objects.get(pk=roll.pk).campaign_id == pablo.campaign_id
