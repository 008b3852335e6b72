"""Our D&D's roll form with the table's numbers (moved from tests/characters/sheet/test_roll_form.py): the
TD defaults to the campaign's house default, then the running encounter's; a roll uses the numbers
the player set and logs their exact odds, its answer in the live region below the button; a number
out of the rules is refused; the sheet stays within its queries with a long roll log."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet import services as play
from combat.models import Encounter
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_roll_form import HX, _sheet, _value
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db


def _ourdnd(table, **settings):
    campaign = make_campaign(
        gm=table["gm"],
        ruleset="ourdnd",
        players=[table["player"]],
        settings={"house_rules": settings} if settings else None,
    )
    return make_character(ruleset="ourdnd", owner=table["player"], campaign=campaign)


def test_the_td_defaults_to_the_campaign_s_house_default_then_the_running_encounter_s(client, table):
    character = _ourdnd(table, default_td=14)
    client.force_login(table["player"])
    page = _sheet(client, character)
    assert _value(page, "td") == "14" and _value(page, "mode") == "normal"
    assert '<label for="roll-in-td">Target Difficulty</label>' in page
    Encounter.objects.create(
        campaign=character.campaign,
        name="Bridge",
        status=Encounter.Status.ACTIVE,
        state={"td": 16, "td_start": 16},
    )
    assert _value(_sheet(client, character), "td") == "16"
    # Our D&D shows one check per stat, easy or hard being the form's choice (not 18 buttons).
    assert len(re.findall(r'data-rollable="check:', page)) == 6
    assert "Strength check (hard)" not in page


def test_a_roll_uses_the_numbers_the_player_set_and_logs_their_exact_odds(client, table, monkeypatch):
    character = _ourdnd(table)
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([9, 15]))
    client.force_login(table["player"])
    response = client.post(
        reverse("character_roll", args=[character.pk]),
        {"rollable": "check:str:normal", "in_td": "15", "in_mode": "hard", "preview": "x"},
        **HX,
    )
    assert response.status_code == 200
    log = RollLog.objects.get(character=character)
    assert log.request == {"stat": 2, "td": 15, "mode": "hard"}
    assert log.result["odds"] == registry.get("ourdnd").odds({"stat": 2, "td": 15, "mode": "hard"})
    assert log.result["outcome"] == "failure"  # hard: the lower of 9 and 15, 9 + 2 = 11 < 15
    html = response.content.decode()
    # The answer is the content of the roll's own live region: the outcome first, then the chart.
    assert html.startswith(
        '<p class="roll-here-outcome" data-status data-testid="roll-here"><strong>Failure</strong>'
    )
    assert "vs TD 15: failure" in html
    assert re.search(r'<g class="roll-bar is-rolled" data-label="Failure"', html)
    page = _sheet(client, character)
    assert re.search(
        r'<button type="submit" name="rollable" value="check:str:normal" id="roll-btn-check-str-normal"'
        r'[^>]*hx-target="#roll-here-check-str-normal" hx-swap="innerHTML show:none focus-scroll:false"',
        page,
    )
    li = re.search(r'<li id="rollable-check-str-normal">.*?</li>', page, re.S).group(0)
    assert '<div class="roll-here" id="roll-here-check-str-normal"></div>' in li


@pytest.mark.parametrize(
    "td, message",
    [("99", "Target Difficulty goes from 1 to 30."), ("twelve", "Target Difficulty must be a whole number.")],
)
def test_a_number_out_of_the_rules_is_refused_and_nothing_is_rolled(client, table, td, message):
    character = _ourdnd(table)
    client.force_login(table["player"])
    response = client.post(
        reverse("character_roll", args=[character.pk]), {"rollable": "check:str:normal", "in_td": td}, **HX
    )
    assert message in html_lib.unescape(response.content.decode())
    assert RollLog.objects.count() == 0


def test_the_sheet_stays_within_12_queries_whatever_the_roll_log_length(
    client, table, django_assert_max_num_queries
):
    """With the table's numbers (a running encounter), the preview chart and a long roll log, for
    the player and for the GM (who also sees private rolls)."""
    character = _ourdnd(table, default_td=13)
    Encounter.objects.create(
        campaign=character.campaign, name="Bridge", status=Encounter.Status.ACTIVE, state={"td": 15}
    )
    for i in range(80):
        play.character_roll(
            character_id=character.pk,
            user=table["gm"] if i % 2 else table["player"],
            rollable_id="check:str:normal",
            roller=FixedRoller([10]),
            private=bool(i % 4 == 1),
        )
    for user in (table["player"], table["gm"]):
        client.force_login(user)
        with django_assert_max_num_queries(12):
            page = _sheet(client, character)
        assert len(re.findall(r'<tr id="roll-\d+"', page)) == 20 and _value(page, "td") == "15"
        with django_assert_max_num_queries(8):
            client.get(reverse("campaign_detail", args=[character.campaign_id]))
