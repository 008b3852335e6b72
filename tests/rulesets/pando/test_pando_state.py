"""Pando's play state: harm on body parts, resistance harm, stamina, exhaustion and their actions."""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import StateError, registry, validate

PANDO = registry.get("pando")

IRA = {
    "ruleset": "pando",
    "name": "Ira",
    "budget": {"cp": 40},
    "attributes": {
        "strength": 1,
        "endurance": 2,
        "acrobatics": 1,
        "coordination": 2,
        "rationality": 3,
        "perspective": 1,
        "presence": 1,
    },
    "resistances": {"awareness": "perspective", "insight": "rationality", "willpower": "presence"},
    "skills": ["healing", "medicine"],
    "equipment": [
        {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
        {"item": "left_leather_bracer", "state": "worn"},
        {"item": "winter_coat", "state": "worn"},
        {"item": "bandage", "state": "carried"},
    ],
}
REPORT = validate(IRA)
PARTS = ["head", "torso", "left_arm", "right_arm", "legs"]


def fresh(**changes):
    state = PANDO.initial_state(IRA, REPORT)
    state.update(copy.deepcopy(changes))
    return state


def act(state, **action):
    return PANDO.state_action(state, action, IRA, REPORT)


def test_the_sample_build_is_valid():
    assert REPORT.valid, REPORT.errors
    assert REPORT.derived["max_stamina"] == 12


def test_a_fresh_state_has_full_stamina_and_no_harm():
    assert PANDO.initial_state(IRA, REPORT) == {
        "stamina": 12,
        "harm": {p: 0 for p in PARTS},
        "resistance_harm": {"awareness": 0, "insight": 0, "willpower": 0},
        "exhaustion": [],
        "notes": "",
    }


def test_a_fresh_state_has_no_problems():
    assert PANDO.check_state(fresh(), IRA, REPORT) == []


@pytest.mark.parametrize(
    ("state", "code", "path"),
    [
        ({"harm": {"tail": 1}}, "state.unknown_body_part", "/harm/tail"),
        ({"harm": {"head": 6}}, "state.harm_above_maximum", "/harm/head"),
        ({"harm": {"head": -1}}, "state.malformed", "/harm/head"),
        ({"stamina": 13}, "state.stamina_above_maximum", "/stamina"),
        ({"stamina": "full"}, "state.malformed", "/stamina"),
        ({"resistance_harm": {"luck": 1}}, "state.unknown_resistance", "/resistance_harm/luck"),
        ({"resistance_harm": {"insight": -1}}, "state.malformed", "/resistance_harm/insight"),
        ({"exhaustion": [{"type": "bleeding"}]}, "state.malformed", "/exhaustion/0"),
        ({"exhaustion": "lots"}, "state.malformed", "/exhaustion"),
    ],
)
def test_check_state_reports_each_problem_at_its_path(state, code, path):
    assert [(i.code, i.path) for i in PANDO.check_state(state, IRA, REPORT)] == [(code, path)]


def test_check_state_of_a_non_object():
    assert [(i.code, i.path) for i in PANDO.check_state([], IRA, REPORT)] == [("state.malformed", "")]


@pytest.mark.parametrize(
    ("harm", "status", "usable"),
    [
        (0, "healthy", True),
        (1, "wounded", True),
        (2, "wounded", True),
        (3, "lame", False),
        (4, "lame", False),
        (5, "maimed", False),
    ],
)
def test_harm_sets_the_status_of_a_body_part(harm, status, usable):
    effects = PANDO.state_effects(IRA, REPORT, fresh(harm={"right_arm": harm}))
    assert effects["body"]["right_arm"] == {"harm": harm, "status": status, "usable": usable}
    assert effects["speed_cost"] == ({"right_arm": 1} if status == "wounded" else {})
    assert effects["dead"] is False


@pytest.mark.parametrize(("part", "dead"), [("head", True), ("torso", True), ("legs", False)])
def test_a_maimed_head_or_torso_is_death(part, dead):
    effects = PANDO.state_effects(IRA, REPORT, fresh(harm={part: 5}))
    assert effects["dead"] is dead


def test_resistance_harm_lowers_resistances_below_zero_too():
    effects = PANDO.state_effects(IRA, REPORT, fresh(resistance_harm={"insight": 1, "willpower": 3}))
    assert effects["resistances"] == {"awareness": 1, "insight": 2, "willpower": -2}


def test_exhaustion_is_reduced_by_protection_of_its_kind():
    state = fresh(
        exhaustion=[
            {"type": "cold", "amount": 3},
            {"type": "bleeding", "amount": 2},
            {"type": "cold", "amount": 1},
        ]
    )
    effects = PANDO.state_effects(IRA, REPORT, state)
    assert effects["exhaustion"]["by_type"]["cold"] == {"raw": 4, "protection": 2, "total": 2}
    assert effects["exhaustion"]["total"] == 4  # cold 4 − coat 2, bleeding 2
    assert effects["stamina_loss_per_round"] == 2  # 4 − endurance 2


def test_harm_is_added_and_never_goes_above_maiming():
    state, text = act(fresh(harm={"legs": 4}), action="harm", body_part="legs", amount=3)
    assert state["harm"]["legs"] == 5
    assert "maimed" in text


def test_armour_stops_harm_when_asked():
    state, text = act(fresh(), action="harm", body_part="left_arm", amount=3, protected=True)
    assert state["harm"]["left_arm"] == 1  # shield 1 + bracer 1
    assert "2 stopped by armour" in text
    state, _ = act(fresh(), action="harm", body_part="left_arm", amount=3, protected=True, bypass=1)
    assert state["harm"]["left_arm"] == 2


def test_state_actions_do_not_change_the_state_they_are_given():
    before = fresh()
    snapshot = copy.deepcopy(before)
    act(before, action="harm", body_part="head", amount=2)
    assert before == snapshot


def test_a_maimed_part_never_heals():
    with pytest.raises(StateError) as refused:
        act(fresh(harm={"legs": 5}), action="heal", body_part="legs", amount=1)
    assert refused.value.code == "state.cannot_heal"


def test_heal_removes_harm():
    state, _ = act(fresh(harm={"legs": 3}), action="heal", body_part="legs", amount=2)
    assert state["harm"]["legs"] == 1


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"action": "harm", "body_part": "tail", "amount": 1}, "state.unknown_body_part"),
        ({"action": "harm", "body_part": "head", "amount": 0}, "state.invalid_amount"),
        ({"action": "harm", "body_part": "head", "amount": "2"}, "state.invalid_amount"),
        ({"action": "heal", "body_part": "head", "amount": 1}, "state.nothing_to_heal"),
        ({"action": "spend_stamina", "amount": 13}, "state.not_enough_stamina"),
        ({"action": "regain_stamina", "amount": 1}, "state.stamina_full"),
        ({"action": "rest", "minutes": 4}, "state.rest_too_short"),
        ({"action": "bandage"}, "state.nothing_to_remove"),
        ({"action": "remove_exhaustion", "index": 0}, "state.nothing_to_remove"),
        ({"action": "resistance_harm", "resistance": "luck", "amount": 1}, "state.unknown_resistance"),
        ({"action": "resistance_heal", "resistance": "insight", "amount": 1}, "state.nothing_to_heal"),
        ({"action": "add_exhaustion", "type": "", "amount": 1}, "state.invalid"),
        ({"action": "fly"}, "state.unknown_action"),
        ({"nothing": True}, "state.unknown_action"),
    ],
)
def test_refused_actions_raise_state_error_with_a_code(action, code):
    with pytest.raises(StateError) as refused:
        PANDO.state_action(fresh(), action, IRA, REPORT)
    assert refused.value.code == code
    assert refused.value.message


