"""Keyboard and screen-reader play (#38), in Chromium, in every ruleset, on a phone (390×844) and a
laptop (1280×900): each page has one persistent polite live region (base.html #sf-status), present on
load and empty; after each keyboard action it holds the one sentence of what happened (read from
Chromium's accessibility tree, CDP ``Accessibility.getFullAXTree``), the focus is on the expected
control (never ``<body>``), and axe-core stays at 0 serious or critical violations after the swaps.
At 200 % zoom (640 CSS px) the builder's bottom bar never covers the focused field and the
encounter's GM forms do not overlap."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.e2e.conftest import painted
from tests.e2e.test_sheet_play_browser import SIZES, _pages_of, axe_violations
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ZOOMED = {"width": 640, "height": 450}  # a 1280×900 window at 200 %
FOCUSED_ID = "() => document.activeElement && document.activeElement.id"
ON_BODY = "() => !document.activeElement || document.activeElement === document.body"


def live_regions(page) -> list[dict]:
    """Every live region of the page as Chromium's accessibility tree has it: name, role, text."""
    cdp = page.context.new_cdp_session(page)
    nodes = cdp.send("Accessibility.getFullAXTree")["nodes"]
    cdp.detach()
    found = []
    for n in nodes:
        props = {p["name"]: p["value"].get("value") for p in n.get("properties", [])}
        # The region itself: a node whose live setting is its own (its children inherit "live" too).
        if props.get("live") in ("polite", "assertive") and props.get("liveRegionRoot") is None:
            found.append({"role": n.get("role", {}).get("value"), "live": props["live"]})
    return found


#: Counts what is on its way to the live region (``window.__saying``): each sentence from sfSay's
#: call until it is in the region (app.js fills it 50 ms after emptying it), and each swap from its
#: settle until app.js has collected what it says (its flush runs on a 0 ms timer). Installed once
#: per page, after app.js's own listeners and sfSay: each of these timers is set just after app.js's.
_COUNT_SAYING = """() => {
  if (window.__saying !== undefined) return;
  window.__saying = 0;
  const after = (ms) => { window.__saying += 1; setTimeout(() => { window.__saying -= 1; }, ms); };
  const say = window.sfSay;
  window.sfSay = function (text) { say(text); after(50); };
  document.addEventListener("htmx:afterSettle", () => after(0));
  document.addEventListener("htmx:oobAfterSwap", () => after(0));
}"""


def said(page) -> str:
    """The live region's text once it has settled: a sentence in it, none on its way, no request or
    swap under way that could bring another."""
    page.wait_for_function(
        """() => document.getElementById('sf-status').textContent.trim() !== ''
             && !window.__saying
             && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"""
    )
    return page.locator("#sf-status").evaluate("el => el.textContent")


def arm(page) -> None:
    """Empty the region before a keyboard action, so the next sentence is this action's own."""
    page.evaluate(_COUNT_SAYING)
    page.evaluate("() => { document.getElementById('sf-status').textContent = ''; }")


