"""Races and rights: two approvals for the same points (real threads, Postgres row locks), stale requests, 403/404."""

from __future__ import annotations

import copy
import threading

import pytest
from django.db import connection

from characters.advancement import services as svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, Character, CharacterVersion, LedgerEntry
from config.api import Conflict
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import BUILDS, make_character
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.skipif(
    connection.vendor == "sqlite", reason="the race needs Postgres row locks (make test's SQLite fallback)"
)


def _two_raises(ruleset):
    """Two of the builder's numbers of the sheet character, A and B, each raised by the same steps
    until the two cost more than it has unspent: (A, B, the award that makes each affordable alone
    but not both), or None."""
    pointers = vehicles.raisable(ruleset)
    if len(pointers) < 2:
        return None
    unspent = ruleset.validate(BUILDS[ruleset.slug]).remaining
    for steps in range(1, 10):
        a, b = (vehicles.raised(ruleset, p, steps) for p in pointers[:2])
        if a is None or b is None or a.currency != b.currency:
            return None
        if a.cost + b.cost > unspent.get(a.currency, 0):
            award = max(1, max(a.cost, b.cost) - unspent.get(a.currency, 0))
            if unspent.get(a.currency, 0) + award < a.cost + b.cost:
                return a, b, award
    return None


#: The first registered ruleset whose sheet character has two such numbers.
SLUG = vehicles.first(_two_raises, "a ruleset whose sheet character raises two numbers")
A, B, AWARD = _two_raises(registry.get(SLUG))
CP = A.currency
#: One number raised by one: the request of the tests that need one.
ONE = vehicles.raised(registry.get(SLUG), next(iter(A.changes)))
#: The other raised by one on top of it.
BOTH = vehicles.raised(registry.get(SLUG), next(iter(B.changes)), 1, ONE.build)
START, SPENT = BUILDS[SLUG]["budget"][CP], registry.get(SLUG).validate(BUILDS[SLUG]).spent.get(CP, 0)
UNSPENT = START + AWARD - SPENT  # after the setup's award


def _setup():
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player, other])
    character = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    svc.award_create(gm=gm, character_id=character.pk, currency=CP, amount=AWARD, reason="arc")
    return gm, player, other, stranger, campaign, character


