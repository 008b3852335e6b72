"""The "Apply an effect" form in a real browser, on a phone (390×844) and a laptop (1280×900), with the
keyboard: a player opens it on their own sheet, makes an effect without JSON ("+1 … to every roll"),
sees it listed in words, has a refusal said in the form with what they typed kept, and removes the
effect; nothing scrolls sideways and the place on the page is kept. The GM's form on the encounter
page fits the phone too. The ruleset is the registry's first with combat: the test names none."""

from __future__ import annotations

import random

import pytest

from characters.models import Character
from combat import services as combat
from combat.quick_builds import quick_build
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.conftest import ARTIFACTS, painted, settled
from tests.e2e.test_effects_browser import plugin_server  # noqa: F401  (a fixture)
from tests.e2e.test_table_feed_browser import _context_as
from tests.factories import make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def _slug() -> str:
    for slug in registry.SYSTEMS:
        try:
            registry.get(slug).combat()
        except NotImplementedError:
            continue
        return slug
    pytest.skip("no registered ruleset has combat rules")


def _key(ruleset) -> str:
    keys = [k for k in ruleset.effect_keys if k not in ruleset.table_keys] or list(ruleset.effect_keys)
    return keys[0]


def fill_custom_effect(form, character_id: int, *, name: str, key: str, amount: int) -> None:
    """Make an effect in ``form`` (character ``character_id``'s "Apply an effect"): ``amount`` to
    ``key`` on every roll, named ``name``; not yet applied."""
    form.locator(f"#effect-{character_id}-custom").check()
    form.locator(f"#effect-name-{character_id}").fill(name)
    form.locator(f"#effect-what-{character_id}-0").select_option(f"key:{key}")
    form.locator(f"#effect-amount-{character_id}-0").fill(str(amount))


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}])
def test_a_player_makes_an_effect_with_the_keyboard_sees_it_in_words_and_removes_it(
    browser,
    plugin_server,  # noqa: F811
    viewport,
):
    from playwright.sync_api import expect

    slug = _slug()
    ruleset = registry.get(slug)
    gm, player = make_user("gina"), make_user("pat")
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player])
    ayla = make_character(ruleset=slug, owner=player, campaign=campaign)
    Character.objects.filter(pk=ayla.pk).update(name="Ayla")
    e = combat.encounter_create(campaign=campaign, user=gm, name="Bridge")
    combat.encounter_add_combatant(encounter=e, user=gm, character=ayla)
    combat.encounter_add_combatant(encounter=e, user=gm, name="Raider", build=quick_build(ruleset, campaign))
    combat.encounter_start(encounter=e, user=gm, roller=Roller(random.Random(3)))
    key = _key(ruleset)
    context = _context_as(browser, plugin_server, player, viewport=viewport)
    gm_context = _context_as(browser, plugin_server, gm, viewport=viewport)
    try:
        page = context.new_page()
        page.goto(f"/characters/{ayla.pk}/")
        expect(page.locator("textarea[name=changes], textarea[name=effect]")).to_have_count(0)
        summary = page.locator(f"#effect-apply-open-{ayla.pk} > summary")
        summary.focus()
        page.keyboard.press("Enter")
        form = page.locator(f"#effect-apply-{ayla.pk} form")
        expect(form).to_be_visible()
        custom = form.locator(f"#effect-{ayla.pk}-custom")
        if ruleset.effect_catalogue(None):  # nothing picked yet: only what is needed shows
            expect(form.locator(".effect-custom")).to_be_hidden()
        custom.focus()
        page.keyboard.press("Space")
        expect(custom).to_be_checked()
        expect(form.locator(".effect-custom")).to_be_visible()
        expect(form.locator(".effect-value")).to_be_hidden()
        # A running encounter: its rounds and its combatants' turns are offered.
        expect(form.locator(f"#effect-duration-{ayla.pk}-rounds")).to_be_visible()
        expect(form.locator(f"#effect-duration-{ayla.pk}-turn")).to_be_visible()
        form.locator(f"#effect-name-{ayla.pk}").fill("Blessed")
        form.locator(f"#effect-what-{ayla.pk}-0").select_option(f"key:{key}")
        amount = form.locator(f"#effect-amount-{ayla.pk}-0")
        amount.fill("1")
        where = f"() => document.getElementById('effect-amount-{ayla.pk}-0').getBoundingClientRect().top"
        before = page.evaluate(where)
        amount.press("Enter")
        done = page.locator(f"#effect-apply-{ayla.pk} [data-testid=effect-done]")
        expect(done).to_have_text(f"Blessed is on {'Ayla'}.")
        listed = page.locator(f"#character-effects-{ayla.pk}")
        expect(listed).to_contain_text(f"+1 {ruleset.label(key)} to every roll")
        expect(listed).to_contain_text("until removed")
        # The list above grew by one; the field the player pressed Enter in stays where it was on the screen.
        settled(page)
        painted(page)
        assert abs(page.evaluate(where) - before) < 4, "the form moved on the screen"
        assert page.evaluate("() => document.activeElement && document.activeElement.id") in (
            f"effect-amount-{ayla.pk}-0",
            f"effect-apply-button-{ayla.pk}",
        )
        assert [x["name"] for x in fx.active_entries(Character.objects.get(pk=ayla.pk).state)] == ["Blessed"]

        # A refusal: said in the form, in the game's words; what was typed stays; nothing changes.
        form = page.locator(f"#effect-apply-{ayla.pk} form")
        fill_custom_effect(form, ayla.pk, name="Cursed", key=key, amount=0)
        form.locator(f"#effect-apply-button-{ayla.pk}").click()
        error = page.locator(f"#effect-apply-{ayla.pk} [data-testid=effect-error]")
        expect(error).to_contain_text("a change of 0 changes nothing")
        expect(error).to_contain_text("Nothing was changed.")
        expect(page.locator(f"#effect-name-{ayla.pk}")).to_have_value("Cursed")
        assert [x["name"] for x in fx.active_entries(Character.objects.get(pk=ayla.pk).state)] == ["Blessed"]
        assert page.evaluate(SIDEWAYS) <= 0, "the sheet scrolls sideways"
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#sheet-conditions").screenshot(
            path=str(ARTIFACTS / f"effects-form-{viewport['width']}.png")
        )

        # Removing it.
        listed.get_by_role("button", name="Remove Blessed").click()
        expect(listed).to_contain_text("No effects on Ayla.")
        assert fx.active_entries(Character.objects.get(pk=ayla.pk).state) == []

        # The GM's form on the encounter page fits the screen too.
        board = gm_context.new_page()
        board.goto(f"/encounters/{e.pk}/")
        section = board.locator("#encounter-effects")
        expect(section).to_be_visible()
        section.locator("#encounter-effect-custom").check()
        expect(section.locator(".effect-custom")).to_be_visible()
        assert board.evaluate(SIDEWAYS) <= 0, "the encounter page scrolls sideways"
        section.screenshot(path=str(ARTIFACTS / f"effects-encounter-form-{viewport['width']}.png"))
    finally:
        context.close()
        gm_context.close()