def region_on_load(page) -> None:
    region = page.locator("#sf-status")
    assert region.get_attribute("role") == "status" and region.get_attribute("aria-live") == "polite"
    assert region.evaluate("el => el.textContent") == ""
    # The one region: no block of the page is a polite or assertive live region of its own.
    others = page.evaluate(
        """() => Array.from(document.querySelectorAll('[aria-live], [role=status], [role=alert]'))
             .filter(el => el.id !== 'sf-status' && el.id !== 'table-feed-list').map(el => el.outerHTML.slice(0, 120))"""
    )
    assert others == [], others


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_sheet_says_each_change_once_and_keeps_the_focus(page_as, table, slug, size):
    """A pool's stepper pressed with Enter: the region says the new value ("… set to 1 (was 0)." or as
    the ruleset words it) once, the same as the sheet shows, and nothing else; the focus stays on the
    stepper. A roll with Enter: the region says its line once (the chart's name no longer repeats it).
    Each "Roll" button is named by what it rolls. axe stays at 0 after both swaps."""
    character = character_at_table(table, slug)
    page = page_as(table["player"], viewport=SIZES[size])
    page.goto(reverse("character_sheet", args=[character.pk]))
    region_on_load(page)

    # Names that say what they act on: every "Roll" button's name goes on with the roll's name.
    names = page.locator("button.sheet-roll-button[aria-labelledby]").evaluate_all(
        "els => els.map(el => el.getAttribute('aria-labelledby').split(' ').map(id => document.getElementById(id).textContent.trim()).join(' '))"
    )
    assert names and all(re.match(r"^Roll \S", n) for n in names), names

    stepper = page.locator("button.stepper:not([disabled])").first
    stepper.focus()
    arm(page)
    page.keyboard.press("Enter")
    sentence = said(page)
    shown = page.locator('[data-testid="state-message"]').inner_text().strip()
    assert sentence == shown and sentence.count(".") >= 1, (sentence, shown)
    assert page.evaluate(FOCUSED_ID) == stepper.get_attribute("id")
    assert axe_violations(page) == []

    roll = page.locator("button.sheet-roll-button:not([disabled])").first
    roll_id = roll.get_attribute("id")
    roll.focus()
    arm(page)
    page.keyboard.press("Enter")
    sentence = said(page)
    line = page.locator('[data-testid="roll-here"]').first.inner_text().strip()
    assert re.sub(r"\s+", " ", line) == sentence, (line, sentence)
    # The outcome is read once: the chart's name gives the odds, its caption is hidden from the tree.
    chart = page.locator(".roll-here svg[role=img]").first
    if chart.count():
        assert "Rolled" not in (chart.get_attribute("aria-label") or "")
        assert page.locator(".roll-here figcaption").first.get_attribute("aria-hidden") == "true"
    assert page.evaluate(FOCUSED_ID) == roll_id
    assert axe_violations(page) == []
    assert [r["role"] for r in live_regions(page)] == ["status"]


