"""Our D&D's settled points (RULES.md §4 and the common "out-of-range values are priced"):
one body armour and one shield count, a second is ``ourdnd.gear_conflict`` at the second
entry; a stat outside its range is still priced, so spent/remaining/budget.exceeded stay true."""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import validate
from tests.rulesets.report_helpers import codes

STATS = {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0}


def build(**changes) -> dict:
    doc = {
        "ruleset": "ourdnd",
        "name": "Pip",
        "budget": {"points": 6},
        "stats": dict(STATS),
        "hearts": 1,
        "gear": [{"item": "shortbow"}],
    }
    doc.update(copy.deepcopy(changes))
    return doc


# RULES.md §4: "a character wears at most one body armour and carries at most one shield for
# defense; a second is `ourdnd.gear_conflict` (path to the second entry)."
GEAR = [
    # gear, errors, Defense (CON 1 + what counts)
    ([{"item": "leather_armor"}, {"item": "shield"}], [], 3),
    ([{"item": "chain_armor"}, {"item": "leather_armor"}], [("ourdnd.gear_conflict", "/gear/1")], 3),
    ([{"item": "shield"}, {"item": "sword"}, {"item": "shield"}], [("ourdnd.gear_conflict", "/gear/2")], 2),
    (
        [{"item": "leather_armor"}, {"item": "chain_armor"}, {"item": "chain_armor"}],
        [("ourdnd.gear_conflict", "/gear/1"), ("ourdnd.gear_conflict", "/gear/2")],
        2,
    ),
    (
        [
            {"item": "chain_armor"},
            {"item": "shield"},
            {"item": "torch"},
            {"item": "shield"},
            {"item": "leather_armor"},
        ],
        [("ourdnd.gear_conflict", "/gear/3"), ("ourdnd.gear_conflict", "/gear/4")],
        4,
    ),
]


@pytest.mark.parametrize("gear,errors,defense", GEAR)
def test_one_body_armour_and_one_shield_count_and_a_second_is_a_conflict(gear, errors, defense):
    report = validate(build(gear=gear))
    assert codes(report) == errors
    assert report.derived["defense"] == defense and report.derived["defense_target"] == defense + 10


def test_the_conflict_says_which_piece_already_counts():
    report = validate(build(gear=[{"item": "chain_armor"}, {"item": "leather_armor"}]))
    assert report.errors[0].message == (
        "Leather armor is a second body armour: a character wears one body armour and carries one shield for "
        "defense (house default), and Chain armor already counts. Remove one of them."
    )


def test_a_homebrew_shield_is_a_shield_too():
    homebrew = {
        "gear": [
            {"id": "tower_shield", "name": "Tower shield", "kind": "shield", "effort": None, "defense": 2}
        ]
    }
    report = validate(build(gear=[{"item": "shield"}, {"item": "tower_shield"}]), homebrew=homebrew)
    assert codes(report) == [("ourdnd.gear_conflict", "/gear/1")]
    assert report.derived["defense"] == 2


# RULES.md: "A value outside its range is still priced by the ruleset's cost formula, so that
# `spent`, `remaining` and `budget.exceeded` stay true beside the range error." Our D&D: "Each
# point costs 1 from `points`"; stats 0–6 (HD, or the campaign's stat_max).
PRICED = [
    # stats, budget, house rules, spent, errors
    ({**STATS, "dex": 7}, 20, None, 10, [("attribute.above_maximum", "/stats/dex")]),
    (
        {**STATS, "dex": 9},
        6,
        None,
        12,
        [("attribute.above_maximum", "/stats/dex"), ("budget.exceeded", "/budget/points")],
    ),
    (
        {**STATS, "dex": 5, "wis": 4},
        6,
        {"stat_max": 4},
        10,
        [("attribute.above_maximum", "/stats/dex"), ("budget.exceeded", "/budget/points")],
    ),
    (
        {**STATS, "str": 10**12},
        6,
        None,
        10**12 + 6,
        [("attribute.above_maximum", "/stats/str"), ("budget.exceeded", "/budget/points")],
    ),
    ({**STATS, "str": -1}, 6, None, 5, [("attribute.below_minimum", "/stats/str")]),
]


@pytest.mark.parametrize("stats,budget,house,spent,errors", PRICED)
def test_a_stat_out_of_range_is_still_priced(stats, budget, house, spent, errors):
    report = validate(build(stats=stats, budget={"points": budget}), settings=house)
    assert codes(report) == errors
    assert report.spent == {"points": spent} and report.remaining == {"points": budget - spent}


def test_a_stat_that_is_not_a_whole_number_is_left_out_of_spent():
    report = validate(build(stats={**STATS, "dex": "7"}))
    assert codes(report) == [("build.malformed", "/stats/dex")]
    assert report.spent == {"points": 3}
