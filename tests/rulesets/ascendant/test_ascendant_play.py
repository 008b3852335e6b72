"""Ascendant at the table: degrees of success, exact odds, rolls, roll buttons and play state."""

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulesets.engine import FixedRoller, OddsError, StateError, odds, registry, validate
from rulesets.systems.ascendant.dice import degree

RULESET = registry.get("ascendant")
ROOT = Path(__file__).parents[3]
BUILD = json.loads((ROOT / "rulesets" / "systems" / "ascendant" / "demo" / "ysolde.json").read_text())
REPORT = validate(BUILD)


@pytest.mark.parametrize(
    ("face", "modifier", "threshold", "outcome"),
    [
        (10, 5, 15, "success"),  # meeting the threshold is enough
        (9, 5, 15, "failure"),
        (15, 10, 15, "critical_success"),  # threshold + 10
        (5, 0, 15, "critical_failure"),  # threshold − 10
        (6, 0, 15, "failure"),
        (19, 0, 15, "success"),
        (20, 0, 15, "critical_success"),  # a success improved by the natural 20
        (20, 0, 30, "failure"),  # 20 ≤ 30 − 10 is a critical failure, improved one degree only
        (20, 5, 15, "critical_success"),  # already critical: stays there
        (1, 20, 15, "failure"),  # 21 would succeed; the natural 1 worsens it
        (1, 30, 15, "success"),  # 31 would be critical
        (1, 0, 15, "critical_failure"),  # stays at the bottom
    ],
)
def test_degrees_of_success_with_natural_twenty_and_one(face, modifier, threshold, outcome):
    assert degree(face, modifier, threshold) == outcome


def test_odds_of_a_plain_check_are_exact():
    assert RULESET.odds({"modifier": 5, "threshold": 15}) == {
        "critical_success": 1 / 20,
        "success": 10 / 20,
        "failure": 8 / 20,
        "critical_failure": 1 / 20,
    }
    # hopeless: every face is a critical failure, but the natural 20 lifts its own to a failure
    assert odds("ascendant", {"modifier": 0, "threshold": 40}) == {
        "critical_success": 0.0,
        "success": 0.0,
        "failure": 1 / 20,
        "critical_failure": 19 / 20,
    }


def _enumerate(modifier, threshold):
    counts = {"critical_success": 0, "success": 0, "failure": 0, "critical_failure": 0}
    for face in range(1, 21):
        total = face + modifier
        step = (
            3 if total >= threshold + 10 else 2 if total >= threshold else 0 if total <= threshold - 10 else 1
        )
        step = min(3, step + 1) if face == 20 else max(0, step - 1) if face == 1 else step
        counts[("critical_failure", "failure", "success", "critical_success")[step]] += 1
    return {k: Fraction(v, 20) for k, v in counts.items()}


@pytest.mark.parametrize("modifier", range(-12, 33, 3))
@pytest.mark.parametrize("threshold", [5, 10, 15, 20, 25, 30, 40])
def test_odds_match_an_enumeration_of_the_twenty_faces(modifier, threshold):
    answer = RULESET.odds({"modifier": modifier, "threshold": threshold})
    expected = _enumerate(modifier, threshold)
    assert set(answer) == set(expected)
    for key, p in expected.items():
        assert abs(answer[key] - float(p)) < 1e-12
    assert abs(sum(answer.values()) - 1) < 1e-9


@pytest.mark.parametrize(
    "request_",
    [
        {"modifier": 5},
        {"threshold": 15},
        {"modifier": "5", "threshold": 15},
        {"modifier": True, "threshold": 15},
        {"modifier": 5, "threshold": 1.5},
        {"modifier": 10**6, "threshold": 15},
        [5, 15],
    ],
)
def test_a_bad_odds_request_is_refused_with_a_reason(request_):
    with pytest.raises(OddsError) as caught:
        RULESET.odds(request_)
    assert str(caught.value)


def test_a_roll_uses_the_roller_and_names_the_natural_result():
    result = RULESET.roll({"modifier": 3, "threshold": 30}, FixedRoller([20]))
    assert result["faces"] == [20] and result["total"] == 23
    assert result["outcome"] == "success"  # 23 fails, the natural 20 lifts it to a success
    assert "natural 20" in result["text"] and "success" in result["text"]
    result = RULESET.roll({"modifier": 3, "threshold": 10}, FixedRoller([12]))
    assert (result["total"], result["outcome"]) == (15, "success")
    with pytest.raises(OddsError):
        RULESET.roll({"modifier": 3}, FixedRoller([12]))


