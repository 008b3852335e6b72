"""Plans through the API: saved and priced step by step, reviewed by the GM as a whole, followed
(approved when requested, a ledger row naming the plan), departed from (off course), made different
or outdated by a house rule (the GM reviews it; nothing approved), and the wrong users."""

from __future__ import annotations

import copy

import pytest

from characters.advancement import services as adv_svc
from characters.advancement.selectors import ledger_totals
from characters.campaigns.services import campaign_remove_player
from characters.models import Advancement, Character, LedgerEntry, Plan
from rulesets.engine import registry, validate
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db


def _two_steps(ruleset):
    """Two advancements of the sheet character one after the other, in one currency, or None."""
    first = vehicles.advance(ruleset)
    second = vehicles.advance(ruleset, first.build) if first else None
    if second is None or second.currency != first.currency:
        return None
    return first, second


def _house_rule(ruleset, test) -> tuple[str, object] | None:
    """A house rule (a top-level number of the ruleset's house defaults, set to 0…12) under which
    ``test(settings)`` holds, or None."""
    for key, default in ruleset.house_defaults.items():
        if default is not None and (not isinstance(default, int) or isinstance(default, bool)):
            continue
        for value in range(0, 13):
            if value != default and test({key: value}):
                return key, value
    return None


def _refusing_step_two(ruleset):
    """A house rule under which the sheet character and step 1 stay legal and step 2 is refused."""
    steps = _two_steps(ruleset)
    if steps is None:
        return None
    base = vehicles.sheet_build(ruleset)

    def refuses(settings):
        ok = validate(base, settings=settings, slug=ruleset.slug).valid
        one = validate(steps[0].build, settings=settings, slug=ruleset.slug, phase="approval", previous=base)
        two = validate(
            steps[1].build, settings=settings, slug=ruleset.slug, phase="approval", previous=steps[0].build
        )
        other = [i for i in two.errors if i.code != "budget.exceeded"]
        return ok and one.valid and bool(other)

    return _house_rule(ruleset, refuses)


def _repricing_step_one(ruleset):
    """A house rule under which step 1 is still legal and affordable but costs otherwise."""
    steps = _two_steps(ruleset)
    if steps is None:
        return None
    base = vehicles.sheet_build(ruleset)

    def legal(report):  # points aside: the test awards what it takes
        return not [i for i in report.errors if i.code != "budget.exceeded"]

    def reprices(settings):
        now = validate(base, settings=settings, slug=ruleset.slug)
        one = validate(steps[0].build, settings=settings, slug=ruleset.slug, phase="approval", previous=base)
        cost = one.spent.get(steps[0].currency, 0) - now.spent.get(steps[0].currency, 0)
        return legal(now) and legal(one) and 0 < cost != steps[0].cost

    return _house_rule(ruleset, reprices)


SLUG = vehicles.first(lambda rs: _two_steps(rs) is not None, "a ruleset whose character advances twice")
OUTDATING = vehicles.first(
    lambda rs: _refusing_step_two(rs) is not None, "a house rule refusing a plan's step"
)
REPRICING = vehicles.first(lambda rs: _repricing_step_one(rs) is not None, "a house rule repricing a step")


@pytest.fixture
def table():
    gm, player, other, stranger = make_user(), make_user(), make_user(), make_user()
    return {"gm": gm, "player": player, "other": other, "stranger": stranger}


def _character(table, slug=SLUG, award=1):
    campaign = make_campaign(gm=table["gm"], ruleset=slug, players=[table["player"], table["other"]])
    character = make_character(ruleset=slug, owner=table["player"], campaign=campaign)
    one, two = _two_steps(registry.get(slug))
    if award:  # enough for both steps (``award`` times over)
        amount = award * (one.cost + two.cost)
        adv_svc.award_create(
            gm=table["gm"], character_id=character.pk, currency=one.currency, amount=amount, reason="arc"
        )
    character.refresh_from_db()
    return character, one, two


def _plan(table, character, one, two, *, approve=True):
    player, gm = api_client(table["player"]), api_client(table["gm"])
    r = player.post(
        f"/api/v1/characters/{character.pk}/plans/",
        {"name": "Road to the crown", "steps": [one.build, two.build]},
        format="json",
    )
    assert r.status_code == 201, r.json()
    plan = r.json()
    if approve:
        assert player.post(f"/api/v1/plans/{plan['id']}/submit/").status_code == 200
        r = gm.post(f"/api/v1/plans/{plan['id']}/approve/", {"comment": "Good"}, format="json")
        assert r.status_code == 200, r.json()
        plan = r.json()
    return plan


