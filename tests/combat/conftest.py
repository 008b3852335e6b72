"""Fixtures of the combat tests: a table of the registry's first ruleset that fights (tests/vehicles.py),
two players' characters of its playable builds (rulesets/engine/examples.py) and its quick NPC as
the enemy. What a test expects of the fight (the actions, their costs, the log's words) is read from
that ruleset's own answers. One game's fights: tests/rulesets/<slug>/test_*_fight.py."""

from __future__ import annotations

import copy
import random

import pytest

from characters.models import Character
from combat import services
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

#: The combat tests' ruleset: the registry's first with a quick NPC and a playable build.
SLUG = vehicles.first(lambda rs: rs.playable_builds() and rs.quick_npc(), "a ruleset that fights")
RULESET = registry.get(SLUG)
_PLAYABLE = [e.build for e in RULESET.playable_builds()]
#: The first player's character: the ruleset's first playable build, named Pablo.
PABLO = {**copy.deepcopy(_PLAYABLE[0]), "name": "Pablo"}
#: The second player's: its next playable build (else the same), named Bea.
BEA = {**copy.deepcopy(_PLAYABLE[1 if len(_PLAYABLE) > 1 else 0]), "name": "Bea"}
#: The enemy: the ruleset's quick NPC, named Goblin.
GOBLIN = {**RULESET.quick_npc(), "name": "Goblin"}


def combat_table() -> dict:
    """Two players' characters in one campaign of SLUG, its GM and a stranger (the combat tests' table)."""
    gm, player, other, stranger = (
        make_user("gm"),
        make_user("player"),
        make_user("other"),
        make_user("stranger"),
    )
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player, other])
    pablo = make_character(ruleset=SLUG, owner=player, campaign=campaign, build=PABLO)
    bea = make_character(ruleset=SLUG, owner=other, campaign=campaign, build=BEA)
    return {
        "gm": gm,
        "player": player,
        "other": other,
        "stranger": stranger,
        "campaign": campaign,
        "pablo": pablo,
        "bea": bea,
    }


@pytest.fixture
def table(db):
    return combat_table()


@pytest.fixture
def stray_connections_closed():
    """After a test whose worker threads (database_sync_to_async, thread pools) opened their own
    database connections: end those sessions, or the test database cannot be dropped at the end.
    A thread that uses its connection again reconnects (CONN_HEALTH_CHECKS)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def set_state(character: Character, **changes) -> None:
    state = copy.deepcopy(character.state)
    state.update(changes)
    character.state = state
    character.save(update_fields=["state"])


@pytest.fixture
def fight(table):
    """Pablo against a Goblin, started (seeded dice) and turned to Pablo's turn."""
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Live")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(7)))
    vehicles.turn_to(e, pablo, gm)
    e.refresh_from_db()
    return {**table, "e": e, "c_pablo": pablo, "goblin": goblin}


def pc_action(fight_: dict, *, target: bool = True) -> dict:
    """Pablo's action on his turn (tests/vehicles.py ``fight_action``): at the Goblin, or (``target``
    False) one that takes no target."""
    if target:
        action = vehicles.fight_action(fight_["e"], fight_["c_pablo"], gm=False, target=fight_["goblin"])
    else:
        action = vehicles.fight_action(fight_["e"], fight_["c_pablo"], gm=False, untargeted=True)
    assert action, f"{SLUG}: Pablo has no such action"
    return action
