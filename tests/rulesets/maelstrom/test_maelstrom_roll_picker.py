"""Maelstrom's roll picker: the sheet composes the dice pool from two traits (attribute + ability,
with dots), the ability's specialties (required advanced specialties raise the threshold), the
table's difficulty and threshold and a willpower dot against the wound penalty, instead of a button
per attribute × ability pair. The preview is the rules service's odds of exactly the request the
roll uses; bad picks are field errors (400) that change nothing; the last pair is remembered."""

from __future__ import annotations

import copy
import html as html_lib
import re

import pytest
from django.urls import reverse

from characters.models import Character, CharacterVersion, RollLog
from characters.sheet import services as play
from characters.sheet.selectors import PICKED
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
MAELSTROM = registry.get("maelstrom")


def _build(**changes):
    build = copy.deepcopy(BUILDS["maelstrom"])
    build["budget"] = {"xp": 60}
    build["specialties"] = build["specialties"] + [
        {"ability": "streetwise", "name": "Black Markets"},
        {"ability": "streetwise", "name": "Docks"},
    ]
    build.update(changes)
    return build


@pytest.fixture
def kestrel(table):
    campaign = make_campaign(gm=table["gm"], ruleset="maelstrom", players=[table["player"]])
    character = make_character(ruleset="maelstrom", owner=table["player"], campaign=campaign, build=_build())
    assert character.status == Character.Status.ACTIVE, character.report
    return character


def _sheet(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _percents(html: str) -> list[str]:
    return re.findall(r"<title>([^<]+)</title>", html)


def _expected(odds) -> list[str]:
    return [f"{b['label']}: {b['percent_text']}" for b in chart_data("maelstrom", odds)["bars"]]


def _form(**picks) -> dict:
    """The roll form as the browser sends it: the picks, the table's numbers (defaults), the roll."""
    data = {"in_difficulty": "6", "in_threshold": "0", "preview": PICKED}
    for key, value in picks.items():
        data[f"in_{key}"] = value
    return data


def test_the_sheet_offers_two_traits_with_dots_instead_of_a_button_per_pair(client, table, kestrel):
    client.force_login(table["player"])
    page = _sheet(client, kestrel)
    # No button per attribute × ability pair: the picker, its Roll and the willpower roll.
    assert re.findall(r'data-rollable="([^"]+)"', page) == [PICKED, "willpower"]
    radios = re.findall(r'<input type="radio" name="in_attribute" value="([a-z]+)"', page)
    assert radios == ["strength", "precision", "reflexes", "perception", "intelligence", "wits"]
    assert (
        '<input type="radio" name="in_attribute" value="intelligence" id="roll-pick-attr-intelligence" checked>'
        ' <span class="roll-chip-text">Intelligence <span class="dots" role="img" aria-label="3 of 5">●●●'
        in page
    )
    # The abilities by the rulebook's groups, with their dots; a knowledge without dots cannot be picked.
    assert '<option value="investigation" selected>Investigation ●●●●○ 4</option>' in page
    assert '<option value="piloting">Piloting ○○○○○ 0 — attribute alone, difficulty +1</option>' in page
    assert '<option value="engineering" disabled>Engineering ○○○○○ 0 — cannot be attempted</option>' in page
    assert re.findall(r'<optgroup label="([^"]+)"', page) == [
        "Talents",
        "Skills",
        "Knowledges",
        "Or a second attribute",
    ]
    # The chosen ability's specialties, and the advanced ones a task may require.
    assert (
        'name="in_specialties" value="Forensics"' in page
        and 'name="in_specialties" value="Hacking"' not in page
    )
    assert 'name="in_required" value="Missing Persons"' in page
    # The first preview is the pool picked (best ability, its best common attribute: 3 + 4 dice).
    odds = MAELSTROM.odds({"pool": 7, "difficulty": 6, "threshold": 0})
    preview = re.search(r'<div class="roll-odds" id="roll-odds".*?</div>', page, re.S).group(0)
    assert _percents(preview) == _expected(odds)
    assert "Odds of Intelligence + Investigation with these numbers" in preview


PICKS = [
    # (picks, the request the rules service gets)
    (
        {"attribute": "precision", "ability": "firearms", "difficulty": "7", "threshold": "1"},
        {"pool": 4, "difficulty": 7, "threshold": 1},
    ),
    (  # a required advanced specialty used, one not: threshold + 1 (the rules service adds it)
        {
            "attribute": "intelligence",
            "ability": "investigation",
            "specialties_for": "investigation",
            "specialties": ["Forensics"],
            "required": ["Forensics", "Missing Persons"],
        },
        {
            "pool": 7,
            "difficulty": 6,
            "threshold": 0,
            "ability_dots": 4,
            "specialties": ["Forensics"],
            "required": ["Forensics", "Missing Persons"],
        },
    ),
    (  # a skill with no dots: the attribute alone at difficulty + 1
        {"attribute": "reflexes", "ability": "piloting"},
        {"pool": 2, "difficulty": 6, "threshold": 0, "unskilled": True},
    ),
    (  # two attributes
        {"attribute": "strength", "ability": "wits"},
        {"pool": 5, "difficulty": 6, "threshold": 0},
    ),
    (  # the attribute alone
        {"attribute": "wits", "ability": ""},
        {"pool": 3, "difficulty": 6, "threshold": 0},
    ),
]


@pytest.mark.parametrize("picks, request_", PICKS)
def test_the_picker_s_odds_are_the_rules_service_s_odds_and_the_roll_uses_the_same_request(
    client, table, kestrel, picks, request_
):
    client.force_login(table["player"])
    form = _form(**picks)
    preview = client.get(reverse("character_roll_odds", args=[kestrel.pk]), form, **HX)
    assert preview.status_code == 200
    odds = MAELSTROM.odds(request_)
    assert _percents(preview.content.decode()) == _expected(odds)
    response = client.post(reverse("character_roll", args=[kestrel.pk]), {**form, "rollable": PICKED}, **HX)
    assert response.status_code == 200
    log = RollLog.objects.get(character=kestrel)
    assert log.request == request_ and log.result["odds"] == odds
    if picks.get("required"):
        assert odds == MAELSTROM.odds({"pool": 7, "difficulty": 6, "threshold": 1})
        assert "(+1 for the required specialty not used: Missing Persons)" in log.result["text"]
    if request_.get("unskilled"):
        assert odds == MAELSTROM.odds({"pool": 2, "difficulty": 7, "threshold": 0})


def test_the_result_lands_under_the_picker_s_roll_button_and_the_pair_is_remembered(
    client, table, kestrel, monkeypatch
):
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([8, 8, 3, 1, 10, 6, 2]))
    client.force_login(table["player"])
    page = _sheet(client, kestrel)
    assert re.search(
        rf'<button type="submit" name="rollable" value="{PICKED}" id="roll-btn-{PICKED}"[^>]*'
        rf'hx-target="#roll-here-{PICKED}" hx-swap="innerHTML show:none focus-scroll:false"',
        page,
    )
    assert f'<div class="roll-here" id="roll-here-{PICKED}"></div>' in page
    response = client.post(
        reverse("character_roll", args=[kestrel.pk]),
        {**_form(attribute="perception", ability="alertness"), "rollable": PICKED},
        **HX,
    )
    html = response.content.decode()
    assert html.startswith('<p class="roll-here-outcome" data-status data-testid="roll-here"><strong>')
    log = RollLog.objects.get(character=kestrel)
    assert log.label == "Perception + Alertness" and log.request["pool"] == 5
    assert (
        log.result["outcome"] == "success" and log.result["total"] == 2
    )  # five dice 8, 8, 3, 1, 10: 3 less a botch
    # The next sheet starts from the pair rolled last.
    page = _sheet(client, kestrel)
    assert 'value="perception" id="roll-pick-attr-perception" checked' in page
    assert '<option value="alertness" selected>' in page
    assert 'value="intelligence" id="roll-pick-attr-intelligence" checked' not in page


