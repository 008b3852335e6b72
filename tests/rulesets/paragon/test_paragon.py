"""Paragon RPG (RULES.md §2): examples, every code at its path, the power level table,
exact odds, rolls, play state, advancement, house rules and homebrew."""

from __future__ import annotations

import copy
import functools
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rulesets.engine import FixedRoller, OddsError, StateError, registry, validate
from rulesets.systems.paragon import RULESET as PARAGON
from rulesets.systems.paragon.character import FORCES, POOLS, rank_cost
from tests import fuzz
from tests.rulesets.report_helpers import check_example, codes, example_paths, typical, warnings

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = example_paths("paragon")
TYPICAL = typical("paragon")
DEMOS = sorted((ROOT / "rulesets/systems/paragon/demo").glob("*.json"))


def base_build(**changes) -> dict:
    """A valid level 1 paragon (15 force points all spent, 12 of 20 skill points)."""
    build = {
        "ruleset": "paragon",
        "name": "Aren",
        "budget": {"skill_points": 20},
        "power_level": 1,
        "forces": {"fire": 2, "wind": 3, "thunder": 2, "light": 2, "shadow": 0},
        "path": {"name": "Blade of the Eastern Gate", "grants": {"triarmatura": 1, "ritual": 1}},
        "skills": {"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1, "athletics": 1},
    }
    build.update(copy.deepcopy(changes))
    return build


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_shared_examples_report_what_they_expect(path):
    check_example(path)


@pytest.mark.parametrize(
    "doc",
    [typical("paragon"), *(json.loads(p.read_text()) for p in DEMOS)],
    ids=["typical", *(p.stem for p in DEMOS)],
)
def test_the_typical_build_and_the_demo_characters_are_valid_and_spend_every_force_point(doc):
    report = validate(doc)
    assert codes(report) == []
    assert report.remaining["force_points"] == 0
    assert report.warnings == []


def test_the_base_build_is_priced_with_free_path_grants():
    report = validate(base_build())
    assert codes(report) == [] and report.warnings == []
    # melee 3 + missile 1 + triarmatura (3 − 1 granted) + ritual (1 − 1) + athletics 1
    assert report.spent == {"force_points": 15, "skill_points": 7}
    assert report.budget == {"force_points": 15, "skill_points": 20}
    assert report.derived["defense_melee"] == 10 + 3 * 2 + 2 * 2
    assert report.derived["defense_missile"] == 10 + 3 * 3 + 2 * 1
    assert report.derived["defense_triarmatura"] == 10 + 3 * 3 + 2 * 2
    assert report.derived["defense"] == 23
    assert report.derived["checks"]["triarmatura"] == "d12!+3d6+4"
    assert report.derived["checks"]["mysticism"] == "d12!"
    assert report.derived["checks"]["melee"] == "d12!+2d6+4"
    assert len(report.derived["checks"]) == 20
    assert report.derived["resources"] == {
        "health": 20,
        "face": 20,
        "purity": 20,
        "stamina": 20,
        "heroism": 5,
        "dynama": 30,
        "morale": 12,
    }


@pytest.mark.parametrize("rank,cost", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15)])
def test_a_rank_costs_the_triangular_number(rank, cost):
    assert rank_cost(rank) == cost
    report = validate(
        base_build(
            power_level=5,
            forces={"fire": rank, "wind": 0, "thunder": 0, "light": 0, "shadow": 0},
            skills={},
            path=None,
        )
    )
    assert report.spent["force_points"] == cost


# ------------------------------------------------------------------ power level table

TABLE = [(None, 10, 3), (1, 15, 3), (2, 20, 4), (3, 25, 4), (4, 30, 5), (5, 35, 5)]


