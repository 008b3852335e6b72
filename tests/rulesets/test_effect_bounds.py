"""The engine's effects keep a shifted number within the ruleset's bounds (``effects.shifted``,
``Ruleset.effect_keys_max``), on the tests' plugin ruleset."""

from __future__ import annotations

from rulesets.engine import effects as fx
from tests.plugin_ruleset import CoinRuleset


def test_a_shift_stays_within_the_bounds_and_a_bound_never_moves_a_value_the_wrong_way():
    assert fx.shifted(3, -5, 1) == 1  # kept at the floor
    assert fx.shifted(0, -1, 1) == 0  # already below the floor: a penalty does not raise it
    assert fx.shifted(0, 2, 1) == 2
    assert fx.shifted(9, 3, 2, 10) == 10  # kept at the ceiling
    assert fx.shifted(12, 1, 2, 10) == 12  # already above it: a bonus does not lower it
    assert fx.shifted(12, -1, 2, 10) == 11
    assert fx.shifted(5, -10, None) == -5  # no floor


class Capped(CoinRuleset):
    effect_keys_declared = {"coins": 1}
    effect_keys_max = {"coins": 5}


def test_apply_changes_keeps_a_key_at_the_rulesets_maximum():
    ruleset = Capped()
    lucky = [{"target": "all", "coins": 3}]
    assert fx.apply_changes(ruleset, {"coins": 4}, lucky, "flip") == {"coins": 5}
    assert fx.apply_changes(ruleset, {"coins": 1}, lucky, "flip") == {"coins": 4}
    assert fx.apply_changes(ruleset, {"coins": 2}, [{"target": "all", "coins": -3}], None) == {"coins": 1}
