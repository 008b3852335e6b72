"""Merges that keep both sides (issue 31): two tabs of one draft adding different entries to a list
both land; one entry both changed is refused in the game's words; a merge that breaks a rule neither
side broke (two tabs spending the same points) is refused and nothing is saved; "Reload with my
changes" starts from the latest draft, so the other tab's entries stay."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

from characters.builder.services import (
    character_create,
    character_save_draft,
    character_save_page_draft,
)
from characters.models import CharacterVersion
from config.errors import DraftConflict
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.conftest import BuilderSession, make_table, parse_html

pytestmark = pytest.mark.django_db


def _section(ruleset, kind, need=lambda s: True):
    for s in ruleset.traits(ruleset.context(None, None)).get("sections", []):
        if s.get("kind") == kind and need(s):
            return s
    return None


#: A ruleset whose builder ticks entries of a list (a "multi" section with two options or more).
MULTI = vehicles.first(
    lambda rs: (
        _section(rs, "multi", lambda s: len(s.get("options", [])) >= 2) is not None
        and isinstance(resolve(rs.blank_build("x"), _section(rs, "multi")["path"], None), list)
    ),
    "a ruleset with a list of ticked entries",
)
LIST = _section(registry.get(MULTI), "multi")
(FIRST, FIRST_NAME), (SECOND, SECOND_NAME) = [(o["id"], o["label"]) for o in LIST["options"][:2]]


def _state_field(s):
    return next(
        (
            f
            for f in s.get("entry_fields", [])
            if f.get("kind") == "choice" and len(f.get("options", [])) >= 3
        ),
        None,
    )


#: A ruleset whose builder's items have a state with three choices or more (an entry with a field).
ITEMS = vehicles.first(
    lambda rs: _section(rs, "items", lambda s: _state_field(s) is not None and s.get("options")) is not None,
    "a ruleset with items that have a state",
)
ITEM_SECTION = _section(registry.get(ITEMS), "items", lambda s: _state_field(s) is not None)
STATE = _state_field(ITEM_SECTION)

#: A ruleset with two numbers on a blank build (the tabs spend points on them).
NUMBERS = vehicles.first(
    lambda rs: len(vehicles.numbers_of(rs, rs.blank_build("x"))) >= 2, "a ruleset with two numbers"
)


def _with(build, path, value):
    build = copy.deepcopy(build)
    set_at(build, path, value)
    return build


# ------------------------------------------------------------------ the service


def test_two_stale_saves_of_different_entries_both_land():
    table = make_table(MULTI)
    c = character_create(campaign=table.campaign, owner=table.player, name="Two tabs")
    base = c.build
    # Tab A ticks the first entry (saved); tab B, drawn before it, ticks the second.
    character_save_page_draft(
        character_id=c.id,
        user=table.player,
        base_version=1,
        base_build=base,
        build=_with(base, LIST["path"], [FIRST]),
    )
    saved = character_save_page_draft(
        character_id=c.id,
        user=table.player,
        base_version=1,
        base_build=base,
        build=_with(base, LIST["path"], [SECOND]),
    )
    assert (saved.saved, saved.merged) == (True, True)
    c.refresh_from_db()
    assert resolve(c.build, LIST["path"]) == [FIRST, SECOND]
    assert c.version == 3


def test_one_entry_changed_both_ways_is_refused_and_nothing_is_saved():
    table = make_table(ITEMS)
    item = ITEM_SECTION["options"][0]["id"]
    a, b, c_state = (o["id"] for o in STATE["options"][:3])
    path, field = ITEM_SECTION["path"], STATE["id"]
    start = _with(registry.get(ITEMS).blank_build("Kit"), path, [{"item": item, field: a}])
    c = character_create(campaign=table.campaign, owner=table.player, name="Kit", build=start)
    base = c.build
    c = character_save_draft(
        character_id=c.id,
        user=table.player,
        version=1,
        build=_with(base, path, [{"item": item, field: b}]),
        autosave=True,
    )
    rows = CharacterVersion.objects.filter(character=c).count()
    with pytest.raises(DraftConflict) as caught:
        character_save_page_draft(
            character_id=c.id,
            user=table.player,
            base_version=1,
            base_build=base,
            build=_with(base, path, [{"item": item, field: c_state}]),
        )
    assert [
        (x["path"], x["entry"], x["mine"][field], x["theirs"][field]) for x in caught.value.conflicts
    ] == [(path, True, c_state, b)]
    c.refresh_from_db()
    assert (c.version, resolve(c.build, path)) == (2, [{"item": item, field: b}])
    assert CharacterVersion.objects.filter(character=c).count() == rows


def _two_spends(ruleset):
    """(budget, (pointer, value) of tab A, (pointer, value) of tab B): each raise alone fits the
    budget, both together spend more than it."""
    blank = ruleset.blank_build("Points")
    (one, was_one), (two, was_two) = vehicles.numbers_of(ruleset, blank)[:2]

    def spent(build):
        report = ruleset.validate(build)
        return {k: v for k, v in report.spent.items() if v}

    before = spent(blank)
    after_one, after_two = spent(_with(blank, one, was_one + 1)), spent(_with(blank, two, was_two + 1))
    currency = next(
        k for k in after_one if after_one[k] > before.get(k, 0) and after_two.get(k, 0) > before.get(k, 0)
    )
    budget = max(after_one[currency], after_two[currency])
    return {**blank.get("budget", {}), currency: budget}, (one, was_one + 1), (two, was_two + 1)


def test_a_merge_that_spends_the_same_points_twice_is_refused_in_words_and_nothing_saved():
    ruleset = registry.get(NUMBERS)
    budget, (one, v_one), (two, v_two) = _two_spends(ruleset)
    table = make_table(NUMBERS)
    c = character_create(campaign=table.campaign, owner=table.player, name="Points", budget=budget)
    base = c.build
    assert c.report["valid"] or not any(e["code"] == "budget.exceeded" for e in c.report["errors"])
    c = character_save_draft(
        character_id=c.id, user=table.player, version=1, build=_with(base, one, v_one), autosave=True
    )
    assert not any(e["code"] == "budget.exceeded" for e in c.report["errors"])
    with pytest.raises(DraftConflict) as caught:
        character_save_page_draft(
            character_id=c.id,
            user=table.player,
            base_version=1,
            base_build=base,
            build=_with(base, two, v_two),
        )
    assert caught.value.conflicts == []
    assert [p.split(" but ")[0].startswith("This build spends") for p in caught.value.problems] == [True]
    c.refresh_from_db()
    assert (c.version, resolve(c.build, one), resolve(c.build, two)) == (2, v_one, resolve(base, two))


# ------------------------------------------------------------------ the page


def _tabs(client, table, c):
    client.force_login(table.player)
    url = reverse("character_builder", args=[c.id])
    return BuilderSession(client, url), BuilderSession(client, url)


def test_the_page_two_stale_tabs_tick_different_entries_both_stay_ticked(client):
    table = make_table(MULTI)
    c = character_create(campaign=table.campaign, owner=table.player, name="Two tabs")
    tab_a, tab_b = _tabs(client, table, c)
    tab_a.check(LIST["path"], FIRST).change(("_autosave", "1"))
    response = tab_b.check(LIST["path"], SECOND).change(("_autosave", "1"))
    text = parse_html(response.content).text
    assert "Not saved" not in text
    assert "Saved elsewhere too" in text
    assert sorted(tab_b.get(LIST["path"])) == sorted([FIRST, SECOND])  # both ticked on B's page
    c.refresh_from_db()
    assert resolve(c.build, LIST["path"]) == [FIRST, SECOND]


def test_the_page_refuses_one_entry_changed_both_ways_in_the_games_words(client):
    table = make_table(ITEMS)
    option = ITEM_SECTION["options"][0]
    a, b, c_state = STATE["options"][:3]
    path, field = ITEM_SECTION["path"], STATE["id"]
    start = _with(registry.get(ITEMS).blank_build("Kit"), path, [{"item": option["id"], field: a["id"]}])
    c = character_create(campaign=table.campaign, owner=table.player, name="Kit", build=start)
    tab_a, tab_b = _tabs(client, table, c)
    tab_a.set(f"{path}/0/{field}", b["id"]).change(("_autosave", "1"))
    response = tab_b.set(f"{path}/0/{field}", c_state["id"]).change(("_autosave", "1"))
    text = " ".join(parse_html(response.content).text.split())
    assert (
        f"the same choices differ: {ITEM_SECTION['label']}: {option['label']} is "
        f"{b['label'].lower()} there, {c_state['label'].lower()} here."
    ) in text
    c.refresh_from_db()
    assert resolve(c.build, path) == [{"item": option["id"], field: b["id"]}]


def test_the_page_refuses_a_merge_over_budget_and_saves_nothing(client):
    ruleset = registry.get(NUMBERS)
    budget, (one, v_one), (two, v_two) = _two_spends(ruleset)
    table = make_table(NUMBERS)
    c = character_create(campaign=table.campaign, owner=table.player, name="Points", budget=budget)
    tab_a, tab_b = _tabs(client, table, c)
    tab_a.change(("_step", f"{one}|1"), ("_autosave", "1"))
    c.refresh_from_db()
    version = c.version
    response = tab_b.set(two, v_two).change(("_autosave", "1"))
    text = " ".join(parse_html(response.content).text.split())
    assert "your changes together with those break the rules: This build spends" in text
    c.refresh_from_db()
    assert (c.version, resolve(c.build, one), resolve(c.build, two)) == (version, v_one, v_two - 1)


def test_reload_with_my_changes_starts_from_the_latest_draft(client):
    """The issue's case: B's conflicting save, then "Reload with my changes", then Save draft: the
    entry A ticked stays (before: the page showed it unticked and the save dropped it)."""
    table = make_table(MULTI)
    c = character_create(campaign=table.campaign, owner=table.player, name="Rebase")
    tab_a, tab_b = _tabs(client, table, c)
    tab_a.check(LIST["path"], FIRST).set("/name", "Rebase A").change(("_autosave", "1"))
    response = tab_b.check(LIST["path"], SECOND).set("/name", "Rebase B").change(("_autosave", "1"))
    assert "Not saved" in parse_html(response.content).text  # the name: a true conflict
    response = tab_b.change(("_rebase", "1"))
    page = parse_html(response.content)
    assert "shows the draft as last saved" in page.text
    assert sorted(tab_b.get(LIST["path"])) == sorted([FIRST, SECOND])
    assert tab_b.get("/name") == ["Rebase B"]
    response = tab_b.press("_save")
    assert response.status_code == 302
    c.refresh_from_db()
    assert (resolve(c.build, LIST["path"]), c.build["name"]) == ([FIRST, SECOND], "Rebase B")


# ------------------------------------------------------------------ a page's own earlier saves


def test_a_page_is_never_in_conflict_with_its_own_earlier_save(client, django_capture_on_commit_callbacks):
    """The page typed a number, its autosave left; it typed again before that answer was drawn, so
    the second autosave leaves from the version the page was drawn at. Before: refused ("Not saved:
    … is 2 there, 3 here"), the person's own typing. Another page doing the same is still refused."""
    table = make_table(NUMBERS)
    c = character_create(campaign=table.campaign, owner=table.player, name="Typed")
    ((one, was),) = vehicles.numbers_of(registry.get(NUMBERS), c.build)[:1]
    client.force_login(table.player)
    url = reverse("character_builder", args=[c.id])
    page, other = BuilderSession(client, url), BuilderSession(client, url)
    page.set("_page", "page-one-token")
    other.set("_page", "page-two-token")
    drawn = list(page.fields)  # the page as drawn, before its first answer
    with django_capture_on_commit_callbacks(execute=True):
        page.set(one, was + 1).change(("_autosave", "1"))
    page.fields = [(k, v) for k, v in drawn if k != one] + [(one, str(was + 2))]  # answer not drawn
    with django_capture_on_commit_callbacks(execute=True):
        response = page.change(("_autosave", "1"))
    text = parse_html(response.content).text
    assert "Not saved" not in text and "Saved elsewhere" not in text
    c.refresh_from_db()
    assert (c.version, resolve(c.build, one)) == (3, was + 2)
    # Another page drawn at version 1, the same number: a true conflict, refused, nothing saved.
    response = other.set(one, was + 3).change(("_autosave", "1"))
    assert "Not saved" in parse_html(response.content).text
    c.refresh_from_db()
    assert (c.version, resolve(c.build, one)) == (3, was + 2)


def test_a_chain_with_another_pages_save_in_it_is_merged_as_before(django_capture_on_commit_callbacks):
    table = make_table(NUMBERS)
    c = character_create(campaign=table.campaign, owner=table.player, name="Chain")
    ((one, was),) = vehicles.numbers_of(registry.get(NUMBERS), c.build)[:1]
    base = c.build

    def save(value, page):
        with django_capture_on_commit_callbacks(execute=True):
            return character_save_page_draft(
                character_id=c.id,
                user=table.player,
                base_version=1,
                base_build=base,
                build=_with(base, one, value),
                page=page,
            )

    save(was + 1, "page-one-token")
    with pytest.raises(DraftConflict):  # version 2 is page one's, not page two's
        save(was + 2, "page-two-token")
    with pytest.raises(DraftConflict):  # a page without a token is any tab
        save(was + 2, "")
    saved = save(was + 2, "page-one-token")
    assert (saved.character.version, saved.merged, resolve(saved.character.build, one)) == (3, False, was + 2)
