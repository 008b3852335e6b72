"""A Maelstrom character entered from a paper sheet in the builder, in a real browser (moved from
tests/e2e/test_builder_browser.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.models import Character
from tests.e2e.conftest import ARTIFACTS, keep_screenshot
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _expect():
    from playwright.sync_api import expect

    return expect


PAPER = {
    "attributes": {
        "strength": 2,
        "precision": 3,
        "reflexes": 2,
        "perception": 3,
        "intelligence": 3,
        "wits": 3,
    },
    "abilities": {
        "investigation": 4,
        "computer_science": 3,
        "alertness": 2,
        "technology": 2,
        "medicine": 2,
        "science": 2,
        "stealth": 1,
        "streetwise": 1,
        "driving": 1,
        "firearms": 1,
        "humanities": 1,
        "statecraft": 1,
    },
}


def test_enter_a_maelstrom_character_from_a_paper_sheet(page_as, live_server):
    expect = _expect()
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset="maelstrom", players=[player], name="Maelstrom table")
    page = page_as(player)
    page.goto(reverse("character_create", args=[campaign.id]))
    page.get_by_label("Name").fill("Kestrel")
    page.get_by_role("button", name="Start building").click()
    for group, values in PAPER.items():
        for key, value in values.items():
            page.locator(f"#f-{group}-{key}").fill(str(value))
            # Let the live re-validation land before typing into the next box, as a person copying a
            # paper sheet does; filling an input while htmx swaps it out makes Playwright type into
            # the replacement ("1" into a box that shows "0" becomes "10").
            with page.expect_response(lambda r: r.request.method == "POST"):
                page.locator(f"#f-{group}-{key}").dispatch_event("change")
            page.wait_for_function("() => !document.querySelector('#builder-form.htmx-request')")
            expect(page.locator(f"#f-{group}-{key}")).to_have_value(str(value))
    expect(page.locator("#builder-errors")).to_contain_text("The build is valid")
    creation = page.locator("#sec-creation")
    expect(creation.locator(".dot.free").first).to_be_visible()
    expect(creation.locator(".dot.xp").first).to_be_visible()
    spent = int(page.get_by_test_id("spent-xp").inner_text())
    assert 0 < spent <= 30
    ARTIFACTS.mkdir(exist_ok=True)
    keep_screenshot(page, "builder-maelstrom")
    page.get_by_role("button", name="Save draft").click()
    expect(page.locator(".messages")).to_contain_text("Draft saved")
    page.get_by_role("button", name="Submit").click()
    character = Character.objects.get(name="Kestrel")
    expect(page).to_have_url(re.compile(re.escape(reverse("character_sheet", args=[character.id])) + "$"))
    assert Character.objects.get(id=character.id).status == "active"
