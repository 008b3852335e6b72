"""The small table bugs of #12, tried in a real browser as a player would (the unit tests of
tests/characters/sheet/test_table_bugs.py check the same by the HTML): the greeting of a new
account, and a join code entered twice. Each game's own: tests/rulesets/<slug>/e2e/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.e2e.conftest import PASSWORD, sign_up
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


def test_a_brand_new_account_is_welcomed_not_welcomed_back(browser_context):
    from playwright.sync_api import expect

    page = browser_context(viewport=PHONE).new_page()
    sign_up(page, "newcomer", PASSWORD)
    main = page.locator("main")
    expect(main).to_contain_text("Welcome to Sheetforge, newcomer")
    expect(main).not_to_contain_text("Welcome back")


def test_entering_a_join_code_again_does_not_say_you_joined_again(page_as):
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, name="Ashen Vale")
    page = page_as(player, viewport=PHONE)
    for attempt in range(2):
        page.goto(reverse("campaign_join"))
        page.get_by_label(re.compile("code", re.I)).fill(campaign.join_code)
        page.get_by_role("button", name=re.compile("join", re.I)).click()
        page.wait_for_load_state()
        body = page.locator("body")
        if attempt == 0:
            expect(body).to_contain_text("You joined “Ashen Vale”.")
        else:
            expect(body).to_contain_text("You are already a member of “Ashen Vale”.")
            expect(body).not_to_contain_text("You joined")
