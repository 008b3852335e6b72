"""Spending a strike's EP on the encounter page in a real browser (W1), at a phone's size (390×844) and
a laptop's (1280×900): the chance to afford each outcome before rolling, the spend form's choices with
their costs and the EP left, in the game's words; the purchase reaches the GM's open page live."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.test_combat_browser import _page_as, asgi_server, wait_live  # noqa: F401
from tests.factories import make_campaign, make_user
from tests.rulesets.pando.fight_table import GOBLIN, PABLO

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", list(SIZES))
def test_the_player_spends_a_strikes_ep_and_the_gm_sees_what_was_bought(browser, asgi_server, size):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ford")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    url = reverse("encounter_detail", args=[e.pk])
    other = "laptop" if size == "phone" else "phone"
    pl_context, pl_page = _page_as(browser, asgi_server, player, viewport=SIZES[size])
    gm_context, gm_page = _page_as(browser, asgi_server, gm, viewport=SIZES[other])
    try:
        pl_page.goto(url)
        gm_page.goto(url)
        wait_live(pl_page)
        wait_live(gm_page)
        strike = pl_page.locator(f'form[data-action="strike:0"][data-fighter="{c_pablo.pk}"]')
        expect(strike.locator('[data-testid="afford"]')).to_have_text(
            "Chance to afford: Hit (1 EP each): 88%; Knock prone (3 EP): 12%; Disarm (3 EP): 12%; "
            "Cause bleeding (2 EP): 50%"
        )

        # The strike rolls 3 EP (by the service here, dice fixed: another process, so the player's page
        # is drawn again; the GM's page catches up on the next live change).
        services.encounter_act(
            encounter=e,
            user=player,
            combatant_id=c_pablo.pk,
            action={"action": "strike:0", "target": goblin.pk},
            roller=FixedRoller([1, 1, 1]),
        )
        pl_page.reload()
        wait_live(pl_page)
        spend = pl_page.locator(f'form[data-action="spend"][data-fighter="{c_pablo.pk}"]')
        expect(spend.locator(".action-cost")).to_have_text("no speed (3 EP left to spend)")
        choice = spend.locator("select[name='outcome']")
        assert choice.locator("option").all_inner_texts() == [
            "None",
            "Knock prone — 3 EP",
            "Disarm — 3 EP",
            "Cause bleeding — 2 EP",
        ]
        choice.select_option(label="Cause bleeding — 2 EP")
        expect(spend).to_contain_text("Hit — 1 EP each, chainable (times)")
        spend.locator("input[name='times_hit']").fill("1")
        spend.locator("select[name='body_part']").select_option(label="Left arm")
        box = spend.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
        spend.get_by_role("button", name="Spend EP on outcomes against Goblin").click()

        bought = "Pablo spends 3 EP: Cause bleeding (2 EP) on Goblin"
        expect(gm_page.locator("#encounter-log li").first).to_contain_text(bought)
        expect(gm_page.locator("#encounter-log li").first).to_contain_text("Hit (1 EP) on Goblin")
        expect(pl_page.locator("#encounter-log li").first).to_contain_text(bought)
        expect(pl_page.locator(f'form[data-action="spend"][data-fighter="{c_pablo.pk}"]')).to_have_count(0)
        goblin.refresh_from_db()
        assert goblin.state["harm"]["left_arm"] == 1
        assert goblin.state["exhaustion"] == [{"type": "bleeding", "amount": 1}]
    finally:
        pl_context.close()
        gm_context.close()
