"""Maelstrom's submit bar on screen shows the first problem whole and links to the list (moved from
tests/e2e/test_game_words_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_maelstroms_submit_bar_shows_the_first_problem_whole_and_links_to_the_list(page_as, table, size):
    from playwright.sync_api import expect

    from characters.models import Character
    from tests.characters.sheet.test_sheet_fixtures import character_at_table

    character = character_at_table(table, "maelstrom")
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_create", args=[character.campaign.pk]))
    page.get_by_label("Name").fill("Blank")
    page.get_by_role("button", name="Start building").click()
    page.wait_for_url(f"**/characters/{Character.objects.get(name='Blank').pk}/build/")
    reason = page.locator("#submit-reason")
    expect(reason).to_contain_text("Fix 2 problems first: This sheet is not a legal Maelstrom creation")
    box = reason.evaluate(
        """el => { const r = el.getBoundingClientRect(), bar = el.closest('#builder-actions').getBoundingClientRect();
        return {bottom: r.bottom, barBottom: bar.bottom, scroll: el.scrollHeight, client: el.clientHeight,
                lines: Math.round(r.height / parseFloat(getComputedStyle(el).lineHeight)), view: innerHeight}; }"""
    )
    assert box["scroll"] <= box["client"] + 1, box  # nothing of it cut off
    assert box["bottom"] <= box["barBottom"] <= box["view"], box  # inside the bar, the bar on screen
    assert box["lines"] <= (3 if size["width"] < 500 else 2), box
    reason.get_by_role("link", name="All 2 problems").click()
    expect(page.locator("#builder-errors")).to_be_in_viewport()
    expect(page.locator("#builder-errors .issue-summary li").first).to_contain_text(
        "add 6 dots to physical attributes and add 4 dots to mental attributes."
    )
