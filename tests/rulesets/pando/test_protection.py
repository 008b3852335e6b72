"""Pando protection (RULES.md 1 "Protection", settled): a protection entry's ``body_parts`` decide what
it covers, for wielded and worn items alike; without them a worn item protects the parts it is worn on
and a wielded item the arm or arms that hold it.

Seed 000, "Protection equipment will provide some means of protection, reducing the effectiveness of
harm, exhaustion, or other afflictions. Each instance of Protection wil list what it protects against and
the value by which it reduces that effect. Armor, for example, will reduce the harm that body part takes."
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import validate
from rulesets.systems.pando import RULESET as PANDO

ALEX = {
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
}
NOTHING = {p: {} for p in ("head", "torso", "left_arm", "right_arm", "legs")}


def tower_shield(**protection) -> dict:
    """RULES.md's own example: "a tower shield held in the left arm may cover left_arm and torso"."""
    return {
        "name": "Tower Shield",
        "wield": {"arms": 1},
        "encumbrance": 1,
        "protection": [{"kind": "harm", "value": 2, **protection}],
    }


def protection(*equipment: dict, homebrew: dict | None = None) -> dict:
    doc = {**copy.deepcopy(ALEX), "equipment": list(equipment)}
    report = validate(doc, homebrew=homebrew)
    assert report.valid, report.errors
    return report.derived["protection"]


# (equipment, protection per body part): the table of the settled rule.
TABLE = [
    (
        "a tower shield covers the parts its entry names, beyond the arm that holds it",
        [
            {
                "custom": tower_shield(body_parts=["left_arm", "torso"]),
                "state": "wielded",
                "arms": ["left_arm"],
            }
        ],
        {**NOTHING, "left_arm": {"harm": 2}, "torso": {"harm": 2}},
    ),
    (
        "the entry decides even without the holding arm",
        [{"custom": tower_shield(body_parts=["torso"]), "state": "wielded", "arms": ["left_arm"]}],
        {**NOTHING, "torso": {"harm": 2}},
    ),
    (
        "held in the other arm it still covers what it names",
        [
            {
                "custom": tower_shield(body_parts=["left_arm", "torso"]),
                "state": "wielded",
                "arms": ["right_arm"],
            }
        ],
        {**NOTHING, "left_arm": {"harm": 2}, "torso": {"harm": 2}},
    ),
    (
        "a wielded item without body_parts guards the arm that holds it",
        [{"item": "round_shield", "state": "wielded", "arms": ["left_arm"]}],
        {**NOTHING, "left_arm": {"harm": 1}},
    ),
    (
        "a two-armed one guards both arms",
        [
            {
                "custom": {
                    "name": "Pavise",
                    "wield": {"arms": 2},
                    "protection": [{"kind": "harm", "value": 1}],
                },
                "state": "wielded",
                "arms": ["left_arm", "right_arm"],
            }
        ],
        {**NOTHING, "left_arm": {"harm": 1}, "right_arm": {"harm": 1}},
    ),
    (
        "a worn item without body_parts protects where it is worn",
        [{"item": "hauberk", "state": "worn"}],
        {p: {"harm": 2} for p in NOTHING},
    ),
    (
        "a worn item's entry narrows it to the parts it names",
        [
            {
                "custom": {
                    "name": "Brigandine",
                    "wear": {"body_parts": ["torso", "left_arm", "right_arm"], "slots": ["coat"]},
                    "protection": [
                        {"kind": "harm", "value": 2, "body_parts": ["torso"]},
                        {"kind": "exhaustion:cold", "value": 1},
                    ],
                },
                "state": "worn",
            }
        ],
        {
            **NOTHING,
            "torso": {"harm": 2, "exhaustion:cold": 1},
            "left_arm": {"exhaustion:cold": 1},
            "right_arm": {"exhaustion:cold": 1},
        },
    ),
    (
        "a worn item's entry may cover a part it is not worn on",
        [
            {
                "custom": {
                    "name": "Gorget",
                    "wear": {"body_parts": ["torso"], "slots": ["collar"]},
                    "protection": [{"kind": "harm", "value": 1, "body_parts": ["head", "torso"]}],
                },
                "state": "worn",
            }
        ],
        {**NOTHING, "head": {"harm": 1}, "torso": {"harm": 1}},
    ),
    (
        "covers from several items add up per part and kind",
        [
            {
                "custom": tower_shield(body_parts=["left_arm", "torso"]),
                "state": "wielded",
                "arms": ["left_arm"],
            },
            {"item": "hauberk", "state": "worn"},
        ],
        {**{p: {"harm": 2} for p in NOTHING}, "left_arm": {"harm": 4}, "torso": {"harm": 4}},
    ),
    (
        "a carried item protects nothing, whatever its entry names",
        [{"custom": tower_shield(body_parts=["left_arm", "torso"]), "state": "carried"}],
        NOTHING,
    ),
    (
        "a part the species lacks is covered by nothing",
        [{"custom": tower_shield(body_parts=["tail", "torso"]), "state": "wielded", "arms": ["left_arm"]}],
        {**NOTHING, "torso": {"harm": 2}},
    ),
]


@pytest.mark.parametrize(
    ("equipment", "expected"), [(e, x) for _, e, x in TABLE], ids=[n for n, _, _ in TABLE]
)
def test_protection_covers_what_the_entry_s_body_parts_say(equipment, expected):
    assert protection(*equipment) == expected


def test_a_homebrew_tower_shield_takes_harm_off_the_torso_in_play():
    homebrew = {"items": [{"id": "tower_shield", **tower_shield(body_parts=["left_arm", "torso"])}]}
    doc = {
        **copy.deepcopy(ALEX),
        "equipment": [{"item": "tower_shield", "state": "wielded", "arms": ["left_arm"]}],
    }
    report = validate(doc, homebrew=homebrew)
    assert report.derived["protection"]["torso"] == {"harm": 2}
    ctx = report.context
    state = PANDO.initial_state(doc, report, ctx=ctx)
    state, _ = PANDO.state_action(
        state, {"action": "harm", "body_part": "torso", "amount": 3, "protected": True}, doc, report, ctx=ctx
    )
    assert state["harm"]["torso"] == 1
    body = next(s for s in PANDO.state_sections(doc, report, state, ctx=ctx) if s["id"] == "body")
    torso = next(i for i in body["items"] if i["id"] == "torso")
    # The body diagram names the shield beside the torso it covers (the words a player reads).
    assert torso["protection"] == {"harm": 2} and torso["equipment"] == ["Tower Shield"]
