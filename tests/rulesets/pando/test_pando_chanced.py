"""Chanced actions at leisure (RULES.md W4; seed 000 "Actions"; rulesets/systems/pando/leisure.py):
"At leisure actions can optionally be chanced and taken with a die roll, allowing for a possibly
greater effect than they would otherwise be able to achieve, or possibly a worse one." … "However,
unlike typical under pressure actions, a chanced at leisure action cannot be repeated, even if the
result is lesser than it would have been had it not been chanced." The same action is the skill
(RULINGS.md); the campaign's clock moving on clears the marks. Through the sheet's forms and the API."""

from __future__ import annotations

import copy
import re
from fractions import Fraction
from html import unescape

import pytest
from django.urls import reverse

from characters.models import Character, CharacterVersion, RollLog
from rulesets.engine import registry, validate
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import api_client, make_campaign, make_user
from tests.rulesets.pando.test_pando_dice import CHARLOTTE, brute_force

pytestmark = pytest.mark.django_db

PANDO = registry.get("pando")
HX = {"HTTP_HX_REQUEST": "true"}
#: W4's refusal, in words, of the same action again before time passes.
REFUSED = "Charlotte chanced Lockpicking at leisure: it cannot be repeated until time passes."


@pytest.fixture
def table(db):
    """Charlotte (Lockpicking 3 with Coordination 3, lockpicks carried), her player, the GM, another
    player of the campaign and a stranger."""
    gm, player, other, stranger = (make_user(n) for n in ("gm", "player", "other", "stranger"))
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player, other])
    charlotte = make_character(ruleset="pando", owner=player, campaign=campaign, build=CHARLOTTE)
    return {
        "gm": gm,
        "player": player,
        "other": other,
        "stranger": stranger,
        "campaign": campaign,
        "c": charlotte,
    }


def _now(character) -> tuple:
    """What a refusal must leave as it was: the version, the play state, the rolls logged."""
    fresh = Character.objects.get(pk=character.pk)
    return fresh.version, fresh.state, RollLog.objects.filter(character=character).count()


def _rolls(character) -> str:
    return f"/api/v1/characters/{character.pk}/rolls/"


def _actions(character) -> str:
    return f"/api/v1/characters/{character.pk}/actions/"


def _sheet_roll(client, character, **form):
    """The sheet's Dice form posted by one of its buttons (Roll: ``rollable``; Chance it: ``chance``)."""
    return client.post(reverse("character_roll", args=[character.pk]), form, **HX)


def _text(html: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}"[^>]*>(.*?)</(?:p|span)>', html, re.S)
    assert found, testid
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


@pytest.mark.parametrize("dice", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5, 6])
def test_before_chancing_the_odds_of_more_as_many_or_fewer_ep_than_at_leisure_are_exact(dice, level):
    """ "allowing for a possibly greater effect … or possibly a worse one": every way the dice fall."""
    build = copy.deepcopy(CHARLOTTE)
    build["attributes"]["coordination"] = max(dice, 1)
    rolls = {r["id"]: r for r in PANDO.rollables(build, validate(build), {})}
    chance = PANDO.changed_rollable({**rolls["skill:lockpicking"], "request": {"dice": dice, "skill": level}})
    exact = brute_force(dice, level)
    want = {
        "more": sum((p for ep, p in exact.items() if int(ep) > 3), Fraction(0)),
        "same": exact.get("3", Fraction(0)),
        "fewer": sum((p for ep, p in exact.items() if int(ep) < 3), Fraction(0)),
    }
    assert chance["chance"]["sure"] == 3  # at leisure: the skill's level, Lockpicking 3
    for key, p in want.items():
        assert chance["chance"]["odds"][key] == pytest.approx(float(p), abs=1e-12), key


def test_the_sheet_shows_each_skills_sure_ep_against_the_exact_odds_of_chancing_it(client, table):
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[table["c"].pk])).content.decode()
    assert _text(page, "chance-text-skill-lockpicking") == (
        "At leisure: 3 EP for sure. Chanced (Coordination 3d6): more than 3 EP 0%, exactly 3 EP 12.5%, fewer 87.5%."
    )
    button = re.search(r'<button[^>]*id="chance-btn-skill-lockpicking"[^>]*>([^<]*)<', page)
    assert button and button.group(1) == "Chance it" and "disabled" not in button.group(0)
    # The Play block's "At leisure": the form that takes one, each skill with its sure EP.
    form = page[page.index('data-action="take_at_leisure"') :]
    form = form[: form.index("</form>")]
    assert re.findall(r"<option[^>]*>([^<]*)</option>", form) == [
        "Capability — 1 EP",
        "Ranged — 2 EP",
        "Bows — 3 EP",
        "Stealth — 2 EP",
        "Lockpicking — 3 EP",
    ]


