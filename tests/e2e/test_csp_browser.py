"""Pages under the Content-Security-Policy in a real browser: they work, and Chromium reports no
violation (tests/e2e/conftest.py fails any test that sees one)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import PASSWORD, log_in
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_api_docs_render_under_the_policy(browser_context):
    from playwright.sync_api import expect

    page = browser_context().new_page()
    page.goto("/api/docs/")
    expect(page.locator(".swagger-ui .opblock-tag").first).to_be_visible()
    expect(page.get_by_text("/api/v1/auth/token/").first).to_be_visible()


def test_sign_in_and_the_account_page_list_a_token(browser_context, live_server):
    from playwright.sync_api import expect

    from characters.accounts.services import account_token_create

    user = make_user("mira", password=PASSWORD)
    account_token_create(user=user, name="foundry sync")
    page = browser_context().new_page()
    log_in(page, "mira")
    page.get_by_role("link", name="mira").click()
    expect(page.get_by_role("heading", name="Your account")).to_be_visible()
    row = page.get_by_role("row", name="foundry sync")
    expect(row).to_contain_text("never")
    row.get_by_role("button", name="Revoke foundry sync").click()
    expect(page.get_by_text("The token is revoked")).to_be_visible()
    expect(page.get_by_test_id("no-tokens")).to_be_visible()


def test_the_print_button_has_no_inline_handler(page_as):
    """The sheet's Print button works through static/js/app.js (window.print is stubbed)."""
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.vehicles import SLUGS

    character = make_character(ruleset=SLUGS[0])
    page = page_as(character.owner)
    page.add_init_script("window.print = () => { window.__printed = true; };")
    page.goto(f"/characters/{character.pk}/")
    page.get_by_role("button", name="Print").click()
    page.wait_for_function("() => window.__printed === true")
