"""An open Our D&D sheet follows what others do to the character (#31), against daphne (pages and
websockets), the changes made through the API of that server as another device does:

- the GM's award: the Costs block's budget is redrawn live (before: it never was, and the cached
  block kept the old budget even on a reload: an award changes the budget, not the version);
- an advancement approved (points spent): the Build and Costs blocks are redrawn live (before: only
  the play blocks were);
- a page that missed the messages (its socket gone quiet) and becomes visible again fetches what it
  shows (before: it stayed as it was until the next message).

Each time the live page's blocks must equal those of a sheet loaded afresh."""

from __future__ import annotations

import copy

import pytest

from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.e2e.conftest import api_post
from tests.e2e.test_sheet_live_browser import _api_state, _sheet, _table
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BUDGET = "() => document.querySelector('#sheet-costs tr[data-currency=points] td:nth-of-type(2)').textContent.trim()"
SPENT = "() => document.querySelector('#sheet-costs tr[data-currency=points] td:nth-of-type(1)').textContent.trim()"
BLOCKS = "() => ['#sheet-build', '#sheet-costs'].map(s => document.querySelector(s).innerText.replace(/\\s+/g, ' ').trim())"


def _fresh_blocks(context, character) -> list[str]:
    page = context.new_page()
    page.goto(f"/characters/{character.pk}/")
    blocks = page.evaluate(BLOCKS)
    page.close()
    return blocks


def test_an_award_and_a_spend_redraw_build_and_costs_live(browser, table_server):  # noqa: F811
    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        page = _sheet(phone, character)
        assert page.evaluate(BUDGET) == "6"
        api_post(
            table_server,
            gm,
            f"/api/v1/characters/{character.pk}/awards/",
            {"currency": "points", "amount": 2, "reason": "the ford"},
        )
        page.wait_for_function(f"() => ({BUDGET})() === '8'", timeout=5000)
        assert page.evaluate(BLOCKS) == _fresh_blocks(phone, character)
        assert page.evaluate("() => window.__notReloaded === true")

        spent_before, build_before = page.evaluate(SPENT), page.evaluate(BLOCKS)[0]
        build = copy.deepcopy(BUILDS["ourdnd"])
        build["stats"]["dex"] = 1
        build["budget"] = {"points": 8}
        asked = api_post(
            table_server, player, f"/api/v1/characters/{character.pk}/advancements/", {"build": build}
        )
        api_post(table_server, gm, f"/api/v1/advancements/{asked['id']}/approve/", {})
        assert _api_state(player, character)["build"]["stats"]["dex"] == 1
        page.wait_for_function(f"() => ({SPENT})() !== '{spent_before}'", timeout=5000)
        live = page.evaluate(BLOCKS)
        assert live[0] != build_before
        assert live == _fresh_blocks(phone, character)
    finally:
        phone.close()
        laptop.close()


#: The socket goes quiet (its messages are dropped from here on): a phone asleep, a lost message.
#: The sheet's socket hears messages and drops them (counted in window.__dropped).
DEAF = """() => document.getElementById("sheet-live").addEventListener("htmx:wsBeforeMessage",
  (evt) => { window.__dropped = (window.__dropped || 0) + 1; evt.stopImmediatePropagation(); evt.preventDefault(); }, true)"""
HIDDEN_THEN_VISIBLE = """() => {
  Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_sheet_that_missed_a_message_catches_up_when_it_is_visible_again(browser, table_server):  # noqa: F811
    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        page = _sheet(phone, character)
        page.evaluate(DEAF)
        api_post(
            table_server,
            gm,
            f"/api/v1/characters/{character.pk}/awards/",
            {"currency": "points", "amount": 3, "reason": "x"},
        )
        page.wait_for_function("() => window.__dropped >= 1")  # the award's message came, and was dropped
        assert page.evaluate(BUDGET) == "6"  # the message was not heard
        page.evaluate(HIDDEN_THEN_VISIBLE)
        page.wait_for_function(f"() => ({BUDGET})() === '9'", timeout=5000)
        assert page.evaluate(BLOCKS) == _fresh_blocks(phone, character)
    finally:
        phone.close()
        laptop.close()