def test_stamina_is_spent_and_a_five_minute_rest_restores_it():
    state, _ = act(fresh(), action="spend_stamina", amount=5)
    assert state["stamina"] == 7
    state, _ = act(state, action="rest", minutes=5)
    assert state["stamina"] == 12


def test_catch_breath_regains_one_plus_endurance_up_to_max():
    state, text = act(fresh(stamina=5), action="catch_breath")
    assert state["stamina"] == 8  # 1 + endurance 2
    assert "house default" in text
    state, _ = act(fresh(stamina=11), action="catch_breath")
    assert state["stamina"] == 12


def test_a_day_of_rest_heals_wounded_parts_and_not_lame_ones():
    state, _ = act(fresh(harm={"legs": 2, "head": 4}, stamina=3), action="rest_day")
    assert state["harm"]["legs"] == 1 and state["harm"]["head"] == 4 and state["stamina"] == 12
    state, text = act(fresh(harm={"legs": 2}), action="rest_day", care=True)
    assert state["harm"]["legs"] == 0 and "active care" in text


def test_a_week_of_rest_heals_lame_parts_by_one_or_two_with_care():
    state, _ = act(fresh(harm={"head": 4, "legs": 5}), action="rest_week")
    assert state["harm"]["head"] == 3 and state["harm"]["legs"] == 5
    state, _ = act(fresh(harm={"head": 4}), action="rest_week", care=True)
    assert state["harm"]["head"] == 2


