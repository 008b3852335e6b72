"""The sheet at the table, in a real browser, at a phone's size (390×844) and a laptop's (1280×900),
in every ruleset: a tap keeps the player's place and focus, the pages speak the game's words only,
and axe-core finds no serious or critical accessibility violation.

axe-core is vendored (tests/e2e/vendor/axe.min.js, MPL-2.0) and evaluated through Playwright, so the
pages run under their own Content-Security-Policy (the conftest fails a test on any violation).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.e2e.conftest import ARTIFACTS, keep_screenshot, painted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
SIZES = {"phone": PHONE, "laptop": LAPTOP}
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"


SNAKE_ID = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
JSON_POINTER = re.compile(r"(?<![\w.:/])/[a-z_]+(?:/[a-z0-9_]+)+")
ERROR_CODE = re.compile(r"\b[a-z]+\.[a-z]+_[a-z_]+\b")
FILE_NAME = re.compile(r"\b[\w/]+\.(?:py|txt|json|html)\b")
#: A rules code ("build.malformed", "skill.unknown"): two lower-case words joined by a dot, not part
#: of an address ("discord.example/api", "sheetforge.build/1") nor an abbreviation ("e.g.").
DOTTED_CODE = re.compile(r"(?<![\w./@:-])[a-z]{2,}\.[a-z_]{3,}\b(?![./\w-])")
#: JSON or a raw dict in the text: a brace.
BRACE = re.compile(r"[{}]")
#: A key's abbreviation cased as a word ("Tn: 12", "Td:", "Dc"), dice as "D6": a key shown as it is.
MISCASED = re.compile(r"\b[A-Z][b-df-hj-np-tv-xz]:|\bD(?:4|6|8|10|12|20|100)\b")


def _arm_settle(page) -> None:
    """Before a tap: a promise that resolves once htmx has settled the swap it causes."""
    page.evaluate("""() => { window.__settled = new Promise(resolve => document.addEventListener(
        'htmx:afterSettle', () => setTimeout(resolve, 150), {once: true})); }""")


def _wait_settled(page) -> None:
    page.evaluate("() => window.__settled")


def _place(page) -> dict:
    return page.evaluate(
        "() => ({y: window.scrollY, id: document.activeElement && document.activeElement.id})"
    )


def fill_play_action(page, slug: str):
    """Fill the sheet's form of the ruleset's first ``play_actions`` (one the rules accept on a fresh
    character: rulesets/engine/examples.py) with its values; the form, to submit."""
    fields = dict(registry.get(slug).contract_data()["play_actions"][0])
    form = page.locator(f'#sheet-state form[data-action="{fields.pop("action")}"]').first
    for name, value in fields.items():
        field = form.locator(f'[name="{name}"]')
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    return form


def _tap_and_check(page, locator, *, fill=None) -> None:
    """Scroll ``locator`` to mid-screen, use it (click, or type a value and press Enter), and assert
    the page did not move by 50 px or more and the focus is on the control of the same id."""
    control_id = locator.get_attribute("id")
    assert control_id, "every control a swap replaces has a stable id"
    locator.evaluate("el => el.scrollIntoView({block: 'center'})")
    painted(page)
    _arm_settle(page)
    before = _place(page)
    if fill is None:
        locator.click()
    else:
        locator.fill(fill)
        locator.press("Enter")
    _wait_settled(page)
    after = _place(page)
    assert abs(after["y"] - before["y"]) < 50, (control_id, before, after)
    assert after["id"] == control_id, (control_id, after)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_a_tap_on_the_sheet_keeps_the_players_place_and_focus(page_as, table, slug, size):
    from playwright.sync_api import expect

    character = character_at_table(table, slug)
    page = page_as(table["player"], viewport=SIZES[size])
    page.goto(reverse("character_sheet", args=[character.pk]))
    version = page.locator("#sheet-version")

    # A stepper: a real button, labelled by what it does; its step is a new version.
    stepper = page.locator("button.stepper:not([disabled])").first
    expect(stepper).to_have_attribute("aria-label", re.compile(r"^(Lower|Raise) .+ by 1$"))
    _tap_and_check(page, stepper)
    expect(version).to_have_text("· version 3")

    # Typing a number in a pool and pressing Enter: the field keeps the focus.
    typed = page.locator(".state-pool-controls input[type=number]").first
    _tap_and_check(page, typed, fill=typed.input_value())

    # A play-state change from a section's form: the ruleset's first ``play_actions``, one the rules
    # accept on a fresh character (rulesets/engine/examples.py).
    form = fill_play_action(page, slug)
    _tap_and_check(page, form.locator("button[type=submit]"))
    expect(page.locator('[data-testid="state-message"]')).to_be_visible()
    expect(page.locator('[data-testid="state-error"]')).to_have_count(0)

    # A roll: the page stays, the focus stays on the Roll button.
    _tap_and_check(page, page.locator("button.sheet-roll-button:not([disabled])").first)
    expect(page.locator('[data-testid="roll-outcome"]')).to_be_visible()

    if size == "phone":
        ARTIFACTS.mkdir(exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        keep_screenshot(page, f"sheet-{slug}", full_page=False)
        keep_screenshot(page, f"sheet-{slug}-phone-full")


def _ticks(ruleset) -> bool:
    """Whether the ruleset's builder has checkboxes (a tree of skills, a list to pick several from)."""
    return any(s.get("kind") in ("tree", "multi") for s in ruleset.traits(ruleset.context())["sections"])


