"""Shared browser fixtures: Debian's Chromium driven by Playwright, launched once per session.

    def test_something(browser_context, live_server):
        page = browser_context().new_page()
        sign_up(page, live_server.url, "mira", PASSWORD)

`page_as(user)` opens a page already signed in as a Django user (session cookie, no form).
Screenshots of failing steps can go in test-artifacts/ (ignored by git).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in the test thread

#: Debian's Chromium. Its old headless shell (package chromium-headless-shell: the same build, without
#: the full browser's windows and its user-interface renderers; what Playwright itself launches for a
#: headless run) when it is installed: the browser tests took ~40 % less CPU in it (bench note in
#: #20). Else the full browser in headless mode. ``CHROMIUM_PATH`` picks another binary.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(
    os.environ.get("CHROMIUM_PATH")
    or (str(HEADLESS_SHELL) if HEADLESS_SHELL.exists() else "/usr/bin/chromium")
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PASSWORD = "velvet-lantern-77"
HOME_URL = re.compile(r"^https?://[^/]+/$")


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the browser tests (this package); skips with the reason when it cannot run here.

    Package scope, not session: Playwright's sync API keeps an event loop running in the test thread
    while it is open, and code under test that calls ``async_to_sync`` (the channel layer's close and
    broadcast messages) refuses to run beside one. Closed after tests/e2e, later tests run as in production."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: apt-get install chromium chromium-headless-shell"
            " (CI installs them; never `playwright install`)"
        )
    # expect()'s own default is 5 s; pages and actions get 10 s (``browser_context``). A page that
    # answers in well under a second alone can take seconds while the other test worker's browser
    # and server share the two cores: an assertion's wait is the suite's 15 s (failures still name
    # what was awaited; tests that hold a time budget assert it themselves).
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


_csp_violations: list[str] = []


def watch_csp(context) -> None:
    """Collect the Content-Security-Policy violations Chromium reports on any page of ``context``
    (a console error "Refused to ... because it violates the following Content Security Policy
    directive"); ``_no_csp_violations`` fails the test on any."""
    context.on(
        "console",
        lambda msg: (
            _csp_violations.append(f"{msg.location.get('url', '')}: {msg.text}")
            if "Content Security Policy" in msg.text
            else None
        ),
    )


@pytest.fixture(autouse=True)
def _no_csp_violations():
    _csp_violations.clear()
    yield
    violations = list(_csp_violations)
    _csp_violations.clear()
    assert violations == [], "Content-Security-Policy violations in the browser:\n" + "\n".join(violations)


@pytest.fixture
def browser_context(browser, live_server):
    """A factory of isolated browser contexts (separate cookies: one per person at the table)."""
    contexts = []

    def make(**options):
        options = {"base_url": live_server.url, "viewport": {"width": 1280, "height": 900}, **options}
        context = browser.new_context(**options)
        watch_csp(context)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page_as(browser_context, live_server):
    """Open a page signed in as ``user`` (a Django user) without going through the login form."""
    from django.test import Client

    def open_as(user, **options):
        client = Client()
        client.force_login(user)
        context = browser_context(**options)
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
        return context.new_page()

    return open_as


@pytest.fixture
def tab_as(page_as):
    """One tab per person (and screen size) for a test that walks many pages: ``tab_as(user)`` opens
    a signed-in page the first time and gives the same page back after, as a person keeps one tab
    open and goes from page to page (its browser cache warm). A new context per page costs ~0.25 s
    of the ~0.35 s a page took. Tests that need two tabs of one person use ``page_as``."""
    tabs: dict[tuple, object] = {}

    def tab(user, **options):
        key = (user.pk, repr(sorted(options.items())))
        if key not in tabs or tabs[key].is_closed():
            tabs[key] = page_as(user, **options)
        return tabs[key]

    return tab


def settled(page) -> None:
    """Wait until htmx has no request, swap or settle under way (what a page loads after it opens:
    ``hx-trigger="load"``), rather than a fixed pause."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def sign_up(page, username: str, password: str = PASSWORD) -> None:
    """Create an account through the sign-up form; the page ends on the home page, signed in."""
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(HOME_URL)


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Sign in through the login form; the page ends on the home page."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(HOME_URL)