def test_at_leisure_the_ep_are_the_skill_level_and_buy_outcomes_as_a_roll_s(table):
    """RULES.md W1: "At-leisure EP (= skill level) buys outcomes the same way" (the lockpicks' outcomes)."""
    player, c = api_client(table["player"]), table["c"]
    offered = {a["action"]: a for a in player.get(_actions(c)).json()}
    assert offered["take_at_leisure"]["fields"][0]["choices"][-1] == {
        "value": "lockpicking",
        "label": "Lockpicking — 3 EP",
    }
    before = c.version
    took = player.post(_actions(c), {"action": "take_at_leisure", "skill": "lockpicking"}, format="json")
    assert took.status_code == 200, took.json()
    assert took.json()["version"] == before + 1
    assert took.json()["message"] == (
        "Charlotte takes Lockpicking at leisure: 3 EP, no roll: the skill level (house default; your GM "
        "may change it). 3 EP to spend on its outcomes."
    )
    pending = took.json()["state"]["roll_to_spend"]
    assert (pending["ep"], pending["label"]) == (3, "Lockpicking at leisure")
    assert [o["id"] for o in pending["outcomes"]] == ["quiet_work", "steady_hand"]
    assert "chanced" not in took.json()["state"]  # taken at leisure, not chanced: it may be taken again
    too_much = player.post(
        _actions(c),
        {"action": "spend", "outcomes": [{"id": "quiet_work"}, {"id": "steady_hand", "times": 3}]},
        format="json",
    )
    assert too_much.status_code == 422 and too_much.json()["errors"][0]["code"] == "pando.ep_exceeded"
    spent = player.post(
        _actions(c),
        {"action": "spend", "outcomes": [{"id": "quiet_work"}, {"id": "steady_hand", "times": 2}]},
        format="json",
    )
    assert spent.status_code == 200, spent.json()
    assert spent.json()["message"].startswith(
        "Charlotte spends 3 EP of Lockpicking at leisure: Work quietly (1 EP): Nobody nearby hears the lock"
    )
    assert "Steady hand ×2 (2 EP)" in spent.json()["message"]
    assert "roll_to_spend" not in Character.objects.get(pk=c.pk).state


def test_a_chanced_roll_is_refused_in_words_on_the_sheet_when_repeated_or_taken_at_leisure(client, table):
    c = table["c"]
    client.force_login(table["player"])
    version = c.version
    rolled = _sheet_roll(client, c, chance="skill:lockpicking")
    assert rolled.status_code == 200
    log = RollLog.objects.filter(character=c).latest("pk")
    assert log.label == "Lockpicking (Coordination 3d6, level 3) · chanced" and log.result["chanced"] is True
    after = Character.objects.get(pk=c.pk)
    assert (after.version, after.state["chanced"]) == (version + 1, ["lockpicking"])
    play = CharacterVersion.objects.filter(character=c, kind="play").latest("pk")
    assert play.reason.startswith(
        "Charlotte chances Lockpicking at leisure, rolled as under pressure: it cannot be repeated until time passes."
    )
    # The same tab's Play block says so at once, and its Dice row: the "Chance it" swapped in place
    # (out of band), disabled, with why; the row's Roll and the result below it are not redrawn.
    html = rolled.content.decode()
    assert "chanced: not until time passes" in html
    chance = re.search(r'<div[^>]*id="roll-chance-skill-lockpicking"[^>]*>(.*?)</div>', html, re.S)
    assert chance and 'hx-swap-oob="true"' in chance.group(0), html
    assert re.search(r'<button[^>]*id="chance-btn-skill-lockpicking"[^>]*disabled', chance.group(1))
    assert _text(chance.group(1), "chanced-skill-lockpicking") == REFUSED
    stealth = re.search(r'<div[^>]*id="roll-chance-skill-stealth"[^>]*>(.*?)</div>', html, re.S)
    assert stealth and not re.search(r"<button[^>]*disabled", stealth.group(1))  # still open
    assert 'id="roll-btn-skill-lockpicking"' not in html and 'id="sheet-rollables"' not in html

    before = _now(c)
    again = _sheet_roll(client, c, chance="skill:lockpicking")
    assert again.status_code == 400
    assert _text(again.content.decode(), "roll-here-error") == REFUSED
    leisure = client.post(
        reverse("character_state_action", args=[c.pk]),
        {"action": "take_at_leisure", "skill": "lockpicking"},
        **HX,
    )
    assert _text(leisure.content.decode(), "state-error") == REFUSED
    assert _now(c) == before  # refused: no version, the same state, nothing rolled

    # Another skill, and Lockpicking under pressure, stay open ("unlike typical under pressure actions").
    assert _sheet_roll(client, c, rollable="skill:lockpicking").status_code == 200
    assert _sheet_roll(client, c, chance="skill:stealth").status_code == 200
    assert Character.objects.get(pk=c.pk).state["chanced"] == ["lockpicking", "stealth"]

    # The other browser at the table (the GM's sheet, fetching its blocks live) shows the mark in words.
    client.force_login(table["gm"])
    live = client.get(reverse("character_sheet_live", args=[c.pk]), **HX).content.decode()
    assert _text(live, "chanced-skill-lockpicking") == REFUSED
    assert re.search(r'<button[^>]*id="chance-btn-skill-lockpicking"[^>]*disabled', live)
    assert re.search(r"<strong>Lockpicking</strong>.*?chanced: not until time passes", live, re.S)


