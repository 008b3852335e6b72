"""A GM signs up and creates a campaign; a player signs in elsewhere, joins with the code, sees themself."""

import pytest

from tests.e2e.conftest import ARTIFACTS, keep_screenshot, log_in, sign_up
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_gm_creates_a_campaign_and_a_player_joins_it_with_the_code(browser_context, monkeypatch):
    from playwright.sync_api import expect

    make_user("pip", password="velvet-lantern-77")

    gm_page = browser_context().new_page()
    try:
        sign_up(gm_page, "gina")
        expect(
            gm_page.get_by_role("heading", name="Welcome to Sheetforge, gina")
        ).to_be_visible()  # new: not "back"
        gm_page.get_by_role("link", name="New campaign").first.click()
        gm_page.locator("#id_name").fill("Iron Coast")
        gm_page.get_by_label("Ruleset").select_option(index=0)
        gm_page.get_by_role("button", name="Create campaign").click()
        expect(gm_page.get_by_role("heading", name="Iron Coast", level=1)).to_be_visible()
        code = gm_page.get_by_test_id("join-code").inner_text().strip()
        assert len(code) == 8

        # A second person, with their own cookies, on a phone-sized screen.
        player_page = browser_context(viewport={"width": 390, "height": 844}).new_page()
        log_in(player_page, "pip")
        player_page.get_by_label("Join code").fill(code.lower())
        player_page.get_by_role("button", name="Join").click()
        expect(player_page.get_by_role("heading", name="Iron Coast", level=1)).to_be_visible()
        members = player_page.locator("#members .member-name")
        expect(members).to_have_text(["gina", "pip"])
        expect(player_page.get_by_test_id("join-code")).to_have_count(0)

        # The GM sees the new member after a reload.
        gm_page.reload()
        expect(gm_page.locator("#members .member-name")).to_have_text(["gina", "pip"])
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        keep_screenshot(gm_page, "campaign_browser_gm")
        raise
