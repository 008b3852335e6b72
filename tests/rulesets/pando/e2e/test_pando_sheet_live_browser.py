"""A GM's change reaches a player's open Pando sheet within a second, keeping their typing (moved from
tests/e2e/test_sheet_live_browser.py)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.test_sheet_live_browser import _api_state, _sheet, _table
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)

# alone: a live change within a second (tests/scheduling.py runs these with no other worker busy)
pytestmark = [pytest.mark.browser, pytest.mark.alone, pytest.mark.django_db(transaction=True)]


def test_a_gm_change_reaches_the_player_s_open_sheet_within_a_second_keeping_their_typing(
    browser,
    table_server,  # noqa: F811
):
    gm, player, character, phone, laptop = _table(browser, table_server, "pando")
    try:
        mine, theirs = _sheet(phone, character), _sheet(laptop, character)
        stamina = character.state["stamina"]
        notes = mine.locator("#state-notes-text")
        notes.click()
        notes.type("Owes the ferryman two coins")
        notes.evaluate("el => el.setSelectionRange(5, 5)")  # the caret mid-text
        before_y = mine.evaluate("() => window.scrollY")

        theirs.locator("button[aria-label='Lower Stamina by 1']").click()
        started = time.monotonic()
        mine.wait_for_function(
            f"() => document.querySelector('[data-testid=pool-stamina] strong').textContent.trim() === '{stamina - 1}'",
            timeout=1000,
        )
        assert time.monotonic() - started < 1.0
        assert mine.evaluate("() => window.__notReloaded === true")
        assert notes.input_value() == "Owes the ferryman two coins"
        assert (
            mine.evaluate("() => document.activeElement && document.activeElement.id") == "state-notes-text"
        )
        assert mine.evaluate("() => document.activeElement.selectionStart") == 5
        assert abs(mine.evaluate("() => window.scrollY") - before_y) < 50
        assert mine.locator("#sheet-version").get_attribute("data-version") == str(character.version + 1)
        # Typing goes on where it was, and saving it saves the typed text.
        mine.keyboard.type("!")
        mine.locator("#state-notes-save").click()
        mine.locator("[data-testid=state-message]").wait_for()
        saved = _api_state(player, character)["state"]
        assert saved["notes"] == "Owes !the ferryman two coins"  # typed at the kept caret
        assert saved["stamina"] == stamina - 1
    finally:
        phone.close()
        laptop.close()
