"""Buying equipment with the starting money in a real browser (RULES.md W5), at a phone's size (390×844)
and a laptop's (1280×900): the builder's equipment step lists each item's price and says, as the
player adds items, how much money is left, in the game's words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from tests.e2e.conftest import ARTIFACTS
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


def test_the_equipment_step_says_the_money_left_as_items_are_bought(page_as, live_server):
    from playwright.sync_api import expect

    gm, player = make_user(), make_user()
    campaign = make_campaign(
        gm=gm,
        ruleset="pando",
        players=[player],
        settings={"starting_budget": {"cp": 40}, "house_rules": {"starting_money": 20}},
    )
    for size, viewport in SIZES.items():
        draft = character_create(campaign=campaign, owner=player, name=f"Alex on a {size}")
        page = page_as(player, viewport=viewport)
        page.goto(reverse("character_builder", args=[draft.id]))
        purse = page.get_by_test_id("purse-equipment")
        assert purse.inner_text() == "Money: 20 of 20 left"
        add = page.locator("#f-equipment--")
        assert "Longsword (8 money; one hand)" in add.locator("option").all_inner_texts()

        add.select_option("longsword")
        expect(purse).to_have_text("Money: 12 of 20 left")
        add.select_option("round_shield")
        expect(purse).to_have_text("Money: 8 of 20 left")
        assert page.get_by_test_id("remaining-money").inner_text() == "8"
        box = purse.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= viewport["width"], size
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#sec-equipment").screenshot(path=str(ARTIFACTS / f"builder-pando-money-{size}.png"))

        # A hauberk (20) is more than is left: the step says by how much, the problems list why.
        add.select_option("hauberk")
        expect(purse).to_have_text("Money: 32 spent of 20, 12 too much")
        expect(page.locator("#builder-errors")).to_contain_text(
            "The equipment costs 32 money but the starting money is 20: buy 12 money less"
        )
        expect(page.get_by_role("button", name="Submit")).to_be_disabled()
