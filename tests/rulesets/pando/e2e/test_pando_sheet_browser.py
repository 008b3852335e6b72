"""A Pando sheet in a real browser: take harm on an arm, roll with odds (Playwright + Debian's Chromium;
moved from tests/e2e/test_sheet_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import ARTIFACTS, keep_screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The window these walks were written for; the shared `page_as` defaults to 900 high.
VIEWPORT = {"width": 1280, "height": 1000}


def test_a_pando_player_takes_harm_on_an_arm_and_rolls_with_odds(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "pando")
    page = page_as(table["player"], viewport=VIEWPORT)
    page.goto(reverse("character_sheet", args=[character.pk]))
    expect(page.get_by_role("heading", name="Alex")).to_be_visible()
    expect(page.locator('[data-key="max_speed"] dd')).to_have_text("5")

    harm = page.locator('#state-body form[data-action="harm"]')
    harm.get_by_label("Body part").select_option("right_arm")
    harm.get_by_label("Amount").fill("1")
    harm.get_by_role("button", name="Take harm").click()
    expect(page.locator("#body-right_arm .body-status")).to_have_text("wounded")
    expect(page.locator('[data-testid="speed-cost-right_arm"]')).to_have_text("+1")
    expect(page.locator('[data-testid="state-message"]')).to_contain_text("takes 1 harm to the right arm")
    expect(page.locator('.body-diagram [data-part="right_arm"]')).to_have_class("body-part body-wounded")

    page.locator('button[data-rollable="skill:blades"]').click()
    chart = page.locator("#roll-chart svg[role=img]")
    expect(chart).to_be_visible()
    assert chart.get_attribute("aria-label").startswith("Odds: 0 EP")
    expect(page.locator("#roll-chart .roll-bar")).to_have_count(4)  # coordination 3d6 → 0..3 EP
    expect(page.locator("#roll-chart .roll-bar.is-rolled")).to_have_count(1)
    expect(page.locator("#roll-log tbody tr")).to_have_count(1)
    ARTIFACTS.mkdir(exist_ok=True)
    keep_screenshot(page, "sheet-pando")

    page.goto(reverse("character_sheet", args=[character.pk]) + "?print=1")
    expect(page.locator(".state-actions").first).to_be_hidden()
    page.emulate_media(media="print")
    expect(page.locator("header.site-header")).to_be_hidden()
    keep_screenshot(page, "sheet-pando-print")
