"""The live pages say that live updates are paused while the server closes their socket with 1013
("try again later": Redis or the database away, config/outage.py), reconnect by themselves, and stop
saying so once a socket stays open (static/js/app.js). The websocket is Playwright's stand-in
(``route_web_socket``): a live page's first two connections are closed with 1013, the third
stays open. On the encounter, the sheet and the party page: the sheet's and the party's own scripts
stopped their socket's events short of app.js, and those pages said nothing and knocked every second
through an outage (found walking ``make serve`` with Redis stopped, 2026-12-08)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from combat import services as combat
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTICE = '[data-testid="live-paused"]'


def _encounter(gm, player, campaign) -> tuple:
    encounter = combat.encounter_create(campaign=campaign, user=gm, name="Bridge")
    return gm, f"/encounters/{encounter.pk}/", "**/ws/encounters/**"


def _sheet(gm, player, campaign) -> tuple:
    character = make_character(ruleset=campaign.ruleset, owner=player, campaign=campaign)
    return player, f"/characters/{character.pk}/", "**/ws/characters/*/sheet/"


def _party(gm, player, campaign) -> tuple:
    make_character(ruleset=campaign.ruleset, owner=player, campaign=campaign)
    return gm, f"/campaigns/{campaign.pk}/party/", "**/ws/campaigns/*/rolls/"


@pytest.mark.parametrize("live_page", [_encounter, _sheet, _party], ids=["encounter", "sheet", "party"])
def test_a_live_page_says_live_updates_are_paused_and_reconnects_by_itself(page_as, live_page):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=vehicles.SLUGS[0], players=[player])
    viewer, url, socket = live_page(gm, player, campaign)
    page = page_as(viewer)
    knocks: list[float] = []

    def server(ws):
        knocks.append(time.monotonic())
        if len(knocks) <= 2:
            ws.close(code=1013, reason="Try again later")

    page.route_web_socket("**/ws/**", lambda ws: None)  # the page's other sockets: open throughout
    page.route_web_socket(socket, server)
    page.goto(url)
    notice = page.locator(NOTICE)
    notice.wait_for(state="visible")
    assert notice.inner_text() == (
        "Live updates are paused: the server cannot pass them on just now. "
        "This page reconnects by itself and catches up then."
    )
    # Said once by the page's one live region, the notice no region of its own (#38).
    assert notice.get_attribute("role") is None and notice.get_attribute("aria-live") is None
    expect(page.locator("#sf-status")).to_have_text(notice.inner_text())
    notice.wait_for(state="detached", timeout=15_000)  # the third socket stayed open
    assert len(knocks) == 3
    # Each 1013 in a row waits longer: from 0.5–1 s after the first to 1–2 s after the second.
    assert knocks[1] - knocks[0] >= 0.45 and knocks[2] - knocks[1] >= 0.95
