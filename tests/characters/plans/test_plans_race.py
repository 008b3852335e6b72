"""Races of plans on Postgres row locks (real threads, each its own connection): a followed step
requested twice at once is applied once; two plans approved at once leave one approved; a plan
approved while its rival's step is being followed leaves one plan in force and one spend."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from characters.advancement import services as adv_svc
from characters.advancement.selectors import ledger_totals
from characters.models import Advancement, Character, LedgerEntry, Plan
from characters.plans import services as svc
from config.errors import ApplicationError
from rulesets.engine import registry
from tests.characters.plans.test_plans import SLUG, _two_steps
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = [
    pytest.mark.skipif(connection.vendor == "sqlite", reason="the race needs Postgres row locks"),
    pytest.mark.django_db(transaction=True),
]


def _race(*calls):
    """Each call in its own thread, released together: [("ok", value) | (status code, exc)]."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            results[i] = ("ok", call())
        except ApplicationError as exc:
            results[i] = (exc.status_code, exc)
        except Exception as exc:  # noqa: BLE001 — reported by the assertions
            results[i] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    return results


def _setup():
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    character = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    one, two = _two_steps(registry.get(SLUG))
    adv_svc.award_create(
        gm=gm, character_id=character.pk, currency=one.currency, amount=one.cost + two.cost, reason="arc"
    )
    return gm, player, Character.objects.get(pk=character.pk), one, two


def _approved_plan(gm, player, character, builds, name="Plan"):
    plan = svc.plan_create(character_id=character.pk, user=player, name=name, steps=builds)
    svc.plan_submit(plan_id=plan.pk, user=player)
    return svc.plan_approve(plan_id=plan.pk, gm=gm)


def test_a_followed_step_requested_twice_at_once_is_applied_once():
    gm, player, character, one, two = _setup()
    plan = _approved_plan(gm, player, character, [one.build, two.build])
    unspent = ledger_totals(character=character)[one.currency]["unspent"]
    version = character.version
    results = _race(
        lambda: adv_svc.advancement_request(character_id=character.pk, user=player, build=one.build),
        lambda: adv_svc.advancement_request(character_id=character.pk, user=player, build=one.build),
    )
    kinds = sorted(str(r[0]) for r in results)
    assert kinds == ["422", "ok"], results  # the loser finds the build already the approved one
    won = next(r[1] for r in results if r[0] == "ok")
    assert won.status == "approved" and won.plan_id == plan.pk
    character.refresh_from_db()
    assert character.version == version + 1
    assert list(
        LedgerEntry.objects.filter(kind="spend", advancement__isnull=False).values_list("amount", flat=True)
    ) == [-one.cost]
    assert ledger_totals(character=character)[one.currency]["unspent"] == unspent - one.cost
    assert Plan.objects.get(pk=plan.pk).followed == 1
    assert Advancement.objects.filter(status="approved").count() == 1


def test_two_plans_approved_at_once_leave_exactly_one_approved():
    gm, player, character, one, two = _setup()
    a = svc.plan_create(character_id=character.pk, user=player, name="A", steps=[one.build])
    b = svc.plan_create(character_id=character.pk, user=player, name="B", steps=[one.build, two.build])
    svc.plan_submit(plan_id=a.pk, user=player)
    svc.plan_submit(plan_id=b.pk, user=player)
    results = _race(
        lambda: svc.plan_approve(plan_id=a.pk, gm=gm),
        lambda: svc.plan_approve(plan_id=b.pk, gm=gm),
    )
    assert [r[0] for r in results] == ["ok", "ok"], results
    statuses = sorted(Plan.objects.filter(character=character).values_list("status", flat=True))
    assert statuses == ["approved", "retired"]


def test_a_plan_approved_while_another_plans_step_is_followed_leaves_one_plan_and_one_spend():
    gm, player, character, one, two = _setup()
    first = _approved_plan(gm, player, character, [one.build, two.build], name="First")
    rival = svc.plan_create(character_id=character.pk, user=player, name="Rival", steps=[one.build])
    svc.plan_submit(plan_id=rival.pk, user=player)
    results = _race(
        lambda: adv_svc.advancement_request(character_id=character.pk, user=player, build=one.build),
        lambda: svc.plan_approve(plan_id=rival.pk, gm=gm),
    )
    request, approval = results
    assert request[0] == "ok" and request[1].status == "approved", results
    plans = dict(Plan.objects.filter(character=character).values_list("name", "status"))
    if approval[0] == "ok":  # the rival was approved first: the request followed it to its end
        assert plans == {"First": "retired", "Rival": "done"} and request[1].plan_id == rival.pk
    else:  # the request came first: the rival was priced on a build that is gone
        assert approval[0] == 409 and plans == {"First": "approved", "Rival": "pending"}, results
        assert request[1].plan_id == first.pk
    assert LedgerEntry.objects.filter(kind="spend", advancement__isnull=False).count() == 1
    assert Plan.objects.filter(character=character, status="approved").count() <= 1
