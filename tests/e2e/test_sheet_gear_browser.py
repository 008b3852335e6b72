"""The sheet's gear block in a browser (issue #33 "Speed": one form for the block, each entry's Change
button naming its entry): at a phone's size and a laptop's, an entry's state is chosen and sent with the
keyboard alone, by controls a screen reader names with the entry, and the focus stays on its button; on
a phone's 300 ms link, Changes of two entries pressed one after the other each land (the tap queue,
static/js/taps.js), each its own request. On the first ruleset whose sheet character carries gear with
states (tests/vehicles.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import slow_link
from tests.e2e.test_sheet_play_browser import SIZES, _arm_settle, _wait_settled
from tests.waiting import poll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLUG = vehicles.first(vehicles.stated_gear, "a ruleset whose sheet character's gear has states")
RULESET = registry.get(SLUG)
POSTS = """() => { window.__posts = 0; const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (m) { if (m === "POST") window.__posts += 1; return open.apply(this, arguments); };
}"""


def _states(character) -> list:
    character = Character.objects.get(pk=character.pk)
    return [row["state"] for row in RULESET.equipment(character.build)["rows"]]


def _badge(character, index: int) -> str:
    """What the entry's pill says of its saved state."""
    return RULESET.equipment(Character.objects.get(pk=character.pk).build)["rows"][index]["state_label"]


def _wait_states(character, wanted: dict[int, str], seconds: float = 12) -> list:
    return poll(
        lambda: _states(character),
        until=lambda states: all(states[i] == s for i, s in wanted.items()),
        timeout=seconds,
    )


@pytest.mark.parametrize("size", SIZES)
def test_an_entrys_state_is_changed_with_the_keyboard_by_controls_named_with_the_entry(page_as, table, size):
    from playwright.sync_api import expect

    character = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 40))
    ((index, state),) = vehicles.gear_changes(RULESET, character.build, 1)
    name = RULESET.equipment(character.build)["rows"][index]["name"]
    v0 = character.version
    page = page_as(table["player"], viewport=SIZES[size])
    page.goto(reverse("character_sheet", args=[character.pk]))
    select = page.locator(f"#equipment-state-{index}")
    expect(select).to_have_role("combobox")
    expect(select).to_have_accessible_name(f"State of {name}")
    select.focus()
    select.select_option(state)
    page.keyboard.press("Tab")  # from the entry's state to its own Change button
    button = page.locator(f"#equipment-change-{index}")
    expect(button).to_be_focused()
    expect(button).to_have_role("button")
    expect(button).to_have_accessible_name(f"Change the state of {name}")
    _arm_settle(page)
    page.keyboard.press("Enter")
    _wait_settled(page)
    expect(page.locator(f"#equipment-{index} .badge")).to_have_text(_badge(character, index))
    expect(page.locator(f"#equipment-change-{index}")).to_be_focused()  # the place kept
    assert _states(character)[index] == state
    assert Character.objects.get(pk=character.pk).version == v0 + 1


def test_changes_of_two_entries_pressed_quickly_each_land_on_a_300_ms_link(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, SLUG, build=vehicles.gear_build(RULESET, 40))
    changes = vehicles.gear_changes(RULESET, character.build, 2)
    v0 = character.version
    page = page_as(table["player"], viewport=SIZES["phone"])
    page.goto(reverse("character_sheet", args=[character.pk]))
    page.evaluate(POSTS)
    slow_link(page)
    for index, state in changes:  # the second pressed while the first is on its way
        page.locator(f"#equipment-state-{index}").select_option(state)
        page.locator(f"#equipment-change-{index}").click()
    states = _wait_states(character, dict(changes))
    assert [states[index] for index, _ in changes] == [state for _, state in changes]
    for index, _ in changes:
        expect(page.locator(f"#equipment-{index} .badge")).to_have_text(_badge(character, index))
        expect(page.locator(f"#equipment-change-{index}")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("[data-testid=equipment-error]")).to_have_count(0)
    assert page.evaluate("() => window.__posts") == 2  # each its own request
    assert Character.objects.get(pk=character.pk).version == v0 + 2
