"""Pando's fight tables for the tests in this folder that run the product on Pando's rules (the
scripted fight, the sheet's play log, combat refusals by its speed): two players' characters and NPC
builds with known Momentum (moved from tests/combat/conftest.py, which now takes its ruleset from
the registry)."""

from __future__ import annotations

import copy

import pytest

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
    """Import it (``from tests.rulesets.pando.fight_table import table``) for Pando's combat table."""
    return pando_table()
