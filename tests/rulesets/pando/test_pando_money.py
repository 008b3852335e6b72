"""Pando's starting money (RULES.md W5): the campaign's ``starting_money`` is a ``money`` budget of the
build, items cost their ``price``, buying past it is ``budget.exceeded`` on ``/budget/money``, and the
sheet keeps the rest as a pool spent or gained in play. The rulebook (seed 000): "Starting resources
come in the form of Character Points, Equipment, and currency. ... If a game provies you with starting
currency, they my allow you to purchase items for your character before starting the game proper. Or
they might instead require you to spend your currency during the play sessions."
"""

from __future__ import annotations

import copy
import re

import pytest
from django.urls import reverse

from characters.models import Campaign, Character, CharacterVersion
from rulesets.engine import registry
from tests.characters.conftest import BuilderSession, form_fields, make_table, parse_html
from tests.characters.sheet.test_play_api import _page_forms
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import api_client, make_campaign

PANDO = registry.get("pando")
#: The contract's Alex: a longsword (8), a round shield (4), a leather cap (2) and a bandage (1).
ALEX = PANDO.demo_builds()[0]["document"]
MONEY_RULES = {"starting_budget": {"cp": 40}, "house_rules": {"starting_money": 20}}


def _validate(build, **settings):
    return PANDO.validate(copy.deepcopy(build), settings=settings or None).as_dict()


def _money_campaign(table, money=20):
    return make_campaign(
        gm=table["gm"],
        ruleset="pando",
        players=[table["player"], table["other"]],
        settings={"starting_budget": {"cp": 40}, "house_rules": {"starting_money": money}},
    )


def _alex_in_play(table, money=20) -> Character:
    campaign = _money_campaign(table, money)
    return make_character(ruleset="pando", owner=table["player"], campaign=campaign, build=ALEX)


def _actions(character) -> str:
    return f"/api/v1/characters/{character.pk}/actions/"


# ------------------------------------------------------------------ the build


def test_without_starting_money_the_equipment_is_given_and_every_report_reads_as_before():
    """The seed: "Starting resources come in the form of Character Points, Equipment, and currency": a game
    that gives no currency (the house default) gives the equipment; nothing is priced in money."""
    assert ALEX["name"] == "Alex" and [e["item"] for e in ALEX["equipment"]] == [
        "longsword",
        "round_shield",
        "leather_cap",
        "bandage",
    ]
    assert PANDO.house_defaults["starting_money"] == 0
    report = _validate(ALEX)
    assert report["valid"] and report["spent"] == {"cp": 32} and report["budget"] == {"cp": 40}
    assert report["remaining"] == {"cp": 8}
    assert [c for c in report["costs"] if c["currency"] == "money"] == []
    # No money in play either: the fresh state and the sheet's blocks are as they were.
    state = PANDO.initial_state(ALEX, PANDO.validate(ALEX))
    assert "money" not in state
    assert "money" not in [s["id"] for s in PANDO.state_sections(ALEX, PANDO.validate(ALEX), state)]


def test_every_example_and_demo_character_still_validates_as_it_did():
    for build in [*(d["document"] for d in PANDO.demo_builds()), PANDO.contract_data()["build"]]:
        report = _validate(build)
        assert report["valid"], (build["name"], report["errors"])
        assert set(report["spent"]) == {"cp"}, build["name"]
    for example in PANDO.example_builds():
        assert set(_validate(example.build)["spent"]) == {"cp"}, example.name


def test_starting_money_buys_the_equipment_item_by_item():
    """The seed: "If a game provies you with starting currency, they my allow you to purchase items
    for your character before starting the game proper." Each item costs its price."""
    report = _validate(ALEX, starting_money=20)
    assert report["valid"], report["errors"]
    assert report["spent"] == {"cp": 32, "money": 15}
    assert report["budget"] == {"cp": 40, "money": 20}
    assert report["remaining"] == {"cp": 8, "money": 5}
    assert [(c["path"], c["label"], c["cost"]) for c in report["costs"] if c["currency"] == "money"] == [
        ("/equipment/0", "Longsword", 8),
        ("/equipment/1", "Round Shield", 4),
        ("/equipment/2", "Leather Cap", 2),
        ("/equipment/3", "Bandage", 1),
    ]
    # How an item is kept does not change its price.
    carried = copy.deepcopy(ALEX)
    for entry in carried["equipment"]:
        entry["state"] = "carried"
        entry.pop("arms", None)
    assert _validate(carried, starting_money=20)["spent"]["money"] == 15


