"""Advance mode in a real browser is guided like the builder: the creation steps, the options of
the earlier picks only, and an overspend that turns the points row red and names itself."""

from __future__ import annotations

import pytest

from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORT = {"width": 1280, "height": 1000}


def test_advance_mode_names_the_overspend_in_red_and_refuses_the_request(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "pando")  # 10 CP unspent
    page = page_as(table["player"], viewport=VIEWPORT)
    page.goto(f"/characters/{character.pk}/advance/")
    expect(page.locator(".step-nav .step-link")).to_have_count(
        4
    )  # attributes, resistances, skills, equipment
    row = page.locator('#advance-costs .budget-row[data-currency="cp"]')
    expect(row).not_to_have_class("budget-row over")
    for name in ("/attributes/acrobatics", "/attributes/strength"):
        field = page.locator(f'input[name="{name}"]')
        field.fill("3")
        field.press("Tab")
        expect(page.locator(f'#advance-diff tr[data-path="{name}"]')).to_be_visible()
    expect(page.locator('[data-testid="over-cp"]')).to_have_text("2 CP over")
    expect(page.locator('#advance-costs .budget-row[data-currency="cp"]')).to_have_class("budget-row over")
    color = page.locator('[data-testid="over-cp"]').evaluate("e => getComputedStyle(e).color")
    assert color != page.locator("#advance-costs h2").evaluate("e => getComputedStyle(e).color")
    expect(page.get_by_role("button", name="Request advancement")).to_be_disabled()
