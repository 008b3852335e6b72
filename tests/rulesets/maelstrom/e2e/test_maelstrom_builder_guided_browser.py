"""A Maelstrom character from scratch in the guided builder in a real browser (issue 13; moved from
tests/e2e/test_builder_guided_browser.py, which keeps the helpers): through the rulebook's creation
steps, with choices the rules forbid absent at each; leaves /tmp/builder-maelstrom.png and -phone.png."""

from __future__ import annotations

import pytest

from tests.e2e.test_builder_guided_browser import _expect, open_builder, shots, step_done, type_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_maelstrom_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "maelstrom")
    expect(page.locator(".step-nav li")).to_have_count(2)
    expect(page.locator(".step-nav li").first).to_contain_text("Attributes, abilities and willpower")
    sheet = {
        "attributes": {
            "strength": 2,
            "precision": 3,
            "reflexes": 2,
            "perception": 3,
            "intelligence": 3,
            "wits": 3,
        },
        "abilities": {
            "investigation": 4,
            "computer_science": 3,
            "alertness": 2,
            "technology": 2,
            "medicine": 2,
            "science": 2,
            "stealth": 1,
            "streetwise": 1,
            "driving": 1,
            "firearms": 1,
            "humanities": 1,
            "statecraft": 1,
        },
    }
    for group, values in sheet.items():
        for key, value in values.items():
            type_number(page, f"#f-{group}-{key}", value)
    step_done(page, "dots")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    shots(page, "maelstrom")
