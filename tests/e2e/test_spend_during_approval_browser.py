"""The advancement spend seen once in 9 runs (issue 31): a play action ("Spend 1") pressed twice on
the sheet while the GM approves an advancement counted once, with no message.

Made deterministic as the builder's race tests are: every POST answer is held 1 s in the browser
(``hold_post_answers``), so the second press lands while the first is on its way, as it did when the
approval held the character's row lock and the first press's answer waited behind it; the GM
approves between the two presses (and, to tell the approval's part, not at all). What the API says
was saved is asserted.

What it found (measured in Chromium, each run): one POST leaves the browser, the server applies it
(its version +1, the approval's +1), the second press never leaves, with or without the approval.
The sheet's play form queues a press made while its own request is out on the form itself (htmx's
default queue, "last"); the first answer's swap replaces #sheet-state, form and all, and htmx never
sends a queued request of an element no longer on the page. The approval's part is only timing: it
holds the character's row lock, so the first answer is late and a quick second press falls in the
window (no hold, 150 or 400 ms apart: 2 POSTs of 2 presses; held 300 ms, 150 ms apart: 1 of 2, or
2 of which the second carried the form's defaults, not what was chosen: harm to the head, not the
legs, because the live update redrew the form between the choice and the press). Its
live update then redraws #sheet-state after the press's answer, and the answer's message, in the
block's toast, goes with it: "no message" (held 1 s: none shown after 4 s). Ruled out: the server
(every action it receives is applied under the row lock, as an operation: one request reached it);
the approval overwriting the play state (it writes build, report and name only). The fix is the
sheet's tap queueing (static/js/taps.js: each press sent in turn through the form then on the
page) and its live redraw waiting for the page's own answers; both presses now count."""

from __future__ import annotations

import pytest

from characters.advancement.services import advancement_approve, advancement_request, award_create
from rulesets.engine import registry
from tests import vehicles
from tests.e2e.conftest import hold_post_answers, settled
from tests.e2e.test_sheet_live_browser import _api_state, _in_thread, _sheet, _table
from tests.e2e.test_sheet_play_browser import fill_play_action
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = vehicles.first(lambda rs: vehicles.advance(rs) is not None, "a ruleset with an advancement")


@pytest.mark.parametrize("approve", [True, False], ids=["during-an-approval", "alone"])
def test_two_presses_of_a_play_action_during_an_approval_both_count(browser, table_server, approve):  # noqa: F811
    ruleset = registry.get(SLUG)
    gm, player, character, phone, laptop = _table(browser, table_server, SLUG)
    step = vehicles.advance(ruleset, character.build)
    made = []
    _in_thread(
        lambda: award_create(gm=gm, currency=step.currency, amount=step.cost, character_id=character.pk)
    )
    _in_thread(
        lambda: made.append(advancement_request(character_id=character.pk, user=player, build=step.build))
    )
    request = made[0]
    try:
        page = _sheet(phone, character)
        before = _api_state(player, character)
        hold_post_answers(page, 1000)
        form = fill_play_action(page, SLUG)
        action = dict(ruleset.contract_data()["play_actions"][0])
        button = form.locator("button[type=submit]")
        # The second press lands once the server has answered the first (and the GM approved), while
        # that answer is held from the page: the first press still on its way, as the person saw it.
        with page.expect_response(lambda r: r.request.method == "POST"):
            button.click()
            if approve:
                _in_thread(lambda: advancement_approve(advancement_id=request.pk, gm=gm))
        fill_play_action(page, SLUG).locator("button[type=submit]").click()
        page.wait_for_function("() => (window.__heard || []).length >= 2", timeout=15_000)  # both answers
        settled(page)
        answers = page.evaluate("() => (window.__heard || []).length")
        after = _api_state(player, character)
        once = vehicles.after(ruleset, before["state"], action, after["build"])
        twice = vehicles.after(ruleset, once, action, after["build"])
        # Before: one POST answered (the second press never left), the state the action makes
        # once, and no message.
        assert (answers, after["state"]) == (2, twice), (before["state"], after["state"], once)
        assert after["version"] == before["version"] + 2 + approve  # the approval and the two presses
        # The sheet shows what was saved (its version, once the live update is drawn).
        from playwright.sync_api import expect

        expect(page.locator("#sheet-version")).to_have_attribute("data-version", str(after["version"]))
    finally:
        phone.close()
        laptop.close()
