"""One walk over every page of a ruleset's table, at a phone's size (390×844) and, each page resized
after, a laptop's (1280×900), shared by the tests that look at those pages: nothing sticks out
sideways on a phone (test_phone_every_page_browser), the layout of the play pages
(test_phone_screenshots_browser), the game's words only (test_sheet_play_browser,
test_every_page_words_browser at both sizes) and axe-core's serious and critical violations at both
sizes (test_sheet_play_browser). Each test still asserts what it did on the same pages; the pages are
opened once instead of once per test and size (~35 page loads and ~3 s of a core per ruleset and
test: issue #20; the laptop's own walk, ~7 s a ruleset: issue #33).

The first of those tests to ask for a ruleset walks it, on its own table, and the findings are kept
for the others of the package (``phone_walk`` and ``laptop_walk`` in tests/e2e/conftest.py); a test
run alone walks itself. What each page gets, in order: the load at a phone's size, htmx settled
(what ``hx-trigger="load"`` brings), its width and layout problems at the top, its text, its
screenshots (the play pages, with $SHOTS_DIR set), axe-core (the pages axe looks at); then resized to
a laptop's size, its text and axe-core again."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.e2e.conftest import SHOTS_DIR, painted, settled
from tests.e2e.test_sheet_play_browser import PHONE

#: Where the play pages' screenshots go: $SHOTS_DIR when it is set (a person looking at them),
#: else none are taken (~4 s of a core a ruleset that no assertion reads).
SHOTS = SHOTS_DIR

#: Elements past the right edge of the screen, outside any box that scrolls sideways by itself;
#: text wider than its own box; and visible controls smaller than 24×24 CSS px (WCAG 2.2 target size, minimum).
LAYOUT_PROBLEMS = """() => {
  const width = document.documentElement.clientWidth;
  const scrollsItself = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const s = getComputedStyle(p);
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') && p.clientWidth < p.scrollWidth + 1) return true;
    }
    return false;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const out = {pageWidth: document.documentElement.scrollWidth, width, overflow: [], small: []};
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.position === 'fixed') continue;
    if (el.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)')) continue;
    if (r.right > width + 1 && !scrollsItself(el)) out.overflow.push(name(el) + ' right=' + Math.round(r.right));
    // Text wider than its own box (written over its neighbours, or cut off).
    if (!el.children.length && el.textContent.trim() && s.display !== 'inline' && el.clientWidth > 0
        && !el.matches('input, select, textarea, option, svg *') && el.scrollWidth > el.clientWidth + 1) {
      out.overflow.push(name(el) + ' text ' + el.scrollWidth + '>' + el.clientWidth + ' "' + el.textContent.trim().slice(0, 30) + '"');
    }
    if (el.matches('button, select, input:not([type=hidden]), a.btn, summary') && (r.width < 24 || r.height < 24)
        && !el.closest('p, li, td, dd')) {
      out.small.push(name(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  out.overflow = out.overflow.slice(0, 12);
  out.small = out.small.slice(0, 12);
  return out;
}"""


def save_screenshots(page, slug: str, name: str) -> None:
    """$SHOTS_DIR/phone-<slug>-<name>.png, the whole page, and its first eight screenfuls
    (phone-<slug>-<name>-<n>.png), each as the phone shows it scrolled there (the last one ends at the
    page's foot): not clips of the full page, each of which drew the whole page again (0.7 s of CPU
    a page). The page is left at its top."""
    assert SHOTS is not None
    page.screenshot(path=str(SHOTS / f"phone-{slug}-{name}.png"), full_page=True)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    for n, top in enumerate(range(0, min(height, 8 * PHONE["height"]), PHONE["height"]), start=1):
        page.evaluate("top => window.scrollTo(0, top)", top)
        page.screenshot(path=str(SHOTS / f"phone-{slug}-{name}-{n}.png"))
    page.evaluate("() => window.scrollTo(0, 0)")


#: The play pages saved as screenshots and checked for layout (test_phone_screenshots_browser).
SCREENSHOT_PAGES = ("sheet", "builder", "advance", "campaign", "encounter")
#: The pages axe-core runs on, at a phone's size and a laptop's (test_sheet_play_browser).
AXE_PAGES = ("sheet", "builder", "campaign", "encounter")


@dataclass
class PhonePage:
    """What the walk found on one page."""

    status: int
    #: ``game_words``: one of the play or campaign pages the game-words test reads.
    game_words: bool
    #: LAYOUT_PROBLEMS's answer: pageWidth (the page's scrollWidth), width, overflow, small.
    layout: dict = field(default_factory=dict)
    #: Ids, codes, JSON pointers or file names in the page's text (test_sheet_play_browser._leaks).
    leaks: list[str] = field(default_factory=list)
    #: ``leaks`` and braces of JSON and dotted rules codes ("build.malformed"), the account page's
    #: API addresses aside (test_every_page_words_browser, issue #38).
    words: list[str] = field(default_factory=list)
    #: axe-core's serious and critical violations (AXE_PAGES only).
    axe: list[str] = field(default_factory=list)


def every_page(table, slug) -> tuple[dict[str, tuple], set[str]]:
    """(user, url) of every page of ``slug``'s table: the play pages, the campaign's pages, the
    account's, and a pending creation review's, each with rows in it; and the names of the play and
    campaign pages (what the game-words test reads)."""
    from characters.advancement import services as svc
    from characters.builder.services import character_create
    from characters.models import Advancement, Webhook
    from characters.sheet.services import character_roll
    from tests import vehicles
    from tests.e2e.test_sheet_play_browser import _campaign_pages_of, _pages_of
    from tests.factories import api_client

    pages = _pages_of(table, slug)
    character = character_at_table(table, slug)
    pages.update(_campaign_pages_of(table, character))
    game_words = set(pages)
    campaign = character.campaign
    ruleset = registry.get(slug)
    for currency in ruleset.awardable_currencies:
        svc.award_create(
            gm=table["gm"],
            character_id=character.pk,
            currency=currency,
            amount=3,
            reason="Session 2: the long night at the harbour, the lighthouse and the drowned bell",
        )
    campaign.settings = {**campaign.settings, "approve_new_characters": True}
    campaign.save(update_fields=["settings"])
    build = copy.deepcopy(BUILDS[slug])
    build["name"] = "Approve Me"
    pending = character_create(campaign=campaign, owner=table["player"], build=build)
    api_client(table["player"]).post(f"/api/v1/characters/{pending.id}/submit/", {}, format="json")
    review = Advancement.objects.get(character=pending)
    gm, player = table["gm"], table["player"]
    # A Discord hook with a roll waiting for it: the GM's webhooks block and its deliveries page.
    hook = Webhook.objects.create(
        campaign=campaign, url="https://discord.example/api/webhooks/1/abc", format="discord", created_by=gm
    )
    if vehicles.rollable(ruleset) is not None:
        character_roll(character_id=character.pk, user=player, rollable_id=vehicles.rollable(ruleset))
    pages.update(
        {
            "home": (player, reverse("home")),
            "home (GM)": (gm, reverse("home")),
            "account": (player, reverse("account")),
            "campaigns": (player, reverse("campaign_list")),
            "campaign (player)": (player, reverse("campaign_detail", args=[campaign.pk])),
            "campaign (GM)": (gm, reverse("campaign_detail", args=[campaign.pk])),
            "webhook deliveries": (gm, reverse("campaign_webhook", args=[campaign.pk, hook.pk])),
            "ledger": (player, reverse("character_ledger", args=[character.pk])),
            "ledger (GM)": (gm, reverse("character_ledger", args=[character.pk])),
            "requests": (player, reverse("character_advancements", args=[character.pk])),
            "request": (gm, reverse("advancement_detail", args=[review.pk])),
            "review": (gm, reverse("campaign_review", args=[campaign.pk])),
            "review queue": (gm, reverse("review_queue")),
            "awards": (gm, reverse("campaign_awards", args=[campaign.pk])),
            "encounters": (gm, reverse("encounter_list", args=[campaign.pk])),
            "pending builder": (player, reverse("character_builder", args=[pending.pk])),
            "history (GM)": (gm, reverse("character_history", args=[character.pk])),
            "rulesets": (player, reverse("rulesets:list")),
            "ruleset": (player, reverse("rulesets:detail", args=[slug])),
        }
    )
    if ruleset.activities():  # a game with activities between adventures: their page
        pages["between adventures"] = (player, reverse("character_activities", args=[character.pk]))
    return pages, game_words


def walk(tab_as, table, slug) -> dict[str, dict[str, PhonePage]]:
    """Open every page of ``slug``'s table once, one tab per person, and say what each holds at a
    phone's size (``"phone"``: its layout, text, screenshots and axe-core's findings) and, the same
    page resized to a laptop's 1280×900 (``"laptop"``), its text and axe-core's findings there: one
    load for both sizes (each page was loaded once per size before, ~7 s a ruleset more)."""
    from tests.e2e.test_sheet_play_browser import LAPTOP, axe_violations, leaks_in

    pages, game_words = every_page(table, slug)
    found: dict[str, dict[str, PhonePage]] = {"phone": {}, "laptop": {}}
    for name, (user, url) in pages.items():
        page = tab_as(user, viewport=PHONE)
        page.set_viewport_size(PHONE)  # the last page of this tab was left at a laptop's size
        response = page.goto(url)
        phone = found["phone"][name] = PhonePage(status=response.status, game_words=name in game_words)
        laptop = found["laptop"][name] = PhonePage(status=response.status, game_words=name in game_words)
        if response.status != 200:
            continue
        settled(page)
        phone.layout = page.evaluate(LAYOUT_PROBLEMS)
        text = page.locator("body").inner_text()
        phone.leaks, phone.words = leaks_in(text), leaks_in(text, strict=True)
        if SHOTS is not None and name in SCREENSHOT_PAGES:
            save_screenshots(page, slug, name)
        if name in AXE_PAGES:
            phone.axe = axe_violations(page)
        page.set_viewport_size(LAPTOP)
        painted(page)
        text = page.locator("body").inner_text()
        laptop.leaks, laptop.words = leaks_in(text), leaks_in(text, strict=True)
        if name in AXE_PAGES:
            laptop.axe = axe_violations(page)
    return found
