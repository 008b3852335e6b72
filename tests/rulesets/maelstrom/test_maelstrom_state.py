"""Maelstrom play state: the health track, willpower, and the sheet's roll buttons."""

import copy
import json

import pytest

from rulesets.engine import StateError, registry, validate
from rulesets.systems.maelstrom import RULESET

EXAMPLE = registry.get("maelstrom").package_dir / "examples" / "kestrel_investigator.json"
BUILD = json.loads(EXAMPLE.read_text())["build"]
REPORT = validate(BUILD)
B, L, A = "bashing", "lethal", "aggravated"


def state(health=(), willpower=4, **extra):
    boxes = list(health) + [None] * (8 - len(health))
    return {
        "health": boxes,
        "willpower": willpower,
        "ignore_wounds": False,
        "dead": False,
        "notes": "",
        **extra,
    }


def act(current, **action):
    before = copy.deepcopy(current)
    new, text = RULESET.state_action(current, action, BUILD, REPORT)
    assert current == before, "state_action must not mutate its input"
    assert text
    return new


def test_initial_state_is_unhurt_with_full_willpower():
    assert RULESET.initial_state(BUILD, REPORT) == state()
    assert RULESET.check_state(state(), BUILD, REPORT) == []


@pytest.mark.parametrize(
    "health, levels, kind, expected",
    [
        ([], 2, B, [B, B]),
        ([B, B], 1, L, [L, B, B]),  # more serious damage fills from the top
        ([L, B], 2, A, [A, A, L, B]),
        ([B] * 7, 1, B, [B] * 8),  # the eighth level fills the Incapacitated box
        ([B] * 8, 1, B, [L] + [B] * 7),  # Incapacitated holds bashing: bashing turns into lethal
        ([B] * 8, 1, A, [A] + [B] * 7),
        ([L] * 7 + [B], 1, B, [L] * 8),
    ],
)
def test_damage_fills_the_track_by_severity(health, levels, kind, expected):
    new = act(state(health), action="damage", levels=levels, type=kind)
    assert new["health"] == expected + [None] * (8 - len(expected))
    assert new["dead"] is False


@pytest.mark.parametrize("last", [L, A])
def test_a_level_after_lethal_in_the_incapacitated_box_is_fatal(last):
    new = act(state([L] * 7 + [last]), action="damage", levels=1, type=B)
    assert new["dead"] is True
    assert RULESET.state_effects(BUILD, REPORT, new)["dead"] is True
    with pytest.raises(StateError) as refused:
        act(new, action="damage", levels=1, type=B)
    assert refused.value.code == "maelstrom.dead"


@pytest.mark.parametrize(
    "filled, penalty, level",
    [
        (0, 0, None),
        (1, 0, "Bruised"),
        (2, -1, "Scratched"),
        (3, -1, "Hurt"),
        (4, -2, "Injured"),
        (5, -2, "Wounded"),
        (6, -3, "Mauled"),
        (7, -5, "Crippled"),
    ],
)
def test_the_wound_penalty_is_that_of_the_lowest_damaged_box(filled, penalty, level):
    effects = RULESET.state_effects(BUILD, REPORT, state([L] * filled))
    assert (effects["wound_penalty"], effects["wound_level"]) == (penalty, level)
    assert effects["incapacitated"] is False


def test_a_full_track_incapacitates():
    effects = RULESET.state_effects(BUILD, REPORT, state([B] * 8))
    assert effects["incapacitated"] is True and effects["wound_level"] == "Incapacitated"


def test_healing_takes_the_least_serious_damage_first():
    new = act(state([A, L, B, B]), action="heal", levels=3)
    assert new["health"] == [A] + [None] * 7
    new = act(state([A, L, B]), action="heal", levels=1, type=L)
    assert new["health"][:3] == [A, B, None]
    with pytest.raises(StateError) as refused:
        act(state(), action="heal", levels=1)
    assert refused.value.code == "maelstrom.no_damage"


def test_spending_willpower_for_an_automatic_success_leaves_successes_equal_to_the_dots_left():
    new, text = RULESET.state_action(
        state(willpower=4), {"action": "spend_willpower", "purpose": "automatic_success"}, BUILD, REPORT
    )
    assert new["willpower"] == 3 and "3 successes" in text


def test_the_last_willpower_dot_cannot_buy_an_automatic_success():
    with pytest.raises(StateError) as refused:
        act(state(willpower=1), action="spend_willpower", purpose="automatic_success")
    assert (refused.value.code, refused.value.path) == ("maelstrom.last_willpower", "/willpower")


