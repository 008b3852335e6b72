"""The sheet's header (its links reversed once per character version) at a phone's and a laptop's
size, by keyboard; and a tab that missed a change shows the character as it is now when reloaded
(the rules answers are kept per version, never past it). Screenshots in test-artifacts/."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from characters.models import Character
from characters.versions import character_version_write
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.e2e.conftest import ARTIFACTS
from tests.vehicles import SLUGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("size", SIZES)
def test_the_header_s_links_work_by_keyboard_and_a_stale_tab_reloads_to_the_version_now(page_as, table, size):
    from playwright.sync_api import expect

    character = character_at_table(table, SLUGS[0])
    mine = page_as(table["player"], viewport=SIZES[size])
    other = page_as(table["player"], viewport=SIZES[size])  # a second tab of the same player
    sheet = reverse("character_sheet", args=[character.pk])
    for tab in (mine, other):
        tab.goto(sheet)
    assert mine.evaluate("() => document.scrollingElement.scrollWidth") <= SIZES[size]["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    mine.locator(".sheet-head").screenshot(path=str(ARTIFACTS / f"sheet-head-{size}.png"))

    # Keyboard only: Tab until the Ledger link has the focus, Enter opens the ledger.
    for _ in range(60):
        mine.keyboard.press("Tab")
        if mine.evaluate("() => document.activeElement.textContent.trim()") == "Ledger":
            break
    assert mine.evaluate("() => document.activeElement.getAttribute('href')") == reverse(
        "character_ledger", args=[character.pk]
    )
    mine.keyboard.press("Enter")
    mine.wait_for_url(f"**{reverse('character_ledger', args=[character.pk])}")
    for name in ("history", "play_log", "advancements"):
        href = other.locator(f".sheet-head a[href='{reverse(f'character_{name}', args=[character.pk])}']")
        expect(href).to_have_count(1)

    # A change the other tab never heard of (this test server has no websockets): reloaded, the
    # tab shows the version now and the change, not the answers kept for the version it had.
    version = other.locator("#sheet-version").get_attribute("data-version")
    with transaction.atomic():
        changed = Character.objects.select_for_update().get(pk=character.pk)
        changed.state = {**(changed.state or {}), "notes": "Owes the ferryman two coins"}
        character_version_write(character=changed, author=table["gm"], reason="notes", fields=["state"])
    other.reload()
    now = Character.objects.get(pk=character.pk).version
    assert int(version) + 1 == now
    expect(other.locator("#sheet-version")).to_have_attribute("data-version", str(now))
    expect(other.locator("#sheet")).to_contain_text("Owes the ferryman two coins")
    other.locator(".sheet-head").screenshot(path=str(ARTIFACTS / f"sheet-head-{size}-reloaded.png"))
