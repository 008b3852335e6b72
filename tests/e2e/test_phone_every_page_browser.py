"""Every page a player or GM reaches, in every ruleset of the registry, at a phone's size (390×844):
the page never scrolls sideways and nothing reaches past the screen's edge (the layout check of
tests/e2e/phone_walk.py), with every page holding rows (a ledger with awards, a history
with versions, a pending review, a running encounter): the phone walk (tests/e2e/phone_walk.py)."""

from __future__ import annotations

import pytest

from rulesets.engine import registry
from tests.e2e.test_sheet_play_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUGS = [r.slug for r in registry.all_rulesets()]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_page_fits_a_phone_without_sideways_scrolling(phone_walk, slug):
    found = {}
    for name, seen in phone_walk(slug).items():
        if seen.status != 200:
            found[name] = {"status": seen.status}
        elif seen.layout["pageWidth"] > PHONE["width"] or seen.layout["overflow"]:
            found[name] = {"scrollWidth": seen.layout["pageWidth"], "overflow": seen.layout["overflow"]}
    assert found == {}, found
