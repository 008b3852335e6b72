"""The live encounter page raced as a table plays it (#19), GM and player in two browser contexts
against daphne (websockets and all), the saved state read back through the API:

- a double-clicked Next turn ends one turn; a double-clicked Move moves once;
- a page that missed two turns (its websocket never connects) has its action refused, visibly, and
  is redrawn to the current turn;
- Next turn pressed on two pages at once (on a 300 ms network) ends one turn, the other page is told,
  and every open page's panel is on the API's current combatant within 2 s;
- Next turn pressed again the moment the header shows the next fighter, while the panel is still
  on its way, ends the next turn (the button waits for its panel), by mouse and by keyboard; with no
  live updates at all the page catches up by itself and the button comes back.
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

from combat import services
from combat.models import Encounter, EncounterEvent
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import answered, count_requests, slow_link
from tests.e2e.test_combat_browser import _page_as, asgi_server, wait_live  # noqa: F401 (a fixture)
from tests.factories import api_client, make_campaign, make_user
from tests.rulesets.pando.fight_table import GOBLIN, PABLO
from tests.waiting import poll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GM_SIZE = {"width": 1280, "height": 1000}
PHONE = {"width": 390, "height": 844}
#: A page that never hears the live updates: its websocket stays "connecting" for ever.
NO_SOCKET = """
window.WebSocket = function () {
  this.readyState = 0; this.send = function () {}; this.close = function () {};
  this.addEventListener = function () {}; this.removeEventListener = function () {};
};
window.WebSocket.CONNECTING = 0; window.WebSocket.OPEN = 1; window.WebSocket.CLOSING = 2; window.WebSocket.CLOSED = 3;
"""


def _table():
    """Pablo (the player's) and two goblins (one turn, grouped): the order is Pablo, the goblins."""
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    goblins = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=2)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    return {"gm": gm, "player": player, "e": e, "c_pablo": c_pablo, "goblins": goblins}


#: The page's fetch after a live notice (the board with the panel that draws the buttons) leaves
#: 0.7 s late (a slow link): the Next turn just applied (204) is well ahead of the page.
SLOW_PANEL = """
(() => {
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) { this.__url = String(url); return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () {
    const args = arguments;
    if (/\\/(panel|board)\\/(\\?|$)/.test(this.__url)) setTimeout(() => send.apply(this, args), 700);
    else send.apply(this, args);
  };
})();
"""


def _api(user, e) -> dict:
    r = api_client(user).get(f"/api/v1/encounters/{e.pk}/")
    assert r.status_code == 200
    return r.json()


def _watch_oob(page) -> None:
    page.evaluate(
        "window.__oobErrors = [];"
        "document.body.addEventListener('htmx:oobErrorNoTarget',"
        " (e) => window.__oobErrors.push(String(e.detail.target)));"
    )


def _open(page, url) -> None:
    page.goto(url)
    wait_live(page)
    _watch_oob(page)
    count_requests(page)


