"""The GM's panel is never left on an older turn, and a page shown again catches up (#31).

The acting player's Move through the API and the GM's Next turn through the API right after make
the GM's page fetch twice. Before, the panel was
fetched on its own (a GET aimed at the panel on the page when it left): when the older answer was
drawn first, the newer one went into the panel it had just replaced (off the page), and the board
showed the goblins' turn while the panel stayed on Pablo's (3 of 20 GM pages in the probe). Now the
panel comes with the board, out of band (aimed by id when it is drawn), and carries its version.

Here the answers are held back in the browser (their xhr.onload), each order once: the panel must
end on the API's version and current combatant either way."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import api_post
from tests.e2e.test_combat_browser import _page_as, asgi_server  # noqa: F401 (a fixture)
from tests.rulesets.pando.e2e.test_pando_encounter_race_browser import (
    GM_SIZE,
    NO_SOCKET,
    PHONE,
    _api,
    _open,
    _table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The n-th fetch of what the page shows (the board and the panel, or before #31 the panel alone;
#: from 1) has its answer reach the page's script ``holds[n - 1]`` ms
#: after it came (its xhr.onload held); window.__panelAnswered counts the answers the server gave,
#: window.__panelDrawn those the page's script has been handed (held or not).
HOLD_PANEL = """(holds) => {
  window.__panelGets = 0; window.__panelAnswered = 0; window.__panelDrawn = 0;
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) { this.__url = String(url); return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () {
    if (/\\/(panel|board)\\/(\\?|$)/.test(this.__url)) {
      const xhr = this, ms = holds[window.__panelGets] || 0, onload = xhr.onload;
      window.__panelGets += 1;
      xhr.addEventListener("load", () => { window.__panelAnswered += 1; });
      xhr.onload = function (ev) {
        const draw = () => { onload.call(xhr, ev); window.__panelDrawn += 1; };
        if (ms) setTimeout(draw, ms); else draw();
      };
    }
    return send.apply(this, arguments);
  };
}"""


@pytest.mark.parametrize(
    "holds",
    [
        # The older answer drawn first, the newer one (sent before it was drawn) after: the newer one
        # went into the panel the older one had replaced, off the page (the probe's failure).
        [1000, 2000],
        # The newer answer drawn first, the older one after: it must not replace the newer panel.
        [2000, 0],
    ],
    ids=["older-drawn-first", "newer-drawn-first"],
)
def test_the_gm_panel_ends_on_the_current_turn_whatever_order_its_fetches_answer(
    browser,
    asgi_server,  # noqa: F811
    holds,
):
    t = _table()
    e, gm = t["e"], t["gm"]
    context, page = _page_as(browser, asgi_server, gm, viewport=GM_SIZE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        page.evaluate(HOLD_PANEL, holds)
        # The player's Move, the GM's Next turn 20 ms later, both through the API of the server the
        # page is on (it tells every page of each change).
        api_post(
            asgi_server,
            t["player"],
            f"/api/v1/encounters/{e.pk}/actions/",
            {"combatant": t["c_pablo"].pk, "action": "move"},
        )
        # The GM's Next turn once the page's fetch for the Move has been answered (its answer held):
        # the two fetches stand on two versions, and the second leaves before the first is drawn.
        page.wait_for_function("() => window.__panelAnswered >= 1", timeout=10_000)
        api_post(asgi_server, gm, f"/api/v1/encounters/{e.pk}/next-turn/", {})
        state = _api(gm, e)
        current = [c["id"] for c in state["combatants"] if c.get("current")] or None
        e.refresh_from_db()
        page.wait_for_function("() => window.__panelGets >= 2", timeout=10_000)
        # Both answers handed to the page's script, the held ones too (was a wait of the longest hold).
        page.wait_for_function("() => window.__panelDrawn >= window.__panelGets", timeout=15_000)
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        panel = page.locator("#encounter-panel")
        assert panel.get_attribute("data-version") == str(e.version)
        drawn = page.evaluate(
            "() => Array.from(document.querySelectorAll('#encounter-panel .action-block.is-current'))"
            ".map(b => b.id)"
        )
        goblins = sorted(f"actions-{g.pk}" for g in t["goblins"])
        assert sorted(drawn) == goblins, (drawn, current)
        # The board says the same turn.
        assert "Goblin" in page.get_by_test_id("encounter-current").inner_text()
    finally:
        context.close()


def test_a_page_that_heard_nothing_catches_up_when_it_is_shown_again(browser, asgi_server):  # noqa: F811
    """A phone whose socket heard nothing (asleep: it never connects here) is shown again: it fetches
    what it shows, board and panel, at the API's version (before: it stayed on the turn it had)."""
    from playwright.sync_api import expect

    t = _table()
    e, gm = t["e"], t["gm"]
    context, page = _page_as(browser, asgi_server, t["player"], viewport=PHONE)
    context.add_init_script(NO_SOCKET)
    try:
        page.goto(reverse("encounter_detail", args=[e.pk]))
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Pablo")
        api_post(asgi_server, gm, f"/api/v1/encounters/{e.pk}/next-turn/", {})  # answered: committed, told
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Pablo")  # heard nothing
        page.evaluate(
            "() => { Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Goblin 1, Goblin 2")
        e.refresh_from_db()
        expect(page.locator("#encounter-panel")).to_have_attribute("data-version", str(e.version))
        expect(page.locator("#encounter-status")).to_have_attribute("data-version", str(e.version))
    finally:
        context.close()