def _builder(page_as, table, slug, size):
    character = character_at_table(table, slug)
    draft = make_character(ruleset=slug, owner=table["player"], campaign=character.campaign, status="draft")
    page = page_as(table["player"], viewport=size)
    page.goto(reverse("character_builder", args=[draft.pk]))
    return page


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_builder_says_the_new_value_and_what_is_left_and_keeps_the_focus_at_the_minimum(
    page_as, table, slug, size
):
    """Pressing a stepper's "−" with Enter until it is disabled: after each press the region says the
    field's new value and each budget's remaining points, in a sentence, and not the verdict when it
    did not change; at the minimum the focus goes to the field's value (never the body). Then "+":
    the value goes up. axe stays at 0."""
    page = _builder(page_as, table, slug, SIZES[size])
    region_on_load(page)
    # The stepper closest to its minimum (a level of 1 from 20 would take long to walk down).
    lower_id = page.evaluate(
        """() => { let best = null, gap = Infinity;
             for (const b of document.querySelectorAll("button.step[id$='-lower']:not([disabled])")) {
               const f = document.getElementById(b.getAttribute('aria-controls'));
               const g = f && f.min !== '' ? Number(f.value) - Number(f.min) : 50;
               if (g < gap) { gap = g; best = b.id; } }
             return best; }"""
    )
    if not lower_id:
        pytest.skip(f"{slug}'s new draft has no stepper above its minimum")
    lower = page.locator(f"#{lower_id}")
    field_id = lower_id.removesuffix("-lower")
    label = page.locator(f"label[for='{field_id}']").inner_text().strip()
    verdict = page.locator("#builder-verdict").inner_text().strip()
    lower.focus()
    for _ in range(30):
        arm(page)
        page.keyboard.press("Enter")
        sentence = said(page)
        value = page.locator(f"#{field_id}").input_value()
        assert sentence.startswith(f"{label} {value}."), (sentence, label, value)
        for row in page.locator("#builder-costs .budget-row").all():
            remaining = row.locator("[data-testid^='remaining-']").inner_text().strip()
            assert remaining in sentence, (sentence, remaining)
        now = page.locator("#builder-verdict").inner_text().strip()
        if now == verdict:
            assert "ready to submit" not in sentence.lower() and "to fix" not in sentence, sentence
        verdict = now
        assert not page.evaluate(ON_BODY)
        if page.locator(f"#{lower_id}").is_disabled():
            break
    state = page.evaluate(
        f"() => [document.getElementById('{field_id}').value, document.getElementById('{field_id}').min, document.activeElement.id, document.getElementById('sf-status').textContent]"
    )
    assert page.locator(f"#{lower_id}").is_disabled(), state
    assert page.evaluate(FOCUSED_ID) in (field_id, f"{field_id}-raise")
    assert axe_violations(page) == []


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_at_200_percent_zoom_the_builders_bar_never_covers_the_focused_field(page_as, table, slug):
    """Tab through the builder's fields at 640×450 CSS px: each focused control's box ends above the
    fixed Save / Submit bar (WCAG 2.4.11)."""
    page = _builder(page_as, table, slug, ZOOMED)
    page.locator("#builder-form input:not([type=hidden]), #builder-form select").first.focus()
    covered = []
    for _ in range(25):
        box = page.evaluate(
            """() => { const el = document.activeElement, bar = document.getElementById('builder-actions');
                 if (!el || !bar || bar.contains(el)) return null;
                 const r = el.getBoundingClientRect();
                 return {id: el.id, bottom: r.bottom, top: r.top, bar: bar.getBoundingClientRect().top}; }"""
        )
        # A box taller than the room above the bar cannot be clear of it: its top must show.
        tall = box and box["bottom"] - box["top"] > box["bar"]
        if box and (box["top"] >= box["bar"] if tall else box["bottom"] > box["bar"] + 0.5):
            covered.append(box)
        page.keyboard.press("Tab")
        painted(page)  # the page has scrolled the focused field into view
    assert covered == []


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_at_200_percent_zoom_the_encounters_gm_forms_do_not_overlap(page_as, table, slug):
    """The GM's action forms, opened at 640 CSS px: no two of their controls' boxes overlap, and the
    forms stay inside the panel; an informational answer is not an assertive alert."""
    from combat import services as combat
    from combat.models import Encounter
    from combat.quick_builds import quick_build

    user, url = _pages_of(table, slug)["encounter"]
    encounter = Encounter.objects.latest("pk")
    for name in ("Raider", "Brute"):  # NPCs: the GM's forms act for them
        combat.encounter_add_combatant(
            encounter=encounter,
            user=user,
            name=name,
            build=quick_build(registry.get(slug), encounter.campaign),
        )
    page = page_as(user, viewport=ZOOMED)
    page.goto(url)
    gm = page.locator("#gm-actions")
    if gm.count():
        gm.evaluate("el => { el.open = true; }")
    page.evaluate('() => document.querySelectorAll("main details").forEach(d => { d.open = true; })')
    count = page.locator("#gm-actions button").count()
    overlaps = page.evaluate(
        """() => {
          const els = Array.from(document.querySelectorAll('main button, main select, main input:not([type=hidden]), main summary, main textarea'))
            .filter(el => el.getClientRects().length);
          // The part of each box that shows: clipped by every scrolling ancestor (a list that scrolls
          // inside its card hides what is scrolled off; that is not an overlap).
          const shown = el => {
            let r = el.getBoundingClientRect(), box = {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
            for (let a = el.parentElement; a; a = a.parentElement) {
              const cs = getComputedStyle(a);
              if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
              const c = a.getBoundingClientRect();
              box = {left: Math.max(box.left, c.left), right: Math.min(box.right, c.right),
                     top: Math.max(box.top, c.top), bottom: Math.min(box.bottom, c.bottom)};
            }
            return box;
          };
          const boxes = els.map(el => [el.id || el.name, shown(el)]).filter(([, r]) => r.right > r.left && r.bottom > r.top);
          const out = [];
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, r] = boxes[i], [b, s] = boxes[j];
            if (r.left < s.right - 1 && s.left < r.right - 1 && r.top < s.bottom - 1 && s.top < r.bottom - 1) out.push(a + ' / ' + b);
          }
          return out;
        }"""
    )
    assert overlaps == [], (count, overlaps)
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 1
    assert page.locator("#encounter-panel [role=alert]").count() == 0


