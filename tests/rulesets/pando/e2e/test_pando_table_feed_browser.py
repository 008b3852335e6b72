"""A Pando fight's rolls reach the table's feeds in real browsers (moved from
tests/e2e/test_table_feed_browser.py): a private one the GM's only, a removed player's none."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import follow_sockets, stopped_reconnecting
from tests.e2e.test_table_feed_browser import _context_as, _feed_page, table_server  # noqa: F401
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_fight_s_rolls_reach_the_table_a_private_one_the_gm_only_and_a_removed_player_none(
    browser,
    table_server,  # noqa: F811
):
    """Three browsers at one Pando table: the player strikes on the encounter page, and the line
    reaches the GM's and the other player's feeds live, in the log's words; the GM strikes for
    Pablo behind the screen: the GM's feed has it, the player's page only says that the GM rolled;
    the GM removes the other player, whose feed says so and receives nothing more."""
    from combat import services
    from rulesets.engine.dice import FixedRoller
    from tests.rulesets.pando.fight_table import GOBLIN, PABLO

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

        follow_sockets(ot_context)
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
        # The first strike's EP were not spent: striking again loses them, said first (W1).
        lost = r"(Pablo's unspent \d+ EP are lost\. )?"
        assert re.search(rf"gm in Ambush: {lost}{strike_line}", text) and "Private" in text, text
        log = encounter.locator("#encounter-log-list li").first
        log.filter(has_text="The GM rolls for Pablo behind the screen.").wait_for()
        assert gm_fight.is_checked("#encounter-private")  # the panel's refreshes keep the choice

        # 3. The GM removes the other player: their feed says so and receives nothing more.
        gm_feed.on("dialog", lambda dialog: dialog.accept())
        gm_feed.get_by_role("button", name="Remove other").click()
        ot_page.get_by_test_id("table-feed-gone").wait_for()
        # The removal closed the other player's socket after anything sent to it before (one queue
        # per socket): the private line, had it been sent there, came first. Only the first strike did.
        lines = [frame for frame in frames if "table-feed-item" in frame]  # the feed's lines
        assert len(lines) == 1 and "is-private" not in lines[0], frames
        received = len(frames)
        gm_fight.uncheck("#encounter-private")
        strike(encounter)  # a public roll after the removal
        gm_feed.locator("#table-feed-list > li.is-fight:not(.is-private)").nth(1).wait_for()
        # On the player's feed it comes after the private line, had that reached them: it did not.
        encounter.locator("#table-feed-list > li").nth(1).wait_for()
        assert encounter.locator("#table-feed-list > li").count() == 2
        assert encounter.locator("#table-feed-list > li.is-private").count() == 0
        stopped_reconnecting(ot_page)  # the other player's page has no socket left to hear it by
        assert len(frames) == received and received >= 1, frames
    finally:
        gm_context.close()
        pl_context.close()
        ot_context.close()
