"""Our D&D's rolls on the sheet and their odds chart: one bar per outcome, the rolled one marked (moved from
tests/characters/sheet/test_dice.py's table of every ruleset (its answer names one outcome fewer than the chart shows))."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_dice import bars_of, check_bars
from tests.characters.sheet.test_sheet_fixtures import character_at_table


@pytest.mark.parametrize(
    "request_, faces, bars, rolled",
    [
        # The answer overlaps (success includes critical, no failure key): the chart shows each
        # outcome once (the odds_chart hook).
        (
            {"stat": 2, "td": 12, "mode": "normal"},
            [1],
            ["Blunder", "Failure", "Success", "Critical"],
            "Blunder",
        ),
        (
            {"stat": 2, "td": 12, "mode": "normal"},
            [5],
            ["Blunder", "Failure", "Success", "Critical"],
            "Failure",
        ),
    ],
)
def test_one_bar_per_outcome_and_the_rolled_one(request_, faces, bars, rolled):
    odds, chart = check_bars("ourdnd", request_, faces, bars, rolled)
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + 1 == len(chart["bars"])


def test_without_htmx_a_roll_redirects_to_the_sheet_showing_it(client, table, monkeypatch):
    character = character_at_table(table, "ourdnd")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([20]))
    client.force_login(table["player"])
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "check:str:normal"}, follow=True
    )
    log = RollLog.objects.get(character=character)
    assert response.redirect_chain[-1][0].endswith(f"?roll={log.pk}#roll-result")
    html = response.content.decode()
    rolled = [label for label, on in bars_of(html) if on]
    assert rolled == ["Critical"] and log.result["outcome"] == "critical"
