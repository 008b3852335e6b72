"""Maelstrom's roll picker on a phone (390×844), in a real browser: pick the attribute and the
ability, see the odds follow, roll; the result shows inside the viewport, under the button, and the
focus stays on each control used."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import RollLog
from characters.sheet.selectors import PICKED
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import ARTIFACTS, keep_screenshot, painted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _arm_settle(page) -> None:
    page.evaluate("""() => { window.__settled = new Promise(resolve => document.addEventListener(
        'htmx:afterSettle', () => setTimeout(resolve, 150), {once: true})); }""")


def _place(page) -> dict:
    return page.evaluate(
        "() => ({y: window.scrollY, id: document.activeElement && document.activeElement.id})"
    )


def _use(page, locator, act) -> None:
    """Bring ``locator`` to mid-screen, use it (``act``), wait for htmx to settle; the page did not
    jump and the focus is still on the control."""
    control_id = locator.get_attribute("id")
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    painted(page)
    _arm_settle(page)
    before = _place(page)
    act()
    page.evaluate("() => window.__settled")
    after = _place(page)
    assert abs(after["y"] - before["y"]) < 50, (control_id, before, after)
    assert after["id"] == control_id, (control_id, after)


def test_a_maelstrom_roll_through_the_picker_shows_its_result_in_view_and_keeps_focus(page_as, table):
    from playwright.sync_api import expect

    character = character_at_table(table, "maelstrom")
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_sheet", args=[character.pk]))
    odds = page.locator('[data-testid="roll-odds"]')
    expect(odds).to_contain_text("Odds of Intelligence + Investigation")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#sheet-rollables").screenshot(path=str(ARTIFACTS / "roll-picker-maelstrom-dice-block.png"))

    precision = page.locator("#roll-pick-attr-precision")
    _use(page, precision, lambda: precision.check())
    expect(odds).to_contain_text("Odds of Precision + Investigation")

    ability = page.locator("#roll-pick-ability")
    # A tap on a select focuses it before a choice is made in the phone's picker.
    _use(page, ability, lambda: (ability.focus(), ability.select_option("firearms")))
    expect(odds).to_contain_text("Odds of Precision + Firearms")
    # Firearms has no specialty on this sheet; the boxes were redrawn for it (its advanced ones).
    expect(
        page.locator('#roll-pick-specialties input[name="in_required"][value="Extreme Range"]')
    ).to_have_count(1)
    expect(
        page.locator('#roll-pick-specialties input[name="in_specialties"][value="Forensics"]')
    ).to_have_count(0)

    roll = page.locator(f"#roll-btn-{PICKED}")
    _use(page, roll, lambda: roll.click())
    result = page.locator(f'#roll-here-{PICKED} [data-testid="roll-here"]')
    expect(result).to_be_visible()
    box = result.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= PHONE["height"], box
    log = RollLog.objects.get(character=character)
    assert log.label == "Precision + Firearms" and log.request == {"pool": 4, "difficulty": 6, "threshold": 0}
    assert log.result["odds"] == registry.get("maelstrom").odds(log.request)
    keep_screenshot(page, "roll-picker-maelstrom-phone", full_page=False)
