"""A Pando character from scratch in the guided builder in a real browser (issue 13; moved from
tests/e2e/test_builder_guided_browser.py, which keeps the helpers): through the rulebook's creation
steps, with choices the rules forbid absent at each; leaves /tmp/builder-pando.png and -phone.png."""

from __future__ import annotations

import pytest

from tests.e2e.test_builder_guided_browser import (
    _expect,
    check,
    open_builder,
    pick,
    shots,
    step_done,
    type_number,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pando_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "pando")
    type_number(page, "#f-attributes-strength", 2)
    step_done(page, "attributes")
    check(page, "#n-skills-melee")
    pick(page, "#f-equipment--", "leather_cap")
    expect(page.locator("#f-equipment-0-state")).to_have_value("worn")
    expect(page.locator("#f-equipment-0-state option[value='wielded']")).to_have_count(0)
    pick(page, "#f-equipment--", "longsword")
    expect(page.locator("#f-equipment-1-state")).to_have_value("wielded")
    expect(page.locator("#f-equipment-1-state option[value='worn']")).to_have_count(0)
    expect(page.locator("#f-equipment-1-arms-right_arm")).to_be_checked()
    pick(page, "#f-equipment--", "round_shield")
    expect(page.locator("#f-equipment-2-arms-left_arm")).to_be_checked()  # the free arm
    expect(page.locator("#sec-body tr.part-head")).to_contain_text("Leather")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    shots(page, "pando")
