"""The builder in a real browser: a Pando character from scratch (moved from tests/e2e/test_builder_browser.py)."""

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


def test_build_a_pando_character_from_scratch(page_as, live_server):
    expect = _expect()
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player], name="Pando table")
    page = page_as(player)
    page.goto(reverse("character_create", args=[campaign.id]))
    page.get_by_label("Name").fill("Charlotte")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Charlotte")
    expect(page.get_by_test_id("remaining-cp")).to_have_text("40")

    # Attributes: the + button says what the next point costs, the budget follows.
    page.get_by_role("button", name="Raise Coordination (+4 CP)").click()
    expect(page.get_by_test_id("spent-cp")).to_have_text("4")
    page.get_by_role("button", name="Raise Coordination (+6 CP)").click()
    expect(page.get_by_test_id("spent-cp")).to_have_text("10")

    # Skills in the tree: Blades without Melee is an error beside Blades, Melee clears it.
    page.locator("#n-skills-blades").check()
    error = page.locator("#sec-skills .tree-node", has=page.locator("#n-skills-blades")).locator(".issue")
    expect(error).to_contain_text("Melee")
    expect(page.locator("#builder-errors")).to_contain_text("Melee")
    expect(page.get_by_role("button", name="Submit")).to_be_disabled()
    page.locator("#n-skills-melee").check()
    expect(error).to_have_count(0)
    expect(page.get_by_test_id("spent-cp")).to_have_text("15")
    page.locator("#n-skills-shields").check()
    expect(page.get_by_test_id("spent-cp")).to_have_text("18")

    # A sword in the right hand, a shield in the left; the body diagram shows them.
    page.locator("#f-equipment--").select_option("longsword")
    expect(page.locator("#f-equipment-0-state")).to_be_visible()
    page.locator("#f-equipment-0-state").select_option("wielded")
    page.locator("#f-equipment-0-arms-right_arm").check()
    page.locator("#f-equipment--").select_option("round_shield")
    expect(page.locator("#f-equipment-1-state")).to_be_visible()
    page.locator("#f-equipment-1-state").select_option("wielded")
    page.locator("#f-equipment-1-arms-left_arm").check()
    body = page.locator("#sec-body")
    expect(body.locator("tr.part-right_arm")).to_contain_text("Longsword")
    expect(body.locator("tr.part-left_arm")).to_contain_text("Round")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    ARTIFACTS.mkdir(exist_ok=True)
    keep_screenshot(page, "builder-pando")

    page.get_by_role("button", name="Save draft").click()
    expect(page.locator(".messages")).to_contain_text("Draft saved")
    page.get_by_role("button", name="Submit").click()
    character = Character.objects.get(name="Charlotte")
    expect(page).to_have_url(re.compile(re.escape(reverse("character_sheet", args=[character.id])) + "$"))
    character.refresh_from_db()
    assert character.status == "active"
    # Each edit autosaves (issue 13), so the draft keeps the order the skills were learned in.
    assert character.build["skills"] == ["blades", "melee", "shields"]
    assert [e["item"] for e in character.build["equipment"]] == ["longsword", "round_shield"]
