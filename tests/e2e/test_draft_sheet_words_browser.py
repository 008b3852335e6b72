"""A fresh draft's sheet in every ruleset, read as a person sees it (``innerText``) at a phone's size
(390×844) and a laptop's (1280×900), issue #38: every instruction comes with the control that does
it. A draft has no dice, yet its Last roll said "Roll a die above to see the result and its exact
odds" and its Dice "No rolls until the build is valid" (a valid draft has none either: dice open once
it is submitted); its Problems, which no control on the sheet fixes, now say where they are fixed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.engine import registry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_fresh_drafts_sheet_asks_nothing_no_control_on_it_does(page_as, table, size):
    from characters.builder.services import character_create
    from tests.factories import make_campaign

    page = page_as(table["player"], viewport=size)
    for slug in registry.SYSTEMS:
        campaign = make_campaign(gm=table["gm"], ruleset=slug, players=[table["player"]])
        draft = character_create(campaign=campaign, owner=table["player"], name=f"Fresh {slug}")
        page.goto(reverse("character_sheet", args=[draft.pk]))
        dice, last = page.inner_text("#sheet-rollables"), page.inner_text("#roll-result")
        assert "No rolls until the character is submitted." in dice, (slug, dice)
        assert " ".join(last.split()) == "Last roll No roll yet.", (slug, last)
        costs = page.inner_text("#sheet-costs")
        if draft.report.get("errors"):
            assert "Problems Fix them in the builder. " in " ".join(costs.split()), (slug, costs)
            href = page.locator("#sheet-costs").get_by_role("link", name="the builder").get_attribute("href")
            assert href == reverse("character_builder", args=[draft.pk]), slug
            # The GM reads the same block (cached) without the owner's builder: no pointer to it.
            gm = page_as(table["gm"], viewport=size)
            gm.goto(reverse("character_sheet", args=[draft.pk]))
            seen = gm.inner_text("#sheet-costs")
            assert "Problems" in seen and "Fix them" not in seen, (slug, seen)
        else:
            assert "Problems" not in costs and "Fix them" not in costs, (slug, costs)
