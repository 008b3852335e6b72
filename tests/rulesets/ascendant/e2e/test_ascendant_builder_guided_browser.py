"""An Ascendant character from scratch in the guided builder in a real browser (issue 13; moved from
tests/e2e/test_builder_guided_browser.py, which keeps the helpers): through the rulebook's creation
steps, with choices the rules forbid absent at each; leaves /tmp/builder-ascendant.png and -phone.png."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Character
from tests.e2e.test_builder_guided_browser import _expect, check, open_builder, pick, radio, shots, step_done

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_ascendant_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "ascendant")
    expect(page.get_by_test_id("verdict")).to_have_text("Not ready to submit yet")
    expect(page.get_by_role("button", name="Submit")).to_be_disabled()
    expect(page.locator("#sec-heritage")).to_contain_text("Choose an ancestry first")
    # 1. Ancestry, with each one's rules text in view.
    expect(page.locator("#sec-ancestry .choice-text").first).to_be_visible()
    radio(page, "#f-ancestry-human")
    step_done(page, "ancestry")
    # 2. Heritage: a human's only.
    expect(page.locator("#f-heritage-rock_dwarf")).to_have_count(0)
    expect(page.locator("#f-heritage-woodland_elf")).to_have_count(0)
    radio(page, "#f-heritage-skilled_human")
    # 3-4. Background, class.
    radio(page, "#f-background-scholar")
    radio(page, "#f-class-wizard")
    # 5. Boosts.
    for group, attrs in {
        "ancestry": ["int", "dex"],
        "background": ["int", "wis", "con"],
        "free": ["int", "dex", "con", "wis"],
    }.items():
        for a in attrs:
            check(page, f"#b-boosts-{group}-{a}")
    pick(page, "#f-boosts-class", "int")
    step_done(page, "boosts")
    # 6. Skills.
    for skill in ("society", "medicine", "nature"):
        pick(page, f"#f-skills-{skill}", "trained")
    # 7. Level 1's feats: no other ancestry's, none the heritage or background grants.
    ancestry_feats = page.locator("#f-levels-1-feats-ancestry option")
    expect(ancestry_feats.filter(has_text="Stonecunning")).to_have_count(0)
    expect(page.locator("#f-levels-1-feats-ancestry option[value='steady_hands']")).to_have_count(
        0
    )  # heritage's
    expect(page.locator("#f-levels-1-feats-general option[value='canny_acumen']")).to_have_count(
        0
    )  # scholar's
    expect(page.locator("#f-levels-1-feats-class option[value='power_attack']")).to_have_count(
        0
    )  # a fighter's
    for kind, feat in {
        "ancestry": "natural_ambition",
        "class": "reach_spell",
        "archetype": "linguist_dedication",
        "general": "toughness",
    }.items():
        pick(page, f"#f-levels-1-feats-{kind}", feat)
    step_done(page, "levels")
    expect(page.get_by_test_id("verdict")).to_contain_text("ready to submit")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    expect(page.get_by_role("button", name="Submit")).to_be_in_viewport()  # the sticky bar
    shots(page, "ascendant")
    # Autosaved all along: a reload shows the same build, and leaving with nothing unsaved is silent.
    character.refresh_from_db()
    assert character.build["levels"]["1"]["feats"]["general"] == "toughness"
    assert character.version > 10
    page.get_by_role("button", name="Submit").click()
    page.wait_for_url(f"**{reverse('character_sheet', args=[character.id])}")
    character.refresh_from_db()
    assert character.status == Character.Status.ACTIVE
