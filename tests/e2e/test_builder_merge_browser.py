"""One draft in two tabs, each ticking an entry of one list (issue 31): both entries land, and
"Reload with my changes" after a true conflict starts from the latest draft. Every case asserts what
the API says was saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from rulesets.engine import registry
from rulesets.engine.pointer import resolve
from tests import vehicles
from tests.factories import api_client, make_campaign, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SETTLED = (
    "() => !document.querySelector('#builder-form.htmx-request')"
    " && (!window.sfBuilder || window.sfBuilder.pending === 0)"
)


def _multi(rs):
    return next(
        (
            s
            for s in rs.traits(rs.context(None, None)).get("sections", [])
            if s.get("kind") == "multi" and len(s.get("options", [])) >= 2
        ),
        None,
    )


#: The first ruleset whose builder ticks entries of a list (its lores, say).
SLUG = vehicles.first(lambda rs: _multi(rs) is not None, "a ruleset with a list of ticked entries")
LIST = _multi(registry.get(SLUG))
FIRST, SECOND = (o["id"] for o in LIST["options"][:2])


def _expect():
    from playwright.sync_api import expect

    return expect


def _saved(player, character) -> dict:
    response = api_client(player).get(reverse("api-character-detail", args=[character.id]))
    assert response.status_code == 200
    return response.json()["build"]


def _tabs(page_as):
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player], name="Two tabs")
    character = character_create(campaign=campaign, owner=player, name="Two tabs")
    tabs = []
    for _ in range(2):
        tab = page_as(player)
        tab.goto(reverse("character_builder", args=[character.id]))
        tab.wait_for_function("() => window.htmx && window.sfBuilder")
        tabs.append(tab)
    return player, character, tabs


def _box(tab, entry: str):
    return tab.locator(f'#builder-form input[type=checkbox][name="{LIST["path"]}"][value="{entry}"]')


def _tick(tab, entry: str, name: str | None = None) -> None:
    """Tick ``entry`` (after typing ``name``: one autosave carries both) and wait for the answer."""
    with tab.expect_response(lambda r: r.request.method == "POST"):
        if name is not None:
            tab.locator('#builder-form input[name="/name"]').fill(name)
        _box(tab, entry).check()
    tab.wait_for_function(SETTLED)


def test_two_stale_tabs_tick_different_entries_and_both_land(page_as):
    expect = _expect()
    player, character, (tab_a, tab_b) = _tabs(page_as)
    _tick(tab_a, FIRST)
    assert resolve(_saved(player, character), LIST["path"]) == [FIRST]
    _tick(tab_b, SECOND)  # drawn before A's tick
    # Before: refused ("Lores is academia there, warfare here").
    expect(tab_b.get_by_test_id("save-state")).to_contain_text("Saved elsewhere too")
    expect(_box(tab_b, FIRST)).to_be_checked()
    expect(_box(tab_b, SECOND)).to_be_checked()
    assert resolve(_saved(player, character), LIST["path"]) == [FIRST, SECOND]


def test_reload_with_my_changes_keeps_the_other_tabs_entry(page_as):
    expect = _expect()
    player, character, (tab_a, tab_b) = _tabs(page_as)
    _tick(tab_a, FIRST, name="Ayla")
    _tick(tab_b, SECOND, name="Brannoc")  # the name: changed both ways, a true conflict
    expect(tab_b.get_by_test_id("save-state")).to_contain_text("Not saved")
    expect(tab_b.get_by_test_id("save-state")).to_contain_text("Name is Ayla there, Brannoc here")
    with tab_b.expect_navigation():
        tab_b.get_by_role("button", name="Reload with my changes").click()
    tab_b.wait_for_function("() => window.htmx && window.sfBuilder")
    # Before: the first entry unticked though the draft held it, and Save draft dropped it.
    expect(_box(tab_b, FIRST)).to_be_checked()
    expect(_box(tab_b, SECOND)).to_be_checked()
    expect(tab_b.locator('#builder-form input[name="/name"]')).to_have_value("Brannoc")
    expect(tab_b.get_by_test_id("save-state")).to_contain_text("as last saved")
    with tab_b.expect_navigation():
        tab_b.get_by_role("button", name="Save draft", exact=True).click()
    saved = _saved(player, character)
    assert (resolve(saved, LIST["path"]), saved["name"]) == ([FIRST, SECOND], "Brannoc")


def _items(rs):
    return next(
        (
            s
            for s in rs.traits(rs.context(None, None)).get("sections", [])
            if s.get("kind") == "items"
            and s.get("options")
            and any(rs.list_allows_duplicates(p) for p in [s["path"]])
        ),
        None,
    )


#: The first ruleset whose builder adds items to a list that may hold one item twice (its gear).
TWICE = vehicles.first(lambda rs: _items(rs) is not None, "a ruleset whose gear may hold an item twice")


def test_an_item_chosen_once_is_added_once_when_its_answer_is_not_drawn(page_as):
    """An item chosen in the add select, then the name typed while that autosave is on its way: the
    answer is not drawn (the person edited since), and the name's autosave leaves from the page as
    it is. Before: the select still held the item, so that save added it again; the server, which
    keeps what each side added where a list may hold two, made two of it, and (the first item
    wielded in the same arm twice) refused the save as breaking the rules: the name was
    not saved. An item that may be held twice would have been saved twice, silently."""
    from tests.e2e.conftest import hold_post_answers

    section = _items(registry.get(TWICE))
    item = section["options"][0]["id"]
    gm, player = make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset=TWICE, players=[player], name="One item")
    character = character_create(campaign=campaign, owner=player, name="One item")
    page = page_as(player)
    page.goto(reverse("character_builder", args=[character.id]))
    page.wait_for_function("() => window.htmx && window.sfBuilder")
    hold_post_answers(page, 1000)
    page.locator(f'#builder-form select[name="{section["path"]}/-"]').select_option(item)
    page.wait_for_function("() => document.querySelector('#builder-form.htmx-request')")  # on its way
    name = page.locator('#builder-form input[name="/name"]')
    name.fill("Carrier")
    name.dispatch_event("change")
    page.wait_for_function("() => (window.__heard || []).length >= 2", timeout=15_000)
    page.wait_for_function(SETTLED, timeout=15_000)
    saved = _saved(player, character)
    entries = [e for e in resolve(saved, section["path"]) or [] if e.get("item") == item]
    said = page.get_by_test_id("save-state").inner_text()
    assert (len(entries), saved["name"]) == (1, "Carrier"), said


def test_a_number_typed_again_while_its_save_is_out_is_saved_not_refused(page_as):
    """One page, one number typed, then typed again while that autosave's answer is held: the answer
    is not drawn (the person edited since), and the second autosave leaves from the page drawn before
    the first. The page's own earlier save is not another tab: the number typed last is saved, with
    no refusal and no "saved elsewhere"."""
    from tests.e2e.conftest import hold_post_answers
    from tests.e2e.test_builder_race_browser import _field, _roomy_stepper, _value

    gm, player = make_user(), make_user()
    slug = registry.slugs()[0]
    campaign = make_campaign(gm=gm, ruleset=slug, players=[player], name="Typed twice")
    character = character_create(campaign=campaign, owner=player, name="Typed twice")
    page = page_as(player)
    page.goto(reverse("character_builder", args=[character.id]))
    page.wait_for_function("() => window.htmx && window.sfBuilder")
    field, pointer = _field(page, _roomy_stepper(page, room=4))
    start = int(page.locator(f"#{field}").input_value() or 0)
    hold_post_answers(page, 1000)
    box = page.locator(f"#{field}")
    box.fill(str(start + 1))
    box.dispatch_event("change")
    page.wait_for_function("() => document.querySelector('#builder-form.htmx-request')")  # on its way
    box.fill(str(start + 3))
    box.dispatch_event("change")
    page.wait_for_function("() => (window.__heard || []).length >= 2", timeout=15_000)
    page.wait_for_function(SETTLED, timeout=15_000)
    said = page.get_by_test_id("save-state").inner_text()
    assert (_value(_saved(player, character), pointer), said) == (start + 3, "Saved.")
