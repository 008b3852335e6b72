"""An Our D&D character from scratch in the guided builder in a real browser (issue 13; moved from
tests/e2e/test_builder_guided_browser.py, which keeps the helpers): through the rulebook's creation
steps, with choices the rules forbid absent at each; leaves /tmp/builder-ourdnd.png and -phone.png."""

from __future__ import annotations

import pytest

from tests.e2e.test_builder_guided_browser import (
    _expect,
    open_builder,
    pick,
    posted,
    shots,
    step_done,
    type_number,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ourdnd_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "ourdnd")
    for stat in ("str", "con", "cha"):
        type_number(page, f"#f-stats-{stat}", 2)
    step_done(page, "stats")
    posted(page, lambda: page.get_by_role("button", name="Raise Hearts").click())
    expect(page.get_by_test_id("over-points")).to_have_text("3 points over")
    expect(page.locator("#builder-costs .budget-row.over")).to_have_count(1)
    expect(page.get_by_role("button", name="Submit")).to_be_disabled()
    posted(page, lambda: page.get_by_role("button", name="Lower Hearts").click())
    pick(page, "#f-gear--", "sword")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    shots(page, "ourdnd")
