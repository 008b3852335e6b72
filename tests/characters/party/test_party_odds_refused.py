"""One outlier never hides the party (issue #32, CONTRACT "The whole rulebook"): a character whose
request the rules refuse is listed in party odds' ``refused: [{id, reason}]`` and the others are
answered; the party page says so in words. An effect that would take a roll past what the odds
answer is refused at the door, in words, and changes nothing.

Before: a player's own custom effect of +50 on every roll (a stat or a dice count past what the
odds take) was accepted (201) and from then on the GM's party odds for those rolls were a 400
naming that character; the page showed only the error. Run in every ruleset where +50 takes a roll
past its odds (elsewhere the ruleset keeps a shifted number within its odds: ``effect_keys_max``)."""

from __future__ import annotations

import pytest
from django.db.models import F
from django.urls import reverse

from characters.models import Character
from rulesets.engine import OddsError, registry
from rulesets.engine import effects as fx
from rulesets.engine.effects import MAX_SHIFT
from tests.characters.party.helpers import make_party, number_key, odds_of, party_odds, rollables
from tests.factories import api_client

pytestmark = pytest.mark.django_db
RULESETS = registry.SYSTEMS
HX = {"HTTP_HX_REQUEST": "true"}


def _outlier(table, slug):
    """(campaign, [Ayla, Bram], the roll, the key) where +MAX_SHIFT of the key on Ayla's roll is past
    what the odds answer; skips the ruleset when it keeps every shift within its odds."""
    ruleset = registry.get(slug)
    campaign, characters = make_party(table, slug, 2)
    for roll in rollables(table["gm"], characters[0]):
        key = number_key(ruleset, roll["request"])
        if key is None:
            continue
        shifted = fx.apply_changes(ruleset, roll["request"], [{"target": "all", key: MAX_SHIFT}], roll["id"])
        try:
            ruleset.odds(shifted)
        except OddsError:
            return campaign, characters, roll, key
    pytest.skip(f"{ruleset.name} keeps a shift of {MAX_SHIFT} within its odds")


@pytest.mark.parametrize("slug", RULESETS)
def test_an_effect_past_what_the_dice_answer_is_refused_in_words(slug, table):
    campaign, (ayla, _), roll, key = _outlier(table, slug)
    before = Character.objects.get(pk=ayla.pk)
    got = api_client(table["player"]).post(
        f"/api/v1/characters/{ayla.pk}/effects/",
        {"name": "Godlike", "changes": [{"target": "all", key: MAX_SHIFT}]},
        format="json",
    )
    assert got.status_code == 400, got.json()
    detail = got.json()["detail"]
    assert detail.startswith("Godlike would take ") and "past what the dice can answer" in detail
    assert got.json()["errors"][0]["code"] == "effect.bad_value"
    after = Character.objects.get(pk=ayla.pk)
    assert (after.version, after.state) == (before.version, before.state)
    # A shift the dice can answer is still applied.
    ok = api_client(table["player"]).post(
        f"/api/v1/characters/{ayla.pk}/effects/",
        {"name": "Blessed", "changes": [{"target": "all", key: 1}]},
        format="json",
    )
    assert ok.status_code == 201, ok.json()


def _stored_outlier(ayla, slug, key) -> None:
    """The +50 effect as it was stored before the door refused it (the rules never saw it)."""
    ruleset = registry.get(slug)
    entry, _ = fx.resolve(
        ruleset, {"name": "Godlike", "changes": [{"target": "all", key: MAX_SHIFT}]}, ["all"]
    )
    entry["duration"] = None
    state = {**ayla.state, fx.STATE_KEY: [entry]}
    Character.objects.filter(pk=ayla.pk).update(state=state, version=F("version") + 1)


@pytest.mark.parametrize("slug", RULESETS)
def test_party_odds_answer_the_others_and_list_the_refused_one(slug, table):
    campaign, (ayla, bram), roll, key = _outlier(table, slug)
    _stored_outlier(ayla, slug, key)
    got = party_odds(table["gm"], campaign, {"rollable": roll["id"]})
    assert got.status_code == 200, got.json()
    answer = got.json()
    assert [r["id"] for r in answer["characters"]] == [bram.pk]
    [refused] = answer["refused"]
    assert refused["id"] == ayla.pk and set(refused) == {"id", "reason"}
    assert refused["reason"].startswith("Ayla's ") and "cannot be worked out" in refused["reason"]
    success = registry.get(slug).success(odds_of(slug, answer["characters"][0]["request"]), None)
    assert answer["at_least_one"] == pytest.approx(success) and answer["all"] == pytest.approx(success)
    assert answer["missing"] == []


@pytest.mark.parametrize("slug", RULESETS)
def test_the_party_page_says_who_is_not_counted_and_why(slug, table, client):
    campaign, (ayla, bram), roll, key = _outlier(table, slug)
    _stored_outlier(ayla, slug, key)
    client.force_login(table["gm"])
    got = client.get(reverse("campaign_party_odds", args=[campaign.pk]) + f"?roll={roll['id']}", **HX)
    assert got.status_code == 200
    page = got.content.decode()
    assert 'class="party-odds-name">Bram<' in page
    assert "Not counted: the rules cannot work out this character" in page
    assert "<strong>Ayla</strong>: Ayla&#x27;s " in page
    assert "message-error" not in page