def test_a_double_clicked_next_turn_ends_one_turn(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e = t["e"]
    context, page = _page_as(browser, asgi_server, t["gm"], viewport=GM_SIZE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        slow_link(page)  # a phone-like network: the second click lands while the first is in flight
        page.locator("#encounter-next-turn").dblclick()
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Goblin 1, Goblin 2")
        answered(page)  # a second request, had the second click sent one, has landed too
        state = _api(t["gm"], e)
        assert (state["round"], state["turn"]) == (1, 1), state  # the goblins' turn, not round 2
        assert page.evaluate("window.__oobErrors") == []
    finally:
        context.close()


def test_a_double_clicked_move_moves_once(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e, pablo = t["e"], t["c_pablo"]
    context, page = _page_as(browser, asgi_server, t["player"], viewport=PHONE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        slow_link(page)
        move = page.locator(f'form[data-action="move"][data-fighter="{pablo.pk}"] button[type=submit]')
        move.dblclick()
        expect(page.locator("#encounter-log-list li.log-move")).to_have_count(1)
        answered(page)
        assert EncounterEvent.objects.filter(encounter=e, kind="move").count() == 1
        row = next(c for c in _api(t["player"], e)["combatants"] if c["id"] == pablo.pk)
        assert row["combat"]["speed"] == 5  # 6 − 1: one move
        expect(page.locator(f"#combatant-{pablo.pk} [data-stat='speed'] dd")).to_have_text("5/6")
    finally:
        context.close()


def test_a_page_that_missed_two_turns_is_refused_visibly_and_redrawn(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e, pablo, gm = t["e"], t["c_pablo"], t["gm"]
    context, page = _page_as(browser, asgi_server, t["player"], viewport=PHONE)
    context.add_init_script(NO_SOCKET)
    try:
        page.goto(reverse("encounter_detail", args=[e.pk]))
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 1")
        count_requests(page)
        # The GM ends two turns; this page hears nothing of it and still offers Pablo's round-1 Move.
        services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
        services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
        answered(page)  # nothing on its way that could redraw it (and no socket to say so)
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 1")
        e.refresh_from_db()
        version, events = e.version, EncounterEvent.objects.filter(encounter=e).count()

        page.locator(f'form[data-action="move"][data-fighter="{pablo.pk}"] button[type=submit]').click()

        refusal = page.get_by_test_id("panel-error")
        expect(refusal).to_be_visible()
        expect(refusal).to_contain_text("moved on since your page was drawn")
        # Redrawn as it is now: header, order, log and panel.
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 2")
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Pablo")
        expect(page.locator("#encounter-log-list")).to_contain_text("Round 2")
        expect(page.locator("#encounter-panel")).to_have_attribute("data-version", str(version))
        # Nothing was applied to the later state.
        e.refresh_from_db()
        assert (e.version, EncounterEvent.objects.filter(encounter=e).count()) == (version, events)
        assert EncounterEvent.objects.filter(encounter=e, kind="move").count() == 0

        # The redrawn form is current: the same click now moves Pablo once.
        page.locator(f'form[data-action="move"][data-fighter="{pablo.pk}"] button[type=submit]').click()
        moves = poll(
            lambda: EncounterEvent.objects.filter(encounter=e, kind="move").count(), until=lambda n: n == 1
        )
        assert moves == 1, moves
        answered(page)
        assert EncounterEvent.objects.filter(encounter=e, kind="move").count() == 1
    finally:
        context.close()


def test_a_next_turn_race_ends_one_turn_and_every_panel_follows(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e, pablo = t["e"], t["c_pablo"]
    url = reverse("encounter_detail", args=[e.pk])
    gm_context, gm_page = _page_as(browser, asgi_server, t["gm"], viewport=GM_SIZE)
    pl_context, pl_page = _page_as(browser, asgi_server, t["player"], viewport=PHONE)
    try:
        for page in (gm_page, pl_page):
            _open(page, url)
            slow_link(page)
        e.refresh_from_db()
        start = (e.round, e.turn)
        # The player ends Pablo's turn and the GM presses Next turn at the same moment.
        # (Clicked from the pages' own script: two Playwright clicks in a row can be far enough
        # apart on a busy machine for the second page to have been updated already.)
        pl_page.locator("#encounter-next-turn").evaluate("button => button.click()")
        gm_page.locator("#encounter-next-turn").evaluate("button => button.click()")

        clicked = time.monotonic()
        for page in (gm_page, pl_page):
            expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Goblin 1, Goblin 2")
        current = " ".join(str(i) for i in _api(t["gm"], e)["current_ids"])
        assert str(pablo.pk) not in current.split()
        # Within 2 s of the clicks, every page's panel is on the API's current combatant.
        for page in (gm_page, pl_page):
            left_ms = 2000 - (time.monotonic() - clicked) * 1000
            assert left_ms > 0, "the panels were not current 2 s after the clicks"
            expect(page.locator("#encounter-panel")).to_have_attribute(
                "data-current", current, timeout=left_ms
            )
        for page in (gm_page, pl_page):
            answered(page)  # both presses have their answers drawn: one applied, one refused
        state = Encounter.objects.get(pk=e.pk)
        assert (state.round, state.turn) == (start[0], start[1] + 1)  # one turn ended, not two
        # Whoever lost the race was told (a refusal beside the button), never silently ignored.
        refusals = [p.get_by_test_id("panel-error").count() for p in (gm_page, pl_page)]
        assert sum(refusals) == 1, refusals
        for page in (gm_page, pl_page):
            assert page.locator("#encounter-panel").get_attribute("data-current") == current
            assert page.evaluate("window.__oobErrors") == []
    finally:
        gm_context.close()
        pl_context.close()


def test_a_refusal_lands_when_the_panel_was_replaced_while_it_was_in_flight(browser, asgi_server):  # noqa: F811
    """The form that asked is gone from the page when its answer comes (a live refresh replaced
    the panel): the refusal still shows, and htmx finds every part (no htmx:oobErrorNoTarget)."""
    from playwright.sync_api import expect

    t = _table()
    e, pablo = t["e"], t["c_pablo"]
    context, page = _page_as(browser, asgi_server, t["player"], viewport=PHONE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        services.encounter_next_turn(encounter=e, user=t["gm"], roller=FixedRoller([]))
        services.encounter_next_turn(encounter=e, user=t["gm"], roller=FixedRoller([]))  # missed by the page
        slow_link(page)
        page.locator(f'form[data-action="move"][data-fighter="{pablo.pk}"] button[type=submit]').evaluate(
            """button => { button.click();
                 const panel = document.getElementById('encounter-panel');  // a refresh lands first
                 panel.outerHTML = panel.outerHTML; }"""
        )
        expect(page.get_by_test_id("panel-error")).to_contain_text("moved on since your page was drawn")
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 2")
        assert page.evaluate("window.__oobErrors") == []
        assert EncounterEvent.objects.filter(encounter=e, kind="move").count() == 0
    finally:
        context.close()


def test_next_turn_pressed_again_the_moment_the_header_moves_on_ends_the_next_turn(
    browser,
    asgi_server,  # noqa: F811
):
    """The GM ends Pablo's turn and presses Next turn again at once, while the page's fetch of the
    new turn (board and panel) is still on its way: the press waits for the new panel (the panel
    busy, its button disabled, as while a request is in flight) and then ends the goblins' turn. Neither refused as stale (the page had shown the change) nor lost. A third press from the
    keyboard: the focus is back on the button. Then a page with no live updates at all: after its
    press, it catches up by itself and the button comes back."""
    from playwright.sync_api import expect

    t = _table()
    e = t["e"]
    url = reverse("encounter_detail", args=[e.pk])
    context, page = _page_as(browser, asgi_server, t["gm"], viewport=GM_SIZE)
    context.add_init_script(SLOW_PANEL)
    try:
        _open(page, url)
        button, panel = page.locator("#encounter-next-turn"), page.locator("#encounter-panel")
        acting = page.get_by_test_id("encounter-current")
        button.click()
        # Applied; the panel that drew the button is not the new one yet: the button waits.
        expect(panel).to_have_attribute("aria-busy", "true")
        expect(button).to_be_disabled()
        button.click()  # as a person clicks again: it lands once the button is back
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 2")
        expect(acting).to_have_text("Acting: Pablo")
        state = _api(t["gm"], e)
        assert (state["round"], state["turn"]) == (2, 0), state
        expect(button).to_be_enabled()
        expect(button).to_be_focused()
        page.keyboard.press("Enter")
        expect(acting).to_have_text("Acting: Goblin 1, Goblin 2")
        expect(button).to_be_enabled()
        expect(button).to_be_focused()
        assert page.get_by_test_id("panel-error").count() == 0
        state = _api(t["gm"], e)
        assert (state["round"], state["turn"]) == (2, 1), state
        assert page.evaluate("window.__oobErrors") == []
    finally:
        context.close()

    # A page that never hears the live updates: its press is applied, and the page catches up.
    context, page = _page_as(browser, asgi_server, t["gm"], viewport=PHONE)
    context.add_init_script(NO_SOCKET)
    try:
        page.goto(url)
        _watch_oob(page)
        button = page.locator("#encounter-next-turn")
        button.click()
        expect(page.get_by_test_id("encounter-round")).to_have_text("Round 3")
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Pablo")
        expect(button).to_be_enabled()
        assert page.locator("#encounter-panel").get_attribute("data-version") == str(
            Encounter.objects.get(pk=e.pk).version
        )
        assert page.get_by_test_id("panel-error").count() == 0
        assert page.evaluate("window.__oobErrors") == []
    finally:
        context.close()