@pytest.mark.parametrize("level,total,max_rank", TABLE)
def test_the_power_level_table_sets_the_force_budget_and_the_maximum_rank(level, total, max_rank):
    skills = {"melee": 1}  # no triarmatura: ordinary people may not have it
    forces = {"fire": max_rank, "wind": 0, "thunder": 0, "light": 0, "shadow": 0}
    report = validate(
        base_build(power_level=level, forces=forces, skills=skills, path=None, resources={"heroism": 0})
    )
    assert report.budget["force_points"] == total
    assert report.derived["force_points_total"] == total
    assert report.derived["max_force_rank"] == max_rank
    assert codes(report) == []
    forces["fire"] = max_rank + 1
    report = validate(
        base_build(power_level=level, forces=forces, skills=skills, path=None, resources={"heroism": 0})
    )
    assert codes(report) == [("attribute.above_maximum", "/forces/fire")]


def test_a_missing_power_level_is_an_ordinary_person_with_the_ordinary_defaults():
    build = base_build(skills={"melee": 1}, path=None)
    del build["power_level"]
    report = validate(build)
    assert report.derived["force_points_total"] == 10
    assert report.derived["resources"]["dynama"] == 3
    assert report.derived["resources"]["morale"] == 6
    assert report.derived["resources"]["heroism"] == 0
    assert "defense_triarmatura" not in report.derived
    assert report.derived["defense"] == max(
        report.derived["defense_melee"], report.derived["defense_missile"]
    )


# ------------------------------------------------------------------ every code at its path

ALL_FORCES = {"fire": 2, "wind": 3, "thunder": 2, "light": 2, "shadow": 0}

