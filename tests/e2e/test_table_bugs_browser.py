"""The small table bugs of #12, tried in a real browser as a player would (the unit tests of
tests/characters/sheet/test_table_bugs.py check the same by the HTML): Paragon's "Lower Health by 1"
stepper, the Pando roll text, the Our D&D odds chart and its rolled bar, the greeting of a new
account, and a join code entered twice."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters.sheet import services as play
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import PASSWORD, sign_up
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


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