@pytest.mark.parametrize("move", [{"hours": 1}, {"new_day": True}])
def test_the_api_refuses_a_repeat_with_its_code_until_the_clock_moves_on(table, move):
    player, c = api_client(table["player"]), table["c"]
    chanced = player.post(_rolls(c), {"rollable": "skill:lockpicking", "chanced": True}, format="json")
    assert chanced.status_code == 201, chanced.json()
    assert chanced.json()["result"]["chanced"] is True
    assert chanced.json()["label"].endswith("· chanced")

    before = _now(c)
    for door, body in (
        (_rolls(c), {"rollable": "skill:lockpicking", "chanced": True}),
        (_actions(c), {"action": "take_at_leisure", "skill": "lockpicking"}),
    ):
        refused = player.post(door, body, format="json")
        assert refused.status_code == 422, door
        assert (refused.json()["detail"], refused.json()["errors"][0]["code"]) == (
            REFUSED,
            "pando.chanced_repeat",
        )
    assert _now(c) == before

    moved = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{table['campaign'].pk}/clock/", move, format="json"
    )
    assert moved.status_code == 200, moved.json()
    said = [ch["message"] for ch in moved.json()["changes"] if ch["character"] == c.pk]
    assert "Time has passed: Charlotte may chance Lockpicking again, or take it at leisure." in said
    assert "chanced" not in Character.objects.get(pk=c.pk).state
    assert (
        player.post(_rolls(c), {"rollable": "skill:lockpicking", "chanced": True}, format="json").status_code
        == 201
    )


def test_only_the_owner_or_the_gm_chances_or_takes_at_leisure_and_only_a_skill_s_action_is_chanced(table):
    c = table["c"]
    before = _now(c)
    for who in ("other", "stranger"):
        user = api_client(table[who])
        assert (
            user.post(
                _rolls(c), {"rollable": "skill:lockpicking", "chanced": True}, format="json"
            ).status_code
            == 404
        )
        assert (
            user.post(_actions(c), {"action": "take_at_leisure", "skill": "bows"}, format="json").status_code
            == 404
        )
    strike = api_client(table["player"]).post(
        _rolls(c), {"rollable": "item:0:strike", "chanced": True}, format="json"
    )
    assert strike.status_code == 422 and strike.json()["errors"][0]["code"] == "roll.not_chanceable"
    assert strike.json()["detail"].startswith("Only an action that could be taken at leisure is chanced")
    assert _now(c) == before
    gm = api_client(table["gm"]).post(
        _actions(c), {"action": "take_at_leisure", "skill": "bows"}, format="json"
    )
    assert gm.status_code == 200 and gm.json()["message"].startswith("Charlotte takes Bows at leisure: 3 EP")
