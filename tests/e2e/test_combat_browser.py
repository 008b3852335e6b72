"""The encounter page in a real browser, GM and player side by side, on the combat tests' ruleset
(tests/combat/conftest.py): quick adds refresh the panel once each; a removed player's page says so.
One game's fight shown live: tests/rulesets/<slug>/e2e/ (Playwright + Debian's Chromium against
daphne, websockets and all; the fixtures below serve them all).

pytest-django's live_server speaks WSGI only, so daphne runs in a subprocess on a free port against the
test database (the data is committed: a transactional test)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from combat import services
from combat.models import Encounter
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.conftest import PABLO, SLUG
from tests.e2e.conftest import answered, count_requests, follow_sockets, stopped_reconnecting, watch
from tests.factories import make_campaign, make_user

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def asgi_server(transactional_db, daphne_servers):
    """daphne serving config.asgi on the test database; yields its base URL (one server for the
    package's tests: ``daphne_servers`` in tests/e2e/conftest.py, which skips off Postgres)."""
    return daphne_servers("config.asgi:application")


#: ``window.__wsOpen``: the page's socket is open; ``window.__htmxInFlight``: its htmx requests sent
#: and not yet answered (the encounter page fetches the board the moment its socket opens).
LIVE_SCRIPT = """
window.__htmxInFlight = 0;
document.addEventListener('htmx:wsOpen', () => { window.__wsOpen = true; });
document.addEventListener('htmx:beforeSend', () => { window.__htmxInFlight += 1; });
document.addEventListener('htmx:afterRequest', () => {
  window.__htmxInFlight = Math.max(0, window.__htmxInFlight - 1);
});
"""


def wait_live(page) -> None:
    """Wait until ``page`` hears the table (its socket open) and has its answer to the look it takes
    when the socket opens: a change the test makes after this is one the page has not seen yet.
    (Waiting on the socket alone raced: the look could read a change made just after it, half of
    two quick changes, and the page then showed neither the state before nor the one after.)"""
    page.wait_for_function("() => window.__wsOpen === true && window.__htmxInFlight === 0")


# `browser` is the session-wide Chromium of tests/e2e/conftest.py: one Playwright per process.


def _page_as(browser, base_url, user, *, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    watch(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    context.add_init_script(LIVE_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def _watch(page) -> dict:
    """Count the page's fetches of what it shows (the board with its actions panel) and the htmx
    out-of-band errors."""
    seen = {"panel": 0}
    page.on("request", lambda r: seen.__setitem__("panel", seen["panel"] + 1) if "/board/" in r.url else None)
    page.evaluate(
        "window.__oobErrors = [];"
        "document.body.addEventListener('htmx:oobErrorNoTarget',"
        " (e) => window.__oobErrors.push(String(e.detail.target)));"
    )
    page.evaluate(_HEARD)
    count_requests(page)
    return seen


#: The highest version of the encounter the page's socket has said (in ``window.__heard``).
_HEARD = """() => {
  window.__heard = 0;
  document.body.addEventListener("htmx:wsBeforeMessage", (e) => {
    try { window.__heard = Math.max(window.__heard, JSON.parse(e.detail.message).version || 0); } catch (_) {}
  });
}"""


def _heard_and_answered(page, version: int) -> None:
    """Wait until the page's socket has said ``version`` (every notice before it came first) and
    every fetch those notices made has had its answer: no later request can come of them."""
    page.wait_for_function("(v) => window.__heard >= v", arg=version)
    answered(page)


def test_quick_adds_refresh_the_panel_once_each_without_oob_errors(browser, asgi_server):
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    pablo = make_character(ruleset=SLUG, owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    services.encounter_add_combatant(encounter=e, user=gm, character=pablo)
    context, page = _page_as(browser, asgi_server, gm, viewport={"width": 1280, "height": 1000})
    try:
        page.goto(reverse("encounter_detail", args=[e.pk]))
        wait_live(page)
        seen = _watch(page)
        add = page.locator("#add-npcs-button")  # the first ready NPC, one at a time
        for _ in range(3):  # the GM clicks fast: each reply may land after the panel was refreshed
            add.click()
        expect(page.locator("#encounter-order > li")).to_have_count(4)
        expect(page.locator("#encounter-log-list li").first).to_contain_text("joins the encounter")
        _heard_and_answered(page, Encounter.objects.get(pk=e.pk).version)  # any late request has landed
        assert page.evaluate("window.__oobErrors") == []
        # At most one fetch per change (was two: the reply's and the socket's); a notice heard while
        # a fetch is out makes one more fetch after it, not one each.
        assert 1 <= seen["panel"] <= 3
    finally:
        context.close()


def test_a_removed_player_s_page_says_so_and_stops_reconnecting(browser, asgi_server):
    """The GM removes the player (through daphne, like any click): the player's socket closes, its
    reconnect is refused, and the page says it can no longer follow the encounter — and stays
    quiet (characters/table/live.py, static/js/encounter.js)."""
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    gm_context, gm_page = _page_as(browser, asgi_server, gm, viewport={"width": 1280, "height": 1000})
    pl_context, pl_page = _page_as(browser, asgi_server, player, viewport={"width": 390, "height": 844})
    sockets = []
    pl_page.on("websocket", lambda ws: sockets.append(ws.url))
    follow_sockets(pl_context)
    try:
        pl_page.goto(reverse("encounter_detail", args=[e.pk]))
        wait_live(pl_page)
        gm_page.goto(reverse("campaign_detail", args=[campaign.pk]))
        gm_page.on("dialog", lambda dialog: dialog.accept())
        gm_page.get_by_role("button", name="Remove").click()
        expect(pl_page.get_by_test_id("encounter-gone")).to_contain_text(
            "You can no longer follow this encounter"
        )
        expect(pl_page.locator("#encounter")).to_have_count(0)
        expect(pl_page.get_by_test_id("table-feed-gone")).to_have_count(1)
        stopped_reconnecting(pl_page)  # no reconnecting loop: the first socket and one refused retry
        encounter_sockets = [url for url in sockets if "/ws/encounters/" in url]
        assert 2 <= len(encounter_sockets) <= 3, sockets
        # The page's second socket, the table's roll feed, stops too.
        feed_sockets = [url for url in sockets if "/ws/campaigns/" in url]
        assert 1 <= len(feed_sockets) <= 3, sockets
    finally:
        gm_context.close()
        pl_context.close()