@pytest.mark.parametrize("slug", vehicles.every(_ticks))
def test_a_checkbox_on_the_advance_page_keeps_the_place_and_focus(page_as, table, slug):
    character = character_at_table(table, slug)
    page = page_as(table["player"], viewport=PHONE)
    page.goto(reverse("character_advance", args=[character.pk]))
    box = page.locator("form[hx-post] input[type=checkbox][id]:not([disabled])").first
    _tap_and_check(page, box)


def _pages_of(table, slug) -> dict[str, tuple]:
    """Every page a player or GM of ``slug`` reads: (user, url)."""
    from combat import services as combat

    character = character_at_table(table, slug)
    draft = make_character(ruleset=slug, owner=table["player"], campaign=character.campaign, status="draft")
    encounter = combat.encounter_create(
        campaign=character.campaign, user=table["gm"], name="Ambush at the ford"
    )
    combat.encounter_add_combatant(encounter=encounter, user=table["gm"], character=character)
    combat.encounter_start(encounter=encounter, user=table["gm"])
    return {
        "sheet": (table["player"], reverse("character_sheet", args=[character.pk])),
        "advance": (table["player"], reverse("character_advance", args=[character.pk])),
        "builder": (table["player"], reverse("character_builder", args=[draft.pk])),
        "campaign": (table["gm"], reverse("campaign_detail", args=[character.campaign.pk])),
        "review": (table["gm"], reverse("campaign_review", args=[character.campaign.pk])),
        "encounter": (table["gm"], reverse("encounter_detail", args=[encounter.pk])),
    }


def _campaign_pages_of(table, character) -> dict[str, tuple]:
    """The campaign's other pages a player or GM reads: new character, import, homebrew, house rules,
    the NPC library and a new NPC, the ruleset's own page, history and play log, new campaign."""
    campaign = character.campaign
    return {
        "new character": (table["player"], reverse("character_create", args=[campaign.pk])),
        "import": (table["player"], reverse("character_import", args=[campaign.pk])),
        "homebrew": (table["gm"], reverse("campaign_homebrew", args=[campaign.pk])),
        "house rules": (table["gm"], reverse("campaign_settings", args=[campaign.pk])),
        "NPC library": (table["gm"], reverse("npc_library", args=[campaign.pk])),
        "new NPC": (table["gm"], reverse("npc_new", args=[campaign.pk])),
        "history": (table["player"], reverse("character_history", args=[character.pk])),
        "play log": (table["player"], reverse("character_play_log", args=[character.pk])),
        "new campaign": (table["gm"], reverse("campaign_create")),
        "join": (table["player"], reverse("campaign_join")),
    }


def _leaks(page, *, strict: bool = False) -> list[str]:
    """Ids, codes, JSON pointers, file names and miscased keys in the page's text; ``strict`` (issue
    #38's walk, tests/e2e/test_every_page_words_browser.py) adds braces of JSON and dotted rules codes."""
    return leaks_in(page.locator("body").inner_text(), strict=strict)


