"""The campaign's clock on the GM's party page in a real browser (RULES.md C1, W19): the GM lets 12 hours
pass from the keyboard; a Maelstrom character at a safe place gets a willpower dot back ("they will
regain 1 dot every 12 hours"), the clock block says so and the character's card follows without a
reload; nothing scrolls sideways on a phone."""

from __future__ import annotations

import pytest

from tests.characters.party.helpers import make_party
from tests.e2e.test_party_browser import PHONE, SIDEWAYS, _in_thread
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401  (fixture)
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _table():
    table = {name: make_user(name) for name in ("gm", "player", "other")}
    campaign, (ayla,) = make_party(table, "maelstrom", 1)
    ayla.state = {**ayla.state, "willpower": 1, "safe": True}
    ayla.save(update_fields=["state"])
    return table, campaign, ayla


def test_time_passes_on_the_party_page_and_the_card_follows(browser, table_server):  # noqa: F811
    from playwright.sync_api import expect

    table, campaign, ayla = _in_thread(_table)
    context = _context_as(browser, table_server, table["gm"], viewport=PHONE)
    try:
        gm = context.new_page()
        gm.goto(f"/campaigns/{campaign.pk}/party/")
        gm.wait_for_selector("#party-live[data-connected]", state="attached", timeout=20000)
        gm.evaluate("() => { window.__notReloaded = true; }")
        expect(gm.locator("[data-testid=clock-now]")).to_have_text("Day 1, 08:00")
        gm.locator("#clock-hours").fill("12")
        gm.locator("#clock-hours").press("Enter")
        expect(gm.locator("[data-testid=clock-now]")).to_have_text("Day 1, 20:00")
        expect(gm.locator("[data-testid=clock-changes]")).to_contain_text(
            "Ayla: 12 hours at a safe place: a willpower dot back (2 of 4)."
        )
        card = gm.locator(f"#party-character-{ayla.pk}")
        expect(card).to_contain_text("2 / 4")
        gm.locator("#clock-new-day").click()
        expect(gm.locator("[data-testid=clock-now]")).to_have_text("Day 2, 08:00")
        assert gm.evaluate("() => window.__notReloaded === true")
        assert gm.evaluate(SIDEWAYS) <= 0
    finally:
        context.close()


def test_every_open_page_shows_the_campaigns_time_when_the_gm_moves_the_clock(browser, table_server):  # noqa: F811
    """The GM moves the clock on one party page: the GM's other tab says the new time, and so does the
    open sheet of a character the time did not change (Bram, not at a safe place: no new version; his
    sheet hears the time itself). Nothing reloads."""
    from playwright.sync_api import expect

    from tests.e2e.test_party_browser import LAPTOP

    def table():
        people = {name: make_user(name) for name in ("gm", "player", "other")}
        campaign, (ayla, bram) = make_party(people, "maelstrom", 2)
        ayla.state = {**ayla.state, "willpower": 1, "safe": True}
        ayla.save(update_fields=["state"])
        return people, campaign, bram

    people, campaign, bram = _in_thread(table)
    gm_context = _context_as(browser, table_server, people["gm"], viewport=PHONE)
    other_context = _context_as(browser, table_server, people["other"], viewport=LAPTOP)
    try:
        gm, second = gm_context.new_page(), gm_context.new_page()
        sheet = other_context.new_page()
        for page, url, live in (
            (gm, f"/campaigns/{campaign.pk}/party/", "#party-live"),
            (second, f"/campaigns/{campaign.pk}/party/", "#party-live"),
            (sheet, f"/characters/{bram.pk}/", "#sheet-live"),
        ):
            page.goto(url)
            page.wait_for_selector(f"{live}[data-connected]", state="attached", timeout=20000)
            page.evaluate("() => { window.__notReloaded = true; }")
        expect(sheet.get_by_test_id("sheet-clock")).to_have_text("The campaign's time: Day 1, 08:00")
        gm.locator("#clock-hours").fill("12")
        gm.locator("#clock-hours").press("Enter")
        expect(gm.get_by_test_id("clock-now")).to_have_text("Day 1, 20:00")
        expect(second.get_by_test_id("clock-now")).to_have_text("Day 1, 20:00")
        expect(sheet.get_by_test_id("sheet-clock")).to_have_text("The campaign's time: Day 1, 20:00")
        for page in (gm, second, sheet):
            assert page.evaluate("() => window.__notReloaded === true")
    finally:
        gm_context.close()
        other_context.close()
