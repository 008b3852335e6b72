"""Paragon's Lower Health stepper lowers health, in a real browser (issue #12; moved from
tests/e2e/test_table_bugs_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.test_table_bugs_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_paragon_s_lower_health_stepper_lowers_health(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "paragon")
    health = character.state["pools"]["health"]
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_sheet", args=[character.pk]))
    value = page.get_by_test_id("pool-health").locator("strong")
    expect(value).to_have_text(str(health))
    page.get_by_role("button", name="Lower Health by 1").click()
    expect(value).to_have_text(str(health - 1))
    expect(page.get_by_test_id("state-message")).to_contain_text(f"health {health} → {health - 1}")
    expect(page.get_by_text("Name the pool")).to_have_count(0)
    expect(page.get_by_role("button", name="Lower Health by 1")).to_be_focused()
    character.refresh_from_db()
    assert character.state["pools"]["health"] == health - 1
