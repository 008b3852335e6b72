"""The GM adds NPCs from the encounter page in a real browser, without JSON: pick a ready NPC of
the ruleset, type 2, press Enter; two rows appear (through the websocket, as for every change).
At a desk and on a phone, where nothing may scroll sideways. Runs against daphne (``asgi_server``
of test_combat_browser)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from combat.library import services as library
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_combat_browser import _page_as, asgi_server, wait_live  # noqa: F401  (a fixture)
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_gm_picks_an_archetype_types_two_and_presses_enter(browser, asgi_server, viewport):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    library.encounter_add_npcs(encounter=encounter, user=gm, archetype="ogre", count=1)
    context, page = _page_as(browser, asgi_server, gm, viewport=viewport)
    pl_context, other = _page_as(browser, asgi_server, player, viewport=viewport)
    try:
        page.goto(reverse("encounter_detail", args=[encounter.pk]))
        wait_live(page)
        expect(page.locator("textarea")).to_have_count(0)  # no JSON box anywhere on the page
        form = page.locator("#add-npcs")
        expect(form.get_by_role("radio")).to_have_count(4)  # Pando's goblin, bandit, guard and ogre
        bandit = form.locator("label.npc-pick", has_text="Bandit")
        expect(bandit).to_contain_text("A longsword and a leather cap; moves unseen.")
        expect(bandit.locator(".npc-pick-numbers")).to_have_text("Stamina 12/12 · Momentum 3")
        bandit.click()
        expect(bandit.get_by_role("radio")).to_be_checked()
        count = form.get_by_label("How many")
        count.fill("2")
        count.press("Enter")
        expect(form.locator('[data-testid="add-npcs-done"]')).to_have_text("Added Bandit 1, Bandit 2.")
        rows = page.locator("#encounter-order .combatant.is-npc")
        expect(rows).to_have_count(3)
        expect(rows.nth(1)).to_contain_text("Bandit 1")
        expect(rows.nth(2)).to_contain_text("Bandit 2")
        expect(bandit.get_by_role("radio")).to_be_checked()  # the form keeps the pick and the count
        expect(count).to_have_value("2")
        expect(count).to_be_focused()
        assert page.evaluate(SIDEWAYS) <= 0, "the encounter page scrolls sideways"
        ARTIFACTS.mkdir(exist_ok=True)
        form.screenshot(path=str(ARTIFACTS / f"add-npcs-{viewport['width']}.png"))
        names = list(encounter.combatants.order_by("id").values_list("name", "group"))
        assert names == [("Ogre", ""), ("Bandit 1", "Bandit"), ("Bandit 2", "Bandit")]

        # A refusal shows in the form, and nothing changes (the browser's own check is bypassed).
        count.evaluate("el => { el.removeAttribute('max'); el.value = '999'; }")
        count.press("Enter")
        expect(page.locator('[data-testid="add-npcs-error"]')).to_have_text(
            "How many: at most 30 at a time. Nothing was added."
        )
        assert encounter.combatants.count() == 3
        assert page.evaluate(SIDEWAYS) <= 0

        # The player sees the new rows and no form.
        other.goto(reverse("encounter_detail", args=[encounter.pk]))
        expect(other.locator("#encounter-order .combatant.is-npc")).to_have_count(3)
        expect(other.locator("#add-npcs")).to_have_count(0)
        assert other.evaluate(SIDEWAYS) <= 0
    finally:
        context.close()
        pl_context.close()
