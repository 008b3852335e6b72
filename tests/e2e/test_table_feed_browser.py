"""The table's roll feed in a real browser, GM and player in two contexts (Playwright + Debian's
Chromium against daphne): a player's roll appears in the GM's feed without a reload, its result
next to the button that rolled it; a private GM roll never shows on the player's page."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import watch_csp
from tests.factories import make_campaign, make_user

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(8850, 8900)  # this worktree's ports


def _port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8850-8899")


@pytest.fixture
def table_server(transactional_db):
    """daphne serving config.asgi (pages and websockets) on the test database; its base URL."""
    yield from serve_daphne("config.asgi:application")


def serve_daphne(application: str):
    """daphne serving ``application`` (a module:attribute path) on the test database: yields its base URL."""
    if connection.vendor != "postgresql":
        pytest.skip("a server process shares the test database: Postgres only")
    db = connection.settings_dict
    url = f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    port = _port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "true",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "REDIS_URL": "",
        "LOG_LEVEL": "ERROR",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), application],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail("daphne did not start: " + proc.stderr.read().decode()[-2000:])
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


def _context_as(browser, base_url, user, *, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    watch_csp(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    context.set_default_timeout(10_000)
    return context


def _feed_page(context, campaign_id):
    page = context.new_page()
    page.goto(f"/campaigns/{campaign_id}/")
    page.wait_for_selector("#table-feed[data-connected]", state="attached")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page


def test_a_player_s_roll_reaches_the_gm_s_feed_and_a_private_gm_roll_never_the_player_s(
    browser, table_server
):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player], name="Ashen Vale")
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign)
    gm_context = _context_as(browser, table_server, gm, viewport={"width": 1280, "height": 900})
    pl_context = _context_as(browser, table_server, player, viewport={"width": 390, "height": 844})
    try:
        gm_feed = _feed_page(gm_context, campaign.pk)
        pl_feed = _feed_page(pl_context, campaign.pk)

        # The player rolls a Strength check on the phone, with the TD they were told.
        sheet = pl_context.new_page()
        sheet.goto(f"/characters/{bram.pk}/")
        sheet.fill("#roll-in-td", "14")
        button = sheet.locator("#roll-btn-check-str-normal")
        button.scroll_into_view_if_needed()
        before = sheet.evaluate("() => window.scrollY")
        button.click()
        result = sheet.locator("#roll-here-check-str-normal [data-testid=roll-here]")
        result.wait_for()
        assert "vs TD 14" in result.inner_text()
        box, height = result.bounding_box(), sheet.viewport_size["height"]
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, box  # where they tapped
        assert abs(sheet.evaluate("() => window.scrollY") - before) < 50
        assert sheet.evaluate("() => document.activeElement.id") == "roll-btn-check-str-normal"

        # A play-state change re-renders the Dice block: the TD the player set stays, focus too.
        damage = sheet.locator('form[data-action="damage"]')
        damage.locator('input[name="amount"]').fill("1")
        damage.locator("button").click()
        sheet.locator("[data-testid=state-message]").wait_for()
        assert sheet.input_value("#roll-in-td") == "14"

        line = gm_feed.locator("#table-feed-list > li").first
        line.wait_for()
        text = line.inner_text()
        # Who, what, the outcome and its odds (the die is the server's: any of the four outcomes).
        assert re.search(
            r"player for Bram: STR check → (Blunder \(5\.0%|Failure \(50\.0%|Success \(40\.0%"
            r"|Critical \(5\.0%) chance\)",
            text,
        ), text
        assert "vs TD 14" in text
        assert gm_feed.evaluate("() => window.__notReloaded === true")  # no reload: it came live
        pl_feed.locator("#table-feed-list > li").first.wait_for()  # the player's own feed has it too

        # The GM rolls privately on Bram's sheet.
        gm_sheet = gm_context.new_page()
        gm_sheet.goto(f"/characters/{bram.pk}/")
        gm_sheet.check("#roll-private")
        gm_sheet.click("#roll-btn-check-dex-normal")
        gm_sheet.locator("#roll-here-check-dex-normal [data-testid=roll-here]").wait_for()
        gm_feed.locator("#table-feed-list > li.is-private").wait_for()
        assert "gm for Bram: DEX check" in gm_feed.locator("#table-feed-list > li").first.inner_text()
        pl_feed.wait_for_timeout(800)
        assert pl_feed.locator("#table-feed-list > li").count() == 1
        assert pl_feed.locator("#table-feed-list > li.is-private").count() == 0
        sheet.reload()
        assert sheet.locator(".sheet-roll-log tr").count() == 2  # header + the player's own roll only
    finally:
        gm_context.close()
        pl_context.close()


def test_a_fight_s_rolls_reach_the_table_a_private_one_the_gm_only_and_a_removed_player_none(
    browser, table_server
):
    """Three browsers at one Pando table: the player strikes on the encounter page, and the line
    reaches the GM's and the other player's feeds live, in the log's words; the GM strikes for
    Pablo behind the screen: the GM's feed has it, the player's page only says that the GM rolled;
    the GM removes the other player, whose feed says so and receives nothing more."""
    from combat import services
    from rulesets.engine.dice import FixedRoller
    from tests.combat.conftest import GOBLIN, PABLO

    gm, player, other = make_user("gm"), make_user("player"), make_user("other")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player, other], name="Ford")
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    gm_context = _context_as(browser, table_server, gm, viewport={"width": 1280, "height": 900})
    pl_context = _context_as(browser, table_server, player, viewport={"width": 390, "height": 844})
    ot_context = _context_as(browser, table_server, other, viewport={"width": 390, "height": 844})
    strike_line = r"Pablo strikes Goblin with the longsword: \d+ EP, −\d speed\."
    try:
        gm_feed = _feed_page(gm_context, campaign.pk)
        frames: list[str] = []  # what the other player's feed socket receives

        def watch(ws):
            if "/rolls/" in ws.url:
                ws.on("framereceived", lambda payload: frames.append(str(payload)))

        ot_page = ot_context.new_page()
        ot_page.on("websocket", watch)
        ot_page.goto(f"/campaigns/{campaign.pk}/")
        ot_page.wait_for_selector("#table-feed[data-connected]", state="attached")
        encounter = pl_context.new_page()
        encounter.goto(f"/encounters/{e.pk}/")
        encounter.wait_for_selector("#table-feed[data-connected]", state="attached")

        def strike(page):
            form = page.locator(f'form[data-action="strike:0"][data-fighter="{c_pablo.pk}"]').first
            form.locator("button[type=submit]").click()

        # 1. The player strikes: every feed at the table has the line, without a reload.
        strike(encounter)
        for page in (gm_feed, ot_page, encounter):
            line = page.locator("#table-feed-list > li.is-fight").first
            line.wait_for()
            text = " ".join(line.inner_text().split())
            assert re.search(rf"player in Ambush: {strike_line}", text), text
        assert gm_feed.evaluate("() => window.__notReloaded === true")

        # 2. The GM strikes for Pablo behind the screen.
        gm_fight = gm_context.new_page()
        gm_fight.goto(f"/encounters/{e.pk}/")
        gm_fight.wait_for_selector("#table-feed[data-connected]", state="attached")
        gm_fight.check("#encounter-private")
        strike(gm_fight)
        secret = gm_feed.locator("#table-feed-list > li.is-private")
        secret.wait_for()
        text = " ".join(secret.inner_text().split())
        assert re.search(rf"gm in Ambush: {strike_line}", text) and "Private" in text, text
        log = encounter.locator("#encounter-log-list li").first
        log.filter(has_text="The GM rolls for Pablo behind the screen.").wait_for()
        encounter.wait_for_timeout(800)
        assert encounter.locator("#table-feed-list > li").count() == 1
        assert ot_page.locator("#table-feed-list > li").count() == 1
        assert gm_fight.is_checked("#encounter-private")  # the panel's refreshes keep the choice

        # 3. The GM removes the other player: their feed says so and receives nothing more.
        gm_feed.on("dialog", lambda dialog: dialog.accept())
        gm_feed.get_by_role("button", name="Remove other").click()
        ot_page.get_by_test_id("table-feed-gone").wait_for()
        received = len(frames)
        gm_fight.uncheck("#encounter-private")
        strike(encounter)  # a public roll after the removal
        gm_feed.locator("#table-feed-list > li.is-fight:not(.is-private)").nth(1).wait_for()
        ot_page.wait_for_timeout(800)
        assert len(frames) == received and received >= 1, frames
    finally:
        gm_context.close()
        pl_context.close()
        ot_context.close()
