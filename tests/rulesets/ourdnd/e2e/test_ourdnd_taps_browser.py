"""Every tap counts on a phone's link (#31): an Our D&D sheet at 390×844 on a 300 ms link (Chromium's
network emulation, ``slow_link``), "Lower HP by 1" pressed two or five times while the first tap is
on its way. Before static/js/taps.js, one POST left of two taps (htmx sent the second from the form
the first answer had replaced: dropped) and HP fell by 1, with no word; the button never said a tap
was on its way. The saved HP must equal what the player did, the sheet show it, no refusal."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import slow_link
from tests.e2e.test_sheet_live_browser import _api_state, _sheet, _table
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)
from tests.waiting import poll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOWER = "#step-health-hp-lower"
HP_SHOWN = "() => document.querySelector('[data-testid=pool-hp] strong').textContent.trim()"
POSTS = """() => { window.__posts = 0; const send = XMLHttpRequest.prototype.send;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m) { this.__m = m; return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () { if (this.__m === "POST") window.__posts += 1; return send.apply(this, arguments); };
}"""


def _wait_hp(player, character, hp: int, seconds: float = 12) -> int:
    return poll(
        lambda: _api_state(player, character)["state"]["hp"],
        until=lambda got: got == hp,
        timeout=seconds,
        every=0.1,
    )


@pytest.mark.parametrize(("taps", "gap_ms"), [(2, 150), (2, 400), (5, 150)])
def test_quick_taps_on_lower_hp_each_count_on_a_300_ms_link(browser, table_server, taps, gap_ms):  # noqa: F811
    from playwright.sync_api import expect

    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        page = _sheet(phone, character)
        start = _api_state(player, character)["state"]["hp"]
        version = _api_state(player, character)["version"]
        page.evaluate(POSTS)
        slow_link(page)
        button = page.locator(LOWER)
        for i in range(taps):
            button.click()
            if i < taps - 1:
                page.wait_for_timeout(gap_ms)  # deliberate wait: a person's taps, gap_ms apart
        # What the button says while the taps are in flight (asserted below, after what was saved).
        busy = page.evaluate(
            f"() => [document.querySelector('{LOWER}').getAttribute('aria-busy'),"
            f" document.querySelector('{LOWER}').getAttribute('data-pending')]"
        )

        assert _wait_hp(player, character, start - taps) == start - taps  # saved: every tap
        assert busy[0] == "true" and int(busy[1]) >= 1, (
            busy
        )  # the taps not yet answered, the last one at least
        page.wait_for_function(f"() => ({HP_SHOWN})() === '{start - taps}'", timeout=10_000)
        expect(page.locator(LOWER)).not_to_have_attribute("aria-busy", "true")
        expect(page.locator(LOWER)).not_to_have_attribute("data-pending", str(1))
        expect(page.locator("[data-testid=state-error]")).to_have_count(0)
        assert page.evaluate("() => window.__posts") == taps  # each tap its own request
        assert _api_state(player, character)["version"] == version + taps
    finally:
        phone.close()
        laptop.close()


def test_a_value_typed_after_a_tap_is_not_refused_as_stale_against_that_own_tap(browser, table_server):  # noqa: F811
    """ "Lower HP by 1", then at once HP typed as 3 and Set: the Set was drawn at the version the tap
    replaced. Before, both left together and the Set was refused ("HP is now 9 … Nothing was
    changed"): a conflict with the player's own tap. Now it leaves after the tap's answer, on the
    version that answer drew: HP 3."""
    from playwright.sync_api import expect

    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        page = _sheet(phone, character)
        slow_link(page)
        page.locator(LOWER).click()
        box = page.locator("#set-health-hp")
        box.fill("3")
        box.press("Enter")
        assert _wait_hp(player, character, 3) == 3
        page.wait_for_function(f"() => ({HP_SHOWN})() === '3'", timeout=10_000)
        expect(page.locator("[data-testid=state-error]")).to_have_count(0)
    finally:
        phone.close()
        laptop.close()