def test_every_odds_answer_over_a_wide_range_sums_to_one():
    # Latency is measured in bench/run.py; here the answers must be whole distributions.
    for modifier in range(-20, 30):
        for threshold in range(0, 40):
            answer = RULESET.odds({"modifier": modifier, "threshold": threshold})
            assert sum(answer.values()) == pytest.approx(1, abs=1e-9)
            assert all(0 <= p <= 1 for p in answer.values())


# ---------------------------------------------------------------- rollables


def _by_id(state=None):
    return {r["id"]: r for r in RULESET.rollables(BUILD, REPORT, state)}


def test_rollables_are_skills_lores_perception_and_defenses():
    rolls = _by_id()
    assert len([r for r in rolls.values() if r["group"] == "skills"]) == 15
    assert rolls["skill.arcana"]["request"] == {"modifier": 6, "threshold": 15}
    assert rolls["perception"]["request"]["modifier"] == 4
    assert rolls["defense.clarity"]["request"]["modifier"] == 6
    assert rolls["lore.academia"]["request"]["modifier"] == 6
    assert rolls["defense.evasion"]["label"] == "Evasion"
    for r in rolls.values():  # every request is an odds request as it stands
        assert set(RULESET.odds(r["request"])) == {
            "critical_success",
            "success",
            "failure",
            "critical_failure",
        }


@pytest.mark.parametrize(
    ("conditions", "target", "change"),
    [
        ([{"id": "frightened", "value": 2}], "perception", -2),
        # frightened and sickened are both status penalties: only the worse applies
        ([{"id": "frightened", "value": 2}, {"id": "sickened", "value": 1}], "skill.arcana", -2),
        # clumsy touches only Dexterity
        ([{"id": "clumsy", "value": 1}], "skill.acrobatics", -1),
        ([{"id": "clumsy", "value": 1}], "skill.arcana", 0),
        ([{"id": "clumsy", "value": 3}, {"id": "frightened", "value": 1}], "defense.evasion", -3),
        # a status bonus and a status penalty both apply
        ([{"id": "inspired"}, {"id": "frightened", "value": 1}], "skill.society", 0),
        ([{"id": "inspired"}], "skill.society", 1),
        ([{"id": "stupefied", "value": 2}], "lore.academia", -2),
    ],
)
def test_conditions_change_the_roll_buttons_by_typed_stacking(conditions, target, change):
    base = _by_id()[target]["request"]["modifier"]
    rolled = _by_id({"stamina": 16, "conditions": conditions})[target]
    assert rolled["request"]["modifier"] == base + change


def test_state_effects_lower_thresholds_and_say_why():
    state = {"conditions": [{"id": "off_guard"}, {"id": "prone"}, {"id": "clumsy", "value": 1}]}
    fx = RULESET.state_effects(BUILD, REPORT, state)
    # off-guard and prone are both −2 circumstance (one applies); clumsy is status
    assert fx["thresholds"]["deflection"] == REPORT.derived["thresholds"]["deflection"] - 3
    assert fx["thresholds"]["evasion"] == REPORT.derived["thresholds"]["evasion"] - 1
    assert fx["thresholds"]["clarity"] == REPORT.derived["thresholds"]["clarity"]
    assert [m["source"] for m in fx["threshold_modifiers"]["deflection"]["ignored"]] == ["Prone"]
    assert fx["labels"][0].startswith("Off-Guard")


# -------------------------------------------------------------- play state


def _state(**changes):
    state = RULESET.initial_state(BUILD, REPORT)
    state.update(changes)
    return state


def test_a_fresh_state_has_full_stamina():
    assert RULESET.initial_state(BUILD, REPORT) == {
        "stamina": 16,
        "temp_stamina": 0,
        "hero_points": 1,
        "conditions": [],
    }
    assert RULESET.check_state(_state(), BUILD, REPORT) == []