def test_buying_more_than_the_starting_money_is_budget_exceeded_at_budget_money_in_words():
    report = _validate(ALEX, starting_money=10)
    assert not report["valid"]
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("budget.exceeded", "/budget/money")]
    assert report["errors"][0]["message"] == (
        "The equipment costs 15 money but the starting money is 10: buy 5 money less (carry fewer or "
        "cheaper items), or ask the GM for more starting money."
    )
    assert report["remaining"]["money"] == -5 and report["spent"]["cp"] == 32  # still priced
    # Dropping the longsword (8) fixes it.
    cheaper = copy.deepcopy(ALEX)
    del cheaper["equipment"][0]
    assert _validate(cheaper, starting_money=10)["valid"]


def test_a_document_s_own_money_budget_wins_and_custom_items_cost_their_price():
    doc = copy.deepcopy(ALEX)
    doc["budget"] = {"cp": 40, "money": 16}
    doc["equipment"].append(
        {
            "custom": {"name": "Grandmother's Locket", "price": 3, "wield": None, "wear": None},
            "state": "carried",
        }
    )
    report = _validate(doc, starting_money=100)
    assert report["budget"]["money"] == 16 and report["spent"]["money"] == 18
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("budget.exceeded", "/budget/money")]
    doc["equipment"][-1]["custom"]["price"] = -1
    report = _validate(doc)
    assert ("build.malformed", "/equipment/4/custom/price") in [
        (e["code"], e["path"]) for e in report["errors"]
    ]
    assert "whole number of money" in next(
        e["message"] for e in report["errors"] if e["path"].endswith("price")
    )


def test_starting_money_is_a_house_rule_checked_in_words():
    report = _validate(ALEX, starting_money=-3)
    assert [(w["code"], w["path"]) for w in report["warnings"]] == [("settings.malformed", "/starting_money")]
    assert "money" not in report["budget"]  # a bad house rule gives no money


# ------------------------------------------------------------------ the doors: API, forms, homebrew


@pytest.mark.django_db
def test_the_api_catalogue_shows_prices_and_validate_reports_the_money_budget():
    client = api_client()
    described = client.get("/api/v1/rulesets/pando/").json()
    prices = {i["id"]: i["price"] for i in described["catalogue"]["items"]}
    assert prices["longsword"] == 8 and prices["hauberk"] == 20 and prices["bandage"] == 1
    assert all(isinstance(p, int) and p >= 0 for p in prices.values())
    assert described["house_defaults"]["starting_money"] == 0
    assert (described["currencies"], described["optional_currencies"]) == (["cp"], ["money"])
    doc = {**copy.deepcopy(ALEX), "budget": {"cp": 40, "money": 20}}
    report = client.post("/api/v1/rulesets/pando/validate/", doc, format="json").json()
    assert (report["spent"]["money"], report["budget"]["money"], report["remaining"]["money"]) == (15, 20, 5)
    doc["budget"]["money"] = 14
    report = client.post("/api/v1/rulesets/pando/validate/", doc, format="json").json()
    assert report["remaining"]["money"] == -1
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("budget.exceeded", "/budget/money")]


