"""The homebrew editor and the ruleset reference page in a real browser, at a phone's size and a
laptop's, read as a person sees them (``innerText``): an entry's field error arrives at the field as
it is typed, the preview follows, the entry is added; no page shows a brace, a snake_case id or a code."""

from __future__ import annotations

import re

import pytest

from rulesets.engine import registry
from tests.characters.conftest import make_table
from tests.e2e.phone_walk import LAYOUT_PROBLEMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 390, "height": 844}, {"width": 1280, "height": 900}]
RAW = re.compile(r"[{}]|\b[a-z]+_[a-z0-9_]+\b|\b[a-z]+\.[a-z_]+\b|\.txt\b|(?<![\w)])/[a-z]+/")
#: The first ruleset a campaign can extend, and its first kind.
SLUG, KIND = next((r.slug, r.homebrew_kinds[0]) for r in registry.all_rulesets() if r.homebrew_kinds)


def _raw(text: str) -> list[str]:
    return sorted({m.group(0) for m in RAW.finditer(text)})


@pytest.mark.parametrize("size", SIZES, ids=["phone", "laptop"])
def test_the_editor_checks_as_it_is_typed_and_adds_the_entry(page_as, size):
    from playwright.sync_api import expect

    table = make_table(SLUG)
    form = registry.get(SLUG).entry_form(KIND)
    page = page_as(table.gm, viewport=size)
    page.goto(f"/campaigns/{table.campaign.id}/homebrew/{KIND}/new/")
    name = page.locator("#hb-f-name")
    name.fill("Moonlit Brew")
    expect(page.locator("#hb-preview")).to_contain_text("Moonlit Brew")
    name.fill("")
    expect(page.locator("#hb-f-name-err")).to_contain_text("name")
    expect(name).to_be_focused()  # the check swapped only the preview and the errors
    text = page.locator("main").inner_text()
    assert _raw(text) == [], _raw(text)
    layout = page.evaluate(LAYOUT_PROBLEMS)  # nothing past the screen's edge, no control under 24 px
    assert (layout["pageWidth"], layout["overflow"], layout["small"]) == (layout["width"], [], [])
    name.fill("Moonlit Brew")
    expect(page.locator("#hb-f-name-err")).to_have_text("")
    page.get_by_role("button", name=f"Add {form.one}").click()
    expect(page.get_by_text("Moonlit Brew added")).to_be_visible()
    text = page.locator("main").inner_text()
    assert "Moonlit Brew" in text and _raw(text) == [], _raw(text)
    table.campaign.refresh_from_db()
    assert [e["id"] for e in table.campaign.homebrew[KIND]] == ["moonlit_brew"]
    # The player reads it in words.
    player = page_as(table.player, viewport=size)
    player.goto(f"/campaigns/{table.campaign.id}/homebrew/")
    text = player.locator("main").inner_text()
    assert "Moonlit Brew" in text and "Only the GM can change it" in text and _raw(text) == [], _raw(text)


@pytest.mark.parametrize("size", SIZES, ids=["phone", "laptop"])
def test_every_reference_page_reads_in_words(page_as, size):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("reader", password="x-x-x-x-x-1")
    page = page_as(user, viewport=size)
    found = {}
    for ruleset in registry.all_rulesets():
        page.goto(f"/rulesets/{ruleset.slug}/")
        text = page.locator("main").inner_text()
        assert ruleset.name in text and "Catalogues" in text and "House rules" in text
        layout = page.evaluate(LAYOUT_PROBLEMS)
        assert layout["pageWidth"] == layout["width"] and layout["small"] == [], (ruleset.slug, layout)
        if _raw(text):
            found[ruleset.slug] = _raw(text)[:10]
    assert found == {}
