"""The live pages say that live updates are paused while the server closes their socket with 1013
("try again later": Redis or the database away, config/outage.py), reconnect by themselves, and stop
saying so once a socket stays open (static/js/app.js). The websocket is Playwright's stand-in
(``route_web_socket``): the encounter's first two connections are closed with 1013, the third
stays open."""

from __future__ import annotations

import time

import pytest

from combat import services as combat
from tests import vehicles
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTICE = '[data-testid="live-paused"]'


def test_the_encounter_says_live_updates_are_paused_and_reconnects_by_itself(page_as):
    gm = make_user("gm")
    campaign = make_campaign(gm=gm, ruleset=vehicles.SLUGS[0])
    encounter = combat.encounter_create(campaign=campaign, user=gm, name="Bridge")
    page = page_as(gm)
    knocks: list[float] = []

    def server(ws):
        knocks.append(time.monotonic())
        if len(knocks) <= 2:
            ws.close(code=1013, reason="Try again later")

    page.route_web_socket("**/ws/encounters/**", server)
    page.route_web_socket("**/ws/campaigns/**", lambda ws: None)  # the table's feed: open throughout
    page.goto(f"/encounters/{encounter.pk}/")
    notice = page.locator(NOTICE)
    notice.wait_for(state="visible")
    assert notice.inner_text() == (
        "Live updates are paused: the server cannot pass them on just now. "
        "This page reconnects by itself and catches up then."
    )
    assert notice.get_attribute("role") == "status"
    notice.wait_for(state="detached", timeout=15_000)  # the third socket stayed open
    assert len(knocks) == 3
    # Each 1013 in a row waits longer: from 0.5–1 s after the first to 1–2 s after the second.
    assert knocks[1] - knocks[0] >= 0.45 and knocks[2] - knocks[1] >= 0.95
