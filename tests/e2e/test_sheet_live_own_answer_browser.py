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
from tests.e2e.test_sheet_live_browser import _api_state, _sheet, _table
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Every POST's answer reaches the page 1 s after the server sent it (htmx reads it in xhr.onload);
#: the order in which the socket's word and the answers arrived is kept in window.__heard.
SLOW_ANSWERS = """
(() => {
  window.__heard = [];
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method) { this.__method = method; return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () {
    if (this.__method === "POST") {
      const xhr = this, onload = xhr.onload;
      xhr.onload = function (ev) {
        setTimeout(() => { window.__heard.push("answer"); onload.call(xhr, ev); }, 1000);
      };
    }
    return send.apply(this, arguments);
  };
  document.getElementById("sheet-live").addEventListener("htmx:wsBeforeMessage", () => {
    window.__heard.push("live");
  });
})();
"""


def test_the_players_own_answer_is_shown_when_the_live_update_comes_first(browser, table_server):  # noqa: F811
    from playwright.sync_api import expect

    slug = registry.SYSTEMS[0]
    gm, player, character, phone, laptop = _table(browser, table_server, slug)
    try:
        page = _sheet(phone, character)
        page.evaluate(SLOW_ANSWERS)
        version = character.version
        fields = dict(registry.get(slug).contract_data()["play_actions"][0])
        form = page.locator(f'#sheet-state form[data-action="{fields.pop("action")}"]').first
        for name, value in fields.items():
            field = form.locator(f'[name="{name}"]')
            if field.evaluate("el => el.tagName") == "SELECT":
                field.select_option(str(value))
            else:
                field.fill(str(value))
        form.locator("button[type=submit]").click()

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
