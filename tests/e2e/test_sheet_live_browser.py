"""Helpers of the browser tests of two devices on one sheet (Playwright + Debian's Chromium against
daphne, pages and websockets): the player's phone (390×844) and the GM's laptop (1280×900), saved
state read back through the API. Each game's: tests/rulesets/<slug>/e2e/test_*_sheet_live_browser.py."""

from __future__ import annotations

import threading

import pytest

from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401  (fixture)
from tests.factories import api_client, make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _api_state(user, character) -> dict:
    response = api_client(user).get(f"/api/v1/characters/{character.pk}/")
    assert response.status_code == 200
    return response.json()


def _sheet(context, character):
    page = context.new_page()
    page.goto(f"/characters/{character.pk}/")
    page.wait_for_selector("#sheet-live[data-connected]", state="attached")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page


def _table(browser, base_url, slug):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    character = make_character(ruleset=slug, owner=player, campaign=campaign)
    phone = _context_as(browser, base_url, player, viewport=PHONE)
    laptop = _context_as(browser, base_url, gm, viewport=LAPTOP)
    return gm, player, character, phone, laptop


def _in_thread(call):
    """Run ``call`` off Playwright's event-loop thread (the channel layer's async_to_sync)."""
    errors: list = []

    def run():
        try:
            call()
        except Exception as exc:  # noqa: BLE001 — reported below
            errors.append(exc)
        finally:
            from django.db import connection

            connection.close()

    th = threading.Thread(target=run)
    th.start()
    th.join(timeout=30)
    assert errors == []
