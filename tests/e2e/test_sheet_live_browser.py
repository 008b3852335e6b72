"""Two devices on one sheet, in a real browser (Playwright + Debian's Chromium against daphne,
pages and websockets): the player's phone (390×844) and the GM's laptop (1280×900). Every click
counts, the open sheet follows the character live without losing the player's typing, and a stale
absolute value is refused visibly. Saved state is read back through the API."""

from __future__ import annotations

import threading
import time

import pytest

from characters.models import Character
from combat import services as combat
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401  (fixture)
from tests.factories import api_client, make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _api_state(user, character) -> dict:
    response = api_client(user).get(f"/api/v1/characters/{character.pk}/")
    assert response.status_code == 200
    return response.json()


def _sheet(context, character):
    page = context.new_page()
    page.goto(f"/characters/{character.pk}/")
    page.wait_for_selector("#sheet-live[data-connected]", state="attached")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page


def _table(browser, base_url, slug):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    character = make_character(ruleset=slug, owner=player, campaign=campaign)
    phone = _context_as(browser, base_url, player, viewport=PHONE)
    laptop = _context_as(browser, base_url, gm, viewport=LAPTOP)
    return gm, player, character, phone, laptop


def _in_thread(call):
    """Run ``call`` off Playwright's event-loop thread (the channel layer's async_to_sync)."""
    errors: list = []

    def run():
        try:
            call()
        except Exception as exc:  # noqa: BLE001 — reported below
            errors.append(exc)
        finally:
            from django.db import connection

            connection.close()

    th = threading.Thread(target=run)
    th.start()
    th.join(timeout=30)
    assert errors == []


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
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and _api_state(player, character)["state"]["hp"] != 8:
            time.sleep(0.05)
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
