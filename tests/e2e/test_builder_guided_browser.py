"""The guided builder in a real browser (issue 13), one ruleset each: a character from scratch
through the rulebook's creation steps; at each step some choices the rules forbid are absent.
Each run leaves /tmp/builder-<slug>.png (desktop) and /tmp/builder-<slug>-phone.png (390×844)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from characters.models import Character
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _expect():
    from playwright.sync_api import expect

    return expect


def open_builder(page_as, slug, **options):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name=f"{slug} table")
    character = character_create(campaign=campaign, owner=player, name="Newcomer")
    page = page_as(player, **options)
    page.goto(reverse("character_builder", args=[character.id]))
    return page, character


def posted(page, action):
    """Do ``action`` and wait for the builder's (debounced) update to land."""
    with page.expect_response(lambda r: r.request.method == "POST"):
        action()
    page.wait_for_function("() => !document.querySelector('#builder-form.htmx-request')")


def type_number(page, selector, value):
    posted(
        page,
        lambda: (page.locator(selector).fill(str(value)), page.locator(selector).dispatch_event("change")),
    )
    _expect()(page.locator(selector)).to_have_value(str(value))


def pick(page, selector, value):
    posted(page, lambda: page.locator(selector).select_option(value))


def radio(page, selector):
    posted(page, lambda: page.locator(selector).check())


def check(page, selector):
    posted(page, lambda: page.locator(selector).check())


def step_done(page, step):
    _expect()(page.locator(f"#step-{step} .step-title")).to_contain_text("✓ complete")


def shots(page, slug):
    """The builder from its top, at 1280×900 and at 390×844 (a phone)."""
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=f"/tmp/builder-{slug}.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"/tmp/builder-{slug}-phone.png")
    page.set_viewport_size({"width": 1280, "height": 900})


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


def test_ourdnd_step_by_step(page_as):
    expect = _expect()
    page, character = open_builder(page_as, "ourdnd")
    for stat in ("str", "con", "cha"):
        type_number(page, f"#f-stats-{stat}", 2)
    step_done(page, "stats")
    posted(page, lambda: page.get_by_role("button", name="Raise Hearts").click())
    expect(page.get_by_test_id("over-points")).to_have_text("3 points over")
    expect(page.locator("#builder-costs .budget-row.over")).to_have_count(1)
    expect(page.get_by_role("button", name="Submit")).to_be_disabled()
    posted(page, lambda: page.get_by_role("button", name="Lower Hearts").click())
    pick(page, "#f-gear--", "sword")
    expect(page.get_by_role("button", name="Submit")).to_be_enabled()
    shots(page, "ourdnd")


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
