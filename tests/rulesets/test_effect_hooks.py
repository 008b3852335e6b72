"""The engine's generic effect hooks (rulesets/engine/effects.py, Ruleset "effects"), on the tests'
plugin ruleset (Coin): the default ``combine_modes`` (the last mode set wins), the default
``action_with_effects`` (the action as sent), and a native effect ``held_by`` a play-state value
ending when an action clears that value."""

from __future__ import annotations

import copy

from rulesets.engine import effects as fx
from tests.plugin_ruleset import RULESET as COIN


def _penny():
    build = copy.deepcopy(COIN.contract_data()["build"])
    report = COIN.validate(build)
    assert report.valid
    return build, report


def test_by_default_the_last_mode_an_effect_sets_is_the_request_s():
    assert COIN.combine_modes({"coins": 2, "mode": "a"}, ["b", "c"]) == "c"
    assert COIN.combine_modes({"coins": 2}, []) is None


def test_by_default_a_play_state_action_takes_no_effects():
    build, report = _penny()
    action = {"action": "lose_life", "note": "kept"}
    state = {
        "lives": 3,
        "effects": [{"id": "e1", "name": "Cursed", "changes": [{"target": "all", "coins": -1}]}],
    }
    assert COIN.action_with_effects(action, state, build, report) is action


def test_released_names_the_native_entries_whose_value_is_gone():
    state = {
        "lives": 0,
        "awake": True,
        "effects": [
            {"id": "a", "name": "Alive", "native": True, "held_by": "/lives"},  # 0: gone
            {"id": "b", "name": "Awake", "native": True, "held_by": "/awake"},  # still true
            {"id": "c", "name": "Lost", "native": True, "held_by": "/nowhere"},  # missing: gone
            {"id": "d", "name": "Custom", "native": False, "held_by": "/nowhere"},  # not native: kept
            {"id": "e", "name": "Plain", "native": True},  # held by nothing: kept
        ],
    }
    assert [e["id"] for e in fx.released(state)] == ["a", "c"]


def test_an_action_that_clears_the_value_ends_the_effect_it_holds():
    build, report = _penny()
    held = {"id": "h1", "name": "Last legs", "native": True, "held_by": "/lives", "changes": []}
    state = {"lives": 1, "effects": [held]}
    new, text = COIN.state_action({"lives": 2, "effects": [held]}, {"action": "lose_life"}, build, report)
    assert new == {"lives": 1, "effects": [held]} and text == "Lost a life (1 left)."
    new, text = COIN.state_action(state, {"action": "lose_life"}, build, report)
    assert new == {"lives": 0}
    assert text == "Lost a life (0 left). Last legs ends."