def test_a_plan_is_saved_with_each_step_priced_against_the_one_before(table):
    character, one, two = _character(table, award=0)
    plan = _plan(table, character, one, two, approve=False)
    assert plan["status"] == "draft" and plan["name"] == "Road to the crown" and plan["comment"] == ""
    assert [s["cost"] for s in plan["steps"]] == [{one.currency: one.cost}, {one.currency: two.cost}]
    assert [s["report"]["valid"] for s in plan["steps"]] == [True, True]
    # Points not awarded yet do not refuse a plan: the step says what it needs beyond them.
    unspent = ledger_totals(character=character)[one.currency]["unspent"]
    assert plan["steps"][1]["needs"] == (
        {one.currency: one.cost + two.cost - unspent} if one.cost + two.cost > unspent else {}
    )
    # The diff of step 2 is against step 1, in the builder's words.
    assert {row["path"] for row in plan["steps"][1]["diff"]} == set(two.changes)
    assert all(" › " in row["label"] or row["label"][0].isupper() for row in plan["steps"][1]["diff"])
    assert plan["refused"] == []


def test_a_step_the_rules_refuse_or_one_that_changes_nothing_is_refused_in_words(table):
    character, one, two = _character(table)
    player = api_client(table["player"])
    broken = vehicles.broken(registry.get(SLUG))
    r = player.post(
        f"/api/v1/characters/{character.pk}/plans/",
        {"name": "Bad", "steps": [one.build, broken]},
        format="json",
    )
    assert r.status_code == 422, r.json()
    assert r.json()["detail"].startswith("The rules refuse this plan: step 2: ")
    assert r.json()["errors"][0]["path"] == "/steps/1"
    r = player.post(
        f"/api/v1/characters/{character.pk}/plans/",
        {"name": "Same", "steps": [one.build, one.build]},
        format="json",
    )
    assert r.status_code == 422
    assert (
        r.json()["detail"] == "Step 2 changes nothing from the one before it: change something or remove it."
    )
    r = player.post(f"/api/v1/characters/{character.pk}/plans/", {"name": "", "steps": []}, format="json")
    assert r.status_code == 400
    assert Plan.objects.count() == 0


def test_a_followed_step_is_approved_when_requested_with_a_ledger_row_naming_the_plan(table):
    character, one, two = _character(table)
    plan = _plan(table, character, one, two)
    assert plan["status"] == "approved" and plan["comment"] == "Good" and plan["followed"] == 0
    unspent = ledger_totals(character=character)[one.currency]["unspent"]
    player = api_client(table["player"])

    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": one.build}, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["status"] == "approved" and r.json()["plan"] == plan["id"]
    assert r.json()["plan_check"] == "followed" and r.json()["reviewed_by"] == table["gm"].username
    rows = list(LedgerEntry.objects.filter(advancement_id=r.json()["id"]).values_list("amount", "reason"))
    assert rows == [
        (-one.cost, f"advancement #{r.json()['id']}, step 1 of 2 of the plan “Road to the crown”")
    ]
    assert ledger_totals(character=character)[one.currency]["unspent"] == unspent - one.cost
    character.refresh_from_db()
    assert character.report["remaining"][one.currency] == unspent - one.cost
    assert Plan.objects.get(pk=plan["id"]).followed == 1

    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": two.build}, format="json")
    assert r.json()["status"] == "approved", r.json()
    assert "step 2 of 2" in LedgerEntry.objects.get(advancement_id=r.json()["id"]).reason
    assert Plan.objects.get(pk=plan["id"]).status == "done"
    assert ledger_totals(character=character)[one.currency]["unspent"] == unspent - one.cost - two.cost


