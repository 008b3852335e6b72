"""Every page a player or GM reaches, in every ruleset of the registry, at a phone's size (390×844):
the page never scrolls sideways and nothing reaches past the screen's edge (the layout check of
test_phone_screenshots_browser), with every page holding rows (a ledger with awards, a history
with versions, a pending review, a running encounter)."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.e2e.conftest import settled
from tests.e2e.test_phone_screenshots_browser import LAYOUT_PROBLEMS
from tests.e2e.test_sheet_play_browser import PHONE, _campaign_pages_of, _pages_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = [r.slug for r in registry.all_rulesets()]


def _every_page(table, slug) -> dict[str, tuple]:
    """(user, url) of every page of ``slug``'s table: the play pages, the campaign's pages, the
    account's, and a pending creation review's, each with rows in it."""
    from characters.advancement import services as svc
    from characters.builder.services import character_create
    from characters.models import Advancement
    from tests.factories import api_client

    pages = _pages_of(table, slug)
    character = character_at_table(table, slug)
    pages.update(_campaign_pages_of(table, character))
    campaign = character.campaign
    ruleset = registry.get(slug)
    for currency in ruleset.awardable_currencies:
        svc.award_create(
            gm=table["gm"],
            character_id=character.pk,
            currency=currency,
            amount=3,
            reason="Session 2: the long night at the harbour, the lighthouse and the drowned bell",
        )
    campaign.settings = {**campaign.settings, "approve_new_characters": True}
    campaign.save(update_fields=["settings"])
    build = copy.deepcopy(BUILDS[slug])
    build["name"] = "Approve Me"
    pending = character_create(campaign=campaign, owner=table["player"], build=build)
    api_client(table["player"]).post(f"/api/v1/characters/{pending.id}/submit/", {}, format="json")
    review = Advancement.objects.get(character=pending)
    gm, player = table["gm"], table["player"]
    pages.update(
        {
            "home": (player, reverse("home")),
            "home (GM)": (gm, reverse("home")),
            "account": (player, reverse("account")),
            "campaigns": (player, reverse("campaign_list")),
            "campaign (player)": (player, reverse("campaign_detail", args=[campaign.pk])),
            "ledger": (player, reverse("character_ledger", args=[character.pk])),
            "ledger (GM)": (gm, reverse("character_ledger", args=[character.pk])),
            "requests": (player, reverse("character_advancements", args=[character.pk])),
            "request": (gm, reverse("advancement_detail", args=[review.pk])),
            "review": (gm, reverse("campaign_review", args=[campaign.pk])),
            "review queue": (gm, reverse("review_queue")),
            "awards": (gm, reverse("campaign_awards", args=[campaign.pk])),
            "encounters": (gm, reverse("encounter_list", args=[campaign.pk])),
            "pending builder": (player, reverse("character_builder", args=[pending.pk])),
            "history (GM)": (gm, reverse("character_history", args=[character.pk])),
            "rulesets": (player, reverse("rulesets:list")),
            "ruleset": (player, reverse("rulesets:detail", args=[slug])),
        }
    )
    return pages


@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_fits_a_phone_without_sideways_scrolling(tab_as, table, slug):
    found = {}
    for name, (user, url) in _every_page(table, slug).items():
        page = tab_as(user, viewport=PHONE)
        response = page.goto(url)
        if response.status != 200:
            found[name] = {"status": response.status}
            continue
        settled(page)
        width = page.evaluate("() => document.scrollingElement.scrollWidth")
        problems = page.evaluate(LAYOUT_PROBLEMS)
        if width > PHONE["width"] or problems["overflow"]:
            found[name] = {"scrollWidth": width, "overflow": problems["overflow"]}
    assert found == {}, found
