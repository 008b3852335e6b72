"""A Pando fight on the encounter page in a real browser (moved from tests/e2e/test_combat_browser.py,
which keeps daphne's fixture): the player's move shows on the GM's page without a reload, with its
speed; a page catches up on the moves it missed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import keep_screenshot
from tests.e2e.test_combat_browser import ARTIFACTS, _page_as, asgi_server, wait_live  # noqa: F401
from tests.factories import make_campaign, make_user
from tests.rulesets.pando.fight_table import GOBLIN, PABLO

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _pages_and_database(gm_page, pl_page, encounter_id) -> str:
    """Where each page and the database are: was the GM's Next turn refused (a refusal on the GM's
    page, the database's turn unchanged) or applied and not shown on the player's page?"""
    from combat.models import Encounter

    versions = """() => ({
        header: document.querySelector('[data-testid="encounter-current"]').textContent.trim(),
        board: document.getElementById('encounter-status').dataset.version,
        panel: document.getElementById('encounter-panel').dataset.version,
        refusal: Array.from(document.querySelectorAll('[data-testid="panel-error"]')).map(p => p.textContent.trim()),
        socket: window.__wsOpen,
    })"""
    saved = Encounter.objects.filter(pk=encounter_id).values("version", "round", "turn").first()
    return f"GM's page: {gm_page.evaluate(versions)}\nplayer's page: {pl_page.evaluate(versions)}\ndatabase: {saved}"


def test_the_players_action_appears_on_the_gms_page_without_a_reload(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=2)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    url = reverse("encounter_detail", args=[e.pk])

    gm_context, gm_page = _page_as(browser, asgi_server, gm, viewport={"width": 1280, "height": 1000})
    pl_context, pl_page = _page_as(browser, asgi_server, player, viewport={"width": 390, "height": 844})
    try:
        gm_page.goto(url)
        pl_page.goto(url)
        wait_live(gm_page)
        wait_live(pl_page)
        row = gm_page.locator(f"#combatant-{c_pablo.pk}")
        expect(row).to_have_class("combatant is-current")
        expect(row.locator('[data-stat="speed"] dd')).to_have_text("6/6")
        gm_page.evaluate("window.__notReloaded = true")

        # The player, on a phone, moves Pablo.
        move = pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"]')
        expect(move.locator(".action-cost")).to_have_text("1 speed")
        move.get_by_role("button", name="Move").click()

        # The GM's page updates live: the log line and Pablo's speed, and it was not reloaded.
        expect(gm_page.locator("#encounter-log li").first).to_contain_text("Pablo moves, −1 speed.")
        expect(gm_page.locator(f"#combatant-{c_pablo.pk} [data-stat='speed'] dd")).to_have_text("5/6")
        assert gm_page.evaluate("window.__notReloaded") is True
        # The player's own panel follows: Move now costs 2.
        expect(
            pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"] .action-cost')
        ).to_contain_text("2 speed")

        # The GM ends the turn; the player's page shows the goblins acting, and Pablo's actions refuse.
        gm_page.get_by_role("button", name="Next turn").click()
        try:
            expect(pl_page.locator('[data-testid="encounter-current"]')).to_have_text(
                "Acting: Goblin 1, Goblin 2"
            )
        except AssertionError as missed:  # seen once in eight full runs (#20's note): say which way it went
            raise AssertionError(f"{missed}\n{_pages_and_database(gm_page, pl_page, e.pk)}") from None
        expect(pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"]')).to_have_count(0)
        ARTIFACTS.mkdir(exist_ok=True)
        keep_screenshot(gm_page, "encounter-gm")
        keep_screenshot(pl_page, "encounter-player-phone")
    finally:
        gm_context.close()
        pl_context.close()


def test_a_page_catches_up_on_what_it_missed(browser, asgi_server):  # noqa: F811
    """Changes made by another process (no broadcast reaches this page) stand for messages lost
    while the websocket was down: on reconnect, and on a message whose version does not follow
    its own, the page fetches the whole board."""
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=2)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    context, page = _page_as(browser, asgi_server, gm, viewport={"width": 1280, "height": 1000})
    context.add_init_script(
        "document.addEventListener('htmx:wsOpen', (e) => { window.__ws = e.detail.socketWrapper; });"
    )
    pl_context, pl_page = _page_as(browser, asgi_server, player, viewport={"width": 390, "height": 844})
    speed = page.locator(f"#combatant-{c_pablo.pk} [data-stat='speed'] dd")
    try:
        page.goto(reverse("encounter_detail", args=[e.pk]))
        pl_page.goto(reverse("encounter_detail", args=[e.pk]))
        wait_live(page)
        wait_live(pl_page)
        page.evaluate("window.__notReloaded = true")
        expect(speed).to_have_text("6/6")

        # Missed: Pablo moves, and this page hears nothing of it (the change is made in this process,
        # whose channel layer reaches no page of daphne's: no wait can make it heard).
        services.encounter_act(encounter=e, user=player, combatant_id=c_pablo.pk, action={"action": "move"})
        expect(speed).to_have_text("6/6")
        page.evaluate("window.__wsOpen = false; window.__ws.reconnect()")
        wait_live(page)
        expect(speed).to_have_text("5/6")
        expect(page.locator("#encounter-log-list li").first).to_contain_text("Pablo moves, −1 speed.")

        # Missed again; then a live message arrives whose version skips one: the page takes the board.
        # (The player's page is drawn afresh first: a Move from a page that missed a change is
        # refused as stale, #19.)
        services.encounter_act(encounter=e, user=player, combatant_id=c_pablo.pk, action={"action": "move"})
        pl_page.evaluate("window.__wsOpen = false")
        pl_page.reload()
        wait_live(pl_page)
        pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"]').get_by_role(
            "button", name="Move"
        ).click()
        expect(speed).to_have_text("0/6")  # 6 − 1 − 2 − 3: all three moves, none lost
        expect(page.locator("#encounter-log-list li.log-move")).to_have_count(3)
        assert page.evaluate("window.__notReloaded") is True
    finally:
        context.close()
        pl_context.close()
