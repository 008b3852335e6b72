"""Every tap counts on the encounter page too (#31), GM in a browser against daphne, a 300 ms link
(Chromium's network emulation, ``slow_link``), the saved state read back through the API:

- the GM's "Harm a resistance" (a "by N" counter: the spec's ``relative``) tapped two or five times
  while the first tap is on its way lowers Pablo's awareness by 2 or 5 — each tap its own POST, no
  refusal, the button busy (aria-busy, data-pending) while taps are out. Before, the button was
  disabled while its request was out (#19's rule for every action): the second click fell on a
  disabled button and was lost, and a tap sent from a panel the first one had moved on from was
  refused as stale;
- a double click on Next turn still ends one turn, one POST (#19: a turn-taking action is one intent).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.e2e.conftest import answered, slow_link
from tests.e2e.test_combat_browser import _page_as, asgi_server  # noqa: F401 (a fixture)
from tests.rulesets.pando.e2e.test_pando_encounter_race_browser import GM_SIZE, _api, _open, _table
from tests.waiting import poll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POSTS = """() => { window.__posts = 0; const send = XMLHttpRequest.prototype.send;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m) { this.__m = m; return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () { if (this.__m === "POST") window.__posts += 1; return send.apply(this, arguments); };
}"""


def _awareness_harm(gm, e, pablo) -> int:
    row = next(c for c in _api(gm, e)["combatants"] if c["id"] == pablo.pk)
    return row["state"]["resistance_harm"]["awareness"]


def _wait_harm(gm, e, pablo, harm: int, seconds: float = 15) -> int:
    return poll(
        lambda: _awareness_harm(gm, e, pablo), until=lambda got: got == harm, timeout=seconds, every=0.1
    )


@pytest.mark.parametrize("taps", [2, 5])
def test_quick_taps_on_the_gm_s_harm_each_count_on_a_300_ms_link(browser, asgi_server, taps):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e, pablo, gm = t["e"], t["c_pablo"], t["gm"]
    context, page = _page_as(browser, asgi_server, gm, viewport=GM_SIZE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        page.locator("details.gm-actions > summary").click()
        sel = f"#act-{pablo.pk}-gm_resistance_harm"
        button = page.locator(sel)
        expect(page.locator(f"#act-{pablo.pk}-gm_resistance_harm-resistance")).to_have_value("awareness")
        start = _awareness_harm(gm, e, pablo)
        e.refresh_from_db()
        version = e.version
        page.evaluate(POSTS)
        slow_link(page)
        for i in range(taps):
            # A person's tap, from the page's own script: it lands on the button drawn now and does
            # not wait for it to be enabled (a disabled button ignores it, as it ignores a finger).
            button.evaluate("b => document.getElementById(b.id).click()")
            if i < taps - 1:
                page.wait_for_timeout(150)  # deliberate wait: a person's taps, 150 ms apart
        busy = page.evaluate(
            f"() => [document.querySelector('{sel}').getAttribute('aria-busy'),"
            f" document.querySelector('{sel}').getAttribute('data-pending'),"
            f" document.querySelector('{sel}').disabled]"
        )

        assert _wait_harm(gm, e, pablo, start + taps) == start + taps  # saved: every tap
        assert busy[0] == "true" and int(busy[1]) >= 1 and busy[2] is False, busy
        expect(button).not_to_have_attribute("aria-busy", "true", timeout=10_000)
        answered(page)  # a stray request, had a tap sent one, has landed too
        assert _awareness_harm(gm, e, pablo) == start + taps  # every tap, and no more
        e.refresh_from_db()
        assert e.version == version + taps
        assert page.evaluate("() => window.__posts") == taps  # each tap its own request
        assert page.get_by_test_id("panel-error").count() == 0  # none refused
        expect(page.locator("#encounter-log-list li.log-gm_resistance_harm")).to_have_count(taps)
        assert page.evaluate("window.__oobErrors") == []
        expect(page.locator("#gm-actions")).to_have_attribute("open", "")
    finally:
        context.close()


def test_a_double_clicked_next_turn_still_ends_one_turn(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    t = _table()
    e = t["e"]
    context, page = _page_as(browser, asgi_server, t["gm"], viewport=GM_SIZE)
    try:
        _open(page, reverse("encounter_detail", args=[e.pk]))
        page.evaluate(POSTS)
        slow_link(page)
        page.locator("#encounter-next-turn").dblclick()
        expect(page.get_by_test_id("encounter-current")).to_have_text("Acting: Goblin 1, Goblin 2")
        answered(page)
        state = _api(t["gm"], e)
        assert (state["round"], state["turn"]) == (1, 1), state
        assert page.evaluate("() => window.__posts") == 1  # the second click fell on a disabled button
        assert page.get_by_test_id("panel-error").count() == 0
    finally:
        context.close()
