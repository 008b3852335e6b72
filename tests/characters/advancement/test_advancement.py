"""Awards → request → approve / reject / revert, per ruleset, through the API; the ledger invariant after every step."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, Character, CharacterVersion, LedgerEntry
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db


#: Every registered ruleset with an advancement of its sheet character (tests/vehicles.py ``advance``).
ADVANCING = vehicles.every(vehicles.advance)
#: The first of them, the vehicle of the tests that need one ruleset.
SLUG = ADVANCING[0]
#: The first ruleset whose sheet character advances twice in a row (a second advance on the first).
TWICE = vehicles.first(
    lambda rs: (first := vehicles.advance(rs)) is not None and vehicles.advance(rs, first.build) is not None,
    "a ruleset whose sheet character advances twice",
)


def _advance(slug: str, build: dict | None = None) -> vehicles.Advance:
    found = vehicles.advance(registry.get(slug), build)
    assert found is not None, slug
    return found


@pytest.fixture
def table(db):
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    return {"gm": gm, "player": player, "other": other, "stranger": stranger}


def _character(table, ruleset):
    campaign = make_campaign(gm=table["gm"], ruleset=ruleset, players=[table["player"], table["other"]])
    return make_character(ruleset=ruleset, owner=table["player"], campaign=campaign)


def assert_invariant(character: Character) -> None:
    """The ledger's unspent is the approved build's report remaining, per awardable currency."""
    character.refresh_from_db()
    totals = ledger_totals(character=character)
    assert totals, "an awardable currency is always in the ledger"
    for currency, line in totals.items():
        assert line["unspent"] == character.report["remaining"][currency], (currency, line, character.report)
        assert line["awarded"] == character.build["budget"][currency]
        assert line["spent"] == character.report["spent"][currency]


@pytest.mark.parametrize("ruleset", ADVANCING)
def test_award_request_approve_applies_the_build_and_books_the_spend(table, ruleset):
    wanted = _advance(ruleset)
    currency, cost = wanted.currency, wanted.cost
    character = _character(table, ruleset)
    award = max(1, cost - ledger_totals(character=character)[currency]["unspent"])  # what it lacks
    assert_invariant(character)
    before = ledger_totals(character=character)[currency]
    gm, player = api_client(table["gm"]), api_client(table["player"])

    r = gm.post(
        f"/api/v1/characters/{character.pk}/awards/",
        {"currency": currency, "amount": award, "reason": "chapter 1"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert r.json()["kind"] == "award" and r.json()["amount"] == award and r.json()["currency"] == currency
    assert_invariant(character)
    assert ledger_totals(character=character)[currency]["unspent"] == before["unspent"] + award

    r = player.post(
        f"/api/v1/characters/{character.pk}/advancements/",
        {"build": wanted.build, "note": "training"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "pending"
    assert body["cost"][currency] == cost
    assert body["report"]["valid"] is True
    assert body["diff"] and all({"path", "label", "old", "new"} <= set(row) for row in body["diff"])
    assert sum(row["cost"].get(currency, 0) for row in body["diff"]) == cost
    version = Character.objects.get(pk=character.pk).version

    queue = gm.get(f"/api/v1/advancements/?campaign={character.campaign_id}&status=pending").json()
    assert [a["id"] for a in queue] == [body["id"]]

    r = gm.post(f"/api/v1/advancements/{body['id']}/approve/", {"comment": "well earned"}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "approved"
    character.refresh_from_db()
    assert character.version == version + 1
    assert character.build == {
        **wanted.build,
        "format": "sheetforge.build/1",
        "budget": {**character.build["budget"]},
    }
    assert (
        CharacterVersion.objects.get(character=character, number=character.version).reason
        == f"advancement #{body['id']}"
    )
    spends = list(LedgerEntry.objects.filter(advancement_id=body["id"]))
    assert [(s.kind, s.currency, s.amount, s.version) for s in spends] == [
        ("spend", currency, -cost, character.version)
    ]
    after = ledger_totals(character=character)[currency]
    assert after["unspent"] == before["unspent"] + award - cost
    assert after["spent"] == before["spent"] + cost
    assert_invariant(character)
    ledger = player.get(f"/api/v1/characters/{character.pk}/ledger/").json()
    assert ledger["balance"][currency] == after["unspent"]
    assert ledger["entries"][-1]["balance"] == after["unspent"] and ledger["entries"][-1]["amount"] == -cost
    assert Advancement.objects.get(pk=body["id"]).applied_version == character.version


@pytest.mark.parametrize("ruleset", ADVANCING)
def test_a_rejected_request_applies_nothing_and_books_nothing(table, ruleset):
    wanted = _advance(ruleset)
    currency, award = wanted.currency, wanted.cost
    character = _character(table, ruleset)
    svc.award_create(gm=table["gm"], character_id=character.pk, currency=currency, amount=award, reason="x")
    character.refresh_from_db()
    build, version, rows = (
        character.build,
        character.version,
        LedgerEntry.objects.filter(character=character).count(),
    )
    gm, player = api_client(table["gm"]), api_client(table["player"])
    adv = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": wanted.build}, format="json"
    ).json()
    r = gm.post(f"/api/v1/advancements/{adv['id']}/reject/", {"comment": ""}, format="json")
    assert r.status_code == 400  # a rejection needs its reason
    r = gm.post(
        f"/api/v1/advancements/{adv['id']}/reject/", {"comment": "Not before the ritual."}, format="json"
    )
    assert r.status_code == 200 and r.json()["status"] == "rejected"
    assert r.json()["review_comment"] == "Not before the ritual."
    character.refresh_from_db()
    assert (character.build, character.version) == (build, version)
    assert LedgerEntry.objects.filter(character=character).count() == rows
    assert not LedgerEntry.objects.filter(
        character=character, kind="spend", advancement__isnull=False
    ).exists()
    assert gm.post(f"/api/v1/advancements/{adv['id']}/approve/", {}, format="json").status_code == 409
    assert_invariant(character)


def test_revert_makes_a_new_version_with_reversal_rows_and_restores_the_balance(table):
    wanted = _advance(SLUG)
    xp, cost = wanted.currency, wanted.cost
    character = _character(table, SLUG)
    svc.award_create(gm=table["gm"], character_id=character.pk, currency=xp, amount=cost, reason="story")
    character.refresh_from_db()
    old_build = copy.deepcopy(character.build)
    balance = ledger_totals(character=character)[xp]["unspent"]
    adv = svc.advancement_request(character_id=character.pk, user=table["player"], build=wanted.build)
    svc.advancement_approve(advancement_id=adv.pk, gm=table["gm"])
    assert ledger_totals(character=character)[xp]["unspent"] == balance - cost
    applied = Character.objects.get(pk=character.pk).version

    gm = api_client(table["gm"])
    assert gm.post(f"/api/v1/advancements/{adv.pk}/revert/", {}, format="json").status_code == 400
    assert (
        api_client(table["player"])
        .post(f"/api/v1/advancements/{adv.pk}/revert/", {"reason": "oops"}, format="json")
        .status_code
        == 403
    )
    r = gm.post(f"/api/v1/advancements/{adv.pk}/revert/", {"reason": "misread the rules"}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "reverted"
    character.refresh_from_db()
    assert character.version == applied + 1
    assert {k: v for k, v in character.build.items() if k != "budget"} == {
        k: v for k, v in old_build.items() if k != "budget"
    }
    assert CharacterVersion.objects.filter(character=character).count() == applied + 1  # nothing deleted
    rows = list(LedgerEntry.objects.filter(advancement=adv).order_by("id").values_list("kind", "amount"))
    assert rows == [("spend", -cost), ("reversal", cost)]
    assert ledger_totals(character=character)[xp]["unspent"] == balance
    assert_invariant(character)
    assert (
        gm.post(f"/api/v1/advancements/{adv.pk}/revert/", {"reason": "again"}, format="json").status_code
        == 409
    )


def test_only_the_latest_change_can_be_reverted(table):
    first = _advance(TWICE)
    second = _advance(TWICE, first.build)
    character = _character(table, TWICE)
    svc.award_create(
        gm=table["gm"],
        character_id=character.pk,
        currency=first.currency,
        amount=first.cost + second.cost,
        reason="m",
    )
    a = svc.advancement_request(character_id=character.pk, user=table["player"], build=first.build)
    svc.advancement_approve(advancement_id=a.pk, gm=table["gm"])
    b = svc.advancement_request(character_id=character.pk, user=table["player"], build=second.build)
    svc.advancement_approve(advancement_id=b.pk, gm=table["gm"])
    r = api_client(table["gm"]).post(f"/api/v1/advancements/{a.pk}/revert/", {"reason": "no"}, format="json")
    assert r.status_code == 409
    assert f"advancement #{b.pk}" in r.json()["detail"]
    assert Advancement.objects.get(pk=a.pk).status == "approved"
    assert_invariant(character)


def _gm_review_page(table, character) -> str:
    from django.test import Client

    client = Client()
    client.force_login(table["gm"])
    r = client.get(f"/campaigns/{character.campaign_id}/review/")
    assert r.status_code == 200
    return r.content.decode()


def test_a_new_request_supersedes_the_pending_one(table):
    first = _advance(TWICE)
    both = _advance(TWICE, first.build)  # the first change and one more
    currency, total = first.currency, first.cost + both.cost
    character = _character(table, TWICE)
    svc.award_create(gm=table["gm"], character_id=character.pk, currency=currency, amount=total, reason="m")
    a = svc.advancement_request(character_id=character.pk, user=table["player"], build=first.build)
    b = svc.advancement_request(
        character_id=character.pk, user=table["player"], build=both.build, note="both"
    )
    assert Advancement.objects.get(pk=a.pk).status == "withdrawn"
    assert b.cost == {c: total if c == currency else 0 for c in registry.get(TWICE).currencies}
    assert list(Advancement.objects.filter(character=character, status="pending")) == [b]


def test_no_change_and_drafts_cannot_be_requested(table):
    character = _character(table, SLUG)
    player = api_client(table["player"])
    r = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": BUILDS[SLUG]}, format="json"
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "advancement.no_change"
    draft = make_character(ruleset=SLUG, owner=table["player"], campaign=character.campaign, status="draft")
    r = player.post(
        f"/api/v1/characters/{draft.pk}/advancements/", {"build": _advance(SLUG).build}, format="json"
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "character.not_active"
    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": [1, 2]}, format="json")
    assert r.status_code == 400


def test_party_award_is_one_row_per_active_character(table):
    xp = vehicles.awardable(registry.get(SLUG))
    campaign = make_campaign(gm=table["gm"], ruleset=SLUG, players=[table["player"], table["other"]])
    a = make_character(ruleset=SLUG, owner=table["player"], campaign=campaign)
    b = make_character(ruleset=SLUG, owner=table["other"], campaign=campaign)
    draft = make_character(ruleset=SLUG, owner=table["other"], campaign=campaign, status="draft")
    starting = BUILDS[SLUG]["budget"][xp]
    r = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{campaign.pk}/awards/",
        {"currency": xp, "amount": 1, "reason": "Victory"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert sorted(e["character"] for e in r.json()["entries"]) == sorted([a.pk, b.pk])
    assert not LedgerEntry.objects.filter(character=draft, reason="Victory").exists()
    for c in (a, b):
        assert ledger_totals(character=c)[xp]["awarded"] == starting + 1
        assert_invariant(c)


XP = vehicles.awardable(registry.get(SLUG))
#: Another ruleset's currency, not one of this ruleset's.
THEIRS = next(
    c for rs in registry.all_rulesets() for c in rs.currencies if c not in registry.get(SLUG).currencies
)


@pytest.mark.parametrize(
    "body",
    [
        {"currency": XP, "amount": 0, "reason": "x"},
        {"currency": XP, "amount": -3, "reason": "x"},
        {"currency": XP, "amount": 1.5, "reason": "x"},
        {"currency": XP, "amount": "lots", "reason": "x"},
        {"currency": THEIRS, "amount": 1, "reason": "x"},
        {"amount": 1},
    ],
)
def test_bad_awards_are_400_and_book_nothing(table, body):
    character = _character(table, SLUG)
    rows = LedgerEntry.objects.count()
    r = api_client(table["gm"]).post(f"/api/v1/characters/{character.pk}/awards/", body, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["errors"]
    assert LedgerEntry.objects.count() == rows


def test_a_currency_the_ruleset_does_not_award_is_refused_naming_the_one_it_does(table):
    slug = vehicles.first(
        lambda rs: set(rs.currencies) - set(rs.awardable_currencies) and rs.awardable_currencies,
        "a ruleset with a currency it does not award",
    )
    ruleset = registry.get(slug)
    kept = next(c for c in ruleset.currencies if c not in ruleset.awardable_currencies)
    character = _character(table, slug)
    gm = api_client(table["gm"])
    r = gm.post(
        f"/api/v1/characters/{character.pk}/awards/",
        {"currency": kept, "amount": 5, "reason": "x"},
        format="json",
    )
    assert r.status_code == 400
    assert all(c in r.json()["detail"] for c in ruleset.awardable_currencies)
    r = gm.post(
        f"/api/v1/characters/{character.pk}/awards/",
        {"currency": ruleset.awardable_currencies[0], "amount": 3, "reason": "Training"},
        format="json",
    )
    assert r.status_code == 201
    assert_invariant(character)
