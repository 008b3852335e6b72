"""Maelstrom required advanced specialties (seed 004, "Required Specialties", "Specialties").

Seed: "For each required specialty, increase the threshold by one unless you use that specialty"
and "the amount [of specialties] which can be used in a given roll is limited by the number of
dots in that ability".
"""

import copy
import json
from pathlib import Path

import pytest

from rulesets.engine import FixedRoller, OddsError, odds
from rulesets.systems.maelstrom import RULESET
from tests.rulesets import combat_helpers


@pytest.mark.parametrize(
    "extra, threshold",
    [
        ({}, 0),  # CONTRACT.md's shape as it is
        ({"required": ["Swords"]}, 1),  # one required specialty, not used: threshold + 1
        ({"required": ["Swords"], "specialties": ["Swords"], "ability_dots": 2}, 0),  # used: no threshold
        ({"required": ["Swords"], "specialties": ["swords"], "ability_dots": 1}, 0),  # names case-insensitive
        ({"required": ["Power Armor", "Swords"], "specialties": ["Swords"], "ability_dots": 2}, 1),
        (
            {
                "required": ["Power Armor", "Zero-G"],
                "specialties": ["Zero G", "Power-Armor"],
                "ability_dots": 2,
            },
            0,
        ),
        ({"required": ["Power Armor", "Swords"]}, 2),
        ({"required": ["Swords", "swords"]}, 1),  # the same specialty named twice is one requirement
        ({"threshold": 2, "required": ["Swords"]}, 3),  # on top of the base threshold
        ({"specialties": ["Swords"], "ability_dots": 1}, 0),  # a specialty used, nothing required
    ],
)
def test_each_required_specialty_not_used_adds_one_to_the_threshold(extra, threshold):
    request = {"pool": 5, "difficulty": 6, **extra}
    base = {"pool": 5, "difficulty": 6, "threshold": threshold}
    assert odds("maelstrom", request) == odds("maelstrom", base)


def test_the_roller_applies_the_raised_threshold_and_says_why():
    # Faces 6, 7, 2: two successes. Required Swords not used: threshold 1 removes one.
    result = RULESET.roll({"pool": 3, "difficulty": 6, "required": ["Swords"]}, FixedRoller([6, 7, 2]))
    assert (result["outcome"], result["total"], result["threshold"]) == ("success", 1, 1)
    assert result["required_missing"] == ["Swords"]
    assert "threshold 1 (+1 for the required specialty not used: Swords) removes 1" in result["text"]
    used = RULESET.roll(
        {"pool": 3, "difficulty": 6, "required": ["Swords"], "specialties": ["Swords"], "ability_dots": 3},
        FixedRoller([6, 7, 2]),
    )
    assert (used["outcome"], used["total"], used["threshold"], used["required_missing"]) == (
        "success",
        2,
        0,
        [],
    )


def test_the_seed_threshold_example_with_a_required_specialty():
    # Seed: "threshold of two ... two successes and a botch ... This is a botch": here the threshold
    # of two is one base + one required specialty not used.
    result = RULESET.roll(
        {"pool": 3, "difficulty": 6, "threshold": 1, "required": ["Hacking"]}, FixedRoller([6, 7, 1])
    )
    assert result["outcome"] == "botch"


@pytest.mark.parametrize(
    "request_",
    [
        {"pool": 4, "specialties": ["Swords", "Shields"], "ability_dots": 1},  # more specialties than dots
        {"pool": 4, "specialties": ["Swords"], "ability_dots": 0},
        {"pool": 4, "specialties": ["Swords"]},  # the cap is unknown
        {"pool": 4, "required": "Swords"},
        {"pool": 4, "required": [3]},
        {"pool": 4, "required": [""]},
        {"pool": 4, "specialties": [None], "ability_dots": 2},
        {"pool": 4, "ability_dots": -1},
        {"pool": 4, "ability_dots": True},
        {"pool": 4, "required": ["x"] * 65},
    ],
)
def test_bad_specialty_requests_are_refused(request_):
    with pytest.raises(OddsError):
        odds("maelstrom", request_)
    with pytest.raises(OddsError):
        RULESET.roll(request_, FixedRoller([5] * 10))


def test_the_limit_message_names_the_rule():
    with pytest.raises(OddsError, match="limited by the ability's dots"):
        odds("maelstrom", {"pool": 4, "specialties": ["Swords", "Shields"], "ability_dots": 1})


# ------------------------------------------------------------------ in a fight

ROOT = Path(__file__).resolve().parents[3]
ROOK = json.loads(
    (ROOT / "rulesets/systems/maelstrom/demo/rook.json").read_text()
)  # precision 4 + firearms 3


class Table(combat_helpers.Table):
    rules = RULESET.combat()


def test_the_storyteller_requires_specialties_of_a_scenes_rolls_and_fighters_use_theirs():
    gunner = copy.deepcopy(ROOK)
    gunner["budget"] = {"xp": 40}
    gunner["specialties"].append({"ability": "firearms", "name": "Energy Weapons", "kind": "advanced"})
    table = Table(
        combat_helpers.make_fighter(RULESET, 1, gunner, npc=False),
        combat_helpers.make_fighter(RULESET, 2, ROOK, npc=True),
    )
    table.start([3, 4])
    table.act(
        1,
        {
            "action": "gm_difficulty",
            "difficulty": "6",
            "threshold": "0",
            "required": "Energy Weapons, Power Armor",
        },
        gm=True,
    )
    assert table.es == {"difficulty": 6, "threshold": 0, "required": ["Energy Weapons", "Power Armor"]}
    assert table.log[-1] == "GM: rolls are now at difficulty 6, requiring Energy Weapons, Power Armor."
    with_it = table.spec(1, "ranged")
    assert with_it.odds == {
        "pool": 7,
        "difficulty": 6,
        "threshold": 0,
        "required": ["Energy Weapons", "Power Armor"],
        "specialties": ["Energy Weapons"],
        "ability_dots": 3,
    }
    assert "threshold +1 without Power Armor; uses Energy Weapons" in with_it.cost
    assert odds("maelstrom", with_it.odds) == odds("maelstrom", {"pool": 7, "difficulty": 6, "threshold": 1})
    without = table.spec(2, "ranged")
    assert odds("maelstrom", without.odds) == odds("maelstrom", {"pool": 7, "difficulty": 6, "threshold": 2})
    # Cleared: the plain CONTRACT.md request again.
    table.act(1, {"action": "gm_difficulty", "difficulty": "6", "threshold": "0", "required": ""}, gm=True)
    assert table.es == {"difficulty": 6, "threshold": 0}
    assert table.spec(2, "ranged").odds == {"pool": 7, "difficulty": 6, "threshold": 0}


@pytest.mark.django_db
def test_the_odds_endpoint_takes_the_extended_request(client):
    response = client.post(
        "/api/v1/rulesets/maelstrom/odds/",
        {"pool": 5, "required": ["Hacking"]},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert response.json() == odds("maelstrom", {"pool": 5, "difficulty": 6, "threshold": 1})
    response = client.post(
        "/api/v1/rulesets/maelstrom/odds/",
        {"pool": 5, "specialties": ["Hacking", "Forgery"], "ability_dots": 1},
        content_type="application/json",
    )
    assert response.status_code == 400
