"""Fixtures of the combat tests: a Pando table with two players' characters and NPC builds."""

from __future__ import annotations

import copy

import pytest

from characters.models import Character
from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

RES = {"awareness": "presence", "insight": "rationality", "willpower": "perspective"}


def pando(
    name,
    *,
    strength=1,
    endurance=1,
    acrobatics=2,
    coordination=2,
    rationality=1,
    perspective=1,
    presence=1,
    skills=("melee",),
    equipment=None,
) -> dict:
    return {
        "ruleset": "pando",
        "name": name,
        "budget": {"cp": 40},
        "species": "humanoid",
        "attributes": {
            "strength": strength,
            "endurance": endurance,
            "acrobatics": acrobatics,
            "coordination": coordination,
            "rationality": rationality,
            "perspective": perspective,
            "presence": presence,
        },
        "resistances": dict(RES),
        "skills": list(skills),
        "equipment": copy.deepcopy(
            equipment
            if equipment is not None
            else [{"item": "dagger", "state": "wielded", "arms": ["right_arm"]}]
        ),
    }


#: Momentum 5 (acrobatics 3 + presence 2), max speed 6, max stamina 12, longsword right, shield left.
PABLO = pando(
    "Pablo",
    strength=2,
    endurance=2,
    acrobatics=3,
    coordination=3,
    presence=2,
    skills=("melee", "blades"),
    equipment=[
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
    ],
)
#: Momentum 5 (acrobatics 2 + presence 3): ties Pablo, loses on acrobatics. Max speed 5, max stamina 11.
BEA = pando("Bea", presence=3)
#: Momentum 4, acrobatics 2, presence 2.
WOLF = pando("Wolf", presence=2)
#: Momentum 3 each.
GOBLIN = pando("Goblin")
#: Momentum 6; with two goblins the group's average is 4, acrobatics 2, presence 2: a full tie with the wolf.
BOSS = pando("Boss", presence=4)


def pando_table() -> dict:
    """Two players' Pando characters in one campaign, its GM and a stranger (the combat tests' table)."""
    gm, player, other, stranger = (
        make_user("gm"),
        make_user("player"),
        make_user("other"),
        make_user("stranger"),
    )
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player, other])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    bea = make_character(ruleset="pando", owner=other, campaign=campaign, build=BEA)
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
    return pando_table()


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
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Live")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    return {**table, "e": e, "c_pablo": pablo, "goblin": goblin}
