"""The new-campaign page in a real browser: the settings fields follow the ruleset chosen (htmx
swap), and without JavaScript "Show its settings" does the same; a nonsense number is a field
error and creates nothing."""

from __future__ import annotations

import pytest

from characters.models import Campaign
from rulesets.engine import registry
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _two_rulesets():
    first, second = registry.all_rulesets()[:2]
    return first, second


def test_the_fields_follow_the_chosen_ruleset_and_nonsense_is_a_field_error(page_as):
    from playwright.sync_api import expect

    first, second = _two_rulesets()
    page = page_as(make_user("gina"))
    page.goto("/campaigns/new/")
    expect(page.locator("textarea")).to_have_count(0)  # no JSON box
    page.get_by_text("Starting budget and house rules").click()
    c1 = first.currencies[0]
    expect(page.locator(f'input[name="budget_{c1}"]')).to_be_visible()
    page.locator("#id_name").fill("Iron Coast")
    page.get_by_label("Ruleset").select_option(second.slug)
    expect(page.locator('input[name="_fields_for"]')).to_have_value(second.slug)
    c2 = second.currencies[-1]
    page.get_by_text("Starting budget and house rules").click()
    budget = page.get_by_label(f"Starting {second.currency_label(c2)}")
    budget.fill("-5")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.locator(".field.has-error .field-error")).to_contain_text("greater than or equal to 0")
    assert not Campaign.objects.exists()
    expect(page.locator("#id_name")).to_have_value("Iron Coast")
    page.get_by_label(f"Starting {second.currency_label(c2)}").fill("25")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_text("Share the join code")).to_be_visible()
    campaign = Campaign.objects.get(name="Iron Coast")
    assert campaign.ruleset == second.slug and campaign.starting_budget[c2] == 25


def test_without_javascript_show_its_settings_swaps_the_fields(page_as):
    from playwright.sync_api import expect

    first, second = _two_rulesets()
    page = page_as(make_user("nojs"), java_script_enabled=False)
    page.goto("/campaigns/new/")
    page.locator("#id_name").fill("Plain Coast")
    page.get_by_label("Ruleset").select_option(second.slug)
    page.get_by_role("button", name="Show its settings").click()
    expect(page.locator('input[name="_fields_for"]')).to_have_value(second.slug)
    expect(page.locator("#id_name")).to_have_value("Plain Coast")
    assert not Campaign.objects.exists()
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_text("Share the join code")).to_be_visible()
    assert Campaign.objects.get(name="Plain Coast").ruleset == second.slug
