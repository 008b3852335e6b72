"""Pando's sheet before a roll, read as a person sees it (``innerText``) at a phone's size (390×844)
and a laptop's (1280×900), issue #38 point 5: the exact EP distribution of the chosen roll before
rolling, as the other four rulesets give theirs ("Odds of …, before you roll"; it said only "Roll a die
above to see the result and its exact odds"), and a roll a custom "−1 Dice" effect changed says the
dice it will roll, naming the effect (it showed "Dice: 2" beside an unchanged "Coordination 3d6")."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]


def _ids(size):
    return f"{size['width']}x{size['height']}"


def _bars(dice: int, skill: int) -> str:
    """The chart's words for ``dice``d6 against ``skill``, by hand: P(k EP) = C(n, k) (s/6)^k (1 − s/6)^(n−k)
    (seed 000: each die ≤ the skill level is one EP), as "0 EP 57.9% 1 EP 34.7% …"."""
    from math import comb

    words = []
    for k in range(dice + 1):
        p = comb(dice, k) * skill**k * (6 - skill) ** (dice - k) / 6**dice
        words.append(f"{k} EP {p * 100:.1f}%")
    return " ".join(words)


def _said(locator) -> str:
    return " ".join(locator.inner_text().split())


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_the_sheet_gives_the_odds_before_rolling_and_a_changed_roll_says_its_dice(page_as, table, size):
    from playwright.sync_api import expect

    from tests.characters.sheet.test_sheet_fixtures import character_at_table
    from tests.factories import api_client

    alex = character_at_table(table, "pando")
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_sheet", args=[alex.pk]))
    odds = page.locator("#roll-odds")
    # Capability: Coordination 3d6 against level 1 (every die showing 1 is one EP).
    assert _said(odds) == (
        f"Odds of Capability (Coordination 3d6, level 1), before you roll: {_bars(3, 1)}"
    ), _said(odds)
    assert "Roll a die above to see the result and its exact odds." in page.inner_text("#roll-result")
    # Another roll chosen: its odds (Blades, Coordination 3d6 against level 3).
    page.get_by_label("Odds of").select_option(label="Blades (Coordination 3d6, level 3)")
    expect(odds).to_contain_text("Odds of Blades (Coordination 3d6, level 3), before you roll:")
    assert _said(odds).endswith(_bars(3, 3)), _said(odds)

    # A custom effect takes a die off every roll: each roll says the dice it rolls now, and why.
    made = api_client(table["gm"]).post(
        f"/api/v1/characters/{alex.pk}/effects/",
        {"name": "Weakened", "changes": [{"target": "all", "dice": -1}]},
        format="json",
    )
    assert made.status_code == 201, made.json()
    page.reload()
    capability = page.locator("#rollable-skill-capability")
    assert (
        _said(capability) == "Roll Capability (Coordination 2d6, level 1, after Weakened) Dice: 2, Skill: 1 "
        # Chancing it (W4) rolls the same dice as the effect leaves.
        "Chance it At leisure: 1 EP for sure. Chanced (Coordination 2d6): more than 1 EP 2.8%, exactly 1 EP "
        "27.8%, fewer 69.4%."
    )
    shields = _said(page.locator("#rollable-skill-shields"))
    assert shields == (
        "Roll Shields (Strength 1d6, level 3, after Weakened) Dice: 1, Skill: 3 Chance it At leisure: 3 EP "
        "for sure. Chanced (Strength 1d6): more than 3 EP 0%, exactly 3 EP 0%, fewer 100%."
    ), shields
    strike = _said(page.locator("#rollable-item-0-strike"))
    assert strike.startswith(
        "Roll Longsword: Strike (Coordination 2d6, Blades level 3, after Weakened) Dice: 2"
    ), strike
    assert "3d6" not in page.inner_text("#sheet-rollables")  # the odds' choices too
    assert _said(odds) == (
        f"Odds of Capability (Coordination 2d6, level 1, after Weakened), before you roll: {_bars(2, 1)}"
    ), _said(odds)


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_the_builders_item_list_says_what_a_coat_protects_in_words(page_as, table, size):
    """A fresh build's equipment list said "protection exhaustion:cold 2" (the data's key)."""
    from characters.builder.services import character_create
    from tests.factories import make_campaign

    campaign = make_campaign(gm=table["gm"], ruleset="pando", players=[table["player"]])
    draft = character_create(campaign=campaign, owner=table["player"], name="Fresh")
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_builder", args=[draft.pk]))
    items = page.inner_text("#sec-equipment")
    # The price (W5) first: the catalogue's worth of an item, bought only where the campaign gives money.
    assert "Winter Coat (3 money; worn: torso; protection cold exhaustion 2)" in items, items
    assert "Leather Cap (2 money; worn: head; protection harm 1)" in items, items
    assert "exhaustion:" not in page.inner_text("main")
