"""Pando's efficiency roll: exact odds, real rolls with an injected roller, the sheet's roll buttons."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest

from rulesets.engine import FixedRoller, OddsError, odds, registry, validate

PANDO = registry.get("pando")

CHARLOTTE = {
    "ruleset": "pando",
    "name": "Charlotte",
    "budget": {"cp": 40},
    "attributes": {
        "strength": 1,
        "endurance": 1,
        "acrobatics": 3,
        "coordination": 3,
        "rationality": 1,
        "perspective": 1,
        "presence": 2,
    },
    "resistances": {"awareness": "presence", "insight": "perspective", "willpower": "rationality"},
    "skills": ["ranged", "bows", "stealth", "lockpicking"],
    "equipment": [
        {"item": "compound_bow", "state": "wielded", "arms": ["left_arm", "right_arm"]},
        {"item": "lockpicks", "state": "carried"},
    ],
}


def brute_force(dice: int, skill: int) -> dict[str, Fraction]:
    counts: dict[str, int] = {}
    for faces in itertools.product(range(1, 7), repeat=dice):
        ep = sum(1 for f in faces if f <= skill)
        counts[str(ep)] = counts.get(str(ep), 0) + 1
    return {k: Fraction(v, 6**dice) for k, v in counts.items()}


@pytest.mark.parametrize(("dice", "skill"), [(n, level) for n in range(0, 5) for level in range(0, 7)])
def test_odds_match_counting_every_face(dice, skill):
    answer = odds("pando", {"dice": dice, "skill": skill})["ep"]
    expected = brute_force(dice, skill)
    assert set(answer) == {str(k) for k in range(dice + 1)}
    for k, p in answer.items():
        assert p == pytest.approx(float(expected.get(k, 0)), abs=1e-15)


@pytest.mark.parametrize("dice", [1, 7, 15, 30])
@pytest.mark.parametrize("skill", [1, 3, 5])
def test_odds_sum_to_one(dice, skill):
    assert sum(PANDO.odds({"dice": dice, "skill": skill})["ep"].values()) == pytest.approx(1, abs=1e-9)


def test_two_dice_at_skill_three_is_a_coin_twice():
    assert PANDO.odds({"dice": 2, "skill": 3}) == {"ep": {"0": 0.25, "1": 0.5, "2": 0.25}}


@pytest.mark.parametrize(
    "request_",
    [
        {"dice": "3", "skill": 2},
        {"dice": 3.0, "skill": 2},
        {"dice": True, "skill": 2},
        {"dice": -1, "skill": 2},
        {"dice": 31, "skill": 2},
        {"dice": 3, "skill": 7},
        {"dice": 3, "skill": -1},
        {"dice": 3, "skill": 1.5},
        {"dice": 3},
        {"skill": 2},
        {},
    ],
)
def test_bad_odds_requests_raise_odds_error(request_):
    with pytest.raises(OddsError):
        odds("pando", request_)
    with pytest.raises(OddsError):
        PANDO.roll(request_, FixedRoller([1] * 40))


def test_a_non_object_request_is_refused():
    with pytest.raises(OddsError):
        PANDO.odds([3, 2])


@pytest.mark.parametrize(
    ("faces", "skill", "ep", "outcome"),
    [
        ([1, 5, 2], 2, 2, "partial"),
        ([1, 2, 3], 3, 3, "full"),
        ([4, 5, 6], 3, 0, "none"),
        ([6, 6, 6], 6, 3, "full"),
    ],
)
def test_roll_counts_dice_at_or_under_the_skill_level(faces, skill, ep, outcome):
    result = PANDO.roll({"dice": 3, "skill": skill}, FixedRoller(faces))
    assert result["faces"] == faces
    assert result["total"] == ep
    assert result["outcome"] == outcome
    assert f"{ep} EP" in result["text"]


def test_rolling_no_dice_gives_no_ep():
    assert PANDO.roll({"dice": 0, "skill": 3}, FixedRoller([]))["total"] == 0


def _rollables(build, state=None):
    report = validate(build)
    return {r["id"]: r for r in PANDO.rollables(build, report, state)}


def test_rollables_offer_each_skill_with_its_usual_attribute_and_the_others():
    rolls = _rollables(CHARLOTTE)
    assert set(rolls) == {
        "skill:capability",
        "skill:ranged",
        "skill:bows",
        "skill:stealth",
        "skill:lockpicking",
        "item:0:strike",
        "item:1:use_item",
    }
    assert rolls["skill:lockpicking"]["request"] == {"dice": 3, "skill": 3}  # coordination 3, level 3
    assert rolls["skill:stealth"]["request"] == {"dice": 3, "skill": 2}  # acrobatics 3, level 2
    alternatives = {a["attribute"]: a["request"] for a in rolls["skill:bows"]["alternatives"]}
    assert alternatives["presence"] == {"dice": 2, "skill": 3}
    assert "coordination" not in alternatives
    assert rolls["skill:capability"]["request"]["skill"] == 1
    assert rolls["skill:bows"]["leisure"]["ep"] == 3  # HD: at leisure, EP = skill level
    assert "house default" in rolls["skill:bows"]["leisure"]["text"]


def test_a_weapon_rolls_its_attribute_with_the_best_skill_the_character_knows():
    rolls = _rollables(CHARLOTTE)
    bow = rolls["item:0:strike"]
    assert bow["request"] == {"dice": 3, "skill": 3}  # bows (3) beats ranged (2)
    assert bow["group"] == "Weapons" and bow["usable"] is True and bow["speed_cost"] == 1
    assert rolls["item:1:use_item"]["request"] == {"dice": 3, "skill": 3}  # lockpicks with lockpicking
    bare = copy.deepcopy(CHARLOTTE)
    bare["skills"] = []
    assert _rollables(bare)["item:0:strike"]["request"] == {"dice": 3, "skill": 1}  # capability


def test_rollables_apply_the_play_state():
    wounded = _rollables(CHARLOTTE, {"harm": {"right_arm": 1}})["item:0:strike"]
    assert wounded["speed_cost"] == 2 and wounded["usable"] is True
    lame = _rollables(CHARLOTTE, {"harm": {"left_arm": 3}})["item:0:strike"]
    assert lame["usable"] is False and "left arm" in lame["reason"]
    dead = _rollables(CHARLOTTE, {"harm": {"head": 5}})
    assert not any(r["usable"] for r in dead.values())


def test_rollables_know_homebrew_skills_from_their_price():
    build = copy.deepcopy(CHARLOTTE)
    build["skills"] = ["ranged", "slings"]
    homebrew = {"skills": [{"id": "slings", "name": "Slings", "level": 3, "parent": "ranged"}]}
    report = validate(build, homebrew=homebrew)
    rolls = {r["id"]: r for r in PANDO.rollables(build, report, None)}
    assert rolls["skill:slings"]["request"]["skill"] == 3
    assert rolls["skill:slings"]["label"].startswith("Slings")


def test_rollables_of_a_broken_build_do_not_raise():
    assert (
        PANDO.rollables({"ruleset": "pando", "attributes": "many"}, validate({"ruleset": "pando"}), None)
        == []
    )
