"""What the GM and player read on screen (innerText, after CSS): the review of a new Our D&D
character names the ruleset and the character as written, never shouted or re-cased (moved from
tests/e2e/test_game_words_browser.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.characters.test_game_words import _submitted_for_approval

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_the_review_and_the_new_character_page_read_as_written(page_as, size):
    gm, player, campaign, _ = _submitted_for_approval("ourdnd")
    page = page_as(gm, viewport=size)
    page.goto(reverse("campaign_review", args=[campaign.pk]))
    rows = page.locator(".advancement-diff tbody tr")
    said = {
        row.locator("th").inner_text().strip(): row.locator(".diff-new").inner_text().strip()
        for row in rows.all()
    }
    assert said["Ruleset"] == "Our D&D"
    assert said["Name"] == "Approve Me"
    assert "Approve Me" in page.locator(".advancement-card h2").inner_text()
    text = page.locator("main").inner_text()
    assert "RULESET" not in text and "Ourdnd" not in text and "Approve me" not in text
    assert page.locator('[data-testid="advancement-cost"]').inner_text() == "+6 points"
    costs = [c.strip() for c in page.locator(".advancement-diff .diff-cost").all_inner_texts()]
    assert sum(c.startswith("+2 points") for c in costs) == 3 and len(costs) == len(said)

    page = page_as(player, viewport=size)
    page.goto(reverse("character_create", args=[campaign.pk]))
    intro = page.locator("main .card p").first.inner_text()
    assert intro.startswith("It starts as a draft with 6 points."), intro