def _party_table(slug):
    from tests.characters.party.helpers import make_party
    from tests.factories import make_user

    table = {name: make_user(name) for name in ("gm", "player", "other")}
    campaign, characters = make_party(table, slug, 3)
    return table, campaign, characters


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_party_page_says_the_applied_effect_and_the_odds_once_and_keeps_the_focus(
    browser,
    table_server,  # noqa: F811
    slug,
    size,
):
    """The GM, keyboard only: each card's toggle is named for its character ("Apply an effect to
    Ayla"); Enter on "Apply the effect" — the region says "Blessed is on Ayla." and the focus is on
    "Apply the effect" again (was <body>); "Who should roll?" with Enter — the region says every
    character's chance and the totals in one sentence, the focus stays on its button. axe stays at 0."""
    from tests.e2e.test_effects_form_browser import fill_custom_effect
    from tests.e2e.test_party_browser import _in_thread

    ruleset = registry.get(slug)
    table, campaign, characters = _in_thread(lambda: _party_table(slug))
    ayla = characters[0]
    context = _context_as(browser, table_server, table["gm"], viewport=SIZES[size])
    try:
        page = context.new_page()
        page.goto(f"/campaigns/{campaign.pk}/party/")
        page.wait_for_selector("#party-live[data-connected]", state="attached", timeout=20000)
        region_on_load(page)
        toggles = page.locator("details.effect-apply-open > summary").evaluate_all(
            "els => els.map(el => el.textContent.replace(/\\s+/g, ' ').trim())"
        )
        assert sorted(toggles) == sorted(f"Apply an effect to {c.name}" for c in characters)

        page.locator(f"#effect-apply-open-{ayla.pk} > summary").focus()
        page.keyboard.press("Enter")
        page.locator(f"#effect-apply-{ayla.pk}[data-testid=effect-apply]").wait_for(state="attached")
        form = page.locator(f"#effect-apply-{ayla.pk} form")
        keys = [k for k in ruleset.effect_keys if k not in ruleset.table_keys] or list(ruleset.effect_keys)
        if form.count() and keys:  # a ruleset with no roll keys offers no custom effect
            fill_custom_effect(form, ayla.pk, name="Blessed", key=keys[0], amount=1)
            button = f"effect-apply-button-{ayla.pk}"
            page.locator(f"#{button}").focus()
            arm(page)
            page.keyboard.press("Enter")
            assert said(page) == f"Blessed is on {ayla.name}."
            page.wait_for_function(
                f"() => document.activeElement && document.activeElement.id === '{button}'"
            )
            assert axe_violations(page) == []

        odds = page.locator("#party-odds button[type=submit]")
        if odds.count():
            odds.focus()
            arm(page)
            page.keyboard.press("Enter")
            sentence = said(page)
            label = page.locator("#party-odds-answer h3").evaluate("h => h.firstChild.textContent")
            any_one = page.locator("[data-testid=party-odds-any]").inner_text()
            assert sentence.startswith(label.strip()) and f"at least one succeeds {any_one}" in sentence
            assert all(
                c.name in sentence
                for c in characters
                if c.name in page.locator(".party-odds-list").inner_text()
            )
            assert not page.evaluate(ON_BODY)
            assert axe_violations(page) == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_confirmation_after_submit_is_said_once_by_the_region(page_as, table, slug, size):
    """Submit pressed with Enter on a valid draft: the page it lands on shows "… is submitted …" and the
    region says that sentence once (the messages block is not a live region of its own)."""
    page = _builder(page_as, table, slug, SIZES[size])
    submit = page.locator("#builder-actions button[name=_submit]")
    if submit.is_disabled():
        pytest.skip(f"{slug}'s test draft is not ready to submit")
    submit.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    shown = page.locator("#messages").inner_text().strip()
    assert "is submitted" in shown
    assert said(page) == re.sub(r"\s+", " ", shown)
    assert page.locator("#messages").get_attribute("aria-live") is None
    assert page.locator("#messages").get_attribute("role") is None
