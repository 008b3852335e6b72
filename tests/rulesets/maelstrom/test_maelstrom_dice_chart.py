"""Maelstrom's rolls on the sheet and their odds chart: one bar per outcome, the rolled one marked (moved from
tests/characters/sheet/test_dice.py's table of every ruleset)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_dice import HX, bars_of, check_bars
from tests.characters.sheet.test_sheet_fixtures import character_at_table


@pytest.mark.parametrize(
    "request_, faces, bars, rolled",
    [
        (
            {"pool": 3, "difficulty": 6, "threshold": 0},
            [6, 8, 2],
            ["Botch", "Failure", "1 success", "2 successes", "3 successes"],
            "2 successes",
        ),
    ],
)
def test_one_bar_per_outcome_and_the_rolled_one(request_, faces, bars, rolled):
    odds, chart = check_bars("maelstrom", request_, faces, bars, rolled)
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + 0 == len(chart["bars"])


def test_a_maelstrom_roll_highlights_failure_among_botch_failure_and_successes(client, table, monkeypatch):
    character = character_at_table(table, "maelstrom")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([1, 7]))  # Strength 2 dice: a success cancelled
    client.force_login(table["player"])
    response = client.post(reverse("character_roll", args=[character.pk]), {"rollable": "strength"}, **HX)
    html = response.content.decode()
    assert bars_of(html) == [
        ("Botch", False),
        ("Failure", True),
        ("1 success", False),
        ("2 successes", False),
    ]
    log = RollLog.objects.get(character=character)
    assert log.result["outcome"] == "failure" and log.request == {"pool": 2, "difficulty": 6, "threshold": 0}
