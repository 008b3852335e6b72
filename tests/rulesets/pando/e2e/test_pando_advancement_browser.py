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


@pytest.mark.parametrize("press_ms", [150, 400])
def test_a_press_on_request_as_long_as_a_person_s_right_after_the_note_sends_the_request(
    page_as, table, press_ms
):
    """The note's change re-prices the request (the form re-prices on every change) when the press on
    "Request advancement" takes the focus off it; its answer came back and replaced the button while
    the mouse button was still down, the browser sent the click to what the old and new buttons
    share, and the press did nothing (a person holds a click ~100-200 ms; a test's click is
    instant and mostly won the race). The re-price now waits until the press has ended."""
    from playwright.sync_api import expect

    from characters.models import Advancement

    character = character_at_table(table, "pando")
    player = page_as(table["player"], viewport=VIEWPORT)
    player.goto(f"/characters/{character.pk}/advance/")
    acrobatics = player.locator('input[name="/attributes/acrobatics"]')
    acrobatics.fill("3")
    acrobatics.press("Tab")
    expect(player.locator('[data-testid="cost-cp"]')).to_have_text("6")
    player.get_by_label("Note for the GM").fill("Parkour lessons")
    box = player.get_by_role("button", name="Request advancement").bounding_box()
    player.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    player.mouse.down()
    player.wait_for_timeout(press_ms)  # deliberate wait: a press held as a person holds it
    player.mouse.up()
    expect(player.locator('[data-testid="advancement-status"]')).to_have_text("Pending", timeout=15_000)
    request = Advancement.objects.get(character=character)
    assert (request.status, request.note) == (Advancement.Status.PENDING, "Parkour lessons")
