"""Ascendant's odds chart of a roll: one bar per outcome, the rolled one marked (moved from
tests/characters/sheet/test_dice.py's table of every ruleset)."""

from __future__ import annotations

import pytest

from tests.characters.sheet.test_dice import check_bars


@pytest.mark.parametrize(
    "request_, faces, bars, rolled",
    [
        (
            {"modifier": 2, "threshold": 15},
            [8],
            ["Critical success", "Success", "Failure", "Critical failure"],
            "Failure",
        ),
    ],
)
def test_one_bar_per_outcome_and_the_rolled_one(request_, faces, bars, rolled):
    odds, chart = check_bars("ascendant", request_, faces, bars, rolled)
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + 0 == len(chart["bars"])
