"""Dice with the table's numbers: the roll form takes what the ruleset's odds form marks as the
table's (a TD, a target number, a difficulty); the preview chart is the rules service's odds for the
same inputs, for every registered ruleset; only the GM may roll privately. One game's table numbers
(their defaults, refusals, the live region): tests/rulesets/<slug>/test_*_roll_form.py."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _sheet(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _value(html: str, name: str) -> str:
    match = re.search(rf'id="roll-in-{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<select name="in_{name}" id="roll-in-{name}">.*?<option value="([^"]+)" selected', html, re.S
    )
    assert match, f"no input {name}"
    return match.group(1)


def _expected_percents(slug, odds) -> list[str]:
    return [f"{b['label']}: {b['percent_text']}" for b in chart_data(slug, odds)["bars"]]


def _chart_percents(html: str) -> list[str]:
    return re.findall(r"<title>([^<]+)</title>", html)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_each_roller_s_odds_are_the_rules_service_s_odds_for_the_same_inputs(client, table, slug):
    campaign = make_campaign(gm=table["gm"], ruleset=slug, players=[table["player"]])
    character = make_character(ruleset=slug, owner=table["player"], campaign=campaign, build=BUILDS.get(slug))
    client.force_login(table["player"])
    page = _sheet(client, character)
    ruleset = registry.get(slug)
    numbers = re.findall(r'name="in_([a-z_]+)" id="roll-in-', page)
    previews = re.findall(r'<select name="preview" id="roll-preview"><option value="([^"]+)"', page)
    if not numbers:
        # A roll whose numbers are all the character's (dice and a skill): nothing to set, but its odds
        # before rolling all the same (issue #38), the rules service's for the roll as it is.
        from characters.sheet.selectors import sheet_rules

        assert previews
        rollable = next(r for r in sheet_rules(character=character).rollables if r["id"] == previews[0])
        shown = client.get(
            reverse("character_roll_odds", args=[character.pk]), {"preview": previews[0]}, **HX
        )
        expected = _expected_percents(slug, ruleset.odds(rollable["request"]))
        assert expected and _chart_percents(shown.content.decode()) == expected
        return
    rollable_id = previews[0]
    from characters.sheet.selectors import PICKED, roll_picker, rollable_for, sheet_rules

    rules = sheet_rules(character=character)
    # A ruleset with a roll picker previews the roll it composes first (its default pair, say).
    picks = (roll_picker(rules) or {}).get("inputs") or {}
    assert (rollable_id == PICKED) == bool(picks)
    rollable, _ = rollable_for(rules, rollable_id, picks)
    request = dict(rollable["request"])
    spec = {f["name"]: f for f in ruleset.odds_form() or []}
    query = {"preview": rollable_id, **{f"in_{k}": v[-1] for k, v in picks.items()}}
    for name in numbers:
        field = spec[name]
        value = (
            field["choices"][-1]
            if "choices" in field
            else min(field["max"], max(field["min"], request.get(name, field.get("default", 0)) + 1))
        )
        query[f"in_{name}"] = str(value)
        request[name] = value
    preview = client.get(reverse("character_roll_odds", args=[character.pk]), query, **HX)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert html.startswith('<div class="roll-odds" id="roll-odds"')
    assert _chart_percents(html) == _expected_percents(slug, ruleset.odds(request))
    # Rolling with the same inputs logs the same odds.
    post = {"rollable": rollable_id, **{k: v for k, v in query.items() if k.startswith("in_")}}
    client.post(reverse("character_roll", args=[character.pk]), post, **HX)
    log = RollLog.objects.get(character=character)
    assert log.request == request and log.result["odds"] == ruleset.odds(request)


def test_the_gm_sees_the_private_toggle_and_a_player_does_not(client, table):
    slug = vehicles.first(vehicles.rollable, "a ruleset with a roll button")
    campaign = make_campaign(gm=table["gm"], ruleset=slug, players=[table["player"]])
    character = make_character(ruleset=slug, owner=table["player"], campaign=campaign)
    client.force_login(table["player"])
    assert 'name="private"' not in _sheet(client, character)
    client.force_login(table["gm"])
    page = _sheet(client, character)
    assert '<input type="checkbox" name="private" value="true" id="roll-private"> Roll privately' in page
    client.post(
        reverse("character_roll", args=[character.pk]),
        {"rollable": vehicles.rollable(registry.get(slug)), "private": "true"},
        **HX,
    )
    assert RollLog.objects.get(character=character).private is True
