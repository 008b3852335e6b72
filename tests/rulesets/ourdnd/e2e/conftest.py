"""Our D&D's browser tests: the fixtures of tests/e2e/conftest.py, one Chromium for this package
(closed after it, so later tests run without Playwright's event loop), and the same check that no
page breaks the Content-Security-Policy. make test runs them with the other browser
tests, one after another on one worker (tests/scheduling.py)."""

from tests.e2e.conftest import _no_csp_violations, browser, browser_context, daphne_servers, page_as  # noqa: F401
