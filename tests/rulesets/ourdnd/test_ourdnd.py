"""Our D&D (RULES.md §4): examples, every code at its path, pricing, derived numbers,
exact odds against all 400 pairs of d20s, rolls, play state, house rules and homebrew."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from rulesets.engine import FixedRoller, OddsError, StateError, registry, validate
from rulesets.systems.ourdnd import RULESET as OURDND
from rulesets.systems.ourdnd import character as rules
from rulesets.systems.ourdnd import dice
from tests import fuzz
from tests.rulesets.report_helpers import check_example, codes, example_paths, typical, warnings

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = example_paths("ourdnd")
TYPICAL = typical("ourdnd")
DEMOS = sorted((ROOT / "rulesets/systems/ourdnd/demo").glob("*.json"))
STATS = {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0}


def base_build(**changes) -> dict:
    """Pip: 6 stat points, one heart, a shortbow and leather armor."""
    build = {
        "ruleset": "ourdnd",
        "name": "Pip",
        "budget": {"points": 6},
        "stats": dict(STATS),
        "hearts": 1,
        "gear": [{"item": "shortbow"}, {"item": "leather_armor"}],
    }
    build.update(copy.deepcopy(changes))
    return build


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_shared_examples_report_what_they_expect(path):
    check_example(path)


@pytest.mark.parametrize(
    "doc",
    [typical("ourdnd"), *(json.loads(p.read_text()) for p in DEMOS)],
    ids=["typical", *(p.stem for p in DEMOS)],
)
def test_the_typical_build_and_the_demo_characters_are_valid(doc):
    report = validate(doc)
    assert codes(report) == [] and report.warnings == []
    assert report.remaining == {"points": 0}


def test_the_base_build_is_priced_and_derived():
    report = validate(base_build())
    assert codes(report) == []
    assert report.spent == {"points": 6} and report.remaining == {"points": 0}
    assert report.derived == {
        "max_hp": 10,
        "defense": 2,
        "defense_target": 12,
        "effort": {"bare_hands": "d4", "shortbow": "d6"},
    }


PRICES = [
    ({"hearts": 1}, 6, 10),
    ({"hearts": 2}, 9, 20),
    ({"hearts": 4}, 15, 40),
    ({"stats": {"str": 6, "dex": 6, "con": 6, "int": 6, "wis": 6, "cha": 6}}, 36, 10),
    ({"stats": {"str": 0, "dex": 0, "con": 0, "int": 0, "wis": 0, "cha": 0}, "hearts": 3}, 6, 30),
]


@pytest.mark.parametrize("changes,points,max_hp", PRICES)
def test_a_stat_point_costs_one_and_an_extra_heart_three(changes, points, max_hp):
    report = validate(base_build(budget={"points": 99}, **changes))
    assert report.spent["points"] == points
    assert report.derived["max_hp"] == max_hp


DEFENSE = [
    ([], 1, {"bare_hands": "d4"}),
    ([{"item": "chain_armor"}, {"item": "shield"}], 4, {"bare_hands": "d4"}),
    (
        [{"item": "greatsword"}, {"item": "musket"}, {"item": "holy_symbol"}, {"item": "torch"}],
        1,
        {"bare_hands": "d4", "greatsword": "d8", "musket": "d8", "holy_symbol": "d10"},
    ),
    (
        [{"item": "dagger"}, {"item": "dagger"}, {"item": "crowbar"}],
        1,
        {"bare_hands": "d4", "dagger": "d6", "crowbar": "d6"},
    ),
]


@pytest.mark.parametrize("gear,defense,effort", DEFENSE)
def test_defense_is_con_plus_armor_and_effort_is_keyed_by_item(gear, defense, effort):
    report = validate(base_build(gear=gear))
    assert report.derived["defense"] == defense and report.derived["defense_target"] == defense + 10
    assert report.derived["effort"] == effort


def test_the_catalogue_has_the_ids_and_dice_rules_md_lists():
    gear = OURDND.catalogue["gear"]
    dice = {
        "d6": ["dagger", "sword", "shortbow", "crowbar", "bandages"],
        "d8": ["greatsword", "longbow", "heavy_crossbow", "musket"],
        "d10": ["fire_staff", "holy_symbol"],
    }
    for die, ids in dice.items():
        assert all(gear[i]["effort"] == die for i in ids)
    assert {i: gear[i]["defense"] for i in ("leather_armor", "chain_armor", "shield")} == {
        "leather_armor": 1,
        "chain_armor": 2,
        "shield": 1,
    }
    assert gear["torch"]["td_modifier"] == -1
    assert gear["starforged_blade"]["critical_ultimate"] is True  # W16's house default item
    assert len(gear) == 16


# ------------------------------------------------------------------ every code at its path

ERRORS = [
    ("stats missing", {"stats": None}, [("build.malformed", "/stats")]),
    ("stats not an object", {"stats": [1, 2]}, [("build.malformed", "/stats")]),
    ("a stat as text", {"stats": {**STATS, "dex": "3"}}, [("build.malformed", "/stats/dex")]),
    ("hearts as text", {"hearts": "2"}, [("build.malformed", "/hearts")]),
    ("gear not a list", {"gear": {"item": "sword"}}, [("build.malformed", "/gear")]),
    ("a gear entry as text", {"gear": ["sword"]}, [("build.malformed", "/gear/0")]),
    ("an unknown stat", {"stats": {**STATS, "luck": 0}}, [("attribute.unknown", "/stats/luck")]),
    (
        "a missing stat",
        {"stats": {k: v for k, v in STATS.items() if k != "cha"}},
        [("attribute.missing", "/stats/cha")],
    ),
    ("a negative stat", {"stats": {**STATS, "str": -1}}, [("attribute.below_minimum", "/stats/str")]),
    ("no hearts", {"hearts": 0}, [("attribute.below_minimum", "/hearts")]),
    (
        "a stat over 6",
        {"stats": {**STATS, "dex": 7}, "budget": {"points": 20}},
        [("attribute.above_maximum", "/stats/dex")],
    ),
    (
        "unknown gear",
        {"gear": [{"item": "sword"}, {"item": "lightsaber"}]},
        [("gear.unknown", "/gear/1/item")],
    ),
    ("too many points", {"hearts": 2}, [("budget.exceeded", "/budget/points")]),
    ("a negative budget", {"budget": {"points": -1}}, [("build.malformed", "/budget/points")]),
]


@pytest.mark.parametrize("changes,expected", [(c, e) for _, c, e in ERRORS], ids=[n for n, _, _ in ERRORS])
def test_each_error_is_reported_once_at_its_path(changes, expected):
    report = validate(base_build(**changes))
    assert codes(report) == expected
    for issue in report.errors:
        assert issue.message.endswith("."), issue.message


def test_an_unknown_key_is_a_warning():
    report = validate(base_build(feats=["alert"]))
    assert codes(report) == [] and warnings(report) == [("build.unknown_key", "/feats")]


def test_hearts_left_out_means_one_heart():
    build = base_build()
    del build["hearts"]
    report = validate(build)
    assert codes(report) == [] and report.derived["max_hp"] == 10


@pytest.mark.parametrize(
    "changes,missing",
    [
        ({"gear": [{"item": "nope"}]}, {"defense", "effort", "defense_target"}),
        ({"stats": {**STATS, "con": "x"}}, {"defense", "defense_target"}),
        ({"hearts": 0}, {"max_hp"}),
    ],
)
def test_a_broken_input_leaves_its_derived_keys_out(changes, missing):
    report = validate(base_build(**changes))
    assert not missing & set(report.derived)
    assert set(report.derived) | missing == {"max_hp", "defense", "defense_target", "effort"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-30, 30) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
keys = st.sampled_from(["stats", "hearts", "gear", "budget", "name"])
sub_keys = st.sampled_from(["str", "con", "item", "points", "dex"])


@hsettings(max_examples=fuzz.examples(full=80, smoke=20), deadline=None)
@given(
    st.dictionaries(
        keys,
        json_values
        | st.dictionaries(sub_keys, json_values, max_size=5)
        | st.lists(st.dictionaries(sub_keys, json_values, max_size=2), max_size=3),
        max_size=5,
    )
)
def test_any_json_gets_a_report_and_never_the_safety_net(doc):
    data = validate({"ruleset": "ourdnd", **doc}).as_dict()
    assert data["valid"] == (not data["errors"])
    assert not any("could not read" in e["message"] for e in data["errors"])


# ------------------------------------------------------------------ odds


def by_pairs(stat: int, td: int, mode: str) -> dict[str, Fraction]:
    """All 20 (normal) or 400 (easy, hard) equally likely rolls, counted."""
    if mode == "normal":
        naturals = list(range(1, 21))
    else:
        pick = max if mode == "easy" else min
        naturals = [pick(a, b) for a in range(1, 21) for b in range(1, 21)]
    n = len(naturals)
    success = sum(1 for x in naturals if x == 20 or (x != 1 and x + stat >= td))
    return {
        "success": Fraction(success, n),
        "critical": Fraction(naturals.count(20), n),
        "blunder": Fraction(naturals.count(1), n),
    }


@pytest.mark.parametrize("mode", ["normal", "easy", "hard"])
def test_check_odds_match_every_pair_of_d20s(mode):
    for stat in range(-2, 9):
        for td in range(-1, 31):
            got = OURDND.odds({"stat": stat, "td": td, "mode": mode})
            expected = by_pairs(stat, td, mode)
            assert set(got) == set(expected)
            for key, value in expected.items():
                assert got[key] == pytest.approx(float(value), abs=1e-12), (stat, td, key)
            # success includes the criticals; the failures (1 − success) include the blunders
            assert got["critical"] <= got["success"] + 1e-12 and got["blunder"] <= 1 - got["success"] + 1e-12


@pytest.mark.parametrize("mode", ["normal", "easy", "hard"])
def test_the_kept_die_is_a_distribution_that_sums_to_one(mode):
    kept = dice._kept(mode)
    assert sorted(kept) == list(range(1, 21))
    assert sum(kept.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "request_,key,expected",
    [
        ({"stat": 0, "td": 30}, "success", 1 / 20),  # only a natural 20
        ({"stat": 30, "td": 5}, "success", 19 / 20),  # a natural 1 always fails
        ({"stat": 2, "td": 12, "mode": "easy"}, "critical", 39 / 400),
        ({"stat": 2, "td": 12, "mode": "hard"}, "critical", 1 / 400),
        ({"stat": 2, "td": 12, "mode": "hard"}, "blunder", 39 / 400),
        ({"stat": 2, "td": 12}, "success", 11 / 20),
    ],
)
def test_known_check_odds(request_, key, expected):
    assert OURDND.odds(request_)[key] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "die,critical,low,high", [("d4", False, 1, 4), ("d6", False, 1, 6), ("d10", True, 2, 22)]
)
def test_effort_odds_are_the_die_plus_a_d12_on_a_critical(die, critical, low, high):
    answer = OURDND.odds({"effort": die, "critical": critical})["effort"]
    assert sum(answer.values()) == pytest.approx(1.0, abs=1e-12)
    assert (min(map(int, answer)), max(map(int, answer))) == (low, high)


@pytest.mark.parametrize(
    "request_",
    [
        {"stat": 1},
        {"stat": 1, "td": 12, "mode": "lucky"},
        {"stat": "1", "td": 12},
        {"effort": "d7"},
        {"effort": "d6", "critical": "yes"},
        "d20",
    ],
)
def test_an_odds_request_it_cannot_answer_is_an_odds_error(request_):
    with pytest.raises(OddsError):
        OURDND.odds(request_)


# ------------------------------------------------------------------ rolls

ROLLS = [
    ({"stat": 0, "td": 25}, [20], 20, "critical"),
    ({"stat": 10, "td": 5}, [1], 1, "blunder"),
    ({"stat": 2, "td": 12}, [10], 10, "success"),
    ({"stat": 2, "td": 12}, [9], 9, "failure"),
    ({"stat": 2, "td": 12, "mode": "easy"}, [4, 17], 17, "success"),
    ({"stat": 2, "td": 12, "mode": "hard"}, [4, 17], 4, "failure"),
]


@pytest.mark.parametrize("request_,faces,natural,outcome", ROLLS)
def test_a_check_roll_keeps_the_right_die(request_, faces, natural, outcome):
    result = OURDND.roll(request_, FixedRoller(faces))
    assert (result["faces"], result["natural"], result["total"], result["outcome"]) == (
        faces,
        natural,
        natural + request_["stat"],
        outcome,
    )
    assert f"TD {request_['td']}" in result["text"]


def test_an_effort_roll_adds_a_d12_on_a_critical():
    assert OURDND.roll({"effort": "d6"}, FixedRoller([5]))["total"] == 5
    result = OURDND.roll({"effort": "d8", "critical": True}, FixedRoller([5, 12]))
    assert (result["faces"], result["total"]) == ([5, 12], 17)


def test_the_sheet_offers_one_check_per_stat_and_effort_per_die():
    """Easy or hard is chosen on the roll form (the odds form's "mode"), not six more buttons."""
    report = validate(TYPICAL)
    rollables = {r["id"]: r["request"] for r in OURDND.rollables(TYPICAL, report)}
    assert rollables["check:dex:normal"] == {"stat": 3, "td": 12, "mode": "normal"}
    assert sum(1 for i in rollables if i.startswith("check:")) == 6
    assert {i: r for i, r in rollables.items() if i.startswith("effort:")} == {
        "effort:bare_hands": {"effort": "d4"},
        "effort:shortbow": {"effort": "d6"},
        "effort:dagger": {"effort": "d6"},
        "effort:bandages": {"effort": "d6"},
    }
    for request in rollables.values():
        OURDND.odds(request)


# ------------------------------------------------------------------ play state


@pytest.fixture
def sheet():
    build = base_build(budget={"points": 9}, hearts=2)
    report = validate(build)
    assert report.valid
    return build, report, OURDND.initial_state(build, report)


def act(sheet, state, faces=(), **action):
    build, report, _ = sheet
    return OURDND.state_action(state, action, build, report, FixedRoller(faces))


def test_a_fresh_state_is_at_full_hp_and_awake(sheet):
    build, report, state = sheet
    assert state == {
        "hp": 20,
        "unconscious": False,
        "dying": False,
        "dying_rounds": None,
        "stable": False,
        "dead": False,
        "inspiration": False,
    }
    assert OURDND.check_state(state, build, report) == []


def test_zero_hp_is_dying_and_the_countdown_runs_out(sheet):
    build, report, state = sheet
    down, log = act(sheet, state, action="damage", amount=25)
    assert (down["hp"], down["dying"], down["unconscious"], down["dead"]) == (0, True, True, False)
    assert state["hp"] == 20  # never mutated
    down, _ = act(sheet, down, faces=[2, 5], action="dying_turn")  # d4 = 2 rounds, miracle roll 5
    assert down["dying_rounds"] == 2
    down, _ = act(sheet, down, faces=[7], action="dying_turn")
    assert down["dying_rounds"] == 1 and not down["dead"]
    dead, log = act(sheet, down, faces=[19], action="dying_turn")
    assert dead["dead"] is True and "dies" in log
    with pytest.raises(StateError) as err:
        act(sheet, dead, action="heal", amount=5)
    assert err.value.code == "ourdnd.dead"


def test_a_natural_20_while_dying_is_a_miracle(sheet):
    _, _, state = sheet
    down, _ = act(sheet, state, action="damage", amount=20)
    up, log = act(sheet, down, faces=[3, 20], action="dying_turn")
    assert (up["hp"], up["dying"], up["unconscious"]) == (1, False, False) and "MIRACLE" in log.upper()


@pytest.mark.parametrize("amount,dead", [(39, False), (40, True), (60, True)])
def test_minus_twenty_in_one_blow_is_instant_death(sheet, amount, dead):
    _, _, state = sheet
    after, _ = act(sheet, state, action="damage", amount=amount)
    assert after["dead"] is dead and after["hp"] == 0


def test_first_aid_stabilises_at_zero_hp_and_healing_wakes(sheet):
    build, report, state = sheet
    down, _ = act(sheet, state, action="damage", amount=20)
    failed, _ = act(sheet, down, faces=[5], action="first_aid", stat=2, td=12)
    assert failed["dying"] is True
    stable, _ = act(sheet, down, faces=[10], action="first_aid", stat=2, td=12)
    assert (stable["hp"], stable["dying"], stable["stable"], stable["unconscious"]) == (0, False, True, True)
    assert act(sheet, down, action="first_aid", result="success")[0]["stable"] is True
    awake, _ = act(sheet, stable, action="heal", amount=4)
    assert (awake["hp"], awake["unconscious"], awake["stable"]) == (4, False, False)
    with pytest.raises(StateError) as err:
        act(sheet, awake, action="first_aid", result="success")
    assert err.value.code == "ourdnd.not_dying"


def test_recover_regains_con_plus_one_on_a_roll_against_the_td(sheet):
    _, _, state = sheet
    hurt, _ = act(sheet, state, action="damage", amount=10)
    ok, _ = act(sheet, hurt, faces=[11], action="recover", td=12)  # 11 + con 1 ≥ 12
    assert ok["hp"] == 12
    no, _ = act(sheet, hurt, faces=[10], action="recover", td=12)
    assert no["hp"] == 10
    down, _ = act(sheet, state, action="damage", amount=20)
    with pytest.raises(StateError) as err:
        act(sheet, down, faces=[15], action="recover", td=12)
    assert err.value.code == "ourdnd.cannot_recover"


def test_a_rest_needs_one_hp_restores_all_and_costs_inspiration(sheet):
    _, _, state = sheet
    hurt, _ = act(sheet, state, action="damage", amount=17)
    inspired, _ = act(sheet, hurt, action="gain_inspiration")
    rested, log = act(sheet, inspired, action="rest")
    assert (rested["hp"], rested["inspiration"]) == (20, False) and "lost" in log
    down, _ = act(sheet, state, action="damage", amount=20)
    with pytest.raises(StateError) as err:
        act(sheet, down, action="rest")
    assert err.value.code == "ourdnd.rest_needs_hp"


def test_heroic_inspiration_is_one_at_most(sheet):
    _, _, state = sheet
    inspired, _ = act(sheet, state, action="gain_inspiration")
    with pytest.raises(StateError) as err:
        act(sheet, inspired, action="gain_inspiration")
    assert err.value.code == "ourdnd.inspiration_held"
    spent, _ = act(sheet, inspired, action="spend_inspiration")
    assert spent["inspiration"] is False
    with pytest.raises(StateError) as err:
        act(sheet, spent, action="spend_inspiration")
    assert err.value.code == "ourdnd.no_inspiration"


@pytest.mark.parametrize(
    "action,code",
    [
        ({"action": "fireball"}, "state.unknown_action"),
        ({"action": "damage", "amount": "lots"}, "state.malformed"),
        ({"action": "first_aid"}, "ourdnd.not_dying"),
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
        ({"hp": 21}, [("state.above_maximum", "/hp")]),
        ({"hp": -1, "dying": "yes"}, [("state.below_minimum", "/hp"), ("state.malformed", "/dying")]),
        ({"hp": 5, "mana": 3}, [("state.unknown", "/mana")]),
        ("full", [("state.malformed", "")]),
    ],
)
def test_check_state_points_into_the_state(sheet, state, expected):
    build, report, _ = sheet
    assert [(i.code, i.path) for i in OURDND.check_state(state, build, report)] == expected


def test_state_effects_and_sections_follow_the_state(sheet):
    build, report, state = sheet
    down, _ = act(sheet, state, action="damage", amount=20)
    effects = OURDND.state_effects(build, report, down)
    assert effects["conditions"] == ["dying", "unconscious"] and effects["can_act"] is False
    sections = {s["id"]: s for s in OURDND.state_sections(build, report, down)}
    assert sections["health"]["items"][0] == {
        "id": "hp",
        "label": "HP",
        "path": "/hp",
        "value": 0,
        "min": 0,
        "max": 20,
        "status": "dying",
    }
    assert {a["action"] for a in sections["dying"]["actions"]} == {"dying_turn", "first_aid"}


# ------------------------------------------------------------------ house rules and homebrew


@pytest.mark.parametrize(
    "house,changes,points,errors",
    [
        ({"stat_max": 8}, {"stats": {**STATS, "dex": 8}, "budget": {"points": 20}}, 11, []),
        ({"heart_cost": 2}, {"hearts": 3, "budget": {"points": 10}}, 10, []),
        ({"stat_point_cost": 2}, {}, 12, [("budget.exceeded", "/budget/points")]),
    ],
)
def test_a_campaign_may_change_the_house_defaults(house, changes, points, errors):
    report = validate(base_build(**changes), settings=house)
    assert report.spent["points"] == points and codes(report) == errors


def test_the_starting_budget_is_a_house_default_a_campaign_may_change():
    build = base_build()
    del build["budget"]
    assert validate(build).budget == {"points": 6}
    assert validate(build, settings={"starting_budget": {"points": 10}}).budget == {"points": 10}


def test_homebrew_gear_brings_its_die_defense_and_stat_bonus():
    homebrew = {
        "gear": [
            {"id": "war_pick", "name": "War pick", "effort": "d8"},
            {"id": "ox_amulet", "name": "Ox amulet", "effort": None, "stats": {"con": 1}, "defense": 1},
        ]
    }
    report = validate(base_build(gear=[{"item": "war_pick"}, {"item": "ox_amulet"}]), homebrew=homebrew)
    assert codes(report) == [] and report.warnings == []
    assert report.derived["effort"] == {"bare_hands": "d4", "war_pick": "d8"}
    assert report.derived["defense"] == 1 + 1 + 1
    assert report.derived["stats"]["con"] == 2
    rollables = {r["id"]: r["request"] for r in OURDND.rollables(base_build(), report)}
    assert rollables["check:con:normal"]["stat"] == 2


@pytest.mark.parametrize(
    "entry,path",
    [
        ({"id": "zapper", "name": "Zapper", "effort": "d7"}, "/gear/0/effort"),
        ({"id": "zapper", "effort": "d6"}, "/gear/0/name"),
        ({"id": "zapper", "name": "Zapper", "defense": 9}, "/gear/0/defense"),
        ({"id": "zapper", "name": "Zapper", "stats": {"luck": 1}}, "/gear/0/stats"),
        ({"id": "zapper", "name": "Zapper", "td_modifier": -5}, "/gear/0/td_modifier"),
    ],
)
def test_malformed_homebrew_gear_is_reported_and_not_added(entry, path):
    report = validate(base_build(gear=[{"item": "zapper"}]), homebrew={"gear": [entry]})
    assert ("homebrew.malformed", path) in warnings(report)
    assert codes(report) == [("gear.unknown", "/gear/0/item")]


# ------------------------------------------------------------------ builder contract


def test_traits_describe_stats_hearts_and_gear():
    sections = OURDND.traits(OURDND.context())["sections"]
    assert [(s["id"], s["kind"], s["path"]) for s in sections] == [
        ("stats", "numbers", "/stats"),
        ("hearts", "number", "/hearts"),
        ("gear", "items", "/gear"),
    ]
    assert [(f["id"], f["min"], f["max"]) for f in sections[0]["fields"]] == [(s, 0, 6) for s in rules.STATS]
    assert sections[1]["min"] == 0.5 and sections[1]["max"] is None and sections[1]["half"] is True  # W14
    options = {o["id"]: o for o in sections[2]["options"]}
    assert options["musket"]["effort"] == "d8" and options["chain_armor"]["defense"] == 2


def test_a_blank_build_is_legal_and_costs_nothing():
    blank = OURDND.blank_build("Nobody")
    report = validate(blank)
    assert codes(report) == [] and report.warnings == []
    assert report.spent == {"points": 0} and report.budget == {"points": 6}


def test_ourdnd_is_in_the_registry():
    assert registry.get("ourdnd") is OURDND
    assert OURDND.awardable_currencies == ("points",)


def test_the_typical_build_validates_the_same_every_time():
    # Its speed is measured in bench/run.py, not here.
    reports = [validate(TYPICAL) for _ in range(3)]
    assert all(r.valid and r.spent == {"points": 9} for r in reports)
