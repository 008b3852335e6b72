"""Pando's rolls on the sheet and their odds chart: one bar per outcome, the rolled one marked (moved from
tests/characters/sheet/test_dice.py's table of every ruleset)."""

from __future__ import annotations

import re

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
        ({"dice": 2, "skill": 3}, [3, 5], ["0 EP", "1 EP", "2 EP"], "1 EP"),
    ],
)
def test_one_bar_per_outcome_and_the_rolled_one(request_, faces, bars, rolled):
    odds, chart = check_bars("pando", request_, faces, bars, rolled)
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + 0 == len(chart["bars"])


def test_a_pando_roll_is_logged_with_its_result_and_odds(table):
    character = character_at_table(table, "pando")
    log = play.character_roll(
        character_id=character.pk,
        user=table["player"],
        rollable_id="skill:capability",
        roller=FixedRoller([1, 2, 6]),
    )  # Coordination 3d6 at level 1: one die ≤ 1
    assert log.user == table["player"] and log.label.startswith("Capability")
    assert log.request == {"dice": 3, "skill": 1}
    assert log.result["total"] == 1 and log.result["faces"] == [1, 2, 6]
    assert log.result["odds"]["ep"]["0"] == pytest.approx((5 / 6) ** 3)
    assert RollLog.objects.filter(character=character).count() == 1


def test_the_roll_view_shows_the_chart_with_a_bar_per_outcome_and_the_rolled_one_marked(
    client, table, monkeypatch
):
    character = character_at_table(table, "pando")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([1, 1, 6]))
    client.force_login(table["player"])
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "skill:capability"}, **HX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert bars_of(html) == [("0 EP", False), ("1 EP", False), ("2 EP", True), ("3 EP", False)]
    assert re.search(r'role="img" aria-label="Odds: 0 EP 57.9%; 1 EP 34.7%; 2 EP 6.9%; 3 EP 0.5%."', html)
    assert (
        '<text class="roll-bar-value" x="284" y="79">6.9%</text>' in html
    )  # third bar: 6 + 2 × (22 + 6), baseline 17 down
    # The roll log comes along out of band, naming who rolled what.
    log = re.search(r'<section class="card sheet-block" id="roll-log".*?</section>', html, re.S).group(0)
    assert 'hx-swap-oob="true"' in log and "<td>player</td>" in log and "Capability" in log
    assert RollLog.objects.get(character=character).result["total"] == 2
