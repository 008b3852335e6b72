"""A player's own action on a slow link, with the sheet's live update arriving first (Playwright +
Debian's Chromium against daphne, pages and websockets).

The socket says "version N" as the action commits, and the page fetches its blocks while the action's
own answer is still on its way. Drawing them then replaced the block the answer was aimed at
(#sheet-state): the answer landed in the old block, off the page, and what the player did was never
said (the sentence of what happened, "… takes 1 harm …"). Seen as a flaky browser test (the sheet's
play-state form, its message not shown within 15 s) when the socket's retry fetched in that window."""

from __future__ import annotations

import pytest

from rulesets.engine import registry
from tests.e2e.conftest import hold_post_answers
from tests.e2e.test_sheet_live_browser import _api_state, _sheet, _table
from tests.e2e.test_sheet_play_browser import fill_play_action
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The socket's word, recorded beside the held answers (window.__heard).
HEAR_LIVE = """() => document.getElementById("sheet-live").addEventListener("htmx:wsBeforeMessage", () => {
  window.__heard.push("live");
})"""


def test_the_players_own_answer_is_shown_when_the_live_update_comes_first(browser, table_server):  # noqa: F811
    from playwright.sync_api import expect

    slug = registry.SYSTEMS[0]
    gm, player, character, phone, laptop = _table(browser, table_server, slug)
    try:
        page = _sheet(phone, character)
        hold_post_answers(page, 1000)
        page.evaluate(HEAR_LIVE)
        version = character.version
        form = fill_play_action(page, slug)
        form.locator("button[type=submit]").focus()
        page.keyboard.press("Enter")

        message = page.locator('[data-testid="state-message"]')
        expect(message).to_be_visible()
        # The race this test is for did happen: the socket's word came while the answer was held.
        assert page.evaluate("() => window.__heard") == ["live", "answer"]
        said = message.inner_text()
        assert len(said) > 10 and "{" not in said, said  # a sentence in the game's words
        expect(page.locator('[data-testid="state-error"]')).to_have_count(0)
        expect(page.locator("#sheet-version")).to_have_attribute("data-version", str(version + 1))
        assert _api_state(player, character)["version"] == version + 1
        assert page.evaluate("() => window.__notReloaded === true")
    finally:
        phone.close()
        laptop.close()
