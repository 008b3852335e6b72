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


def test_an_option_chosen_while_its_list_is_still_pressed_updates_at_once(page_as):
    """A select's option chosen by pressing on the list and letting go over the option: the page may
    never see that release (the open list is the browser's own). The change of the pressed control
    is its own update, sent at once; only a request some other field's change starts during a press
    waits for the press to end (static/js/app.js; the advance page's test of a press on Request)."""
    expect = _expect()
    page, character = open_builder(page_as, "pando")
    select = page.locator("#f-equipment--")
    box = select.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    try:
        # The builder's update waits 0.3 s after a change; a request held for the press would wait 2 s.
        with page.expect_response(lambda r: r.request.method == "POST", timeout=1500):
            select.select_option("leather_cap")
    finally:
        page.mouse.up()
    expect(page.locator("#f-equipment-0-state")).to_have_value("worn")
    character.refresh_from_db()
    assert [item["item"] for item in character.build["equipment"]] == ["leather_cap"]
