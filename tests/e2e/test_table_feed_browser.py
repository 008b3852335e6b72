"""The fixtures of the table's roll feed in real browsers, GM and player in two contexts (Playwright +
Debian's Chromium against daphne: ``table_server``, ``_context_as``, ``_feed_page``). Each game's
feed: tests/rulesets/<slug>/e2e/test_*_table_feed_browser.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import Client

from tests.e2e.conftest import watch

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table_server(transactional_db, daphne_servers):
    """daphne serving config.asgi (pages and websockets) on the test database; its base URL
    (one server for the package's tests: ``daphne_servers`` in tests/e2e/conftest.py)."""
    return daphne_servers("config.asgi:application")


def _context_as(browser, base_url, user, *, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    watch(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    context.set_default_timeout(10_000)
    return context


def _feed_page(context, campaign_id):
    page = context.new_page()
    page.goto(f"/campaigns/{campaign_id}/")
    page.wait_for_selector("#table-feed[data-connected]", state="attached")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page
