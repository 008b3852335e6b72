"""Advancement in two browsers: the player requests, the GM sees the badge, reads the diff and approves."""

from __future__ import annotations

import pytest

from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The window these walks were written for; the shared `page_as` defaults to 900 high.
VIEWPORT = {"width": 1280, "height": 1000}


def test_player_requests_gm_approves_and_the_sheet_shows_the_new_numbers(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "pando")  # 30 of 40 CP spent; max speed 3 + acrobatics 2
    player = page_as(table["player"], viewport=VIEWPORT)
    player.goto(f"/characters/{character.pk}/advance/")
    expect(player.get_by_role("heading", name="Advance Alex")).to_be_visible()
    expect(player.locator('[data-testid="balance-cp"]')).to_have_text("10")
    acrobatics = player.locator('input[name="/attributes/acrobatics"]')
    acrobatics.fill("3")
    acrobatics.press("Tab")  # change → htmx re-prices against the approved build
    expect(player.locator('[data-testid="cost-cp"]')).to_have_text("6")
    expect(player.locator('#advance-diff tr[data-path="/attributes/acrobatics"]')).to_contain_text("+6 CP")
    player.get_by_label("Note for the GM").fill("Parkour lessons")
    player.get_by_role("button", name="Request advancement").click()
    # A full post and its redirect: on a 2-core machine running the other tests beside it, give it time.
    expect(player.locator('[data-testid="advancement-status"]')).to_have_text("Pending", timeout=15_000)

    gm = page_as(table["gm"], viewport=VIEWPORT)
    gm.goto("/")
    badge = gm.locator('[data-testid="review-badge"]')
    expect(badge).to_have_text("1")
    gm.locator("#nav-review a").click()
    card = gm.locator(".advancement-card").first
    expect(card).to_contain_text("Parkour lessons")
    row = card.locator('tr[data-path="/attributes/acrobatics"]')
    expect(row.locator(".diff-old")).to_have_text("2")
    expect(row.locator(".diff-new")).to_have_text("3")
    expect(row.locator(".diff-cost")).to_contain_text("+6 CP")
    card.get_by_label("Comment for the player").fill("Well trained")
    card.get_by_role("button", name="Approve").click()
    expect(gm.locator(".advancement-card").first.locator('[data-testid="advancement-status"]')).to_have_text(
        "Approved"
    )
    expect(gm.locator('[data-testid="review-badge"]')).to_have_count(0)
    ARTIFACTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(ARTIFACTS / "advancement-review.png"), full_page=True)

    player.goto(f"/characters/{character.pk}/")
    expect(player.locator('[data-key="max_speed"] dd')).to_have_text("6")
    expect(player.locator('#sheet-costs tr[data-currency="cp"]')).to_contain_text("36")
    player.goto(f"/characters/{character.pk}/advancements/")
    expect(player.locator('[data-testid="advancement-notice"]').first).to_contain_text(
        "was approved: Well trained"
    )