@pytest.mark.parametrize(
    ("state", "code", "path"),
    [
        ({"stamina": 17}, "state.above_maximum", "/stamina"),
        ({"stamina": -1}, "state.below_minimum", "/stamina"),
        ({"temp_stamina": "lots"}, "state.malformed", "/temp_stamina"),
        ({"conditions": [{"id": "cursed", "value": 1}]}, "state.unknown_condition", "/conditions/0/id"),
        ({"conditions": [{"id": "frightened", "value": 9}]}, "state.above_maximum", "/conditions/0/value"),
        (
            {"conditions": [{"id": "frightened", "value": 1}, {"id": "frightened", "value": 2}]},
            "state.duplicate",
            "/conditions/1",
        ),
        ({"hero_points": 4}, "state.above_maximum", "/hero_points"),
    ],
)
def test_check_state_points_at_the_bad_value(state, code, path):
    issues = RULESET.check_state(_state(**state), BUILD, REPORT)
    assert (code, path) in {(i.code, i.path) for i in issues}


def act(state, **action):
    return RULESET.state_action(state, action, BUILD, REPORT)


def test_damage_eats_temporary_stamina_first_and_never_mutates():
    state = _state(temp_stamina=3)
    before = copy.deepcopy(state)
    new, text = act(state, action="damage", amount=5)
    assert state == before
    assert (new["stamina"], new["temp_stamina"]) == (14, 0)
    assert "3 absorbed" in text and "14/16" in text


def test_falling_to_zero_makes_dying_and_healing_leaves_wounded():
    new, text = act(_state(), action="damage", amount=30)
    assert new["stamina"] == 0 and "dying 1" in text
    assert {c["id"]: c.get("value") for c in new["conditions"]} == {"dying": 1, "unconscious": None}
    new, _ = act(new, action="heal", amount=4)
    assert new["stamina"] == 4
    assert new["conditions"] == [{"id": "wounded", "value": 1}]
    new, text = act(new, action="damage", amount=10)
    assert {c["id"]: c.get("value") for c in new["conditions"]}["dying"] == 2  # dying 1 + wounded 1


def test_conditions_keep_the_higher_value_and_can_be_lowered():
    new, text = act(_state(), action="add_condition", id="frightened", value=2)
    assert text.endswith("frightened 2.")
    new, _ = act(new, action="add_condition", id="frightened", value=1)
    assert new["conditions"] == [{"id": "frightened", "value": 2}]
    new, _ = act(new, action="remove_condition", id="frightened", value=1)
    assert new["conditions"] == [{"id": "frightened", "value": 1}]
    new, _ = act(new, action="remove_condition", id="frightened")
    assert new["conditions"] == []


def test_a_rest_restores_constitution_times_level_and_clears_short_conditions():
    state = _state(
        stamina=5,
        temp_stamina=4,
        conditions=[{"id": "frightened", "value": 1}, {"id": "drained", "value": 2}],
    )
    new, text = act(state, action="rest")
    assert new["stamina"] == 5 + 1 * 2 and new["temp_stamina"] == 0
    assert new["conditions"] == [{"id": "drained", "value": 1}]
    assert "recovers 2" in text


def test_hero_points_are_spent_and_capped():
    new, _ = act(_state(), action="hero_point", delta=-1)
    assert new["hero_points"] == 0
    with pytest.raises(StateError) as caught:
        act(new, action="hero_point", delta=-1)
    assert caught.value.code == "state.below_minimum"
    new, _ = act(_state(hero_points=3), action="hero_point", delta=1)
    assert new["hero_points"] == 3


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"action": "fly"}, "state.unknown_action"),
        ({"action": "damage", "amount": -3}, "state.malformed"),
        ({"action": "add_condition", "id": "cursed", "value": 1}, "state.unknown_condition"),
        ({"action": "remove_condition", "id": "frightened"}, "state.not_present"),
    ],
)
def test_a_refused_action_raises_with_its_code(action, code):
    with pytest.raises(StateError) as caught:
        RULESET.state_action(_state(), action, BUILD, REPORT)
    assert caught.value.code == code


def test_state_sections_show_pools_and_conditions_with_their_actions():
    state = _state(stamina=7, conditions=[{"id": "frightened", "value": 1}])
    sections = {s["id"]: s for s in RULESET.state_sections(BUILD, REPORT, state)}
    stamina = sections["stamina"]["items"][0]
    assert (stamina["value"], stamina["max"], stamina["path"]) == (7, 16, "/stamina")
    assert {a["action"] for a in sections["stamina"]["actions"]} >= {"damage", "heal", "rest"}
    assert sections["conditions"]["items"][0]["label"] == "Frightened"
    for section in sections.values():  # every action the sheet offers is understood
        for offered in section["actions"]:
            if offered["action"] in ("damage", "heal", "temp_stamina"):
                act(state, action=offered["action"], amount=1)
