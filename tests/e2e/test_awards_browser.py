"""The GM's Awards page in a browser: Enter in the typed award makes that award, not the first
one-click award; a one-click award is still one click."""

from __future__ import annotations

import pytest

from characters.models import LedgerEntry
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1280, "height": 900}])
def test_enter_in_the_reason_makes_the_typed_award_and_one_click_stays_one_click(page_as, table, size):
    from playwright.sync_api import expect

    slug = vehicles.first(lambda rs: rs.quick_awards(), "a ruleset with one-click awards")
    quick = registry.get(slug).quick_awards()[0]  # a one-click "Milestone +1 points", say
    character = character_at_table(table, slug)
    awards = LedgerEntry.objects.filter(character=character, kind="award")
    before = set(awards.values_list("pk", flat=True))
    page = page_as(table["gm"], viewport=size)
    page.goto(f"/campaigns/{character.campaign.pk}/awards/")
    page.get_by_label(character.name).check()
    page.get_by_label("Amount").fill("5")
    reason = page.get_by_label("Reason")
    reason.fill("Session 2")
    reason.press("Enter")
    expect(page.locator(".message").first).to_contain_text("Awarded 5")
    new = list(awards.exclude(pk__in=before).values_list("amount", "reason", "author__username"))
    assert new == [(5, "Session 2", "gm")]

    before = set(awards.values_list("pk", flat=True))
    page.get_by_label(character.name).check()
    page.locator(f'button[name="quick"][value="{quick["id"]}"]').click()
    expect(page.locator(".message").first).to_contain_text(f"Awarded {quick['amount']}")
    new = list(awards.exclude(pk__in=before).values_list("amount", "reason"))
    assert new == [(quick["amount"], quick["label"])]
