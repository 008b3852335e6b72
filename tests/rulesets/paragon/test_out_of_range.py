"""Out-of-range values are priced (RULES.md, after the common codes table, settled): "Paragon fire 4 at
power level 1 costs 10 force points and is both attribute.above_maximum and, where the total is passed,
budget.exceeded". Paragon's ranged priced values are the force ranks (0 to the power level's maximum)
and the skill ranks (0 to ``skill_rank_max``, house default 5).

Seed 001: "The first rank of a force attribute costs one point, the second rank costs two points, and so
on" and skill ranks cost "progressively increasing the same way that the cost of attributes does".
"""

from __future__ import annotations

import pytest

from rulesets.engine import validate


def paragon(forces: dict, skills: dict | None = None, *, level=1, skill_points: int = 100, **extra) -> dict:
    return {
        "ruleset": "paragon",
        "name": "Aren",
        "budget": {"skill_points": skill_points},
        "power_level": level,
        "forces": {"fire": 0, "wind": 0, "thunder": 0, "light": 0, "shadow": 0, **forces},
        "skills": skills or {},
        **extra,
    }


def errors(report) -> list[tuple[str, str]]:
    return [(e.code, e.path) for e in report.errors]


def test_rules_md_s_example_fire_4_at_power_level_1():
    # Fire 4 (10) + wind 3 (6) = 16 of 15 force points.
    report = validate(paragon({"fire": 4, "wind": 3}))
    assert errors(report) == [
        ("attribute.above_maximum", "/forces/fire"),
        ("budget.exceeded", "/budget/force_points"),
    ]
    assert report.spent["force_points"] == 16 and report.remaining["force_points"] == -1


@pytest.mark.parametrize(
    ("level", "rank", "cost"),
    [
        (1, 4, 10),
        (None, 5, 15),
        (2, 5, 15),
        (4, 6, 21),
        (5, 9, 45),
        (1, 1000, 500_500),
    ],
)
def test_a_force_above_the_power_level_s_maximum_costs_its_triangular_number(level, rank, cost):
    report = validate(paragon({"shadow": rank}, level=level))
    assert ("attribute.above_maximum", "/forces/shadow") in errors(report)
    assert report.spent["force_points"] == cost
    assert report.remaining["force_points"] == report.budget["force_points"] - cost
    assert (("budget.exceeded", "/budget/force_points") in errors(report)) is (
        cost > report.budget["force_points"]
    )


def test_under_budget_the_range_error_stands_alone_and_nothing_is_left_unspent_in_silence():
    # Power level 2 (20 points, max 4): fire 5 is 15 points, 5 left.
    report = validate(paragon({"fire": 5}, level=2))
    assert errors(report) == [("attribute.above_maximum", "/forces/fire")]
    assert report.spent["force_points"] == 15 and report.remaining["force_points"] == 5


@pytest.mark.parametrize(
    ("skills", "cost"),
    [
        ({"melee": 6}, 21),
        ({"melee": 6, "missile": 1}, 22),
        ({"lore": 10}, 55),
    ],
)
def test_a_skill_above_the_highest_rank_is_priced_by_the_formula(skills, cost):
    report = validate(paragon({"fire": 3, "wind": 3, "thunder": 1}, skills))
    over = next(iter(skills))
    assert errors(report) == [("skill.above_maximum", f"/skills/{over}")]
    assert report.spent["skill_points"] == cost


def test_a_granted_skill_above_the_highest_rank_is_priced_net_of_its_grant():
    # Melee 6 with 2 granted by the path: 21 − 3 = 18 skill points.
    report = validate(
        paragon(
            {"fire": 3, "wind": 3, "thunder": 1}, {"melee": 6}, path={"name": "Blade", "grants": {"melee": 2}}
        )
    )
    assert errors(report) == [("skill.above_maximum", "/skills/melee")]
    assert report.spent["skill_points"] == 18


def test_an_overspend_behind_a_skill_range_error_is_budget_exceeded():
    report = validate(paragon({"fire": 3, "wind": 3, "thunder": 1}, {"melee": 6}, skill_points=20))
    assert errors(report) == [
        ("skill.above_maximum", "/skills/melee"),
        ("budget.exceeded", "/budget/skill_points"),
    ]
    assert report.remaining["skill_points"] == -1


def test_a_campaign_s_skill_cap_is_the_range_and_the_price_stays_the_formula():
    build = paragon({"fire": 3, "wind": 3, "thunder": 1}, {"melee": 4})
    assert errors(validate(build)) == []
    capped = validate(build, settings={"skill_rank_max": 3})
    assert errors(capped) == [("skill.above_maximum", "/skills/melee")]
    assert capped.spent["skill_points"] == validate(build).spent["skill_points"] == 10


def test_an_out_of_range_value_gives_no_derived_number_built_on_it():
    report = validate(paragon({"fire": 4, "wind": 2}, {"melee": 6}, level=1))
    assert "defense_melee" not in report.derived and "melee" not in report.derived.get("checks", {})
    assert report.derived["defense_missile"] == 10 + 3 * 2


@pytest.mark.parametrize(
    ("forces", "skills", "path"),
    [
        ({"fire": -1}, {}, "/forces/fire"),
        ({"fire": 2.5}, {}, "/forces/fire"),
        ({"fire": "3"}, {}, "/forces/fire"),
    ],
)
def test_below_the_minimum_or_not_a_whole_number_buys_nothing(forces, skills, path):
    report = validate(paragon({"wind": 3, **forces}, skills))
    assert path in [p for _, p in errors(report)]
    assert report.spent["force_points"] == 6