def _race(*calls):
    """Run each call in its own thread, released together; [("ok", value) | ("conflict", exc)]."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            results[i] = ("ok", call())
        except Conflict as exc:
            results[i] = ("conflict", exc)
        except Exception as exc:  # noqa: BLE001 — reported by the assertion below
            results[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_the_same_request_approved_twice_at_once_applies_once():
    gm, player, _, _, _, character = _setup()
    adv = svc.advancement_request(character_id=character.pk, user=player, build=ONE.build)
    version = Character.objects.get(pk=character.pk).version
    results = _race(
        lambda: svc.advancement_approve(advancement_id=adv.pk, gm=gm),
        lambda: svc.advancement_approve(advancement_id=adv.pk, gm=gm),
    )
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    character.refresh_from_db()
    assert character.version == version + 1
    assert list(LedgerEntry.objects.filter(advancement=adv).values_list("amount", flat=True)) == [-ONE.cost]
    assert ledger_totals(character=character)[CP]["unspent"] == UNSPENT - ONE.cost
    assert character.report["remaining"][CP] == UNSPENT - ONE.cost
    assert CharacterVersion.objects.filter(character=character, reason=f"advancement #{adv.pk}").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_requests_each_affordable_alone_but_not_together_one_wins_one_gets_409():
    gm, player, _, _, _, character = _setup()
    a_build, b_build = A.build, B.build  # each affordable with the unspent points, not both
    assert max(A.cost, B.cost) <= UNSPENT < A.cost + B.cost
    a = svc.advancement_request(character_id=character.pk, user=player, build=a_build)
    # Two pending at once (as from an older client that did not supersede): both priced on the same version.
    b = Advancement.objects.create(
        character=character,
        requested_by=player,
        base_version=a.base_version,
        build=b_build,
        diff=[],
        cost={CP: B.cost},
        report={},
    )
    Advancement.objects.filter(pk=a.pk).update(status="pending")
    before = Character.objects.get(pk=character.pk)
    results = _race(
        lambda: svc.advancement_approve(advancement_id=a.pk, gm=gm),
        lambda: svc.advancement_approve(advancement_id=b.pk, gm=gm),
    )
    assert sorted(r[0] for r in results) == ["conflict", "ok"], results
    loser = next(r[1] for r in results if r[0] == "conflict")
    assert "stale" in str(loser.detail)
    character.refresh_from_db()
    assert character.version == before.version + 1
    assert (
        LedgerEntry.objects.filter(character=character, kind="spend", advancement__isnull=False).count() == 1
    )
    winner = Advancement.objects.get(pk__in=[a.pk, b.pk], status="approved")
    won = A if winner.pk == a.pk else B
    assert ledger_totals(character=character)[CP]["unspent"] == UNSPENT - won.cost
    statuses = sorted(Advancement.objects.filter(pk__in=[a.pk, b.pk]).values_list("status", flat=True))
    assert statuses == ["approved", "pending"]
    assert {k: v for k, v in character.build.items() if k != "budget"} == {
        k: v for k, v in won.build.items() if k != "budget"
    } | {"format": character.build["format"]}


@pytest.mark.django_db
def test_a_request_made_stale_by_another_approved_change_is_refused_with_the_reason():
    gm, player, _, _, _, character = _setup()
    x = svc.advancement_request(character_id=character.pk, user=player, build=ONE.build)
    svc.advancement_approve(advancement_id=x.pk, gm=gm)
    a = svc.advancement_request(character_id=character.pk, user=player, build=BOTH.build)
    svc.advancement_revert(advancement_id=x.pk, gm=gm, reason="wrong skill")
    snapshot = Character.objects.get(pk=character.pk)
    rows = LedgerEntry.objects.count()
    r = api_client(gm).post(f"/api/v1/advancements/{a.pk}/approve/", {}, format="json")
    assert r.status_code == 409
    assert "stale" in r.json()["detail"] and "re-submit" in r.json()["detail"]
    after = Character.objects.get(pk=character.pk)
    assert (after.version, after.build) == (snapshot.version, snapshot.build)
    assert LedgerEntry.objects.count() == rows
    assert Advancement.objects.get(pk=a.pk).status == "pending"


@pytest.mark.django_db
def test_play_state_changes_and_awards_do_not_make_a_request_stale():
    gm, player, _, _, _, character = _setup()
    a = svc.advancement_request(character_id=character.pk, user=player, build=ONE.build)
    from characters.sheet.services import character_update_state

    c = Character.objects.get(pk=character.pk)
    character_update_state(character_id=c.pk, user=player, state=c.state, version=c.version)
    svc.award_create(gm=gm, character_id=character.pk, currency=CP, amount=1, reason="bonus")
    assert svc.advancement_approve(advancement_id=a.pk, gm=gm).status == "approved"


@pytest.mark.django_db
def test_players_cannot_review_award_themselves_or_see_other_queues():
    gm, player, other, stranger, campaign, character = _setup()
    build = copy.deepcopy(ONE.build)
    adv = svc.advancement_request(character_id=character.pk, user=player, build=build)
    me, them, outsider = api_client(player), api_client(other), api_client(stranger)
    assert me.post(f"/api/v1/advancements/{adv.pk}/approve/", {}, format="json").status_code == 403
    assert (
        me.post(f"/api/v1/advancements/{adv.pk}/reject/", {"comment": "no"}, format="json").status_code == 403
    )
    assert (
        me.post(
            f"/api/v1/characters/{character.pk}/awards/",
            {"currency": CP, "amount": 50, "reason": "me"},
            format="json",
        ).status_code
        == 403
    )
    assert (
        me.post(
            f"/api/v1/campaigns/{campaign.pk}/awards/", {"currency": CP, "amount": 50}, format="json"
        ).status_code
        == 403
    )
    assert them.post(f"/api/v1/advancements/{adv.pk}/approve/", {}, format="json").status_code == 404
    assert them.get(f"/api/v1/advancements/{adv.pk}/").status_code == 404
    assert (
        them.post(
            f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
        ).status_code
        == 404
    )
    assert (
        api_client(gm)
        .post(f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json")
        .status_code
        == 403
    )
    assert outsider.get(f"/api/v1/advancements/?campaign={campaign.pk}&status=pending").status_code == 404
    assert outsider.get(f"/api/v1/characters/{character.pk}/ledger/").status_code == 404
    assert (
        them.get(f"/api/v1/advancements/?campaign={campaign.pk}&status=pending").json() == []
    )  # not the GM's queue
    assert [a["id"] for a in me.get(f"/api/v1/advancements/?campaign={campaign.pk}").json()] == [adv.pk]
    assert api_client(None).get("/api/v1/advancements/").status_code in (401, 403)
    assert ledger_totals(character=character)[CP]["awarded"] == START + AWARD
    assert Advancement.objects.get(pk=adv.pk).status == "pending"
