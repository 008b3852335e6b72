"""A Pando roll reads without a stray None, in a real browser (issue #12; moved from
tests/e2e/test_table_bugs_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.test_table_bugs_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_pando_roll_reads_without_a_stray_none(page_as, table, monkeypatch):
    from playwright.sync_api import expect

    character = character_at_table(table, "pando")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([6, 6, 6]))  # the live server's thread
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_sheet", args=[character.pk]))
    page.locator('button[data-rollable="skill:capability"]').click()
    outcome = page.get_by_test_id("roll-outcome")
    expect(outcome).to_contain_text("6, 6, 6 → 0 EP")
    text = outcome.inner_text()
    assert "None" not in text and not text.rstrip().endswith("None"), text
    assert "None" not in page.locator("#roll-log").inner_text()
