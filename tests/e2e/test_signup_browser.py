"""Sign-up refusals, in Chromium, on a phone and a desktop: each message says what is wrong next to
the field it is about, and the keyboard focus lands on the first field in error (issue: a short
password said only "didn't match", and the focus went back to Username)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.e2e.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOO_SHORT = "This password is too short. It must contain at least 8 characters."
MISMATCH = "The two passwords are not the same: type the password again in both fields."
VIEWPORTS = [
    pytest.param({"width": 390, "height": 844}, id="phone-390x844"),
    pytest.param({"width": 1280, "height": 900}, id="desktop-1280x900"),
]


def _submit(page, username: str, password1: str, password2: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password1)
    page.get_by_label("Password confirmation").fill(password2)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_load_state()


def _focused(page) -> dict:
    return page.evaluate(
        """() => {
            const el = document.activeElement;
            const described = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
            return {
                id: el.id,
                invalid: el.getAttribute('aria-invalid'),
                described: described.map(id => (document.getElementById(id) || {textContent: '(missing #' + id + ')'}).textContent.trim()),
            };
        }"""
    )


def _errors_next_to(page, field_id: str) -> list[str]:
    return page.locator(f".field:has(#{field_id}) .field-error").all_inner_texts()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_short_password_says_so_next_to_it_and_takes_the_focus(browser_context, viewport):
    page = browser_context(viewport=viewport).new_page()
    _submit(page, "mira", "lan7", "lan7")
    assert page.url.endswith("/accounts/signup/")  # refused, no one signed in
    assert _errors_next_to(page, "id_password1") == [TOO_SHORT]
    assert _errors_next_to(page, "id_password2") == []
    assert _errors_next_to(page, "id_username") == []
    focused = _focused(page)
    assert focused["id"] == "id_password1"
    assert focused["invalid"] == "true"
    assert TOO_SHORT in focused["described"]
    assert "didn" not in page.locator("form").inner_text()
    assert not get_user_model().objects.filter(username="mira").exists()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_short_password_typed_differently_twice_says_both_and_focuses_the_first(browser_context, viewport):
    page = browser_context(viewport=viewport).new_page()
    _submit(page, "mira", "lan7", "lan8")
    assert _errors_next_to(page, "id_password1") == [TOO_SHORT]
    assert _errors_next_to(page, "id_password2") == [MISMATCH]
    focused = _focused(page)
    assert focused["id"] == "id_password1" and focused["invalid"] == "true"
    assert TOO_SHORT in focused["described"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_good_password_typed_differently_focuses_the_confirmation(browser_context, viewport):
    page = browser_context(viewport=viewport).new_page()
    _submit(page, "mira", PASSWORD, PASSWORD + "x")
    assert _errors_next_to(page, "id_password1") == []
    assert _errors_next_to(page, "id_password2") == [MISMATCH]
    focused = _focused(page)
    assert focused["id"] == "id_password2" and focused["invalid"] == "true"
    assert MISMATCH in focused["described"]
    assert page.locator("#id_password1").get_attribute("aria-invalid") is None
