"""The advancement pages: advance mode (live pricing), review queue + badge, awards, ledger; access rules."""

from __future__ import annotations

import copy

import pytest
from django.test import Client

from characters.advancement import services as svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, LedgerEntry
from tests.characters.conftest import form_fields, parse_html
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def t(db):
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset="maelstrom", players=[player, other])
    character = make_character(ruleset="maelstrom", owner=player, campaign=campaign)
    elsewhere = make_campaign(gm=stranger, ruleset="maelstrom", players=[])
    return {
        "gm": gm,
        "player": player,
        "other": other,
        "stranger": stranger,
        "campaign": campaign,
        "character": character,
        "elsewhere": elsewhere,
    }


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_advance_mode_prices_each_change_live_and_sends_the_request(t):
    ch = t["character"]
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency="xp", amount=10, reason="chapter")
    player = as_user(t["player"])
    page = player.get(f"/characters/{ch.pk}/advance/")
    assert page.status_code == 200
    root = parse_html(page.content)
    assert root.by_id("advance-body") is not None
    fields = form_fields(root.by_id("builder-form"))
    assert ("/abilities/firearms", "1") in fields
    assert "disabled" in root.find_all("button", name="_request")[0].attrs  # nothing changed yet
    fields = [(k, v) for k, v in fields if k != "/abilities/investigation"] + [
        ("/abilities/investigation", "5")
    ]
    r = player.post(f"/characters/{ch.pk}/advance/", dict_of(fields), HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    frag = parse_html(r.content)
    assert frag.by_id("advance-body") is not None
    cost = [n for n in frag.iter() if n.attrs.get("data-testid") == "cost-xp"][0].text
    assert cost == "10"  # investigation 4→5: the 5th dot costs 5 × 2
    row = [n for n in frag.iter() if n.attrs.get("data-path") == "/abilities/investigation"][0]
    assert "+10 XP" in row.text and "5th dot" in row.text
    assert "disabled" not in frag.find_all("button", name="_request")[0].attrs
    r = player.post(f"/characters/{ch.pk}/advance/", {**dict_of(fields), "note": "practice", "_request": "1"})
    adv = Advancement.objects.get(character=ch)
    assert r.status_code == 302 and r["Location"] == f"/advancements/{adv.pk}/"
    assert (adv.status, adv.cost, adv.note) == ("pending", {"xp": 10}, "practice")


def test_advance_mode_shows_rule_errors_and_refuses_to_send(t):
    ch = t["character"]
    player = as_user(t["player"])
    fields = form_fields(
        parse_html(player.get(f"/characters/{ch.pk}/advance/").content).by_id("builder-form")
    )
    fields = [(k, v) for k, v in fields if k != "/abilities/investigation"] + [
        ("/abilities/investigation", "2")
    ]
    r = player.post(f"/characters/{ch.pk}/advance/", {**dict_of(fields), "_request": "1"})
    assert r.status_code == 422
    assert b"advancement.decrease" in r.content
    assert not Advancement.objects.filter(character=ch).exists()


def dict_of(fields):
    out = {}
    for k, v in fields:
        out.setdefault(k, []).append(v)
    return out


def test_the_badge_counts_pending_requests_for_the_gm_only(t):
    ch = t["character"]
    build = copy.deepcopy(BUILDS["maelstrom"])
    build["abilities"]["firearms"] = 2
    gm = as_user(t["gm"])
    root = parse_html(gm.get("/").content)
    assert root.by_id("nav-review") is not None
    assert not [n for n in root.iter() if n.attrs.get("data-testid") == "review-badge"]
    svc.advancement_request(character_id=ch.pk, user=t["player"], build=build)
    root = parse_html(gm.get("/").content)
    badge = [n for n in root.iter() if n.attrs.get("data-testid") == "review-badge"]
    assert badge and badge[0].text == "1"
    assert parse_html(as_user(t["player"]).get("/").content).by_id("nav-review") is None


def test_review_page_shows_the_diff_and_approves_with_htmx(t):
    ch = t["character"]
    build = copy.deepcopy(BUILDS["maelstrom"])
    build["abilities"]["firearms"] = 2
    adv = svc.advancement_request(character_id=ch.pk, user=t["player"], build=build, note="range practice")
    gm = as_user(t["gm"])
    page = gm.get(f"/campaigns/{t['campaign'].pk}/review/")
    assert page.status_code == 200
    card = parse_html(page.content).by_id(f"advancement-{adv.pk}")
    assert "range practice" in card.text and "+4 XP" in card.text
    r = gm.post(f"/advancements/{adv.pk}/approve/", {"comment": "ok", "_card": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    frag = parse_html(r.content)
    assert frag.by_id(f"advancement-{adv.pk}").attrs["data-status"] == "approved"
    assert frag.by_id("nav-review").attrs.get("hx-swap-oob") == "true"
    ch.refresh_from_db()
    assert ch.build["abilities"]["firearms"] == 2
    r = gm.post(
        f"/advancements/{adv.pk}/approve/", {"comment": "again", "_card": "1"}, HTTP_HX_REQUEST="true"
    )
    assert b"already approved" in r.content  # 409 inside the card, no 500
    sheet_notice = as_user(t["player"]).get(f"/characters/{ch.pk}/advancements/")
    assert b"was approved: ok" in sheet_notice.content


def test_access_rules_of_the_pages(t):
    ch = t["character"]
    build = copy.deepcopy(BUILDS["maelstrom"])
    build["abilities"]["firearms"] = 2
    adv = svc.advancement_request(character_id=ch.pk, user=t["player"], build=build)
    player, other, stranger = as_user(t["player"]), as_user(t["other"]), as_user(t["stranger"])
    assert player.post(f"/advancements/{adv.pk}/approve/", {"comment": "mine"}).status_code == 403
    assert player.post(f"/advancements/{adv.pk}/reject/", {"comment": "mine"}).status_code == 403
    assert Advancement.objects.get(pk=adv.pk).status == "pending"
    assert player.get(f"/campaigns/{t['campaign'].pk}/review/").status_code == 403
    assert player.get(f"/campaigns/{t['campaign'].pk}/awards/").status_code == 403
    assert (
        player.post(
            f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "currency": "xp", "amount": "5"}
        ).status_code
        == 403
    )
    assert stranger.get(f"/campaigns/{t['campaign'].pk}/review/").status_code == 404
    assert player.get(f"/campaigns/{t['elsewhere'].pk}/review/").status_code == 404
    assert other.get(f"/advancements/{adv.pk}/").status_code == 404
    assert other.get(f"/characters/{ch.pk}/advance/").status_code == 404
    assert other.get(f"/characters/{ch.pk}/ledger/").status_code == 404
    assert as_user(t["gm"]).get(f"/characters/{ch.pk}/advance/").status_code == 403
    assert LedgerEntry.objects.filter(character=ch, kind="award").count() == 1  # the starting budget only


def test_awards_page_quick_choice_goes_to_the_ticked_characters(t):
    ch = t["character"]
    other_ch = make_character(ruleset="maelstrom", owner=t["other"], campaign=t["campaign"])
    gm = as_user(t["gm"])
    page = parse_html(gm.get(f"/campaigns/{t['campaign'].pk}/awards/").content)
    quick = {b.attrs["value"] for b in page.find_all("button", name="quick")}
    assert quick == {
        "participation",
        "creativity",
        "roleplaying",
        "heroism",
        "victory",
        "hazard",
        "ingenuity",
    }
    r = gm.post(f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "quick": "heroism"})
    assert r.status_code == 302
    assert ledger_totals(character=ch)["xp"]["awarded"] == 31
    assert ledger_totals(character=other_ch)["xp"]["awarded"] == 30
    r = gm.post(
        f"/campaigns/{t['campaign'].pk}/awards/",
        {"characters": [ch.pk, other_ch.pk], "currency": "xp", "amount": "2", "reason": "Victory"},
    )
    assert r.status_code == 302
    assert [ledger_totals(character=c)["xp"]["awarded"] for c in (ch, other_ch)] == [33, 32]
    r = gm.post(
        f"/campaigns/{t['campaign'].pk}/awards/", {"characters": [ch.pk], "currency": "xp", "amount": "-2"}
    )
    assert r.status_code == 400 and b"whole number" in r.content
    ch.refresh_from_db()
    assert ch.build["budget"]["xp"] == 33 and ch.report["remaining"]["xp"] == 13


def test_ledger_page_shows_running_balances(t):
    ch = t["character"]
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency="xp", amount=5, reason="Hazard")
    page = parse_html(as_user(t["player"]).get(f"/characters/{ch.pk}/ledger/").content)
    rows = [[td.text.strip() for td in tr.find_all("td")] for tr in page.find_all("tbody")[1].find_all("tr")]
    owner = ch.owner.get_username()
    assert [(r[1], r[2], r[3]) for r in rows] == [
        (f"Created by {owner}: starting budget", "+30 XP", "30 XP"),
        (f"Submitted by {owner}: initial build", "−20 XP", "10 XP"),
        (f"Awarded by {t['gm'].get_username()}: Hazard", "+5 XP", "15 XP"),
    ]
    unspent = [n for n in page.iter() if n.attrs.get("data-testid") == "unspent-xp"][0].text
    assert unspent == "15"


