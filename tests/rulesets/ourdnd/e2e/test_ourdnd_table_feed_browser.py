"""An Our D&D table's roll feed in real browsers (moved from tests/e2e/test_table_feed_browser.py, which
keeps daphne's fixture): a player's check with the TD they set reaches the GM's feed live; a private
GM roll never the player's."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.test_table_feed_browser import _context_as, _feed_page, table_server  # noqa: F401
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_s_roll_reaches_the_gm_s_feed_and_a_private_gm_roll_never_the_player_s(
    browser,
    table_server,  # noqa: F811
):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player], name="Ashen Vale")
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign)
    gm_context = _context_as(browser, table_server, gm, viewport={"width": 1280, "height": 900})
    pl_context = _context_as(browser, table_server, player, viewport={"width": 390, "height": 844})
    try:
        gm_feed = _feed_page(gm_context, campaign.pk)
        pl_feed = _feed_page(pl_context, campaign.pk)

        # The player rolls a Strength check on the phone, with the TD they were told.
        sheet = pl_context.new_page()
        sheet.goto(f"/characters/{bram.pk}/")
        sheet.fill("#roll-in-td", "14")
        button = sheet.locator("#roll-btn-check-str-normal")
        button.scroll_into_view_if_needed()
        before = sheet.evaluate("() => window.scrollY")
        button.click()
        result = sheet.locator("#roll-here-check-str-normal [data-testid=roll-here]")
        result.wait_for()
        assert "vs TD 14" in result.inner_text()
        box, height = result.bounding_box(), sheet.viewport_size["height"]
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, box  # where they tapped
        assert abs(sheet.evaluate("() => window.scrollY") - before) < 50
        assert sheet.evaluate("() => document.activeElement.id") == "roll-btn-check-str-normal"

        # A play-state change re-renders the Dice block: the TD the player set stays, focus too.
        damage = sheet.locator('form[data-action="damage"]')
        damage.locator('input[name="amount"]').fill("1")
        damage.locator("button").click()
        sheet.locator("[data-testid=state-message]").wait_for()
        assert sheet.input_value("#roll-in-td") == "14"

        line = gm_feed.locator("#table-feed-list > li").first
        line.wait_for()
        text = line.inner_text()
        # Who, what, the outcome and its odds (the die is the server's: any of the four outcomes).
        assert re.search(
            r"player for Bram: STR check → (Blunder \(5\.0%|Failure \(50\.0%|Success \(40\.0%"
            r"|Critical \(5\.0%) chance\)",
            text,
        ), text
        assert "vs TD 14" in text
        assert gm_feed.evaluate("() => window.__notReloaded === true")  # no reload: it came live
        pl_feed.locator("#table-feed-list > li").first.wait_for()  # the player's own feed has it too

        # The GM rolls privately on Bram's sheet.
        gm_sheet = gm_context.new_page()
        gm_sheet.goto(f"/characters/{bram.pk}/")
        gm_sheet.check("#roll-private")
        gm_sheet.click("#roll-btn-check-dex-normal")
        gm_sheet.locator("#roll-here-check-dex-normal [data-testid=roll-here]").wait_for()
        gm_feed.locator("#table-feed-list > li.is-private").wait_for()
        assert "gm for Bram: DEX check" in gm_feed.locator("#table-feed-list > li").first.inner_text()
        # Then a public roll: a feed hears the table's rolls in order, so once the player's feed has
        # this one, the private roll before it would have come (rather than waiting a fixed time).
        gm_sheet.uncheck("#roll-private")
        gm_sheet.click("#roll-btn-check-dex-normal")
        pl_feed.locator("#table-feed-list > li:nth-child(2)").wait_for()
        assert pl_feed.locator("#table-feed-list > li").count() == 2
        assert pl_feed.locator("#table-feed-list > li.is-private").count() == 0
        assert "gm for Bram: DEX check" in pl_feed.locator("#table-feed-list > li").first.inner_text()
        sheet.reload()
        # Header, the player's own roll and the GM's public one: not the private roll.
        assert sheet.locator(".sheet-roll-log tr").count() == 3
    finally:
        gm_context.close()
        pl_context.close()
