"""Paragon's powers on the sheet and the citadel phase, in a real browser at a phone's size: a player
uses a power from the sheet's Powers section, picks activities between adventures, and the GM approves
them on the request's page (RULES.md W6, W9)."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.test_table_bugs_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AREN = registry.get("paragon").contract_data()["build"]


def test_a_power_used_from_the_sheet_and_activities_approved_by_the_gm(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "paragon", build=copy.deepcopy(AREN))
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_sheet", args=[character.pk]))
    powers = page.locator("#state-powers")
    expect(powers).to_contain_text("Wall of Wind (Wind 3, 6 Dynama)")
    powers.get_by_label("Power").select_option(label="Gale Step (Wind 1, 2 Dynama)")
    powers.get_by_role("button", name="Use a power (spends its Dynama)").click()
    expect(page.get_by_test_id("state-message")).to_contain_text("uses Gale Step: Dynama 30 → 28.")
    expect(page.get_by_test_id("pool-dynama").locator("strong")).to_have_text("28")

    page.get_by_test_id("activities-link").click()
    expect(page.get_by_test_id("activities-list")).to_contain_text("Health +10")
    page.get_by_label("Activity 1").select_option(label="Training")
    page.get_by_label("Activity 2").select_option(label="Acts of charity and goodwill")
    page.get_by_role("button", name="Send to the GM").click()
    expect(page.get_by_test_id("advancement-status")).to_have_text("Pending")

    gm = page_as(table["gm"], viewport=PHONE)
    gm.goto(page.url)
    expect(gm.get_by_test_id("advancement-activities")).to_contain_text("Acts of charity and goodwill")
    gm.get_by_test_id("approve").click()
    expect(gm.get_by_test_id("advancement-status")).to_have_text("Approved")
    expect(gm.get_by_test_id("advancement-activities")).to_contain_text(
        "Training: 3 skill points; Morale 12 → 12."
    )
    from characters.models import LedgerEntry

    character.refresh_from_db()
    assert LedgerEntry.objects.filter(character=character, kind="award", amount=3).count() == 1
    assert character.build["budget"]["skill_points"] == AREN["budget"]["skill_points"] + 3
