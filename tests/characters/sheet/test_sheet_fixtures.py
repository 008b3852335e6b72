"""Builds and fixtures shared by the sheet tests (test_sheet*.py, test_play*.py, test_dice*.py,
the sheet benchmark and the sheet browser test). Holds no tests of its own."""

from __future__ import annotations

import copy

import pytest

from characters.models import Character
from tests.factories import make_campaign, make_user

#: Real, valid builds of each ruleset (from RULES.md and tests/rulesets/examples).
BUILDS: dict[str, dict] = {
    "pando": {
        "ruleset": "pando",
        "name": "Alex",
        "budget": {"cp": 40},
        "species": "humanoid",
        "attributes": {
            "strength": 2,
            "endurance": 1,
            "acrobatics": 2,
            "coordination": 3,
            "rationality": 2,
            "perspective": 1,
            "presence": 1,
        },
        "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
        "skills": ["melee", "blades", "shields"],
        "equipment": [
            {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
            {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
            {"item": "leather_cap", "state": "worn"},
            {"item": "bandage", "state": "carried"},
        ],
    },
    "maelstrom": {
        "ruleset": "maelstrom",
        "name": "Kestrel",
        "budget": {"xp": 30},
        "attributes": {
            "strength": 2,
            "precision": 3,
            "reflexes": 2,
            "perception": 3,
            "intelligence": 3,
            "wits": 3,
        },
        "abilities": {
            "investigation": 4,
            "computer_science": 3,
            "alertness": 2,
            "technology": 2,
            "medicine": 2,
            "science": 2,
            "stealth": 1,
            "streetwise": 1,
            "driving": 1,
            "firearms": 1,
            "humanities": 1,
            "statecraft": 1,
        },
        "willpower": 4,
        "specialties": [
            {"ability": "investigation", "name": "Forensics"},
            {"ability": "investigation", "name": "Research"},
            {"ability": "technology", "name": "Hacking"},
        ],
    },
    "paragon": {
        "ruleset": "paragon",
        "name": "Sela",
        "budget": {"skill_points": 15},
        "power_level": 2,
        "forces": {"fire": 1, "wind": 4, "thunder": 2, "light": 1, "shadow": 2},
        "skills": {"melee": 1, "missile": 2, "triarmatura": 3, "travel": 1, "intuition": 2},
    },
    "ascendant": {
        "ruleset": "ascendant",
        "name": "Ysolde",
        "budget": {"xp": 0},
        "level": 1,
        "ancestry": "human",
        "heritage": "skilled_human",
        "background": "scholar",
        "class": "wizard",
        "boosts": {
            "ancestry": ["int", "dex"],
            "background": ["int", "wis", "con"],
            "class": "int",
            "free": ["int", "dex", "con", "wis"],
        },
        "levels": {
            "1": {
                "feats": {
                    "ancestry": "natural_ambition",
                    "class": "reach_spell",
                    "archetype": "linguist_dedication",
                    "general": "toughness",
                }
            }
        },
        "skills": {"arcana": "trained", "society": "trained", "medicine": "trained", "nature": "trained"},
        "lores": [],
    },
    "ourdnd": {
        "ruleset": "ourdnd",
        "name": "Bram",
        "budget": {"points": 6},
        "stats": {"str": 2, "dex": 0, "con": 2, "int": 0, "wis": 0, "cha": 2},
        "hearts": 1,
        "gear": [{"item": "sword"}, {"item": "shield"}],
    },
}


def make_character(
    *,
    ruleset: str,
    owner=None,
    campaign=None,
    build: dict | None = None,
    status: str = Character.Status.ACTIVE,
) -> Character:
    """A character of a real build made through the builder's services: created (version 1) and,
    unless ``status`` is draft, submitted (version 2, a fresh play state from ``initial_state``)."""
    from characters.builder.services import character_create, character_submit

    build = copy.deepcopy(build or BUILDS[ruleset])
    owner = owner or make_user()
    campaign = campaign or make_campaign(ruleset=ruleset, players=[owner])
    character = character_create(campaign=campaign, owner=owner, build=build, budget=build["budget"])
    if status == Character.Status.ACTIVE:
        character = character_submit(character_id=character.pk, user=owner)
    return character


@pytest.fixture
def table(db):
    """A GM, a player, another player (of the same campaign) and a stranger."""
    gm, player, other, stranger = (
        make_user("gm"),
        make_user("player"),
        make_user("other"),
        make_user("stranger"),
    )
    return {"gm": gm, "player": player, "other": other, "stranger": stranger}


def character_at_table(table, ruleset: str, **kwargs) -> Character:
    campaign = make_campaign(gm=table["gm"], ruleset=ruleset, players=[table["player"], table["other"]])
    return make_character(ruleset=ruleset, owner=table["player"], campaign=campaign, **kwargs)