def test_the_dead_do_not_rest():
    with pytest.raises(StateError) as refused:
        act(fresh(harm={"torso": 5}), action="rest_day")
    assert refused.value.code == "state.dead"


def test_a_bandage_removes_bleeding_only():
    state = fresh(
        exhaustion=[
            {"type": "bleeding", "amount": 2},
            {"type": "cold", "amount": 1},
            {"type": "bleeding", "amount": 1},
        ]
    )
    state, text = act(state, action="bandage")
    assert state["exhaustion"] == [{"type": "cold", "amount": 1}]
    assert "bleeding 2, bleeding 1" in text


def test_exhaustion_sources_are_added_and_removed():
    state, _ = act(fresh(), action="add_exhaustion", type="Poison", amount=2)
    assert state["exhaustion"] == [{"type": "poison", "amount": 2}]
    state, _ = act(state, action="remove_exhaustion", type="poison")
    assert state["exhaustion"] == []


def test_resistance_harm_comes_and_goes():
    state, _ = act(fresh(), action="resistance_harm", resistance="awareness", amount=2)
    state, _ = act(state, action="resistance_heal", resistance="awareness", amount=1)
    assert state["resistance_harm"]["awareness"] == 1


def test_state_sections_show_pools_body_exhaustion_and_actions():
    sections = PANDO.state_sections(
        IRA, REPORT, fresh(harm={"left_arm": 2}, exhaustion=[{"type": "cold", "amount": 1}])
    )
    assert [(s["id"], s["kind"]) for s in sections] == [
        ("stamina", "pools"),
        ("resistances", "pools"),
        ("body", "body"),
        ("exhaustion", "list"),
        ("actions", "list"),
        ("leisure", "list"),  # W4: each skill's EP at leisure and the form that takes one (leisure.py)
    ]
    stamina = sections[0]["items"][0]
    assert (stamina["path"], stamina["value"], stamina["max"]) == ("/stamina", 12, 12)
    body = {item["id"]: item for item in sections[2]["items"]}
    assert body["left_arm"]["status"] == "wounded" and body["left_arm"]["max"] == 5
    assert body["left_arm"]["equipment"] == ["Round Shield", "Leather Bracer (left arm)"]
    assert body["torso"]["protection"] == {"exhaustion:cold": 2}
    assert {a["action"] for s in sections for a in s.get("actions", [])} >= {
        "harm",
        "heal",
        "rest",
        "rest_day",
        "rest_week",
        "bandage",
        "catch_breath",
        "spend_stamina",
    }
    assert {i["id"] for i in sections[4]["items"]} == {
        "move",
        "strike",
        "block",
        "dodge",
        "tough_it_out",
        "catch_breath",
        "aid",
        "use_item",
    }
