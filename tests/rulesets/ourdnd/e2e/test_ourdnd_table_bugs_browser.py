"""Our D&D's odds show a failure bar and a failed roll is marked on it, in a real browser (issue #12;
moved from tests/e2e/test_table_bugs_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.test_table_bugs_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_our_dnd_odds_show_a_failure_bar_and_a_failed_roll_is_marked_on_it(page_as, table, monkeypatch):
    from playwright.sync_api import expect

    character = character_at_table(table, "ourdnd")
    monkeypatch.setattr(play, "Roller", lambda: FixedRoller([5]))
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_sheet", args=[character.pk]))
    # Before the roll: the odds chart of the form has its four bars, Failure among them.
    before = page.locator("#sheet-rollables .roll-chart .roll-bar")
    expect(before.first).to_be_visible()
    assert before.evaluate_all("bars => bars.map(b => b.dataset.label)")[:4] == [
        "Blunder",
        "Failure",
        "Success",
        "Critical",
    ]
    page.locator('button[data-rollable="check:str:normal"]').click()
    rolled = page.locator("#roll-chart .roll-bar.is-rolled")
    expect(rolled).to_have_count(1)
    expect(rolled).to_have_attribute("data-label", "Failure")
    expect(rolled.locator(".roll-bar-label")).to_have_text("▶ Failure")
    expect(page.locator("#roll-chart figcaption")).to_have_text("Rolled: Failure")
    # d20 5 at STR +2 against TD 12: faces 2–9 fail, 8 in 20.
    expect(page.locator('#roll-chart .roll-bar[data-label="Failure"] .roll-bar-value')).to_have_text("40.0%")
