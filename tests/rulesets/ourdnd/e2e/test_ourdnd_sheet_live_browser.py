"""Two devices on an Our D&D sheet in real browsers (moved from tests/e2e/test_sheet_live_browser.py, which
keeps the helpers): two lowerings of HP within 50 ms both count, a stale absolute value is refused
visibly, an encounter's damage and the player's minus both count."""

from __future__ import annotations

import time

import pytest

from characters.models import Character
from combat import services as combat
from rulesets.engine.dice import FixedRoller
from tests.e2e.test_sheet_live_browser import _api_state, _in_thread, _sheet, _table
from tests.e2e.test_table_feed_browser import table_server  # noqa: F401 (the fixture)
from tests.waiting import poll

# alone: a live change within a second (tests/scheduling.py runs these with no other worker busy)
pytestmark = [pytest.mark.browser, pytest.mark.alone, pytest.mark.django_db(transaction=True)]


def test_two_devices_lowering_one_pool_within_50_ms_lower_it_by_two(browser, table_server):  # noqa: F811
    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        mine, theirs = _sheet(phone, character), _sheet(laptop, character)
        assert _api_state(player, character)["state"]["hp"] == 10
        # Both pages were drawn at HP 10; both press "Lower HP by 1" within 50 ms.
        started = time.monotonic()
        mine.evaluate("() => document.getElementById('step-health-hp-lower').click()")
        theirs.evaluate("() => document.getElementById('step-health-hp-lower').click()")
        assert time.monotonic() - started < 0.05 + 0.2  # two evaluate round trips, no waiting between
        poll(lambda: _api_state(player, character)["state"]["hp"], until=lambda got: got == 8, timeout=5)
        assert _api_state(player, character)["state"]["hp"] == 8
        # Both pages end showing it (each its own answer or the live update).
        for page in (mine, theirs):
            page.wait_for_function(
                "() => document.querySelector('[data-testid=pool-hp] strong').textContent.trim() === '8'",
                timeout=2000,
            )
    finally:
        phone.close()
        laptop.close()


def test_a_stale_absolute_value_is_refused_visibly_with_the_value_now_and_changes_nothing(
    browser,
    table_server,  # noqa: F811
):
    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        mine, theirs = _sheet(phone, character), _sheet(laptop, character)
        box = mine.locator("#set-health-hp")
        box.click()
        box.fill("5")  # typed against HP 10
        theirs.locator("#step-health-hp-lower").click()  # the GM: HP 9
        mine.wait_for_function(
            "() => document.querySelector('[data-testid=pool-hp] strong').textContent.trim() === '9'",
            timeout=2000,
        )
        assert box.input_value() == "5"  # the player's typing is kept
        box.press("Enter")
        error = mine.locator("[data-testid=state-error]")
        error.wait_for()
        assert "HP is now 9" in error.inner_text() and "Nothing was changed" in error.inner_text()
        assert _api_state(player, character)["state"]["hp"] == 9
    finally:
        phone.close()
        laptop.close()


def test_encounter_damage_then_the_player_s_minus_lower_hp_by_three(browser, table_server):  # noqa: F811
    gm, player, character, phone, laptop = _table(browser, table_server, "ourdnd")
    try:
        mine = _sheet(phone, character)  # drawn at HP 10
        e = combat.encounter_create(campaign=character.campaign, user=gm, name="Ford")
        fighter = combat.encounter_add_combatant(encounter=e, user=gm, character=character)[0]
        combat.encounter_start(encounter=e, user=gm, roller=FixedRoller([15]))
        _in_thread(
            lambda: combat.encounter_act(
                encounter=e, user=gm, combatant_id=fighter.pk, action={"action": "gm_damage", "amount": 2}
            )
        )
        assert _api_state(player, character)["state"]["hp"] == 8
        mine.locator("#step-health-hp-lower").click()
        mine.locator("[data-testid=state-message]").wait_for()
        assert _api_state(player, character)["state"]["hp"] == 7
        assert Character.objects.get(pk=character.pk).state["hp"] == 7
    finally:
        phone.close()
        laptop.close()