def test_choosing_another_ability_redraws_its_specialties_out_of_band(client, table, kestrel):
    client.force_login(table["player"])
    url = reverse("character_roll_odds", args=[kestrel.pk])
    same = client.get(
        url, _form(attribute="wits", ability="investigation", specialties_for="investigation"), **HX
    )
    assert 'id="roll-pick-specialties"' not in same.content.decode()
    # The boxes were drawn for Investigation; Streetwise is chosen: its boxes come out of band, the
    # old ticks are ignored (not refused), and the odds are those of the new pool.
    moved = client.get(
        url,
        _form(
            attribute="wits", ability="streetwise", specialties_for="investigation", specialties="Forensics"
        ),
        **HX,
    )
    html = moved.content.decode()
    assert moved.status_code == 200
    assert '<div class="roll-pick-specialties" id="roll-pick-specialties" hx-swap-oob="true">' in html
    assert 'value="Black Markets"' in html and 'value="Forensics"' not in html
    assert _percents(html) == _expected(MAELSTROM.odds({"pool": 4, "difficulty": 6, "threshold": 0}))


def test_spending_willpower_rolls_without_the_wound_penalty_and_spends_the_dot(client, table, kestrel):
    Character.objects.filter(pk=kestrel.pk).update(
        state={**kestrel.state, "health": ["lethal", "lethal", "lethal"] + [None] * 5}
    )
    client.force_login(table["player"])
    page = _sheet(client, kestrel)
    assert 'name="in_willpower" value="ignore_wounds"' in page and "(4 left)" in page
    url = reverse("character_roll_odds", args=[kestrel.pk])
    hurt = client.get(url, _form(attribute="wits", ability="investigation"), **HX)
    assert _percents(hurt.content.decode()) == _expected(MAELSTROM.odds({"pool": 6, "difficulty": 6}))
    form = _form(attribute="wits", ability="investigation", willpower="ignore_wounds")
    spent = client.get(url, form, **HX)
    assert _percents(spent.content.decode()) == _expected(MAELSTROM.odds({"pool": 7, "difficulty": 6}))
    versions = CharacterVersion.objects.filter(character=kestrel).count()
    response = client.post(reverse("character_roll", args=[kestrel.pk]), {**form, "rollable": PICKED}, **HX)
    assert response.status_code == 200
    kestrel.refresh_from_db()
    assert kestrel.state["willpower"] == 3 and kestrel.state["ignore_wounds"] is False
    assert RollLog.objects.get(character=kestrel).request["pool"] == 7
    assert CharacterVersion.objects.filter(character=kestrel).count() == versions + 1
    html = response.content.decode()
    assert 'id="sheet-state"' in html and 'hx-swap-oob="true"' in html  # the sheet shows the dot spent
    # The odds ask again; the box ticked before the dot was spent comes back unticked, and is not
    # spent again by a roll sent before it was redrawn.
    assert response["HX-Trigger-After-Settle"] == "sheet-state-changed"
    shown = re.search(r'name="in_wounds_shown" value="([^"]*)"', page).group(1)
    again = client.get(url, {**form, "in_wounds_shown": shown}, **HX).content.decode()
    assert _percents(again) == _expected(MAELSTROM.odds({"pool": 6, "difficulty": 6}))
    assert 'id="roll-pick-willpower"> Spend a willpower dot' in again and "(3 left)" in again
    client.post(
        reverse("character_roll", args=[kestrel.pk]),
        {**form, "in_wounds_shown": shown, "rollable": PICKED},
        **HX,
    )
    kestrel.refresh_from_db()
    assert kestrel.state["willpower"] == 3 and RollLog.objects.latest("id").request["pool"] == 6


