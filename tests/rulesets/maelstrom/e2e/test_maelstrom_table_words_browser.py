"""Maelstrom's words at the table, read as a person sees them (``innerText``) at a phone's size
(390×844) and a laptop's (1280×900), issue #38 point 4:

- a fresh build asks only for what a control does: "add 6 dots to physical attributes", and the +
  buttons beside it do it (it offered "or record the creation dots in a creation section", which the
  Creation dots section, a display, cannot do); the draft's sheet says the builder fixes its problems;
- the GM's party card names Health and Willpower once each (it said "Health Unhurt … Health 8 / 8"
  and "Willpower 4 … Willpower 3 / 4");
- on a phone the roll picker's "Intelligence" stays inside its chip (it ran to the chip's border)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]


def _ids(size):
    return f"{size['width']}x{size['height']}"


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_a_fresh_build_asks_for_dots_and_the_plus_buttons_add_them(page_as, table, size):
    from playwright.sync_api import expect

    from characters.models import Character
    from tests.characters.sheet.test_sheet_fixtures import character_at_table

    campaign = character_at_table(table, "maelstrom").campaign
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_create", args=[campaign.pk]))
    page.get_by_label("Name").fill("Blank")
    page.get_by_role("button", name="Start building").click()
    draft = Character.objects.get(name="Blank")
    page.wait_for_url(f"**/characters/{draft.pk}/build/")
    problem = page.locator("#builder-errors .issue-summary li").first
    text = page.inner_text("body")
    assert (
        "(physical is primary on a tie); add 6 dots to physical attributes and add 4 dots to mental attributes."
        in text
    )
    assert "creation section" not in text and "creation record" not in text and "record the" not in text
    creation = page.locator("#sec-creation").inner_text()
    assert "Worked out from the dots above: the cheapest legal allocation, as for a paper sheet." in creation
    assert "No creation dots recorded" not in creation

    # The control beside the message does what it says: six dots on physical attributes, and the
    # message asks for the mental ones only.
    for key in ("strength", "precision"):
        for dots in (2, 3, 4):
            page.locator(f"#f-attributes-{key}-raise").click()
            expect(page.locator(f"#f-attributes-{key}")).to_have_value(str(dots))
    expect(problem).to_contain_text("add 4 dots to mental attributes.")
    expect(problem).not_to_contain_text("physical attributes and")
    assert "add 6 dots to physical attributes" not in page.inner_text("#builder-errors")

    # The draft's sheet has no controls for its problems: it says where they are.
    page.goto(reverse("character_sheet", args=[draft.pk]))
    build = page.inner_text("#sheet-costs")
    assert re.search(
        r"Problems\s+Fix them in the builder\.\s+This sheet is not a legal Maelstrom creation", build
    )
    link = page.locator("#sheet-costs").get_by_role("link", name="the builder")
    assert link.get_attribute("href") == reverse("character_builder", args=[draft.pk])
    dice = page.inner_text("#sheet-rollables") + page.inner_text("#roll-result")
    assert "Roll a die above" not in dice
    assert "No rolls until the character is submitted." in dice and "No roll yet." in dice
    link.click()
    page.wait_for_url(f"**/characters/{draft.pk}/build/")


#: Each pool label of the party card, and the card, as boxes (CSS px).
POOL_BOXES = """card => [...card.querySelectorAll('.party-pool-label')].map(el => {
  const r = el.getBoundingClientRect(), c = card.getBoundingClientRect();
  return {text: el.innerText, left: r.left - c.left, right: c.right - r.right, top: r.top - c.top};
})"""


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_the_party_card_names_each_pool_once(page_as, table, size):
    from characters.sheet.services import character_state_action
    from tests.characters.sheet.test_sheet_fixtures import character_at_table

    kestrel = character_at_table(table, "maelstrom")
    # One willpower spent: the permanent 4 and the current 3 differ.
    character_state_action(
        character_id=kestrel.pk,
        user=table["player"],
        action={"action": "set", "path": "/willpower", "value": 3},
    )
    page = page_as(table["gm"], viewport=size)
    page.goto(reverse("campaign_party", args=[kestrel.campaign.pk]))
    card = page.locator(f"#party-character-{kestrel.pk}")
    text = " ".join(card.inner_text().split())
    assert "Wound penalty 0 Health Unhurt 8 / 8 Willpower 3 / 4" in text, text
    assert len(re.findall(r"\bHealth\b", text)) == 1, text
    assert len(re.findall(r"\bWillpower\b", text)) == 1, text
    boxes = card.evaluate(POOL_BOXES)
    assert [b["text"] for b in boxes] == ["Health Unhurt", "Willpower"]
    for box in boxes:  # each label inside its card, clear of its edges
        assert box["left"] >= 8 and box["right"] >= 8, box


#: Each attribute chip of the roll picker: where its name's glyphs are (a Range, not the element,
#: which may be narrower than its text), against the chip's box less its border and padding.
CHIP_BOXES = """() => [...document.querySelectorAll('.roll-pick-attributes .roll-chip')].map(chip => {
  const name = chip.querySelector('.roll-chip-text').firstChild, range = document.createRange();
  range.setStart(name, 0);
  range.setEnd(name, name.textContent.trimEnd().length);
  const t = range.getBoundingClientRect(), c = chip.getBoundingClientRect(), s = getComputedStyle(chip);
  const inner = c.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight);
  const card = chip.closest('.card').getBoundingClientRect();
  return {name: name.textContent.trim(), room: inner - t.right, width: c.width,
          inCard: t.left >= card.left + 8 && t.right <= card.right - 8};
})"""


@pytest.mark.parametrize("size", SIZES, ids=_ids)
def test_the_roll_pickers_attribute_names_fit_their_chips(page_as, table, size):
    from tests.characters.sheet.test_sheet_fixtures import character_at_table

    kestrel = character_at_table(table, "maelstrom")
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_sheet", args=[kestrel.pk]))
    chips = page.evaluate(CHIP_BOXES)
    assert [c["name"] for c in chips] == [
        "Strength",
        "Precision",
        "Reflexes",
        "Perception",
        "Intelligence",
        "Wits",
    ]
    for chip in chips:
        # Inside the chip's padding with room to spare (at 390 px "Intelligence" had 0.3 px to the border).
        assert chip["room"] >= 4, chip
        assert chip["inCard"], chip
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
