"""Dice on the sheet: server-side rolls with an injected roller, the roll log, and the odds chart."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from characters.templatetags.sheet_tags import chart_data
from config.api import RuleRefused
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def bars_of(html: str) -> list[tuple[str, bool]]:
    """The bars of the chart of a roll (not the Dice block's preview chart of the odds before a roll)."""
    html = re.sub(r'<figure class="roll-chart" id="roll-odds-chart".*?</figure>', "", html, flags=re.S)
    svg = re.search(r'<svg class="roll-chart-svg".*?</svg>', html, re.S)
    assert svg, "no odds chart"
    return [
        (label, rolled == " is-rolled")
        for rolled, label in re.findall(
            r'<g class="roll-bar( is-rolled)?" data-label="([^"]+)"', svg.group(0)
        )
    ]


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
    assert re.search(
        r'role="img" aria-label="Odds: 0 EP 57.9%; 1 EP 34.7%; 2 EP 6.9%; 3 EP 0.5%. Rolled: 2 EP."', html
    )
    assert (
        '<text class="roll-bar-value" x="284" y="79">6.9%</text>' in html
    )  # third bar: 6 + 2 × (22 + 6), baseline 17 down
    # The roll log comes along out of band, naming who rolled what.
    log = re.search(r'<section class="card sheet-block" id="roll-log".*?</section>', html, re.S).group(0)
    assert 'hx-swap-oob="true"' in log and "<td>player</td>" in log and "Capability" in log
    assert RollLog.objects.get(character=character).result["total"] == 2


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


def test_an_unknown_rollable_is_refused_and_not_logged(client, table):
    character = character_at_table(table, "pando")
    with pytest.raises(RuleRefused):
        play.character_roll(character_id=character.pk, user=table["player"], rollable_id="skill:flying")
    client.force_login(table["player"])
    response = client.post(reverse("character_roll", args=[character.pk]), {"rollable": "nope"}, **HX)
    assert "This character has no such roll." in response.content.decode()
    assert not RollLog.objects.exists()


@pytest.mark.parametrize(
    "slug, request_, faces, bars, rolled",
    [
        ("pando", {"dice": 2, "skill": 3}, [3, 5], ["0 EP", "1 EP", "2 EP"], "1 EP"),
        (
            "maelstrom",
            {"pool": 3, "difficulty": 6, "threshold": 0},
            [6, 8, 2],
            ["Botch", "Failure", "1 success", "2 successes", "3 successes"],
            "2 successes",
        ),
        ("paragon", {"force": 1, "skill": 1, "tn": 10}, [11, 4], ["Pass", "Fail"], "Pass"),
        (
            "ascendant",
            {"modifier": 2, "threshold": 15},
            [8],
            ["Critical success", "Success", "Failure", "Critical failure"],
            "Failure",
        ),
        # Our D&D's answer overlaps (success includes critical, no failure key): its chart shows
        # each outcome once (its odds_chart hook).
        (
            "ourdnd",
            {"stat": 2, "td": 12, "mode": "normal"},
            [1],
            ["Blunder", "Failure", "Success", "Critical"],
            "Blunder",
        ),
        (
            "ourdnd",
            {"stat": 2, "td": 12, "mode": "normal"},
            [5],
            ["Blunder", "Failure", "Success", "Critical"],
            "Failure",
        ),
    ],
)
def test_every_ruleset_gets_one_bar_per_outcome_and_the_rolled_one(slug, request_, faces, bars, rolled):
    ruleset = registry.get(slug)
    result = ruleset.roll(request_, FixedRoller(faces))
    chart = chart_data(slug, ruleset.odds(request_), result)
    odds = ruleset.odds(request_)
    assert [b["label"] for b in chart["bars"]] == bars
    assert sum(len(v) if isinstance(v, dict) else 1 for v in odds.values()) + (
        slug in ("paragon", "ourdnd")
    ) == len(chart["bars"])
    assert sum(b["p"] for b in chart["bars"]) == pytest.approx(1.0)
    assert [b["label"] for b in chart["bars"] if b["rolled"]] == [rolled]
    assert chart["rolled_label"] == rolled and f"Rolled: {rolled}." in chart["aria_label"]
