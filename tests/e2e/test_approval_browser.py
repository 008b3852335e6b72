"""GM approval of a new character in two browsers: the player submits, the GM approves from the queue."""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS
from tests.factories import make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORT = {"width": 1280, "height": 1000}


def test_player_submits_and_the_gm_approves_the_new_character_from_the_queue(page_as):
    from playwright.sync_api import expect

    from characters.builder.services import character_create
    from characters.models import Character

    gm, player = make_user("gina"), make_user("pat")
    slug = SLUGS[0]  # any ruleset: approval is the product's
    ruleset = registry.get(slug)
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], settings={"approve_new_characters": True})
    draft = character_create(campaign=campaign, owner=player, build=copy.deepcopy(BUILDS[slug]))
    spent = ruleset.validate(BUILDS[slug]).spent
    cost = ", ".join(f"{v:+d} {ruleset.currency_label(c)}" for c, v in spent.items() if v)

    me = page_as(player, viewport=VIEWPORT)
    me.goto(f"/characters/{draft.pk}/build/")
    me.get_by_role("button", name="Submit").click()
    expect(me.locator('[data-testid="creation-review"]')).to_contain_text("waiting for the GM's approval")
    assert Character.objects.get(pk=draft.pk).status == "pending"

    table = page_as(gm, viewport=VIEWPORT)
    table.goto("/")
    expect(table.locator('[data-testid="review-badge"]')).to_have_text("1")
    table.locator("#nav-review a").click()
    card = table.locator(".advancement-card").first
    expect(card.get_by_role("heading")).to_contain_text(f"New character · {draft.name}")
    expect(card.locator('[data-testid="advancement-cost"]')).to_have_text(cost)
    expect(card.locator('tr[data-path="/name"] .diff-new')).to_contain_text(draft.name)
    card.get_by_label("Comment for the player").fill("Welcome to the table")
    card.get_by_role("button", name="Approve").click()
    expect(
        table.locator(".advancement-card").first.locator('[data-testid="advancement-status"]')
    ).to_have_text("Approved")
    expect(table.locator(".advancement-card").first).to_contain_text("Approved by gina")

    character = Character.objects.get(pk=draft.pk)
    assert character.status == "active" and character.state
    me.goto(f"/characters/{draft.pk}/")
    expect(me.locator('[data-testid="status"]')).to_have_text("active")
