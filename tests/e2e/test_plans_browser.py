"""Plans in the browser: a player plans two steps in the builder, the GM approves the plan from the
review queue, and asking for the first step approves it at once. Every plans page at a phone's
size (390×844) and a desktop's (1280×900): no sideways scroll, nothing past the edge."""

from __future__ import annotations

import pytest

from characters.models import Advancement, Plan
from rulesets.engine import registry
from tests.characters.plans.test_plans import SLUG, _character
from tests.e2e.conftest import keep_screenshot, settled
from tests.e2e.phone_walk import LAYOUT_PROBLEMS
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]


def _type(page, changes: dict) -> None:
    """Set the builder's fields as a person does: each one changed, htmx's answer drawn."""
    for pointer, value in changes.items():
        field = page.locator(f'#builder-form [name="{pointer}"]').first
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")
        settled(page)


def _table():
    people = {k: make_user(k) for k in ("gina", "pat", "olly", "sam")}
    return {"gm": people["gina"], "player": people["pat"], "other": people["olly"], "stranger": people["sam"]}


def test_a_plan_made_in_the_builder_approved_by_the_gm_and_followed(page_as):
    from playwright.sync_api import expect

    table = _table()
    character, one, two = _character(table)
    label = registry.get(SLUG).currency_label(one.currency)
    me = page_as(table["player"])
    me.goto(f"/characters/{character.pk}/")
    me.get_by_role("link", name="Plans").click()
    expect(me.locator('[data-testid="no-plans"]')).to_be_visible()
    me.get_by_role("link", name="New plan").click()
    _type(me, one.changes)
    expect(me.locator('[data-testid="step-cost"]')).to_have_text(f"{one.cost} {label}")
    me.get_by_label("The plan's name").fill("Glory")
    me.get_by_role("button", name="Save step 1").click()
    expect(me.locator('[data-testid="plan-status"]')).to_have_text("Draft")
    me.get_by_role("link", name="Add a step").click()
    _type(me, two.changes)
    expect(me.locator('[data-testid="step-cost"]')).to_have_text(f"{two.cost} {label}")
    me.get_by_role("button", name="Save step 2").click()
    expect(me.locator('[data-testid="plan-total"]')).to_have_text(f"{one.cost + two.cost} {label} in all")
    me.get_by_role("button", name="Send to the GM").click()
    expect(me.locator('[data-testid="plan-status"]')).to_have_text("Waiting for the GM")

    gm = page_as(table["gm"])
    gm.goto("/review/")
    card = gm.locator(".plan-card").first
    expect(card.locator('[data-testid="step-cost-1"]')).to_have_text(f"{one.cost} {label}")
    expect(card.locator('[data-testid="step-cost-2"]')).to_have_text(f"{two.cost} {label}")
    card.get_by_label("Comment for the player").fill("Earn it")
    card.get_by_role("button", name="Approve the plan").click()
    expect(gm.locator(".message").first).to_contain_text("The plan “Glory” is approved.")
    plan = Plan.objects.get()
    assert plan.status == "approved" and plan.comment == "Earn it"

    # Asking for the plan's first step on the advance page: approved at once.
    me.goto(f"/characters/{character.pk}/advance/")
    _type(me, one.changes)
    me.get_by_role("button", name="Request advancement").click()
    settled(me)
    advancement = Advancement.objects.get()
    assert advancement.status == "approved" and advancement.plan_id == plan.pk
    me.goto(f"/plans/{plan.pk}/")
    expect(me.locator('.plan-step[data-step="1"]')).to_contain_text("taken")
    expect(me.locator('.plan-step[data-step="2"]')).to_contain_text("next")


@pytest.mark.parametrize("size", SIZES, ids=["phone", "desktop"])
def test_every_plans_page_fits_the_screen(page_as, size):
    from characters.plans import services as svc

    table = _table()
    character, one, two = _character(table)
    plan = svc.plan_create(
        character_id=character.pk, user=table["player"], name="A long road", steps=[one.build, two.build]
    )
    svc.plan_submit(plan_id=plan.pk, user=table["player"])
    pages = {
        "player": [
            f"/characters/{character.pk}/plans/",
            f"/characters/{character.pk}/plans/new/",
            f"/plans/{plan.pk}/",
            f"/plans/{plan.pk}/steps/2/",
        ],
        "gm": ["/review/", f"/campaigns/{character.campaign_id}/review/", f"/plans/{plan.pk}/"],
    }
    found = {}
    for who, urls in pages.items():
        page = page_as(table[who], viewport=size)
        for url in urls:
            response = page.goto(url)
            settled(page)
            seen = page.evaluate(LAYOUT_PROBLEMS)
            if response.status != 200 or seen["pageWidth"] > size["width"] or seen["overflow"]:
                found[f"{who} {url}"] = {"status": response.status, **seen}
            keep_screenshot(page, f"plans-{size['width']}-{who}-{url.strip('/').replace('/', '-')}")
    assert found == {}, found