def test_ascendant_level_up_from_advance_mode_shows_the_new_levels_choices(t):
    campaign = make_campaign(gm=t["gm"], ruleset="ascendant", players=[t["player"]])
    ch = make_character(ruleset="ascendant", owner=t["player"], campaign=campaign)
    svc.award_create(gm=t["gm"], character_id=ch.pk, currency="xp", amount=1000, reason="Milestone")
    player = as_user(t["player"])
    root = parse_html(player.get(f"/characters/{ch.pk}/advance/").content)
    due = [n for n in root.iter() if n.attrs.get("data-testid") == "level-due"]
    assert due and "level 2" in due[0].text
    fields = [(k, v) for k, v in form_fields(root.by_id("builder-form")) if k != "/level"] + [("/level", "2")]
    frag = parse_html(
        player.post(f"/characters/{ch.pk}/advance/", dict_of(fields), HTTP_HX_REQUEST="true").content
    )
    names = {n.attrs.get("name") for n in frag.iter()}
    assert {"/levels/2/feats/class", "/levels/2/feats/skill", "/levels/2/attributes/str"} <= names
    codes = {n.attrs.get("data-code") for n in frag.by_id("builder-errors").iter()}
    assert "ascendant.level_choices_missing" in codes  # what is due, before it can be requested
    cost = [n for n in frag.iter() if n.attrs.get("data-testid") == "cost-xp"][0].text
    assert cost == "1000"