def test_a_request_that_departs_is_reviewed_as_ever_and_its_approval_puts_the_plan_off_course(table):
    character, one, two = _character(table, award=4)
    plan = _plan(table, character, one, two)
    player, gm = api_client(table["player"]), api_client(table["gm"])
    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": two.build}, format="json")
    assert r.status_code == 201 and r.json()["status"] == "pending", r.json()
    assert r.json()["plan"] is None and r.json()["plan_check"] == ""
    assert Plan.objects.get(pk=plan["id"]).status == "approved"  # a request alone changes nothing
    assert gm.post(f"/api/v1/advancements/{r.json()['id']}/approve/").status_code == 200
    assert gm.get(f"/api/v1/plans/{plan['id']}/").json()["status"] == "off_course"

    # Off course, it approves nothing; the owner edits it from where the character is (a draft
    # again), the GM approves it again, and it is followed again.
    again = vehicles.advance(registry.get(SLUG), Character.objects.get(pk=character.pk).build)
    r = player.put(f"/api/v1/plans/{plan['id']}/", {"steps": [again.build]}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "draft" and r.json()["name"] == "Road to the crown"
    assert r.json()["steps"][0]["cost"] == {again.currency: again.cost}
    assert player.post(f"/api/v1/plans/{plan['id']}/submit/").json()["status"] == "pending"
    assert gm.post(f"/api/v1/plans/{plan['id']}/approve/").json()["status"] == "approved"
    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": again.build}, format="json")
    assert r.json()["status"] == "approved" and r.json()["plan_check"] == "followed", r.json()
    assert Plan.objects.get(pk=plan["id"]).status == "done"


def test_a_price_that_differs_from_the_plans_goes_to_the_gm(table):
    key, value = _repricing_step_one(registry.get(REPRICING))
    character, one, two = _character(table, REPRICING, award=20)
    plan = _plan(table, character, one, two)
    campaign = character.campaign
    campaign.settings = {**campaign.settings, "house_rules": {**campaign.house_rules, key: value}}
    campaign.save()
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": one.build}, format="json"
    )
    assert r.status_code == 201, r.json()
    assert (
        r.json()["status"] == "pending"
        and r.json()["plan"] == plan["id"]
        and r.json()["plan_check"] == "differs"
    )
    assert "costs other than the plan said" in r.json()["note"]
    assert not LedgerEntry.objects.filter(advancement_id=r.json()["id"]).exists()


def test_a_plan_the_house_rules_now_refuse_says_so_and_approves_nothing(table):
    key, value = _refusing_step_two(registry.get(OUTDATING))
    character, one, two = _character(table, OUTDATING)
    plan = _plan(table, character, one, two)
    pending = _plan(table, character, one, two, approve=False)
    assert api_client(table["player"]).post(f"/api/v1/plans/{pending['id']}/submit/").status_code == 200
    campaign = character.campaign
    campaign.settings = {**campaign.settings, "house_rules": {**campaign.house_rules, key: value}}
    campaign.save()
    gm, player = api_client(table["gm"]), api_client(table["player"])

    shown = player.get(f"/api/v1/plans/{plan['id']}/").json()
    assert [r["step"] for r in shown["refused"]] == [2] and shown["refused"][0]["message"]
    r = player.post(f"/api/v1/characters/{character.pk}/advancements/", {"build": one.build}, format="json")
    assert r.status_code == 201 and r.json()["status"] == "pending", r.json()
    assert (
        r.json()["plan_check"] == "differs" and "the rules now refuse step 2 of the plan" in r.json()["note"]
    )
    version = Character.objects.get(pk=character.pk).version
    r = gm.post(f"/api/v1/plans/{pending['id']}/approve/", format="json")
    assert r.status_code == 422 and "step 2" in r.json()["detail"], r.json()
    assert Plan.objects.get(pk=pending["id"]).status == "pending"
    assert Plan.objects.get(pk=plan["id"]).status == "approved"
    assert Character.objects.get(pk=character.pk).version == version


def test_approving_another_plan_retires_the_approved_one(table):
    character, one, two = _character(table)
    first = _plan(table, character, one, two)
    second = _plan(table, character, one, two)
    assert Plan.objects.get(pk=first["id"]).status == "retired"
    assert Plan.objects.get(pk=second["id"]).status == "approved"
    assert Plan.objects.filter(character=character, status="approved").count() == 1