def leaks_in(text: str, *, strict: bool = False) -> list[str]:
    """``_leaks`` of a page's text already read (``innerText``)."""
    found = (
        SNAKE_ID.findall(text)
        + JSON_POINTER.findall(text)
        + ERROR_CODE.findall(text)
        + FILE_NAME.findall(text)
        + MISCASED.findall(text)
    )
    if strict:
        found = [f for f in found if not f.startswith("/api/")]  # the account page's API doors
        found += DOTTED_CODE.findall(text)
        found += [text[max(0, m.start() - 20) : m.end() + 20] for m in BRACE.finditer(text)]
    return sorted(set(found))


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_players_read_game_words_only_on_every_page(phone_walk, slug):
    """The play pages and the campaign's, at a phone's size (the phone walk, tests/e2e/phone_walk.py)."""
    found = {}
    for name, seen in phone_walk(slug).items():
        if not seen.game_words:
            continue
        assert seen.status == 200, (name, seen.status)
        if seen.leaks:
            found[name] = seen.leaks
    assert found == {}, found


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_refusals_on_the_homebrew_and_import_pages_speak_game_words(page_as, table, slug):
    """What a GM or player reads when homebrew or an import is refused: where, in words, and why —
    no JSON pointer, no error code, no snake_case."""
    from playwright.sync_api import expect

    character = character_at_table(table, slug)
    campaign = character.campaign
    found = {}

    page = page_as(table["gm"], viewport=PHONE)
    homebrew = {
        "homebrew entries refused": '[{"id": "Two Words", "name": "Bad"}, {"id": "brew"}, {"name": "No id"}]',
        "homebrew not JSON": '[{"id": "plain"',
    }
    # A ruleset that takes no homebrew (its homebrew_kinds are empty) has no box to refuse.
    for name, text in homebrew.items() if registry.get(slug).homebrew_kinds else ():
        page.goto(reverse("campaign_homebrew", args=[campaign.pk]))
        page.locator("details.hb-advanced summary").first.click()  # the advanced door: a kind's JSON
        page.locator("textarea[name^=kind-]").first.fill(text)
        page.locator("details.hb-advanced").first.get_by_role("button", name=re.compile("^Import ")).click()
        issues = page.locator("#homebrew-issues li")
        expect(issues.first).to_be_visible()
        label = page.locator("section.homebrew-kind h2").first.evaluate(
            "h => h.firstChild.textContent.trim()"
        )
        # Where each problem is, in words: the kind and the entry ("Skills, entry 1, id"), or the kind.
        expect(issues.first).to_contain_text(re.compile(rf"^{re.escape(label)}(, entry 1, id)?: "))
        if leaks := _leaks(page):
            found[name] = leaks
    page.context.close()

    other = next(s for s in registry.SYSTEMS if s != slug)
    page = page_as(table["player"], viewport=PHONE)
    for name, document in {
        "import of another ruleset": f'{{"format": "sheetforge.build/0", "ruleset": "{other}"}}',
        "import without a ruleset": "{}",
        "import of a list": "[1, 2]",
    }.items():
        page.goto(reverse("character_import", args=[campaign.pk]))
        page.get_by_label("…or paste the JSON").fill(document)
        page.get_by_role("button", name="Import").click()
        expect(page.locator("#import-errors")).to_be_visible()
        if leaks := _leaks(page):
            found[name] = leaks
    page.context.close()
    assert found == {}, found


@functools.cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def axe_violations(page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, one line each."""
    # Through the DevTools protocol: not an inline script, the page's CSP allows it. Once per
    # document: a page checked again after a swap has it still (~0.1-0.3 s to read in again).
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source())
    # resultTypes: the violations whole, one node of the rest (the passes are not read): axe's own
    # advice for speed, ~10 % of a run here.
    return page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations'], runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ' ×' + v.nodes.length + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
    }""")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_axe_finds_no_serious_or_critical_violation(phone_walk, laptop_walk, slug, size):
    """The sheet, the builder, the campaign and the encounter, at each size: the walk
    (tests/e2e/phone_walk.py) runs axe as it opens them, and again resized to a laptop's size."""
    from tests.e2e.phone_walk import AXE_PAGES

    seen = (phone_walk if size == "phone" else laptop_walk)(slug)
    assert all(seen[name].status == 200 for name in AXE_PAGES), {n: seen[n].status for n in AXE_PAGES}
    found = {name: seen[name].axe for name in AXE_PAGES if seen[name].axe}
    assert found == {}, found
