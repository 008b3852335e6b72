"""A Maelstrom character takes lethal damage on the health chart, in a real browser (moved from
tests/e2e/test_sheet_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import ARTIFACTS, keep_screenshot
from tests.rulesets.pando.e2e.test_pando_sheet_browser import VIEWPORT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_maelstrom_character_takes_lethal_damage_on_the_health_chart(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "maelstrom")
    page = page_as(table["gm"], viewport=VIEWPORT)  # the GM runs the table and marks the damage
    page.goto(reverse("character_sheet", args=[character.pk]))
    expect(page.locator(".sheet-health-chart tbody tr")).to_have_count(8)
    wounds = page.locator('[data-testid="roll-pick-wounds"]')  # the roll picker's wounds line
    expect(wounds).not_to_contain_text("wound penalty")

    damage = page.locator('#state-health form[data-action="damage"]')
    damage.get_by_label("Levels").fill("2")
    damage.get_by_label("Damage").select_option("lethal")
    damage.get_by_role("button", name="Take damage").click()
    expect(page.locator('#state-health .track-box[data-damage="lethal"]')).to_have_count(2)
    expect(page.locator('[data-testid="wound-penalty"]')).to_have_text("−1")
    # The roll picker follows (its choices kept): a willpower dot is offered against the −1.
    expect(wounds).to_contain_text("Spend a willpower dot: no wound penalty (−1 dice)")
    ARTIFACTS.mkdir(exist_ok=True)
    keep_screenshot(page, "sheet-maelstrom")
