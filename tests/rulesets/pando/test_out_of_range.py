"""Out-of-range values are priced (RULES.md, after the common codes table, settled): a value above its
maximum is still priced by the ruleset's cost formula, so ``spent``, ``remaining`` and ``budget.exceeded``
stay true beside the range error. Pando's one ranged priced value is an attribute: at least 1, no upper
limit unless the campaign sets ``attribute_max`` (house rule).

Seed 000: "Raising an attribute to value v costs 2v CP" (1→4 costs 4+6+8 = 18).
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import validate

ALEX = {
    "ruleset": "pando",
    "name": "Alex",
    "budget": {"cp": 40},
    "species": "humanoid",
    "attributes": {
        "strength": 1,
        "endurance": 1,
        "acrobatics": 1,
        "coordination": 1,
        "rationality": 1,
        "perspective": 1,
        "presence": 1,
    },
    "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
    "skills": [],
}


def report_of(cp: int, cap: int | None = 3, **attributes: int):
    doc = copy.deepcopy(ALEX)
    doc["budget"] = {"cp": cp}
    doc["attributes"].update(attributes)
    return validate(doc, settings={"attribute_max": cap})


def errors(report) -> list[tuple[str, str]]:
    return [(e.code, e.path) for e in report.errors]


@pytest.mark.parametrize(("strength", "cost"), [(4, 18), (5, 28), (10, 108), (1000, 1000 * 1001 - 2)])
def test_an_attribute_above_the_campaign_cap_is_priced_by_the_formula(strength, cost):
    report = report_of(10_000_000, strength=strength)
    assert errors(report) == [("attribute.above_maximum", "/attributes/strength")]
    assert report.spent == {"cp": cost}
    assert report.remaining == {"cp": 10_000_000 - cost}


def test_an_overspend_hidden_behind_a_range_error_is_still_budget_exceeded():
    # Strength 4 (18 CP) and coordination 3 (10 CP) on 20 CP: 8 over, beside the cap's error.
    report = report_of(20, strength=4, coordination=3)
    assert errors(report) == [
        ("attribute.above_maximum", "/attributes/strength"),
        ("budget.exceeded", "/budget/cp"),
    ]
    assert report.spent == {"cp": 28} and report.remaining == {"cp": -8}


def test_without_the_house_rule_there_is_no_cap_and_the_same_value_is_valid():
    report = report_of(18, cap=None, strength=4)
    assert errors(report) == [] and report.spent == {"cp": 18}


def test_below_the_minimum_nothing_is_bought():
    # Every attribute starts at 1: a value below it raises nothing, so it costs what 1 costs (0 CP).
    report = report_of(0, strength=0, endurance=-3)
    assert errors(report) == [
        ("attribute.below_minimum", "/attributes/strength"),
        ("attribute.below_minimum", "/attributes/endurance"),
    ]
    assert report.spent == {"cp": 0} and report.remaining == {"cp": 0}


def test_a_value_that_is_not_a_whole_number_is_left_out_of_spent():
    report = report_of(40, strength=2.5, coordination=3)
    assert errors(report) == [("build.malformed", "/attributes/strength")]
    assert report.spent == {"cp": 10}