BAD = [
    ({"attribute": "charisma", "ability": "investigation"}, "Pick one of this character's attributes."),
    ({"attribute": "wits", "ability": "engineering"}, "with no dots it cannot be attempted"),
    ({"attribute": "wits", "ability": "../../etc"}, "Pick one of this character's abilities"),
    ({"attribute": "wits", "ability": "wits"}, "Pick one of this character's abilities"),
    (
        {
            "attribute": "wits",
            "ability": "streetwise",
            "specialties_for": "streetwise",
            "specialties": ["Black Markets", "Docks"],
        },
        "Streetwise has 1 dot: a roll uses at most 1 of its specialties.",
    ),
    (
        {
            "attribute": "wits",
            "ability": "investigation",
            "specialties_for": "investigation",
            "specialties": ["Hacking"],
        },
        "this character has no specialty 'Hacking'",
    ),
    (
        {
            "attribute": "wits",
            "ability": "investigation",
            "specialties_for": "investigation",
            "required": ["Research"],
        },
        "'Research' is not an advanced specialty of Investigation.",
    ),
    ({"attribute": "wits", "ability": "investigation", "willpower": "all of it"}, "Spend a willpower dot"),
    ({"attribute": "wits", "ability": "investigation", "difficulty": "11"}, "Difficulty goes from 2 to 10."),
    (
        {"attribute": "wits", "ability": "investigation", "threshold": "1e3"},
        "Threshold must be a whole number.",
    ),
]


@pytest.mark.parametrize("picks, message", BAD)
def test_a_crafted_pick_is_a_field_error_and_changes_nothing(client, table, kestrel, picks, message):
    client.force_login(table["player"])
    form = _form(**picks)
    preview = client.get(reverse("character_roll_odds", args=[kestrel.pk]), form, **HX)
    assert preview.status_code == 200
    assert '<p class="field-error">' in preview.content.decode()
    assert message in html_lib.unescape(preview.content.decode())
    before = Character.objects.get(pk=kestrel.pk)
    response = client.post(reverse("character_roll", args=[kestrel.pk]), {**form, "rollable": PICKED}, **HX)
    assert response.status_code == 400
    assert message in html_lib.unescape(response.content.decode())
    after = Character.objects.get(pk=kestrel.pk)
    assert RollLog.objects.count() == 0
    assert (after.version, after.state) == (before.version, before.state)


def test_text_that_cannot_be_stored_is_refused_before_the_rules_read_it(client, table, kestrel):
    client.force_login(table["player"])
    form = {**_form(attribute="wits", ability="investigation"), "in_specialties": "Fo\x00rensics"}
    assert client.get(reverse("character_roll_odds", args=[kestrel.pk]), form, **HX).status_code == 400
    response = client.post(reverse("character_roll", args=[kestrel.pk]), {**form, "rollable": PICKED}, **HX)
    assert response.status_code == 400 and RollLog.objects.count() == 0


def test_an_incapacitated_character_cannot_roll_the_pool(client, table, kestrel):
    Character.objects.filter(pk=kestrel.pk).update(state={**kestrel.state, "health": ["lethal"] * 8})
    client.force_login(table["player"])
    page = _sheet(client, kestrel)
    assert "Incapacitated: cannot act." in page
    assert re.search(rf'id="roll-btn-{PICKED}"[^>]* disabled>', page)
    response = client.post(
        reverse("character_roll", args=[kestrel.pk]),
        {**_form(attribute="wits", ability="investigation"), "rollable": PICKED},
        **HX,
    )
    assert response.status_code == 400 and RollLog.objects.count() == 0
