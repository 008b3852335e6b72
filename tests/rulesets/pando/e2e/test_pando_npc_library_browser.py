"""The GM's NPC library in a real browser: build an ogre with the builder (over the player budget,
accepted), keep it, and add three to an encounter (pick it, the count, then Add); a player
of the campaign gets neither the library nor the add form.

The encounter page learns of new combatants through its websocket, so this runs against daphne
(``asgi_server`` of test_combat_browser)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from combat import services
from combat.models import LibraryNpc
from tests.e2e.test_combat_browser import _page_as, asgi_server, wait_live  # noqa: F401  (a fixture)
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1280, "height": 1000}


def test_gm_builds_an_ogre_keeps_it_and_adds_three_from_the_encounter(browser, asgi_server):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    gm_context, page = _page_as(browser, asgi_server, gm, viewport=DESK)
    pl_context, other = _page_as(browser, asgi_server, player, viewport=DESK)
    try:
        page.goto(reverse("npc_library", args=[campaign.pk]))
        page.locator('a[data-archetype="ogre"]').click()
        expect(page.get_by_role("heading", level=1)).to_contain_text("New NPC")
        # The form answers changes once the page's scripts have run (on a loaded machine the
        # heading is there well before): as a person, wait for the page to be ready.
        page.wait_for_load_state("load")
        page.wait_for_function("() => window.htmx !== undefined && document.readyState === 'complete'")
        strength = page.locator('input[name="/attributes/strength"]')
        strength.fill("10")
        strength.dispatch_event("change")
        expect(page.locator('[data-testid="npc-spent-cp"]')).to_have_text("138")
        expect(page.locator('[data-testid="npc-over-budget"]')).to_contain_text("an NPC is not held to it")
        save = page.locator('[data-testid="npc-save"]')
        expect(save).to_be_enabled()  # over the player budget, and accepted
        save.click()
        expect(page.locator('tr[data-npc="Ogre"]')).to_contain_text("138 CP (over the player budget of 40)")
        npc = LibraryNpc.objects.get(campaign=campaign)
        assert (npc.name, npc.build["attributes"]["strength"]) == ("Ogre", 10)

        page.goto(reverse("encounter_detail", args=[encounter.pk]))
        wait_live(page)
        add = page.locator("#add-npcs")
        add.locator("fieldset", has_text="From the NPC library").get_by_text("Ogre", exact=True).click()
        add.get_by_label("How many").fill("3")
        add.get_by_role("button", name="Add NPCs").click()
        for n in (1, 2, 3):
            expect(page.locator(".combatant.is-npc", has_text=f"Ogre {n}")).to_have_count(1)
        names = list(encounter.combatants.order_by("id").values_list("name", "group"))
        assert names == [("Ogre 1", "Ogre"), ("Ogre 2", "Ogre"), ("Ogre 3", "Ogre")]

        # The wrong user: a player of the campaign sees no library and cannot open it.
        other.goto(reverse("encounter_detail", args=[encounter.pk]))
        expect(other.locator(".combatant.is-npc")).to_have_count(3)
        expect(other.locator("#add-npcs")).to_have_count(0)
        response = other.goto(reverse("npc_library", args=[campaign.pk]))
        assert response is not None and response.status == 403
        response = other.goto(reverse("npc_edit", args=[campaign.pk, npc.pk]))
        assert response is not None and response.status == 403
        assert LibraryNpc.objects.count() == 1 and encounter.combatants.count() == 3
    finally:
        gm_context.close()
        pl_context.close()
