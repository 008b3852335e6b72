"""The GM rests chosen characters (issue #37, CONTRACT.md "A campaign's months"): ``POST
/campaigns/<id>/party-rest/ {characters, kind?}`` → ``{"results": [{id, status, message}]}``, each
its ruleset's rest through the sheet's own service; one refused stops no other. And the party
page's form: a rest or an award for the ticked characters (nobody ticked by default)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.campaigns import services as campaign_services
from characters.models import Character, LedgerEntry
from characters.party.services import rests_of
from characters.sheet.actions import play_actions
from characters.sheet.selectors import sheet_rules
from rulesets.engine import registry
from rulesets.engine.errors import StateError
from tests import vehicles
from tests.characters.party.helpers import add_character, make_party
from tests.factories import api_client, make_campaign

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def _has_rest_and_pool(ruleset) -> bool:
    build = vehicles.sheet_build(ruleset)
    report = ruleset.validate(build)
    if not report.valid:
        return False
    names = {a.get("action") for s in vehicles.play_sections(ruleset) for a in s.get("actions") or []}
    return bool(set(ruleset.rest_actions) & names) and bool(vehicles.pools(ruleset))


#: A ruleset whose sheet offers its own rest and has a pool to lower first.
SLUG = vehicles.first(_has_rest_and_pool, "a ruleset with a rest and a pool")


def _rest(user, campaign, body):
    return api_client(user).post(f"/api/v1/campaigns/{campaign.pk}/party-rest/", body, format="json")


def _lower(character, user):
    pool = vehicles.pools(registry.get(character.ruleset))[0]
    answer = api_client(user).post(
        f"/api/v1/characters/{character.pk}/actions/",
        {"action": "step", "path": pool["path"], "delta": -1},
        format="json",
    )
    assert answer.status_code == 200, answer.json()


def _the_rest(character) -> str:
    return rests_of(character, play_actions(character, sheet_rules(character=character)))[0]["action"]


def test_each_chosen_character_rests_as_its_sheet_s_rest_would(client, table):
    campaign, (ayla, bram, corin) = make_party(table, SLUG, 3)
    for character in (ayla, bram, corin):
        _lower(character, table["gm"])
    # Bram rests from his sheet's form; Ayla through the party; Corin is not chosen.
    client.force_login(table["player"] if bram.owner == table["player"] else table["other"])
    client.post(reverse("character_state_action", args=[bram.pk]), {"action": _the_rest(bram)})
    before = {c.pk: Character.objects.get(pk=c.pk) for c in (ayla, corin)}
    answer = _rest(table["gm"], campaign, {"characters": [ayla.pk]})
    assert answer.status_code == 200, answer.json()
    [row] = answer.json()["results"]
    assert (row["id"], row["status"]) == (ayla.pk, 200)
    assert row["message"].startswith("Ayla: ") and "{" not in row["message"]
    ayla_now, corin_now = Character.objects.get(pk=ayla.pk), Character.objects.get(pk=corin.pk)
    assert ayla_now.version == before[ayla.pk].version + 1
    assert ayla_now.state == Character.objects.get(pk=bram.pk).state  # the same rest, the same state
    assert corin_now.state == before[corin.pk].state and corin_now.version == before[corin.pk].version


def test_one_refused_stops_no_other_and_says_why(table, monkeypatch):
    campaign, (ayla, bram) = make_party(table, SLUG, 2)
    draft = add_character(table, campaign, SLUG, "Zed", status=Character.Status.DRAFT)
    elsewhere = add_character(
        table, make_campaign(gm=table["gm"], ruleset=SLUG, players=[table["player"]]), SLUG, "Far"
    )
    ruleset = registry.get(SLUG)
    real = type(ruleset).state_action

    def tired_ayla(self, state, action, build, *args, **kwargs):
        if build.get("name") == "Ayla" and action.get("action") in self.rest_actions:
            raise StateError("rest.too_soon", "Ayla has rested already today.", "/rest")
        return real(self, state, action, build, *args, **kwargs)

    monkeypatch.setattr(type(ruleset), "state_action", tired_ayla)
    versions = {c.pk: c.version for c in (ayla, bram)}
    answer = _rest(table["gm"], campaign, {"characters": [ayla.pk, draft.pk, elsewhere.pk, bram.pk]})
    assert answer.status_code == 200
    rows = {r["id"]: r for r in answer.json()["results"]}
    assert [r["id"] for r in answer.json()["results"]] == [ayla.pk, draft.pk, elsewhere.pk, bram.pk]
    assert (
        rows[ayla.pk]["status"] == 422 and rows[ayla.pk]["message"] == "Ayla: Ayla has rested already today."
    )
    assert rows[draft.pk]["status"] == 422 and "not in play" in rows[draft.pk]["message"]
    assert rows[elsewhere.pk]["status"] == 404
    assert rows[bram.pk]["status"] == 200
    assert Character.objects.get(pk=ayla.pk).version == versions[ayla.pk]
    assert Character.objects.get(pk=bram.pk).version == versions[bram.pk] + 1


def test_kind_chooses_among_the_character_s_rests(table):
    campaign, (ayla,) = make_party(table, SLUG, 1)
    rest = _the_rest(ayla)
    assert (
        _rest(table["gm"], campaign, {"characters": [ayla.pk], "kind": rest}).json()["results"][0]["status"]
        == 200
    )
    [row] = _rest(table["gm"], campaign, {"characters": [ayla.pk], "kind": "fly"}).json()["results"]
    assert row["status"] == 422 and "no such rest" in row["message"] and rest in row["message"]


def test_bad_bodies_are_400s(table):
    campaign, _ = make_party(table, SLUG, 1)
    for body in ({}, {"characters": []}, {"characters": ["x"]}, {"characters": [1], "kind": 3}):
        answer = _rest(table["gm"], campaign, body)
        assert answer.status_code == 400 and answer.json()["detail"], body


def test_only_the_gm_rests_the_party(table):
    campaign, (ayla, bram) = make_party(table, SLUG, 2)
    body = {"characters": [ayla.pk, bram.pk]}
    assert _rest(table["player"], campaign, body).status_code == 403
    assert _rest(table["other"], campaign, body).status_code == 403
    assert _rest(table["stranger"], campaign, body).status_code == 404
    campaign_services.campaign_remove_player(gm=table["gm"], campaign=campaign, user=table["player"])
    assert _rest(table["player"], campaign, body).status_code == 404
    assert Character.objects.get(pk=ayla.pk).version == ayla.version


# ------------------------------------------------------------------ the party page's form


def test_the_page_offers_every_character_in_play_none_ticked(client, table):
    campaign, characters = make_party(table, SLUG, 2)
    client.force_login(table["gm"])
    page = client.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
    form = re.search(r'<form[^>]*id="party-act-form".*?</form>', page, re.S).group(0)
    boxes = re.findall(r'<input type="checkbox"[^>]*name="characters" value="(\d+)"([^>]*)>', form)
    assert [int(pk) for pk, _ in boxes] == [c.pk for c in characters]
    assert all("checked" not in rest for _, rest in boxes)
    assert 'value="rest"' in form and 'value="award"' in form


def test_the_page_rests_the_ticked_and_says_so_per_character(client, table):
    campaign, (ayla, bram) = make_party(table, SLUG, 2)
    client.force_login(table["gm"])
    url = reverse("campaign_party_act", args=[campaign.pk])
    answer = client.post(url, {"characters": [str(bram.pk)], "do": "rest"}, **HX)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert 'id="party-act-answer"' in html and "Bram: " in html and "Ayla" not in html
    assert Character.objects.get(pk=bram.pk).version == bram.version + 1
    assert Character.objects.get(pk=ayla.pk).version == ayla.version
    nobody = client.post(url, {"do": "rest"}, **HX)
    assert nobody.status_code == 400 and "nobody is chosen" in nobody.content.decode()
    plain = client.post(url, {"characters": [str(ayla.pk)], "do": "rest"})
    assert plain.status_code == 302 and plain["Location"].endswith("#party-act")


def test_the_page_awards_the_ticked_only(client, table):
    ruleset = registry.get(SLUG)
    currency = ruleset.awardable_currencies[0]
    campaign, (ayla, bram) = make_party(table, SLUG, 2)
    client.force_login(table["gm"])
    url = reverse("campaign_party_act", args=[campaign.pk])
    answer = client.post(
        url,
        {
            "characters": [str(ayla.pk)],
            "do": "award",
            "currency": currency,
            "amount": "3",
            "reason": "The bridge",
        },
        **HX,
    )
    assert answer.status_code == 200, answer.content.decode()
    assert f"Ayla: +3 {ruleset.currency_label(currency, 3)} (The bridge)." in answer.content.decode()
    rows = LedgerEntry.objects.filter(reason="The bridge")
    assert [(r.character_id, r.amount) for r in rows] == [(ayla.pk, 3)]
    count = LedgerEntry.objects.count()
    bad = client.post(
        url, {"characters": [str(ayla.pk)], "do": "award", "currency": currency, "amount": "x"}, **HX
    )
    assert bad.status_code == 400 and "Amount" in bad.content.decode()
    assert LedgerEntry.objects.count() == count


def test_the_page_s_form_is_the_gm_s_only(client, table):
    campaign, (ayla,) = make_party(table, SLUG, 1)
    url = reverse("campaign_party_act", args=[campaign.pk])
    for user, code in ((table["player"], 403), (table["stranger"], 404)):
        client.force_login(user)
        assert client.post(url, {"characters": [str(ayla.pk)], "do": "rest"}, **HX).status_code == code
    assert Character.objects.get(pk=ayla.pk).version == ayla.version