ERRORS = [
    ("forces missing", {"forces": None}, [("build.malformed", "/forces")]),
    ("forces not an object", {"forces": [1, 2]}, [("build.malformed", "/forces")]),
    ("a rank as text", {"forces": {**ALL_FORCES, "fire": "2"}}, [("build.malformed", "/forces/fire")]),
    ("a power level off the table", {"power_level": 7}, [("build.malformed", "/power_level")]),
    ("a power level as text", {"power_level": "1"}, [("build.malformed", "/power_level")]),
    ("skills not an object", {"skills": ["melee"]}, [("build.malformed", "/skills")]),
    (
        "a negative skill rank",
        {"skills": {"melee": -1, "missile": 1, "triarmatura": 2, "ritual": 1}},
        [("build.malformed", "/skills/melee")],
    ),
    ("a path as text", {"path": "Blade"}, [("build.malformed", "/path")]),
    (
        "grants not an object",
        {"path": {"name": "Blade", "grants": ["melee"]}},
        [("build.malformed", "/path/grants")],
    ),
    ("resources not an object", {"resources": [20]}, [("build.malformed", "/resources")]),
    ("a resource as text", {"resources": {"health": "20"}}, [("build.malformed", "/resources/health")]),
    ("an unknown force", {"forces": {**ALL_FORCES, "air": 0}}, [("attribute.unknown", "/forces/air")]),
    ("an unknown resource", {"resources": {"luck": 3}}, [("attribute.unknown", "/resources/luck")]),
    (
        "a missing force",
        {"forces": {k: v for k, v in ALL_FORCES.items() if k != "light"} | {"shadow": 2}},
        [("attribute.missing", "/forces/light")],
    ),
    (
        "a negative force",
        {"forces": {**ALL_FORCES, "shadow": -1}},
        [("attribute.below_minimum", "/forces/shadow")],
    ),
    ("a negative resource", {"resources": {"face": -1}}, [("attribute.below_minimum", "/resources/face")]),
    # Out of range is still priced (RULES.md, settled): wind 4 costs 10, 17 of 15 force points.
    (
        "a force over the power level's maximum",
        {"forces": {**ALL_FORCES, "wind": 4, "fire": 1}},
        [("attribute.above_maximum", "/forces/wind"), ("budget.exceeded", "/budget/force_points")],
    ),
    (
        "too many force points",
        {"forces": {"fire": 3, "wind": 3, "thunder": 3, "light": 0, "shadow": 0}},
        [("budget.exceeded", "/budget/force_points")],
    ),
    ("too many skill points", {"budget": {"skill_points": 6}}, [("budget.exceeded", "/budget/skill_points")]),
    (
        "an unknown skill",
        {"skills": {"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1, "swimming": 1}},
        [("skill.unknown", "/skills/swimming")],
    ),
    (
        "an unknown grant",
        {"path": {"name": "Blade", "grants": {"triarmatura": 1, "swimming": 1}}},
        [("skill.unknown", "/path/grants/swimming")],
    ),
    (
        "a skill over 5",
        {"skills": {"melee": 6, "missile": 1, "triarmatura": 2, "ritual": 1}, "budget": {"skill_points": 40}},
        [("skill.above_maximum", "/skills/melee")],
    ),
    (
        "a skill listed twice by name",
        {"skills": {"melee": 2, "Melee": 1, "missile": 1, "triarmatura": 2, "ritual": 1}},
        [("skill.duplicate", "/skills/Melee")],
    ),
    (
        "a grant above the rank",
        {"path": {"name": "Blade", "grants": {"triarmatura": 1, "ritual": 2}}},
        [("paragon.grant_exceeds_rank", "/path/grants/ritual")],
    ),
    (
        "a grant of an unlearned skill",
        {"path": {"name": "Blade", "grants": {"triarmatura": 1, "ritual": 1, "lore": 1}}},
        [("paragon.grant_exceeds_rank", "/path/grants/lore")],
    ),
    (
        "triarmatura above melee + missile",
        {"skills": {"melee": 1, "missile": 0, "triarmatura": 2, "ritual": 1}},
        [("paragon.triarmatura_cap", "/skills/triarmatura")],
    ),
    (
        "triarmatura without a power level",
        {"power_level": None, "forces": {"fire": 1, "wind": 3, "thunder": 0, "light": 0, "shadow": 0}},
        [("paragon.requires_power_level", "/skills/triarmatura")],
    ),
    (
        "heroism without a power level",
        {
            "power_level": None,
            "forces": {"fire": 1, "wind": 3, "thunder": 0, "light": 0, "shadow": 0},
            "skills": {"melee": 1},
            "path": None,
            "resources": {"heroism": 2},
        },
        [("paragon.requires_power_level", "/resources/heroism")],
    ),
]


@pytest.mark.parametrize("changes,expected", [(c, e) for _, c, e in ERRORS], ids=[n for n, _, _ in ERRORS])
def test_each_error_is_reported_once_at_its_path(changes, expected):
    report = validate(base_build(**changes))
    assert codes(report) == expected
    assert report.valid is False
    for issue in report.errors:
        assert issue.message and issue.message[-1] in ".)", issue.message


WARNINGS = [
    ("unspent force points", {"forces": {**ALL_FORCES, "light": 1}}, ("forces.unspent", "/forces")),
    (
        "a force budget in the document",
        {"budget": {"skill_points": 20, "force_points": 99}},
        ("paragon.force_budget_ignored", "/budget/force_points"),
    ),
    ("an unknown key", {"class": "fighter"}, ("build.unknown_key", "/class")),
]


@pytest.mark.parametrize(
    "changes,expected", [(c, e) for _, c, e in WARNINGS], ids=[n for n, _, _ in WARNINGS]
)
def test_each_warning_is_reported_and_the_build_stays_valid(changes, expected):
    report = validate(base_build(**changes))
    assert codes(report) == []
    assert warnings(report) == [expected]


def test_a_document_force_budget_is_ignored_in_favour_of_the_table():
    report = validate(base_build(budget={"skill_points": 20, "force_points": 99}))
    assert report.budget["force_points"] == 15


def test_the_skill_points_budget_falls_back_to_the_house_default():
    build = base_build()
    del build["budget"]
    report = validate(build)
    assert report.budget["skill_points"] == PARAGON.house_defaults["starting_budget"]["skill_points"] == 15


def test_a_broken_input_leaves_its_derived_keys_out():
    report = validate(base_build(forces={**ALL_FORCES, "fire": "x"}))
    assert "defense_melee" not in report.derived and "defense" not in report.derived
    assert report.derived["defense_missile"] == 21
    assert "melee" not in report.derived["checks"] and "triarmatura" in report.derived["checks"]
    report = validate(base_build(power_level=9))
    for key in ("force_points_total", "max_force_rank", "defense", "resources", "defense_triarmatura"):
        assert key not in report.derived
    assert codes(report) == [("build.malformed", "/power_level")]


def test_a_skill_named_as_people_write_it_finds_its_id():
    report = validate(
        base_build(skills={"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1, "Forbidden Lore": 2})
    )
    assert codes(report) == []
    assert report.derived["checks"]["forbidden_lore"] == "d12!+2d6+4"


# ------------------------------------------------------------------ never raises


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 40) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
paragon_keys = st.sampled_from(["power_level", "forces", "path", "skills", "resources", "budget", "name"])
sub_keys = st.sampled_from(["fire", "wind", "melee", "triarmatura", "grants", "name", "health", "heroism"])


@hsettings(max_examples=fuzz.examples(full=80, smoke=20), deadline=None)
@given(
    st.dictionaries(
        paragon_keys, json_values | st.dictionaries(sub_keys, json_values, max_size=5), max_size=7
    )
)
def test_any_json_gets_a_report_and_never_the_safety_net(doc):
    report = validate({"ruleset": "paragon", **doc})
    data = report.as_dict()
    assert data["valid"] == (not data["errors"])
    assert not any("could not read" in e["message"] for e in data["errors"])


# ------------------------------------------------------------------ odds


@functools.cache
def d6_sum_dist(n: int) -> dict[int, Fraction]:
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return {k: Fraction(v, 6**n) for k, v in counts.items()}


def brute_force_pass(force: int, skill: int, tn: int) -> Fraction:
    """Every chain of the exploding d12 up to `depth` twelves, every face of the d6s. A chain
    of `depth` twelves already totals ≥ tn, so it passes whatever comes after: exact."""
    depth = max(1, -(-tn // 12))
    y = d6_sum_dist(force)
    p = Fraction(0)
    for k in range(depth):
        for f in range(1, 12):
            x = 12 * k + f
            p += Fraction(1, 12 ** (k + 1)) * sum(q for total, q in y.items() if x + total + 2 * skill >= tn)
    return p + Fraction(1, 12**depth)


def direct_truncated_sum(force: int, skill: int, tn: int) -> float:
    """Σ over explosions k (until the remaining mass < 1e-15) of (1/12)^k · Σ_f (1/12) · P(Fd6 ≥ need)."""
    y = d6_sum_dist(force) if force <= 4 else None
    if y is None:  # 5d6 by convolution of 4d6 and a d6
        four = d6_sum_dist(4)
        y = {}
        for a, pa in four.items():
            for b in range(1, 7):
                y[a + b] = y.get(a + b, 0) + pa / 6
    p, mass, k = 0.0, 1.0, 0
    while mass >= 1e-15:
        for f in range(1, 12):
            need = tn - 2 * skill - 12 * k - f
            p += mass / 12 * float(sum(q for total, q in y.items() if total >= need))
        mass /= 12
        k += 1
    return p


@pytest.mark.parametrize("force", [0, 1, 2, 3])
@pytest.mark.parametrize(
    "skill,tn",
    [(0, 1), (0, 2), (0, 12), (0, 13), (0, 14), (0, 25), (1, 10), (2, 15), (3, 20), (5, 30), (0, 37)],
)
def test_pass_odds_match_brute_force(force, skill, tn):
    expected = brute_force_pass(force, skill, tn)
    assert PARAGON.odds({"force": force, "skill": skill, "tn": tn})["pass"] == pytest.approx(
        float(expected), abs=1e-12
    )


@pytest.mark.parametrize("force", range(6))
@pytest.mark.parametrize("skill", [0, 2, 5])
def test_pass_odds_match_a_direct_truncated_sum_for_every_tn(force, skill):
    for tn in range(-2, 60, 3):
        got = PARAGON.odds({"force": force, "skill": skill, "tn": tn})["pass"]
        assert got == pytest.approx(direct_truncated_sum(force, skill, tn), abs=1e-12)


@pytest.mark.parametrize("force,skill", [(0, 0), (3, 2), (5, 5)])
def test_the_point_masses_sum_to_one_and_the_chance_only_falls_as_the_tn_rises(force, skill):
    lowest = 1 + force + 2 * skill
    chances = [
        PARAGON.odds({"force": force, "skill": skill, "tn": t})["pass"] for t in range(lowest, lowest + 400)
    ]
    assert chances[0] == pytest.approx(1.0, abs=1e-12)
    assert all(a >= b for a, b in zip(chances, chances[1:], strict=False))
    masses = [a - b for a, b in zip(chances, chances[1:], strict=False)] + [chances[-1]]
    assert sum(masses) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize(
    "tn,expected", [(1, 1.0), (2, 11 / 12), (12, 1 / 12), (13, 1 / 12), (14, 11 / 144), (25, 1 / 144)]
)
def test_a_bare_d12_explodes_on_twelve(tn, expected):
    assert PARAGON.odds({"force": 0, "skill": 0, "tn": tn})["pass"] == pytest.approx(expected, abs=1e-12)


def test_skill_may_be_left_out_for_an_attribute_check():
    assert PARAGON.odds({"force": 2, "tn": 9}) == PARAGON.odds({"force": 2, "skill": 0, "tn": 9})


@pytest.mark.parametrize(
    "request_",
    [
        {"force": 2, "skill": 1},
        {"force": -1, "skill": 0, "tn": 5},
        {"force": "2", "skill": 0, "tn": 5},
        {"force": 2, "skill": True, "tn": 5},
        {"force": 2, "skill": 0, "tn": 5.5},
        [1, 2],
    ],
)
def test_an_odds_request_it_cannot_answer_is_an_odds_error(request_):
    with pytest.raises(OddsError):
        PARAGON.odds(request_)


# ------------------------------------------------------------------ rolls


ROLLS = [
    ({"force": 3, "skill": 2, "tn": 20}, [12, 5, 3, 4, 1], [12, 5], [3, 4, 1], 29, "pass"),
    ({"force": 0, "skill": 0, "tn": 30}, [12, 12, 1], [12, 12, 1], [], 25, "fail"),
    ({"force": 1, "skill": 0, "tn": 8}, [7, 1], [7], [1], 8, "pass"),
    ({"force": 1, "skill": 1}, [2, 2], [2], [2], 6, "rolled"),
]


@pytest.mark.parametrize("request_,faces,d12,d6,total,outcome", ROLLS)
def test_a_roll_explodes_the_d12_and_adds_the_force_dice_and_twice_the_skill(
    request_, faces, d12, d6, total, outcome
):
    result = PARAGON.roll(request_, FixedRoller(faces))
    assert (result["d12"], result["d6"], result["total"], result["outcome"]) == (d12, d6, total, outcome)
    assert result["faces"] == d12 + d6
    assert str(total) in result["text"]


def test_the_sheet_offers_a_check_per_skill_and_per_force():
    report = validate(TYPICAL)
    rollables = PARAGON.rollables(TYPICAL, report)
    ids = {r["id"]: r["request"] for r in rollables}
    assert len(rollables) == 25
    assert ids["skill:triarmatura"] == {"force": 3, "skill": 2, "tn": 12}
    assert ids["force:shadow"] == {"force": 0, "skill": 0, "tn": 12}
    for r in rollables:
        assert 0 <= PARAGON.odds(r["request"])["pass"] <= 1


# ------------------------------------------------------------------ play state


@pytest.fixture
def sheet():
    report = validate(TYPICAL)
    return TYPICAL, report, PARAGON.initial_state(TYPICAL, report)


def act(sheet, state, faces=(), **action):
    build, report, _ = sheet
    return PARAGON.state_action(state, action, build, report, FixedRoller(faces))


def test_a_fresh_state_has_full_pools_and_no_conditions(sheet):
    build, report, state = sheet
    assert state == {"pools": report.derived["resources"], "corruption": 0, "incapacitation_resisted": False}
    assert PARAGON.check_state(state, build, report) == []
    assert PARAGON.state_effects(build, report, state)["conditions"] == []


def test_health_below_half_incapacitates_until_a_hero_point_is_spent(sheet):
    build, report, state = sheet
    hurt, log = act(sheet, state, action="damage", pool="health", amount=11)
    assert hurt["pools"]["health"] == 9 and "Incapacitated" in log
    assert state["pools"]["health"] == 20  # never mutated
    assert PARAGON.state_effects(build, report, hurt)["can_act"] is False
    up, _ = act(sheet, hurt, action="resist_incapacitation")
    assert up["pools"]["heroism"] == 4 and up["incapacitation_resisted"] is True
    assert "incapacitated" not in PARAGON.state_effects(build, report, up)["conditions"]
    with pytest.raises(StateError) as err:
        act(sheet, up, action="resist_incapacitation")
    assert err.value.code == "paragon.not_incapacitated"
    down_again, _ = act(sheet, up, action="damage", pool="health", amount=1)
    assert "incapacitated" in PARAGON.state_effects(build, report, down_again)["conditions"]


def test_first_aid_lifts_incapacitation_without_a_hero_point(sheet):
    build, report, state = sheet
    hurt, _ = act(sheet, state, action="damage", pool="health", amount=15)
    aided, _ = act(sheet, hurt, action="first_aid")
    assert aided["pools"]["heroism"] == 5
    assert "incapacitated" not in PARAGON.state_effects(build, report, aided)["conditions"]


POOL_STATES = [
    ("health", 20, "bodily_death"),
    ("face", 11, "disgraced"),
    ("face", 20, "pariah"),
    ("purity", 20, "spiritual_death"),
    ("stamina", 20, "tired"),
    ("dynama", 30, "paralysed"),
    ("morale", 12, "morale_failure"),
]


@pytest.mark.parametrize("pool,amount,condition", POOL_STATES)
def test_each_pool_has_its_condition(sheet, pool, amount, condition):
    build, report, state = sheet
    after, _ = act(sheet, state, faces=[1, 1], action="damage", pool=pool, amount=amount)
    assert condition in PARAGON.state_effects(build, report, after)["conditions"]


@pytest.mark.parametrize("pool", ["health", "face", "purity"])
def test_a_pool_that_dies_at_zero_is_locked(sheet, pool):
    _, _, state = sheet
    dead, _ = act(sheet, state, action="damage", pool=pool, amount=99)
    for action in ({"action": "restore", "amount": 5}, {"action": "set", "value": 5}):
        with pytest.raises(StateError) as err:
            act(sheet, dead, pool=pool, **action)
        assert err.value.code == "paragon.pool_locked"


def test_stamina_below_ten_and_at_zero_each_cost_1d6_morale(sheet):
    _, _, state = sheet
    winded, log = act(sheet, state, faces=[3], action="damage", pool="stamina", amount=15)
    assert (winded["pools"]["stamina"], winded["pools"]["morale"]) == (5, 9)
    tired, _ = act(sheet, winded, faces=[2], action="damage", pool="stamina", amount=5)
    assert (tired["pools"]["stamina"], tired["pools"]["morale"]) == (0, 7)
    both, _ = act(sheet, state, faces=[6, 6], action="damage", pool="stamina", amount=20)
    assert both["pools"]["morale"] == 0
    rested, _ = act(sheet, tired, action="catch_breath")
    assert rested["pools"]["stamina"] == 20


def test_restore_stops_at_the_maximum_and_set_refuses_above_it(sheet):
    _, _, state = sheet
    hurt, _ = act(sheet, state, action="damage", pool="morale", amount=5)
    healed, _ = act(sheet, hurt, action="restore", pool="morale", amount=50)
    assert healed["pools"]["morale"] == 12
    with pytest.raises(StateError) as err:
        act(sheet, state, action="set", pool="morale", value=13)
    assert err.value.code == "state.above_maximum"


def test_hero_points_run_out(sheet):
    _, _, state = sheet
    for _ in range(5):
        state, _ = act(sheet, state, action="spend_hero_point", reason="seize the offensive")
    assert state["pools"]["heroism"] == 0
    with pytest.raises(StateError) as err:
        act(sheet, state, action="spend_hero_point")
    assert err.value.code == "paragon.no_hero_points"


def test_corruption_above_purity_calls_for_resistance_checks_and_a_fall_at_zero_purity(sheet):
    build, report, state = sheet
    tainted, log = act(sheet, state, action="corrupt", amount=21)
    assert "resisting_corruption" in PARAGON.state_effects(build, report, tainted)["conditions"]
    assert "Scourge" in log
    fallen, _ = act(sheet, tainted, action="damage", pool="purity", amount=20)
    assert {"fallen", "spiritual_death"} <= set(PARAGON.state_effects(build, report, fallen)["conditions"])
    clean, _ = act(sheet, tainted, action="cleanse", amount=30)
    assert clean["corruption"] == 0


@pytest.mark.parametrize(
    "action,code",
    [
        ({"action": "fly"}, "state.unknown_action"),
        ({"action": "damage", "pool": "mana", "amount": 1}, "state.malformed"),
        ({"action": "damage", "pool": "health", "amount": -3}, "state.malformed"),
    ],
)
def test_a_bad_action_is_refused_with_a_code(sheet, action, code):
    _, _, state = sheet
    with pytest.raises(StateError) as err:
        act(sheet, state, **action)
    assert err.value.code == code


@pytest.mark.parametrize(
    "state,expected",
    [
        ({"pools": {"health": 21}}, [("state.above_maximum", "/pools/health")]),
        ({"pools": {"mana": 1}}, [("state.unknown", "/pools/mana")]),
        (
            {"pools": {"face": -1}, "corruption": -2},
            [("state.below_minimum", "/pools/face"), ("state.malformed", "/corruption")],
        ),
        ([], [("state.malformed", "")]),
    ],
)
def test_check_state_points_into_the_state(sheet, state, expected):
    build, report, _ = sheet
    assert [(i.code, i.path) for i in PARAGON.check_state(state, build, report)] == expected


def test_state_sections_show_the_seven_pools_and_corruption(sheet):
    build, report, state = sheet
    hurt, _ = act(sheet, state, action="damage", pool="face", amount=12)
    sections = PARAGON.state_sections(build, report, hurt)
    pools = {i["id"]: i for i in sections[0]["items"]}
    assert list(pools) == list(POOLS)
    assert (
        pools["face"]["value"] == 8 and pools["face"]["status"] == "disgraced" and pools["face"]["max"] == 20
    )
    assert sections[1]["items"][0]["path"] == "/corruption"
    assert {a["action"] for a in sections[0]["actions"]} >= {"damage", "restore", "resist_incapacitation"}


# ------------------------------------------------------------------ advancement


def test_a_rising_power_level_is_flagged_for_the_gm():
    old = base_build()
    new = base_build(power_level=2, forces={"fire": 2, "wind": 4, "thunder": 2, "light": 2, "shadow": 0})
    report = validate(new, previous=old)
    assert codes(report) == []
    assert ("paragon.power_level_changed", "/power_level") in warnings(report)
    assert report.budget["force_points"] == 20


@pytest.mark.parametrize(
    "changes,expected",
    [
        (
            {
                "power_level": None,
                "skills": {"melee": 2, "missile": 1},
                "path": None,
                "forces": {"fire": 1, "wind": 3, "thunder": 0, "light": 0, "shadow": 0},
            },
            ("paragon.below_previous", "/power_level"),
        ),
        ({"forces": {**ALL_FORCES, "fire": 1, "shadow": 1}}, ("paragon.below_previous", "/forces/fire")),
        (
            {"skills": {"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1}},
            ("paragon.below_previous", "/skills/athletics"),
        ),
    ],
)
def test_nothing_approved_falls_in_an_advancement(changes, expected):
    report = validate(base_build(**changes), previous=base_build())
    assert expected in codes(report)


def test_lower_resource_maxima_and_a_new_path_are_shown_to_the_gm():
    old = base_build(resources={"morale": 12})
    new = base_build(
        resources={"morale": 10}, path={"name": "Other", "grants": {"triarmatura": 1, "ritual": 1}}
    )
    report = validate(new, previous=old)
    assert codes(report) == []
    assert ("paragon.resource_lowered", "/resources/morale") in warnings(report)
    assert ("paragon.path_changed", "/path") in warnings(report)


# ------------------------------------------------------------------ house rules and homebrew


def test_a_campaign_may_change_the_power_level_table_row_by_row():
    settings = {"power_levels": {"1": {"force_points": 18}}}
    report = validate(base_build(forces={**ALL_FORCES, "shadow": 2}), settings=settings)
    assert report.budget["force_points"] == 18 and report.derived["max_force_rank"] == 3
    assert codes(report) == [] and report.warnings == []


def test_a_campaign_may_raise_the_skill_cap_and_the_resource_defaults():
    settings = {"skill_rank_max": 6, "resources": {"paragon": {"health": 25}}}
    report = validate(
        base_build(
            skills={"melee": 6, "missile": 1, "triarmatura": 2, "ritual": 1}, budget={"skill_points": 40}
        ),
        settings=settings,
    )
    assert codes(report) == []
    assert report.derived["resources"]["health"] == 25 and report.derived["resources"]["morale"] == 12


def test_an_unknown_house_rule_is_a_warning():
    report = validate(base_build(), settings={"critical_hits": True})
    assert ("settings.unknown", "/critical_hits") in warnings(report)


def test_a_homebrew_skill_is_learned_and_rolled_with_its_force():
    homebrew = {"skills": [{"id": "sailing", "name": "Sailing", "force": "wind"}]}
    report = validate(
        base_build(skills={"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1, "sailing": 2}),
        homebrew=homebrew,
    )
    assert codes(report) == []
    assert report.derived["checks"]["sailing"] == "d12!+3d6+4"
    traits = PARAGON.traits(PARAGON.context(homebrew=homebrew))
    skills = next(s for s in traits["sections"] if s["id"] == "skills")
    assert {"id": "sailing", "label": "Sailing", "group": "wind", "max": 5} in skills["options"]


def test_a_malformed_homebrew_skill_is_reported_and_not_added():
    homebrew = {"skills": [{"id": "sailing", "name": "Sailing", "force": "water"}]}
    report = validate(
        base_build(skills={"melee": 2, "missile": 1, "triarmatura": 2, "ritual": 1, "sailing": 1}),
        homebrew=homebrew,
    )
    assert ("homebrew.malformed", "/skills/0/force") in warnings(report)
    assert codes(report) == [("skill.unknown", "/skills/sailing")]


# ------------------------------------------------------------------ builder contract


def test_traits_describe_every_part_of_the_build():
    sections = {s["id"]: s for s in PARAGON.traits(PARAGON.context())["sections"]}
    assert [(s["id"], s["kind"], s["path"]) for s in sections.values()] == [
        ("power_level", "number", "/power_level"),
        ("forces", "numbers", "/forces"),
        ("path", "object", "/path"),
        ("skills", "ranks", "/skills"),
        ("resources", "numbers", "/resources"),
    ]
    assert sections["power_level"]["nullable"] is True and sections["power_level"]["max"] == 5
    assert [f["id"] for f in sections["forces"]["fields"]] == list(FORCES)
    assert len(sections["skills"]["options"]) == 20


def test_a_blank_build_is_legal_shaped_and_costs_nothing():
    blank = PARAGON.blank_build("Nobody", {"skill_points": 12})
    report = validate(blank)
    assert codes(report) == []
    assert warnings(report) == [("forces.unspent", "/forces")]
    assert report.spent == {"force_points": 0, "skill_points": 0}
    assert report.budget == {"force_points": 15, "skill_points": 12}


def test_paragon_is_in_the_registry():
    assert registry.get("paragon") is PARAGON
    assert PARAGON.awardable_currencies == ("skill_points",)


def test_the_typical_build_validates_the_same_every_time():
    # Its speed is measured in bench/run.py, not here.
    reports = [validate(TYPICAL) for _ in range(3)]
    assert all(r.valid and r.spent == reports[0].spent for r in reports)
