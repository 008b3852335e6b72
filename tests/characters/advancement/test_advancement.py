"""Awards → request → approve / reject / revert, per ruleset, through the API; the ledger invariant after every step."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, Character, CharacterVersion, LedgerEntry
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db


def _advanced(ruleset: str) -> dict:
    """A valid next build of BUILDS[ruleset] and what it is known to cost."""
    b = copy.deepcopy(BUILDS[ruleset])
    if ruleset == "pando":
        b["attributes"]["strength"] = 3  # 2→3 costs 2×3 = 6 CP
        b["skills"].append("athletics")  # a level 2 skill: 2 CP
    elif ruleset == "maelstrom":
        b["abilities"]["firearms"] = 2  # the 2nd dot: 2×2 = 4 XP
    elif ruleset == "paragon":
        b["skills"]["melee"] = 2  # r(r+1)/2: 3 − 1 = 2 skill points
    elif ruleset == "ascendant":
        b["level"] = 2  # level 2 uses 1000 XP
        b["levels"]["2"] = {
            "attributes": {"str": 1, "dex": 1, "cha": 1},
            "feats": {"class": "widen_spell", "archetype": "sentinel_dedication", "skill": "recognize_spell"},
        }
    elif ruleset == "ourdnd":
        b["stats"]["dex"] = 1  # 1 point
    return b


#: ruleset → (currency, award, cost of _advanced)
FLOWS = {
    "pando": ("cp", 10, 8),
    "maelstrom": ("xp", 7, 4),
    "paragon": ("skill_points", 3, 2),
    "ascendant": ("xp", 1000, 1000),
    "ourdnd": ("points", 1, 1),
}


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


@pytest.mark.parametrize("ruleset", sorted(FLOWS))
def test_award_request_approve_applies_the_build_and_books_the_spend(table, ruleset):
    currency, award, cost = FLOWS[ruleset]
    character = _character(table, ruleset)
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
        {"build": _advanced(ruleset), "note": "training"},
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
        **_advanced(ruleset),
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


@pytest.mark.parametrize("ruleset", sorted(FLOWS))
def test_a_rejected_request_applies_nothing_and_books_nothing(table, ruleset):
    currency, award, _ = FLOWS[ruleset]
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
        f"/api/v1/characters/{character.pk}/advancements/", {"build": _advanced(ruleset)}, format="json"
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
    character = _character(table, "maelstrom")
    svc.award_create(gm=table["gm"], character_id=character.pk, currency="xp", amount=7, reason="story")
    character.refresh_from_db()
    old_build = copy.deepcopy(character.build)
    balance = ledger_totals(character=character)["xp"]["unspent"]
    adv = svc.advancement_request(
        character_id=character.pk, user=table["player"], build=_advanced("maelstrom")
    )
    svc.advancement_approve(advancement_id=adv.pk, gm=table["gm"])
    assert ledger_totals(character=character)["xp"]["unspent"] == balance - 4
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
    assert character.build["abilities"] == old_build["abilities"]
    assert CharacterVersion.objects.filter(character=character).count() == applied + 1  # nothing deleted
    rows = list(LedgerEntry.objects.filter(advancement=adv).order_by("id").values_list("kind", "amount"))
    assert rows == [("spend", -4), ("reversal", 4)]
    assert ledger_totals(character=character)["xp"]["unspent"] == balance
    assert_invariant(character)
    assert (
        gm.post(f"/api/v1/advancements/{adv.pk}/revert/", {"reason": "again"}, format="json").status_code
        == 409
    )


def test_only_the_latest_change_can_be_reverted(table):
    character = _character(table, "ourdnd")
    svc.award_create(gm=table["gm"], character_id=character.pk, currency="points", amount=2, reason="m")
    first = _advanced("ourdnd")
    a = svc.advancement_request(character_id=character.pk, user=table["player"], build=first)
    svc.advancement_approve(advancement_id=a.pk, gm=table["gm"])
    second = copy.deepcopy(first)
    second["stats"]["wis"] = 1
    b = svc.advancement_request(character_id=character.pk, user=table["player"], build=second)
    svc.advancement_approve(advancement_id=b.pk, gm=table["gm"])
    r = api_client(table["gm"]).post(f"/api/v1/advancements/{a.pk}/revert/", {"reason": "no"}, format="json")
    assert r.status_code == 409
    assert f"advancement #{b.pk}" in r.json()["detail"]
    assert Advancement.objects.get(pk=a.pk).status == "approved"
    assert_invariant(character)


def test_paragon_power_level_rise_is_a_warning_the_gm_sees(table):
    character = _character(table, "paragon")
    build = copy.deepcopy(BUILDS["paragon"])
    build["power_level"] = 3  # 25 force points, one more than before to spend on fire
    build["forces"]["fire"] = 2
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    assert r.status_code == 201, r.json()
    codes = [w["code"] for w in r.json()["report"]["warnings"]]
    assert "paragon.power_level_changed" in codes
    assert r.json()["cost"] == {"force_points": 2, "skill_points": 0}
    page = _gm_review_page(table, character)
    assert "paragon.power_level_changed" in page
    svc.advancement_approve(advancement_id=r.json()["id"], gm=table["gm"])
    character.refresh_from_db()
    assert character.build["power_level"] == 3
    assert not LedgerEntry.objects.filter(
        character=character, currency="force_points"
    ).exists()  # not awardable
    assert_invariant(character)


def _gm_review_page(table, character) -> str:
    from django.test import Client

    client = Client()
    client.force_login(table["gm"])
    r = client.get(f"/campaigns/{character.campaign_id}/review/")
    assert r.status_code == 200
    return r.content.decode()


@pytest.mark.parametrize(
    "ruleset, change, code",
    [
        (
            "pando",
            lambda b: b["resistances"].update(awareness="rationality", insight="presence"),
            "resistance.mapping_changed",
        ),
        ("maelstrom", lambda b: b["abilities"].update(investigation=3), "advancement.decrease"),
        ("ascendant", lambda b: b.update(level=2), "ascendant.level_choices_missing"),
        ("ourdnd", lambda b: b["stats"].update(dex=6), "budget.exceeded"),
    ],
)
def test_an_invalid_request_is_refused_with_the_rules_errors(table, ruleset, change, code):
    character = _character(table, ruleset)
    svc.award_create(
        gm=table["gm"],
        character_id=character.pk,
        currency=FLOWS[ruleset][0],
        amount=FLOWS[ruleset][1],
        reason="x",
    )
    build = copy.deepcopy(BUILDS[ruleset])
    change(build)
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    assert r.status_code == 422, r.json()
    assert code in [e["code"] for e in r.json()["errors"]]
    assert not Advancement.objects.filter(character=character).exists()


def test_a_new_request_supersedes_the_pending_one(table):
    character = _character(table, "ourdnd")
    svc.award_create(gm=table["gm"], character_id=character.pk, currency="points", amount=2, reason="m")
    a = svc.advancement_request(character_id=character.pk, user=table["player"], build=_advanced("ourdnd"))
    build = _advanced("ourdnd")
    build["stats"]["int"] = 1
    b = svc.advancement_request(character_id=character.pk, user=table["player"], build=build, note="both")
    assert Advancement.objects.get(pk=a.pk).status == "withdrawn"
    assert b.cost == {"points": 2}
    assert list(Advancement.objects.filter(character=character, status="pending")) == [b]


def test_no_change_and_drafts_cannot_be_requested(table):
    character = _character(table, "pando")
    player = api_client(table["player"])
    r = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": BUILDS["pando"]}, format="json"
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "advancement.no_change"
    draft = make_character(
        ruleset="pando", owner=table["player"], campaign=character.campaign, status="draft"
    )
    r = player.post(
        f"/api/v1/characters/{draft.pk}/advancements/", {"build": _advanced("pando")}, format="json"
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "character.not_active"
    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": [1, 2]}, format="json")
    assert r.status_code == 400


def test_party_award_is_one_row_per_active_character(table):
    campaign = make_campaign(gm=table["gm"], ruleset="maelstrom", players=[table["player"], table["other"]])
    a = make_character(ruleset="maelstrom", owner=table["player"], campaign=campaign)
    b = make_character(ruleset="maelstrom", owner=table["other"], campaign=campaign)
    draft = make_character(ruleset="maelstrom", owner=table["other"], campaign=campaign, status="draft")
    r = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{campaign.pk}/awards/",
        {"currency": "xp", "amount": 1, "reason": "Victory"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    assert sorted(e["character"] for e in r.json()["entries"]) == sorted([a.pk, b.pk])
    assert not LedgerEntry.objects.filter(character=draft, reason="Victory").exists()
    for c in (a, b):
        assert ledger_totals(character=c)["xp"]["awarded"] == 31
        assert_invariant(c)


@pytest.mark.parametrize(
    "body",
    [
        {"currency": "xp", "amount": 0, "reason": "x"},
        {"currency": "xp", "amount": -3, "reason": "x"},
        {"currency": "xp", "amount": 1.5, "reason": "x"},
        {"currency": "xp", "amount": "lots", "reason": "x"},
        {"currency": "cp", "amount": 1, "reason": "x"},
        {"amount": 1},
    ],
)
def test_bad_awards_are_400_and_book_nothing(table, body):
    character = _character(table, "maelstrom")
    rows = LedgerEntry.objects.count()
    r = api_client(table["gm"]).post(f"/api/v1/characters/{character.pk}/awards/", body, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["errors"]
    assert LedgerEntry.objects.count() == rows


def test_paragon_awards_only_skill_points(table):
    character = _character(table, "paragon")
    gm = api_client(table["gm"])
    r = gm.post(
        f"/api/v1/characters/{character.pk}/awards/",
        {"currency": "force_points", "amount": 5, "reason": "x"},
        format="json",
    )
    assert r.status_code == 400
    assert "skill_points" in r.json()["detail"]
    r = gm.post(
        f"/api/v1/characters/{character.pk}/awards/",
        {"currency": "skill_points", "amount": 3, "reason": "Training"},
        format="json",
    )
    assert r.status_code == 201
    assert_invariant(character)
