"""Paragon's roll form: a check against the table's TN or opposed (seed: "the higher of the two rolls
wins. Opposed rolls may be rerolled in case they are tied"), the other side's force and skill set on
the form; the preview is the rules service's exact chance to win, and the roll uses the same request."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from characters.sheet.selectors import sheet_rules
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
PARAGON = registry.get("paragon")


@pytest.mark.parametrize("mine, theirs", [((2, 1), (1, 2)), ((0, 0), (5, 5)), ((3, 2), (3, 2))])
def test_opposed_odds_are_exact_win_chances_with_ties_rerolled(mine, theirs):
    a = PARAGON.odds(
        {
            "force": mine[0],
            "skill": mine[1],
            "against": "opposed_roll",
            "opponent_force": theirs[0],
            "opponent_skill": theirs[1],
        }
    )["pass"]
    b = PARAGON.odds(
        {
            "force": theirs[0],
            "skill": theirs[1],
            "against": "opposed_roll",
            "opponent_force": mine[0],
            "opponent_skill": mine[1],
        }
    )["pass"]
    assert a + b == pytest.approx(1.0, abs=1e-9)  # one side wins: a tie is rolled again
    if mine == theirs:
        assert a == pytest.approx(0.5, abs=1e-12)
    # The TN check is unchanged by the extension (the contract's request answers as before).
    assert PARAGON.odds({"force": 2, "skill": 1, "tn": 12}) == PARAGON.odds(
        {"force": 2, "skill": 1, "tn": 12, "against": "target_number"}
    )


def test_a_tied_opposed_roll_is_rolled_again():
    # Both sides d12!+2d6: 5 | 3,4 = 12 against 6 | 2,4 = 12 (a tie), then 9 | 1,1 = 11 against 2 | 1,2 = 5.
    result = PARAGON.roll(
        {"force": 2, "skill": 0, "against": "opposed_roll"}, FixedRoller([5, 3, 4, 6, 2, 4, 9, 1, 1, 2, 1, 2])
    )
    assert result["outcome"] == "pass" and result["total"] == 11
    assert result["text"].endswith("vs the opponent's d12!+2d6: 2 | 1,2 = 5 (after 1 tie rerolled): wins")


def test_the_sheet_rolls_opposed_with_the_opponent_s_numbers(client, table, monkeypatch):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert '<label for="roll-in-against">Against</label>' in page
    assert '<option value="opposed_roll">Opposed roll</option>' in page
    assert "<summary>The opponent, in an opposed roll</summary>" in page
    rollable = sheet_rules(character=character).rollables[0]
    form = {
        "preview": rollable["id"],
        "in_tn": "12",
        "in_against": "opposed_roll",
        "in_opponent_force": "3",
        "in_opponent_skill": "1",
    }
    request = {**rollable["request"], "against": "opposed_roll", "opponent_force": 3, "opponent_skill": 1}
    preview = client.get(reverse("character_roll_odds", args=[character.pk]), form, **HX).content.decode()
    bars = chart_data("paragon", PARAGON.odds(request))["bars"]
    assert re.findall(r"<title>([^<]+)</title>", preview) == [
        f"{b['label']}: {b['percent_text']}" for b in bars
    ]
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([12, 1] + [1] * 40))
    client.post(reverse("character_roll", args=[character.pk]), {**form, "rollable": rollable["id"]}, **HX)
    log = RollLog.objects.get(character=character)
    assert log.request == request and log.result["odds"] == PARAGON.odds(request)
    assert "vs the opponent's d12!+3d6+2" in log.result["text"]
    # A plain TN check's request stays as the contract writes it.
    client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": rollable["id"], "in_tn": "14"}, **HX
    )
    assert RollLog.objects.latest("id").request == {**rollable["request"], "tn": 14}


def test_a_crafted_against_is_refused(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    rollable = sheet_rules(character=character).rollables[0]["id"]
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": rollable, "in_against": "both"}, **HX
    )
    assert response.status_code == 400
    assert "Against is one of target_number, opposed_roll." not in html_lib.unescape(
        response.content.decode()
    )
    assert "Against is one of Target number, Opposed roll." in html_lib.unescape(response.content.decode())
    assert RollLog.objects.count() == 0
