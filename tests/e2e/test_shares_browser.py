"""A sheet shared by link, in the browser against daphne (pages and websockets): the owner makes a
link from the sheet's panel, a visitor with no account opens it on a phone (390×844) and on a
laptop (1280×900), sees the play state change live, and the owner's Revoke closes it at once (a
reload is a 404). Both sizes: no sideways scroll, nothing past the edge."""

from __future__ import annotations

import pytest

from characters.models import Character, ShareLink
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.characters.sheet.test_sheet_live import SLUG
from tests.e2e.conftest import keep_screenshot, settled, watch
from tests.e2e.phone_walk import LAYOUT_PROBLEMS
from tests.e2e.test_sheet_live_browser import LAPTOP, PHONE
from tests.e2e.test_table_feed_browser import (
    _context_as,
    table_server,  # noqa: F401  (a fixture)
)
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _visitor(browser, base_url, viewport):
    context = browser.new_context(base_url=base_url, viewport=viewport)
    watch(context)
    context.set_default_timeout(10_000)
    return context


def test_a_shared_sheet_is_live_for_a_visitor_and_closes_when_revoked(browser, table_server):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    character = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    owner = _context_as(browser, table_server, player, viewport=LAPTOP).new_page()
    owner.goto(f"/characters/{character.pk}/")
    owner.get_by_text("Share by link").click()
    owner.get_by_role("button", name="Make a link").click()
    url = owner.locator(".share-url").first
    expect(url).to_be_visible()
    link = ShareLink.objects.get()
    assert url.input_value() == f"{table_server}/s/{link.token}/"

    pages, found = [], {}
    for size in (PHONE, LAPTOP):
        page = _visitor(browser, table_server, size).new_page()
        response = page.goto(f"/s/{link.token}/")
        assert response.status == 200
        page.wait_for_selector("#sheet-live[data-connected]", state="attached")
        settled(page)
        seen = page.evaluate(LAYOUT_PROBLEMS)
        if seen["pageWidth"] > size["width"] or seen["overflow"]:
            found[size["width"]] = seen
        keep_screenshot(page, f"shared-{size['width']}")
        expect(page.locator('[data-testid="shared-note"]')).to_have_text("shared, read-only")
        assert page.locator("#sheet form").count() == 0
        pages.append(page)
    assert found == {}, found

    # The owner changes the play state on the sheet (through daphne, whose sockets hear it).
    before = Character.objects.get(pk=character.pk).version
    owner.locator('#sheet-state button[aria-label^="Lower"]').first.click()
    expect(owner.locator("#sheet-version")).not_to_have_attribute("data-version", str(before))
    version = Character.objects.get(pk=character.pk).version
    assert version > before
    for page in pages:
        expect(page.locator("#sheet-version")).to_have_attribute("data-version", str(version))

    owner.locator(".share-link").get_by_role("button", name="Revoke").click()
    expect(owner.locator('[data-testid="no-links"]')).to_be_visible()
    for page in pages:  # the open pages hear at once that the link is gone
        expect(page.locator('[data-testid="sheet-live-gone"]')).to_be_visible(timeout=5_000)
        assert page.reload().status == 404


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "desktop"])
def test_the_share_panel_fits_the_screen(page_as, size):
    """The sheet with its 'Share by link' panel open (two links) and the panel's own page."""
    from playwright.sync_api import expect

    from characters.shares.services import share_create

    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    character = make_character(ruleset=SLUG, owner=player, campaign=campaign)
    share_create(user=player, character_id=character.pk)
    share_create(user=gm, character_id=character.pk)
    page = page_as(player, viewport=size)
    found = {}
    page.goto(f"/characters/{character.pk}/")
    page.get_by_text("Share by link").click()
    expect(page.locator(".share-link")).to_have_count(2)
    seen = page.evaluate(LAYOUT_PROBLEMS)
    if seen["pageWidth"] > size["width"] or seen["overflow"]:
        found["sheet"] = seen
    page.goto(f"/characters/{character.pk}/shares/")
    expect(page.locator(".share-link")).to_have_count(2)
    seen = page.evaluate(LAYOUT_PROBLEMS)
    if seen["pageWidth"] > size["width"] or seen["overflow"]:
        found["panel"] = seen
    keep_screenshot(page, f"shares-panel-{size['width']}")
    assert found == {}, found
