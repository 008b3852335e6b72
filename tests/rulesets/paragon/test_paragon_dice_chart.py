"""Paragon's odds chart of a roll: one bar per outcome, the rolled one marked (moved from
tests/characters/sheet/test_dice.py's table of every ruleset (its answer names one outcome fewer than the chart shows))."""

from __future__ import annotations

import pytest

from tests.characters.sheet.test_dice import check_bars


@pytest.mark.parametrize(
    "request_, faces, bars, rolled",
    [
        ({"force": 1, "skill": 1, "tn": 10}, [11, 4], ["Pass", "Fail"], "Pass"),
    ],
)
def test_one_bar_per_outcome_and_the_rolled_one(request_, faces, bars, rolled):
    odds, chart = check_bars("paragon", request_, faces, bars, rolled)
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + 1 == len(chart["bars"])
