"""Every ruleset's table pages at a phone's size (390×844): nothing sticks out sideways (the page
does not scroll horizontally, no text or control reaches past the screen's edge unless it is
inside a box that scrolls on its own, and no text is wider than its own box), every control is big enough to tap. With
$SHOTS_DIR set, a full-page screenshot of each is saved there as phone-<slug>-<page>.png to look at
(and its first eight screenfuls, scrolled to, as phone-<slug>-<page>-<n>.png). The pages are opened
by the walk (tests/e2e/phone_walk.py), which the other tests of those pages share.

    SHOTS_DIR=/tmp .venv/bin/python -m pytest -m browser tests/e2e/test_phone_screenshots_browser.py
"""

from __future__ import annotations

import pytest

from rulesets.engine import registry
from tests.e2e.phone_walk import SCREENSHOT_PAGES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_phone_pages_fit_the_screen_and_are_saved_as_screenshots(phone_walk, slug):
    """The play pages (saved as screenshots with $SHOTS_DIR set): no sideways scroll, nothing past the
    edge, every control big enough to tap."""
    seen = phone_walk(slug)
    found = {}
    for name in SCREENSHOT_PAGES:
        assert seen[name].status == 200, (name, seen[name].status)
        problems = seen[name].layout
        if problems["pageWidth"] > problems["width"] or problems["overflow"] or problems["small"]:
            found[name] = problems
    assert found == {}, found