def test_spending_willpower_ignores_wound_penalties_for_one_action():
    hurt = state([L] * 4, willpower=2)
    assert RULESET.state_effects(BUILD, REPORT, hurt)["wound_penalty"] == -2
    ignoring = act(hurt, action="spend_willpower", purpose="ignore_wounds")
    assert ignoring["willpower"] == 1
    assert RULESET.state_effects(BUILD, REPORT, ignoring)["wound_penalty"] == 0
    with pytest.raises(StateError) as refused:
        act(ignoring, action="spend_willpower", purpose="ignore_wounds")
    assert refused.value.code == "maelstrom.wounds_already_ignored"
    after = act(ignoring, action="end_action")
    assert RULESET.state_effects(BUILD, REPORT, after)["wound_penalty"] == -2


def test_losing_all_willpower_incapacitates_and_recovery_stops_at_permanent():
    drained = act(state(willpower=2), action="lose_willpower", dots=5)
    assert drained["willpower"] == 0
    assert RULESET.state_effects(BUILD, REPORT, drained)["incapacitated"] is True
    rested = act(drained, action="recover_willpower", dots=9)
    assert rested["willpower"] == 4
    with pytest.raises(StateError) as refused:
        act(rested, action="recover_willpower")
    assert refused.value.code == "maelstrom.willpower_full"


@pytest.mark.parametrize(
    "action, code",
    [
        ({"action": "damage", "levels": 0, "type": B}, "state.malformed"),
        ({"action": "damage", "levels": 1, "type": "fire"}, "state.malformed"),
        ({"action": "spend_willpower", "purpose": "fun"}, "state.malformed"),
        ({"action": "dance"}, "state.unknown_action"),
        ({"levels": 1}, "state.unknown_action"),
    ],
)
def test_bad_actions_are_refused_with_a_code(action, code):
    with pytest.raises(StateError) as refused:
        RULESET.state_action(state(), action, BUILD, REPORT)
    assert refused.value.code == code


@pytest.mark.parametrize(
    "bad, code, path",
    [
        (state(willpower=5), "state.above_maximum", "/willpower"),
        (state(willpower=-1), "state.below_minimum", "/willpower"),
        (state([B, L]), "maelstrom.health_order", "/health"),
        (state(["fire"]), "state.malformed", "/health/0"),
        ({"health": [None] * 3, "willpower": 2}, "state.malformed", "/health"),
        ([], "state.malformed", ""),
    ],
)
def test_check_state_reports_problems_at_their_path(bad, code, path):
    assert (code, path) in {(i.code, i.path) for i in RULESET.check_state(bad, BUILD, REPORT)}


def test_state_sections_show_the_track_and_the_willpower_pool():
    sections = {s["id"]: s for s in RULESET.state_sections(BUILD, REPORT, state([L, B]))}
    track = sections["health"]
    assert track["kind"] == "track"
    assert [(i["label"], i["damage"]) for i in track["items"][:3]] == [
        ("Bruised", L),
        ("Scratched", B),
        ("Hurt", None),
    ]
    assert {a["action"] for a in track["actions"]} == {"damage", "heal"}
    pool = sections["willpower"]["items"][0]
    assert (pool["value"], pool["max"], pool["path"]) == (4, 4, "/willpower")


# ----------------------------------------------------------------- rollables


def _rolls(current=None):
    return {r["id"]: r for r in RULESET.rollables(BUILD, REPORT, current)}


def test_rollables_pair_abilities_with_their_common_attributes():
    rolls = _rolls()
    # Intelligence 3 + Investigation 4
    assert rolls["intelligence__investigation"]["request"] == {"pool": 7, "difficulty": 6, "threshold": 0}
    assert rolls["willpower"]["request"]["pool"] == 4
    for roll in rolls.values():
        RULESET.odds(roll["request"])  # every request is one odds() answers


@pytest.mark.parametrize(
    "roll_id, pool, difficulty",
    [
        ("strength__athletics", 2, 6),  # a talent with no dots: the attribute alone
        ("precision__piloting", 3, 7),  # a skill with no dots: the attribute alone, difficulty +1
    ],
)
def test_zero_dot_abilities(roll_id, pool, difficulty):
    request = _rolls()[roll_id]["request"]
    assert (request["pool"], request["difficulty"]) == (pool, difficulty)


def test_a_knowledge_with_no_dots_cannot_be_attempted():
    rolls = _rolls()
    assert not any(r.endswith("__engineering") for r in rolls)
    assert "intelligence__medicine" in rolls


def test_rollables_apply_the_wound_penalty_but_not_to_willpower():
    rolls = _rolls(state([L] * 4))
    assert rolls["intelligence__investigation"]["request"]["pool"] == 5
    assert rolls["willpower"]["request"]["pool"] == 4
    assert _rolls(state([B] * 8))["intelligence__investigation"].get("disabled") is True
