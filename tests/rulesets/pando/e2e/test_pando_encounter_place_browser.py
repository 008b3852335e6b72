"""The encounter page keeps the player's place and focus (#12): after an action — the player's
own, the GM's harm form, the GM's Next turn — at a phone's size (390×844) and a laptop's (1280×900),
``window.scrollY`` moves by less than 50 px and ``document.activeElement`` is the control used (or
its replacement, with the same id, after the panel is fetched again).

The page is served by daphne (websockets and all: every change comes back through the socket and
makes the page fetch its panel), as in tests/e2e/test_combat_browser.py."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import painted, settled
from tests.e2e.test_combat_browser import _page_as, asgi_server, wait_live  # noqa: F401 (a fixture)
from tests.factories import make_campaign, make_user
from tests.rulesets.pando.fight_table import GOBLIN, PABLO

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


def _place(page, control_id: str) -> dict:
    """scrollY, the focused element's id, and where the control of ``control_id`` is on the screen."""
    return page.evaluate(
        """(id) => { const el = document.getElementById(id); return {y: window.scrollY,
            id: document.activeElement && document.activeElement.id,
            top: el ? Math.round(el.getBoundingClientRect().top) : null}; }""",
        control_id,
    )


def _use(page, locator, until) -> None:
    """Scroll ``locator`` to mid-screen, click it, wait for ``until()`` (the change shown) and for
    the page to settle, then assert the place and the focus were kept."""
    control_id = locator.get_attribute("id")
    assert control_id, "every control the panel's refresh replaces has a stable id"
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    painted(page)
    before = _place(page, control_id)
    locator.click()
    until()
    # The socket's update, then the panel's own refresh: the panel at the board's version, nothing
    # of htmx under way, and drawn.
    page.wait_for_function(
        """() => {
            const panel = document.getElementById("encounter-panel");
            const board = document.getElementById("encounter-status");
            return panel && board && panel.dataset.version === board.dataset.version;
        }"""
    )
    settled(page)
    painted(page)
    after = _place(page, control_id)
    assert abs(after["y"] - before["y"]) < 50, (control_id, before, after)
    assert after["top"] is not None and abs(after["top"] - before["top"]) < 50, (control_id, before, after)
    assert after["id"] == control_id, (control_id, after)


@pytest.mark.parametrize("size", SIZES)
def test_an_action_on_the_encounter_page_keeps_the_place_and_focus(browser, asgi_server, size):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    e = services.encounter_create(campaign=campaign, user=gm, name="Ambush at the ford")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=3)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    url = reverse("encounter_detail", args=[e.pk])

    pl_context, pl_page = _page_as(browser, asgi_server, player, viewport=SIZES[size])
    gm_context, gm_page = _page_as(browser, asgi_server, gm, viewport=SIZES[size])
    try:
        for page in (pl_page, gm_page):
            page.goto(url)
            wait_live(page)

        # The player moves Pablo: the panel comes back with Move costing more; same button, same place.
        move = pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"] button[type=submit]')
        cost = pl_page.locator(f'form[data-action="move"][data-fighter="{c_pablo.pk}"] .action-cost')
        before = cost.inner_text()
        _use(pl_page, move, lambda: expect(cost).not_to_have_text(before))

        # The GM harms a goblin from the GM's forms (opened first).
        gm_page.locator("details.gm-actions > summary").click()
        harm = gm_page.locator("details.gm-actions form.action button[type=submit]").first
        log_top = gm_page.locator("#encounter-log-list li").first
        old_line = log_top.inner_text()
        _use(gm_page, harm, lambda: expect(log_top).not_to_have_text(old_line))

        # The GM's Next turn: the button stays (the GM always has it), and so do the place and focus.
        next_turn = gm_page.get_by_role("button", name="Next turn")
        acting = gm_page.get_by_test_id("encounter-current")
        now = acting.inner_text()
        _use(gm_page, next_turn, lambda: expect(acting).not_to_have_text(now))
    finally:
        pl_context.close()
        gm_context.close()