def test_rejecting_needs_a_comment_and_sends_it_back_editable(table):
    character, one, two = _character(table)
    plan = _plan(table, character, one, two, approve=False)
    player, gm = api_client(table["player"]), api_client(table["gm"])
    player.post(f"/api/v1/plans/{plan['id']}/submit/")
    assert gm.post(f"/api/v1/plans/{plan['id']}/reject/", {"comment": ""}, format="json").status_code == 400
    r = gm.post(f"/api/v1/plans/{plan['id']}/reject/", {"comment": "Too fast"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "rejected" and r.json()["comment"] == "Too fast"
    assert gm.post(f"/api/v1/plans/{plan['id']}/approve/").status_code == 409
    r = player.put(f"/api/v1/plans/{plan['id']}/", {"name": "Slower", "steps": [one.build]}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "draft" and len(r.json()["steps"]) == 1
    assert player.delete(f"/api/v1/plans/{plan['id']}/").status_code == 204
    assert not Plan.objects.filter(pk=plan["id"]).exists()


def test_the_wrong_users(table):
    character, one, two = _character(table)
    plan = _plan(table, character, one, two, approve=False)
    stranger, other, gm = api_client(table["stranger"]), api_client(table["other"]), api_client(table["gm"])
    anonymous = api_client()
    base = f"/api/v1/characters/{character.pk}/plans/"
    body = {"name": "Mine", "steps": [one.build]}
    for client in (stranger, other):  # not theirs: it does not exist
        assert client.get(base).status_code == 404
        assert client.post(base, body, format="json").status_code == 404
        assert client.get(f"/api/v1/plans/{plan['id']}/").status_code == 404
        assert client.post(f"/api/v1/plans/{plan['id']}/approve/").status_code == 404
        assert client.delete(f"/api/v1/plans/{plan['id']}/").status_code == 404
    assert anonymous.get(base).status_code in (401, 403)
    # The GM sees and reviews, but neither plans nor edits a player's plan.
    assert gm.get(base).status_code == 200 and [p["id"] for p in gm.get(base).json()] == [plan["id"]]
    assert gm.post(base, body, format="json").status_code == 403
    assert gm.put(f"/api/v1/plans/{plan['id']}/", body, format="json").status_code == 403
    assert gm.post(f"/api/v1/plans/{plan['id']}/submit/").status_code == 403
    # The owner does not approve their own plan.
    player = api_client(table["player"])
    player.post(f"/api/v1/plans/{plan['id']}/submit/")
    assert player.post(f"/api/v1/plans/{plan['id']}/approve/").status_code == 403
    # A removed member no longer sees their character's plans.
    campaign_remove_player(gm=table["gm"], campaign=character.campaign, user=table["player"])
    assert player.get(base).status_code == 404
    assert player.get(f"/api/v1/plans/{plan['id']}/").status_code == 404
    assert Plan.objects.get(pk=plan["id"]).status == "pending"


def test_a_plan_is_for_an_active_character(table):
    campaign = make_campaign(gm=table["gm"], ruleset=SLUG, players=[table["player"]])
    draft = make_character(
        ruleset=SLUG, owner=table["player"], campaign=campaign, status=Character.Status.DRAFT
    )
    one, _ = _two_steps(registry.get(SLUG))
    r = api_client(table["player"]).post(
        f"/api/v1/characters/{draft.pk}/plans/",
        {"name": "Later", "steps": [copy.deepcopy(one.build)]},
        format="json",
    )
    assert r.status_code == 422 and "plans are for active characters" in r.json()["detail"]
    assert not Advancement.objects.exists()


def test_undoing_a_followed_step_steps_the_plan_back_and_it_is_followed_again(table):
    character, one, two = _character(table)
    plan = _plan(table, character, one, two)
    player, gm = api_client(table["player"]), api_client(table["gm"])
    first = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": one.build}, format="json"
    )
    second = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": two.build}, format="json"
    )
    assert [first.json()["status"], second.json()["status"]] == ["approved", "approved"]
    assert Plan.objects.get(pk=plan["id"]).status == "done"
    r = gm.post(f"/api/v1/advancements/{second.json()['id']}/revert/", {"reason": "Misread"}, format="json")
    assert r.status_code == 200, r.json()
    assert (Plan.objects.get(pk=plan["id"]).status, Plan.objects.get(pk=plan["id"]).followed) == (
        "approved",
        1,
    )
    again = player.post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": two.build}, format="json"
    )
    assert again.json()["status"] == "approved" and again.json()["plan"] == plan["id"], again.json()
    assert Plan.objects.get(pk=plan["id"]).status == "done"
