"""Chancing an action at leisure in a real browser (RULES.md W4: "a chanced at leisure action cannot
be repeated"), the player at a phone's size (390×844) or a laptop's (1280×900) and the GM's sheet open
at the other: the odds before chancing, the mark live at the other browser, and the repeat refused in
words. Read as people read it (innerText)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.e2e.test_sheet_live_browser import LAPTOP, PHONE, _sheet
from tests.e2e.test_table_feed_browser import _context_as, table_server  # noqa: F401 (the fixture)
from tests.factories import make_campaign, make_user
from tests.rulesets.pando.test_pando_chanced import REFUSED
from tests.rulesets.pando.test_pando_dice import CHARLOTTE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": PHONE, "laptop": LAPTOP}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_chances_lockpicking_and_its_repeat_is_refused_in_words(browser, table_server, size):  # noqa: F811
    from playwright.sync_api import expect

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    charlotte = make_character(ruleset="pando", owner=player, campaign=campaign, build=CHARLOTTE)
    mine_context = _context_as(browser, table_server, player, viewport=SIZES[size])
    their_context = _context_as(
        browser, table_server, gm, viewport=SIZES["laptop" if size == "phone" else "phone"]
    )
    try:
        mine, theirs = _sheet(mine_context, charlotte), _sheet(their_context, charlotte)
        row = mine.locator("#rollable-skill-lockpicking")
        assert row.locator('[data-testid="chance-text-skill-lockpicking"]').inner_text() == (
            "At leisure: 3 EP for sure. Chanced (Coordination 3d6): more than 3 EP 0%, exactly 3 EP 12.5%, fewer 87.5%."
        )
        chance = row.get_by_role("button", name=re.compile(r"^Chance it Lockpicking"))
        box = chance.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= SIZES[size]["width"]
        chance.focus()
        mine.keyboard.press("Enter")
        expect(row.locator('[data-testid="roll-here"]')).to_contain_text("Rolled 3d6 against skill level 3")
        # This page, at once: no second chance, why in words, the result stays where it was asked,
        # and the focus on the same row's Roll (the disabled button cannot hold it).
        expect(mine.locator("#chance-btn-skill-lockpicking")).to_be_disabled()
        assert row.locator('[data-testid="chanced-skill-lockpicking"]').inner_text() == REFUSED
        expect(row.locator('[data-testid="roll-here"]')).to_contain_text("Rolled 3d6 against skill level 3")
        expect(mine.locator("#roll-btn-skill-lockpicking")).to_be_focused()
        leisure = mine.locator('#state-leisure li[data-id="lockpicking"]')
        expect(leisure).to_contain_text("chanced: not until time passes")

        # The other browser at the table follows live: the mark, in words, and no second chance.
        marked = theirs.locator('[data-testid="chanced-skill-lockpicking"]')
        expect(marked).to_be_visible()
        assert marked.inner_text() == REFUSED
        expect(theirs.locator("#chance-btn-skill-lockpicking")).to_be_disabled()

        # The same action at leisure, from the Play block's form: refused in words, nothing taken.
        form = mine.locator('form[data-action="take_at_leisure"]')
        form.get_by_label("Skill").select_option(label="Lockpicking — 3 EP")
        form.get_by_role("button", name="Take it at leisure").click()
        error = mine.locator('[data-testid="state-error"]')
        expect(error).to_be_visible()
        assert error.inner_text() == REFUSED
        assert mine.locator('[data-testid="chanced-skill-lockpicking"]').inner_text() == REFUSED
        expect(mine.locator("#chance-btn-skill-lockpicking")).to_be_disabled()
        assert "lockpicking" not in mine.locator("#sheet-rollables").inner_text()  # words, never an id
    finally:
        mine_context.close()
        their_context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_double_click_on_chance_it_on_a_slow_link_is_one_chanced_roll_whose_result_stays(
    browser,
    table_server,  # noqa: F811
    size,
):
    """A double click is one intent (issue #19's rule for what cannot be repeated): on a 300 ms link
    the second click of "Chance it" landed while the first was on its way, was refused ("cannot be
    repeated") and its refusal replaced the roll the player had just made. One roll, its result shown,
    the mark saved once."""
    from playwright.sync_api import expect

    from characters.models import Character, RollLog
    from tests.e2e.conftest import slow_link

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    charlotte = make_character(ruleset="pando", owner=player, campaign=campaign, build=CHARLOTTE)
    version = Character.objects.get(pk=charlotte.pk).version
    context = _context_as(browser, table_server, player, viewport=SIZES[size])
    try:
        page = _sheet(context, charlotte)
        slow_link(page, 300)
        row = page.locator("#rollable-skill-lockpicking")
        row.get_by_role("button", name=re.compile(r"^Chance it Lockpicking")).dblclick()
        here = row.locator("#roll-here-skill-lockpicking")
        expect(here.locator('[data-testid="roll-here"]')).to_contain_text("Rolled 3d6 against skill level 3")
        expect(page.locator('#state-leisure li[data-id="lockpicking"]')).to_contain_text(
            "chanced: not until time passes"
        )
        # Both clicks' answers are in (the page's own requests all answered) and the result still stands.
        page.wait_for_function("() => !document.querySelector('.htmx-request')")
        assert REFUSED not in here.inner_text()
        assert RollLog.objects.filter(character=charlotte).count() == 1
        saved = Character.objects.get(pk=charlotte.pk)
        assert saved.state["chanced"] == ["lockpicking"] and saved.version == version + 1
    finally:
        context.close()