@pytest.mark.django_db
def test_the_gm_sets_starting_money_on_the_house_rules_form_in_words_and_a_bad_one_is_refused(client):
    campaign = make_campaign(ruleset="pando")
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    page = parse_html(client.get(url).content)
    field = page.by_id("id_hr:/starting_money")
    assert field is not None and field.attrs["min"] == "0"
    label = next(lab for lab in page.find_all("label") if lab.attrs.get("for") == "id_hr:/starting_money")
    assert label.text.strip() == "Starting money"
    assert "Rulebook: 0." in page.text
    base = {"name": campaign.name, "budget_cp": "40"}
    refused = client.post(url, {**base, "hr:/starting_money": "-5"})
    assert refused.status_code == 400
    assert "greater than or equal to 0" in refused.content.decode()
    campaign.refresh_from_db()
    assert "starting_money" not in campaign.house_rules
    assert client.post(url, {**base, "hr:/starting_money": "25"}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.house_rules == {"starting_money": 25}
    assert PANDO.validate(ALEX, settings=campaign.house_rules).budget["money"] == 25


@pytest.mark.django_db
def test_the_api_refuses_a_negative_starting_money_in_words(table):
    answer = api_client(table["gm"]).post(
        "/api/v1/campaigns/",
        {"name": "Misers", "ruleset": "pando", "settings": {"house_rules": {"starting_money": -1}}},
        format="json",
    )
    assert answer.status_code == 400
    assert "Starting money is a whole number of 0 or more (0: the game gives none)." in str(answer.json())
    assert not Campaign.objects.filter(name="Misers").exists()


@pytest.mark.django_db
def test_a_homebrew_item_gets_its_price_from_the_gm_s_form_and_the_build_pays_it(client):
    table = make_table("pando", settings=MONEY_RULES)
    campaign = table.campaign
    client.force_login(table.gm)
    new_url = reverse("homebrew_new", args=[campaign.id, "items"])
    page = parse_html(client.get(f"{new_url}?from=dagger").content)
    form = next(f for f in page.find_all("form") if f.attrs.get("hx-post"))
    data: dict[str, list[str]] = {}
    for name, value in form_fields(form):
        data.setdefault(name, []).append(value)
    assert data["price"] == ["2"]  # the rulebook dagger's, copied
    assert "Price (money)" in page.text
    data["name"], data["price"] = ["Silver Knife"], ["-1"]
    refused = client.post(new_url, data)
    assert refused.status_code == 422
    said = parse_html(refused.content).by_id("hb-f-price-err").text.strip()
    assert said.startswith("Price (money)") and "0" in said
    data["price"] = ["7"]
    assert client.post(new_url, data).status_code == 302
    campaign.refresh_from_db()
    [knife] = campaign.homebrew["items"]
    assert (knife["id"], knife["price"]) == ("silver_knife", 7)
    build = {**copy.deepcopy(ALEX), "equipment": [{"item": "silver_knife", "state": "carried"}]}
    report = PANDO.validate(build, settings=campaign.house_rules, homebrew=campaign.homebrew)
    assert report.spent["money"] == 7 and report.remaining["money"] == 13
    # The campaign's catalogue (the API's and the builder's) shows its price.
    described = PANDO.describe(PANDO.context(campaign.house_rules, campaign.homebrew))
    assert next(i for i in described["catalogue"]["items"] if i["id"] == "silver_knife")["price"] == 7
    client.force_login(table.player)
    created = client.post(reverse("character_create", args=[campaign.id]), {"name": "Sil"})
    options = BuilderSession(client, created["Location"]).root.by_id("f-equipment--").find_all("option")
    assert "Silver Knife (7 money; one hand)" in [o.text for o in options]


# ------------------------------------------------------------------ the builder


@pytest.mark.django_db
def test_the_builder_s_equipment_step_says_the_money_left_as_items_are_added(client):
    table = make_table("pando", settings=MONEY_RULES)
    client.force_login(table.player)
    created = client.post(reverse("character_create", args=[table.campaign.id]), {"name": "Alex"})
    s = BuilderSession(client, created["Location"])
    assert s.root.find_all(**{"data-testid": "purse-equipment"})[0].text.strip() == "Money: 20 of 20 left"
    help_text = s.root.by_id("sec-equipment-help").text
    assert help_text.startswith("You start with 20 money: each item costs its price")
    add = s.root.by_id("f-equipment--")
    assert "Longsword (8 money; one hand)" in [o.text for o in add.find_all("option")]
    s.set("/equipment/-", "longsword").change()
    assert s.root.find_all(**{"data-testid": "purse-equipment"})[0].text.strip() == "Money: 12 of 20 left"
    assert (s.figure("spent", "money"), s.figure("remaining", "money")) == (8, 12)
    s.set("/equipment/-", "hauberk").change()
    assert s.root.find_all(**{"data-testid": "purse-equipment"})[0].text.strip() == (
        "Money: 28 spent of 20, 8 too much"
    )
    assert "budget.exceeded" in s.summary_codes()
    # Without starting money there is nothing to say.
    plain = make_table("pando")
    client.force_login(plain.player)
    created = client.post(reverse("character_create", args=[plain.campaign.id]), {"name": "Bo"})
    page = BuilderSession(client, created["Location"])
    assert page.root.find_all(**{"data-testid": "purse-equipment"}) == []
    assert "You start with" not in page.root.by_id("sec-equipment-help").text


# ------------------------------------------------------------------ the pool in play


@pytest.mark.django_db
def test_what_the_build_leaves_is_the_pool_on_the_sheet(client, table):
    character = _alex_in_play(table)
    assert character.state["money"] == 5
    client.force_login(table["player"])
    page = parse_html(client.get(reverse("character_sheet", args=[character.pk])).content)
    block = page.by_id("state-money")
    assert block is not None and block.find_all("h3")[0].text.strip() == "Money"
    assert page.find_all(**{"data-testid": "pool-money"})[0].text.strip() == "5"
    answer = api_client(table["player"]).get(_actions(character)).json()
    listed = {a["action"]: a for a in answer}
    assert [f["name"] for f in listed["spend_money"]["fields"]] == ["amount", "what"]
    assert (listed["spend_money"]["label"], listed["gain_money"]["label"]) == ("Spend money", "Gain money")
    # The API's list is the sheet's forms, money included (the play API's one source).
    html = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert {a["action"]: {f["name"] for f in a["fields"]} for a in answer} == _page_forms(html)
    pools = next(f["choices"] for f in listed["step"]["fields"] if f["name"] == "path")
    assert ("/money", "Money") in [(c["value"], c["label"]) for c in pools]


@pytest.mark.django_db
def test_spending_and_gaining_money_are_play_versions_with_their_sentence(table):
    """The seed: "Or they might instead require you to spend your currency during the play sessions."
    Each spend or gain is a play version."""
    character = _alex_in_play(table)
    v0 = character.version
    spent = api_client(table["player"]).post(
        _actions(character),
        {"action": "spend_money", "amount": 3, "what": "a night at the inn"},
        format="json",
    )
    assert spent.status_code == 200, spent.json()
    body = spent.json()
    assert body["version"] == v0 + 1 and body["state"]["money"] == 2
    assert body["message"] == "Alex spends 3 money on a night at the inn (2 left)."
    gained = api_client(table["gm"]).post(
        _actions(character),
        {"action": "gain_money", "amount": 30, "what": "the bandits' chest"},
        format="json",
    )
    assert gained.status_code == 200 and gained.json()["state"]["money"] == 32
    # One session of play is one version row in the play log, its sentences joined (versions.py).
    row = CharacterVersion.objects.get(character=character, kind="play")
    assert (row.number, row.state["money"]) == (v0 + 2, 32)
    assert row.reason == (
        "Alex spends 3 money on a night at the inn (2 left). · "
        "Alex gains 30 money from the bandits' chest (32 now)."
    )


@pytest.mark.django_db
def test_money_never_goes_below_0_refused_in_words_and_nothing_changes(table):
    character = _alex_in_play(table)
    v0 = character.version
    client = api_client(table["player"])
    refused = client.post(_actions(character), {"action": "spend_money", "amount": 6}, format="json")
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["code"] == "pando.not_enough_money"
    assert refused.json()["detail"] == "Alex has only 5 money, not 6: spend 5 or less, or gain money first."
    stepped = client.post(
        _actions(character), {"action": "step", "path": "/money", "delta": -6}, format="json"
    )
    assert stepped.status_code == 422 and stepped.json()["detail"] == "Money cannot go below 0."
    zero = client.post(_actions(character), {"action": "spend_money", "amount": 0}, format="json")
    assert zero.status_code == 422 and zero.json()["errors"][0]["code"] == "state.invalid_amount"
    saved = Character.objects.get(pk=character.pk)
    assert (saved.version, saved.state["money"]) == (v0, 5)
    assert not CharacterVersion.objects.filter(character=character, number__gt=v0).exists()


@pytest.mark.django_db
def test_the_wrong_user_cannot_touch_the_money(table):
    character = _alex_in_play(table)
    spend = {"action": "spend_money", "amount": 1}
    for user in (table["stranger"], table["other"]):
        assert api_client(user).get(_actions(character)).status_code == 404
        assert api_client(user).post(_actions(character), spend, format="json").status_code == 404
    assert api_client().post(_actions(character), spend, format="json").status_code in (401, 403)
    saved = Character.objects.get(pk=character.pk)
    assert (saved.version, saved.state["money"]) == (character.version, 5)


@pytest.mark.django_db
def test_the_sheet_s_form_spends_money_as_the_api_does(client, table):
    character = _alex_in_play(table)
    client.force_login(table["player"])
    answer = client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": "spend_money", "amount": "2", "what": "rope"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    assert re.search(r'data-testid="pool-money"><strong>3</strong>', html)
    assert Character.objects.get(pk=character.pk).state["money"] == 3


@pytest.mark.django_db
def test_an_advancement_s_gear_is_priced_against_the_starting_money_and_leaves_the_pool_alone(table):
    """RULINGS.md "Money": the build's money is the creation's purse; the pool is play's."""
    character = _alex_in_play(table)
    client = api_client(table["player"])
    url = f"/api/v1/characters/{character.pk}/advancements/"
    dear = {
        **copy.deepcopy(character.build),
        "equipment": [*character.build["equipment"], {"item": "hauberk", "state": "carried"}],
    }
    refused = client.post(url, {"build": dear}, format="json")
    assert refused.status_code == 422
    assert ("budget.exceeded", "/budget/money") in [(e["code"], e["path"]) for e in refused.json()["errors"]]
    cheap = {
        **copy.deepcopy(character.build),
        "equipment": [*character.build["equipment"], {"item": "dagger", "state": "carried"}],
    }
    asked = client.post(url, {"build": cheap}, format="json")
    assert asked.status_code == 201, asked.json()
    assert asked.json()["report"]["remaining"]["money"] == 3 and asked.json()["cost"] == {"cp": 0}
    approved = api_client(table["gm"]).post(
        f"/api/v1/advancements/{asked.json()['id']}/approve/", {}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    saved = Character.objects.get(pk=character.pk)
    assert saved.build["equipment"][-1]["item"] == "dagger" and saved.state["money"] == 5
