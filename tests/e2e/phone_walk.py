"""One walk over every page of a ruleset's table at a phone's size (390×844), shared by the tests
that look at those pages on a phone: nothing sticks out sideways (test_phone_every_page_browser),
the layout and the screenshots of the play pages (test_phone_screenshots_browser), the game's words
only (test_sheet_play_browser) and axe-core's serious and critical violations at a phone's size (the
same). Each test still asserts what it did on the same pages; the pages are opened once instead of
four times (~35 page loads and ~3 s of a core per ruleset and test: issue #20).

The first of those tests to ask for a ruleset walks it, on its own table, and the findings are kept
for the others of the package (``phone_walk`` in tests/e2e/conftest.py); a test run alone walks
itself. What each page gets, in order: the load, htmx settled (what ``hx-trigger="load"`` brings),
its width and layout problems at the top, its text, its screenshots (the play pages), axe-core (the
pages axe looks at)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.urls import reverse

from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.e2e.conftest import settled

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
    scroll_width: int = 0
    #: LAYOUT_PROBLEMS's answer: pageWidth, width, overflow, small.
    layout: dict = field(default_factory=dict)
    #: Ids, codes, JSON pointers or file names in the page's text (test_sheet_play_browser._leaks).
    leaks: list[str] = field(default_factory=list)
    #: axe-core's serious and critical violations (AXE_PAGES only).
    axe: list[str] = field(default_factory=list)


def every_page(table, slug) -> tuple[dict[str, tuple], set[str]]:
    """(user, url) of every page of ``slug``'s table: the play pages, the campaign's pages, the
    account's, and a pending creation review's, each with rows in it; and the names of the play and
    campaign pages (what the game-words test reads)."""
    from characters.advancement import services as svc
    from characters.builder.services import character_create
    from characters.models import Advancement
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
    pages.update(
        {
            "home": (player, reverse("home")),
            "home (GM)": (gm, reverse("home")),
            "account": (player, reverse("account")),
            "campaigns": (player, reverse("campaign_list")),
            "campaign (player)": (player, reverse("campaign_detail", args=[campaign.pk])),
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
    return pages, game_words


def walk(tab_as, table, slug) -> dict[str, PhonePage]:
    """Open every page of ``slug``'s table at a phone's size, one tab per person, and say what each holds."""
    from tests.e2e.test_phone_screenshots_browser import LAYOUT_PROBLEMS, save_screenshots
    from tests.e2e.test_sheet_play_browser import PHONE, _leaks, axe_violations

    pages, game_words = every_page(table, slug)
    found: dict[str, PhonePage] = {}
    for name, (user, url) in pages.items():
        page = tab_as(user, viewport=PHONE)
        response = page.goto(url)
        seen = found[name] = PhonePage(status=response.status, game_words=name in game_words)
        if response.status != 200:
            continue
        settled(page)
        seen.scroll_width = page.evaluate("() => document.scrollingElement.scrollWidth")
        seen.layout = page.evaluate(LAYOUT_PROBLEMS)
        seen.leaks = _leaks(page)
        if name in SCREENSHOT_PAGES:
            save_screenshots(page, slug, name)
        if name in AXE_PAGES:
            seen.axe = axe_violations(page)
    return found
