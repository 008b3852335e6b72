"""A Paragon character from scratch in the guided builder in a real browser (issue 13; moved from
tests/e2e/test_builder_guided_browser.py, which keeps the helpers): through the rulebook's creation
steps, with choices the rules forbid absent at each; leaves /tmp/builder-paragon.png and -phone.png."""

from __future__ import annotations

import pytest

from tests.e2e.test_builder_guided_browser import _expect, open_builder, pick, shots, type_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_paragon_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "paragon", viewport={"width": 390, "height": 844})
    options = page.locator("#f-power_level option")
    expect(options).to_have_count(6)
    expect(options.first).to_have_text("Ordinary person (no power level)")
    expect(page.locator("#f-power_level option[value='0']")).to_have_count(0)
    expect(page.locator("#f-power_level option[value='6']")).to_have_count(0)
    pick(page, "#f-power_level", "2")
    expect(page.get_by_test_id("budget-force_points")).to_have_text("20")
    for force, rank in {"fire": 1, "wind": 4, "thunder": 2, "light": 1, "shadow": 2}.items():
        type_number(page, f"#f-forces-{force}", rank)
    expect(page.locator("#step-forces")).not_to_have_class(
        "builder-step step-error"
    )  # 2 points left: a note, no error
    type_number(page, "#f-forces-fire", 3)  # 23 of 20
    expect(page.get_by_test_id("over-force_points")).to_have_text("3 force points over")
    type_number(page, "#f-forces-fire", 1)
    for skill, rank in {"melee": 1, "missile": 2, "travel": 1}.items():
        type_number(page, f"#f-skills-{skill}", rank)
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    expect(page.get_by_role("button", name="Save draft")).to_be_in_viewport()  # on a phone too
    shots(page, "paragon")
    character.refresh_from_db()
    assert character.build["power_level"] == 2 and character.build["skills"]["missile"] == 2
