"""One draft in two tabs: a stale page's save merges its own changes onto the latest draft or says
why it cannot; the API's stale PUT stays a 409; autosaves keep the history short (issues 18, 19)."""

from __future__ import annotations

import copy
from unittest import mock

import pytest
from django.urls import reverse

from characters.builder import services
from characters.builder.forms.fields import html_id
from characters.builder.services import (
    character_create,
    character_draft_base,
    character_save_draft,
    character_save_page_draft,
)
from characters.diff import build_merge
from characters.models import CharacterVersion
from config.errors import DraftConflict
from rulesets.engine import registry
from rulesets.engine.lists import entry_key, pointer_matches
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.conftest import BuilderSession, make_table, parse_html
from tests.factories import api_client

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ the merge itself


def test_disjoint_changes_merge():
    base = {"attributes": {"strength": 1, "agility": 1}, "skills": [], "name": "A"}
    mine = {"attributes": {"strength": 1, "agility": 2}, "skills": [], "name": "A"}
    theirs = {"attributes": {"strength": 3, "agility": 1}, "skills": ["melee"], "name": "A"}
    merged, conflicts = build_merge(base, mine, theirs)
    assert conflicts == []
    assert merged == {"attributes": {"strength": 3, "agility": 2}, "skills": ["melee"], "name": "A"}


def test_the_same_trait_changed_differently_is_a_conflict_and_keeps_theirs():
    base = {"attributes": {"strength": 1}, "skills": []}
    mine = {"attributes": {"strength": 2}, "skills": ["blades"]}
    theirs = {"attributes": {"strength": 4}, "skills": ["melee"]}
    merged, conflicts = build_merge(base, mine, theirs)
    # The scalar both changed is a conflict; the list both added to is not (issue 31).
    assert [(c["path"], c["mine"], c["theirs"]) for c in conflicts] == [("/attributes/strength", 2, 4)]
    assert merged == {"attributes": {"strength": 4}, "skills": ["melee", "blades"]}
    # The rebase ("Reload with my changes") keeps the page's value where both changed one.
    rebased, _ = build_merge(base, mine, theirs, prefer_mine=True)
    assert rebased == {"attributes": {"strength": 2}, "skills": ["melee", "blades"]}


class _TwoDaggers:
    """A ruleset's answers where /gear may hold one item twice (Ruleset.duplicate_lists)."""

    def list_entry_key(self, path, entry):
        return entry_key(entry)

    def list_allows_duplicates(self, path):
        return path == "/gear"


D, S, K = {"item": "dagger"}, {"item": "sword"}, {"item": "kit"}

#: base, mine (the stale page), theirs (the latest), lists, merged, conflicts as (path, base, mine, theirs).
MERGE_TABLE = [
    # Two tabs adding different entries: both land, theirs first.
    (
        {"lores": []},
        {"lores": ["warfare"]},
        {"lores": ["academia"]},
        None,
        {"lores": ["academia", "warfare"]},
        [],
    ),
    # A list one side does not have yet.
    ({}, {"lores": ["warfare"]}, {"lores": ["academia"]}, None, {"lores": ["academia", "warfare"]}, []),
    # The same entry added on both sides: once where the list holds an entry once...
    ({"lores": []}, {"lores": ["academia"]}, {"lores": ["academia"]}, None, {"lores": ["academia"]}, []),
    ({"gear": []}, {"gear": [D]}, {"gear": [D]}, None, {"gear": [D]}, []),
    # ...twice where the ruleset lets one entry be held twice (each side added one).
    ({"gear": []}, {"gear": [D]}, {"gear": [D]}, _TwoDaggers(), {"gear": [D, D]}, []),
    # One side removes an entry, the other adds one: both happen.
    ({"lores": ["a", "b"]}, {"lores": ["b"]}, {"lores": ["a", "b", "c"]}, None, {"lores": ["b", "c"]}, []),
    # Both remove one dagger of two: one is removed (the same change), even where two are allowed.
    ({"gear": [D, D]}, {"gear": [D]}, {"gear": [D]}, _TwoDaggers(), {"gear": [D]}, []),
    # Entries by catalogue id: the same item changed on two fields merges field by field.
    (
        {"gear": [{"item": "bow", "state": "carried", "n": 1}, K]},
        {"gear": [{"item": "bow", "state": "held", "n": 1}, K]},
        {"gear": [S, {"item": "bow", "state": "carried", "n": 2}, K]},
        None,
        {"gear": [S, {"item": "bow", "state": "held", "n": 2}, K]},
        [],
    ),
    # Records by what they are called: two specialties of one ability are two entries.
    (
        {"specialties": []},
        {"specialties": [{"ability": "firearms", "name": "Pistols"}]},
        {"specialties": [{"ability": "firearms", "name": "Rifles"}]},
        None,
        {
            "specialties": [
                {"ability": "firearms", "name": "Rifles"},
                {"ability": "firearms", "name": "Pistols"},
            ]
        },
        [],
    ),
    # A record renamed in place (its name typed on) is that record changed: with the other side's
    # new record, both; renamed both ways (a page's save of the name half-typed, then the whole
    # name from the page drawn before it), one record changed both ways, not two records.
    (
        {"specialties": [{"ability": "firearms", "name": "Pi"}]},
        {"specialties": [{"ability": "firearms", "name": "Pistols"}]},
        {"specialties": [{"ability": "firearms", "name": "Pi"}, {"ability": "athletics", "name": "Dodge"}]},
        None,
        {
            "specialties": [
                {"ability": "firearms", "name": "Pistols"},
                {"ability": "athletics", "name": "Dodge"},
            ]
        },
        [],
    ),
    (
        {"specialties": [{"ability": "firearms", "name": "Pi"}]},
        {"specialties": [{"ability": "firearms", "name": "Pistols"}]},
        {"specialties": [{"ability": "firearms", "name": "Pis"}]},
        None,
        {"specialties": [{"ability": "firearms", "name": "Pis"}]},
        [
            (
                "/specialties",
                {"ability": "firearms", "name": "Pi"},
                {"ability": "firearms", "name": "Pistols"},
                {"ability": "firearms", "name": "Pis"},
            )
        ],
    ),
    # A level's choices: a list inside the levels' object.
    (
        {"levels": {"3": {"feats": {"general": ["a"]}}}},
        {"levels": {"3": {"feats": {"general": ["a", "b"]}}}},
        {"levels": {"3": {"feats": {"general": ["a", "c"]}}}},
        None,
        {"levels": {"3": {"feats": {"general": ["a", "c", "b"]}}}},
        [],
    ),
    # A true conflict: both changed one entry's field differently. Theirs kept, the entry named.
    (
        {"gear": [{"item": "bow", "state": "carried"}]},
        {"gear": [{"item": "bow", "state": "held"}]},
        {"gear": [{"item": "bow", "state": "worn"}]},
        None,
        {"gear": [{"item": "bow", "state": "worn"}]},
        [
            (
                "/gear",
                {"item": "bow", "state": "carried"},
                {"item": "bow", "state": "held"},
                {"item": "bow", "state": "worn"},
            )
        ],
    ),
    # Removed on one side, changed on the other: a conflict too.
    (
        {"gear": [{"item": "bow", "state": "carried"}]},
        {"gear": []},
        {"gear": [{"item": "bow", "state": "worn"}]},
        None,
        {"gear": [{"item": "bow", "state": "worn"}]},
        [("/gear", {"item": "bow", "state": "carried"}, None, {"item": "bow", "state": "worn"})],
    ),
    # Scalars keep their rule: one side's change wins, both's different change is a conflict.
    (
        {"level": 1, "lores": []},
        {"level": 2, "lores": []},
        {"level": 1, "lores": ["x"]},
        None,
        {"level": 2, "lores": ["x"]},
        [],
    ),
    ({"level": 1}, {"level": 2}, {"level": 3}, None, {"level": 3}, [("/level", 1, 2, 3)]),
    # A list on one side and a single value on the other is one trait changed both ways.
    ({"g": "a"}, {"g": ["a", "b"]}, {"g": "c"}, None, {"g": "c"}, [("/g", "a", ["a", "b"], "c")]),
]


@pytest.mark.parametrize(("base", "mine", "theirs", "lists", "merged", "conflicts"), MERGE_TABLE)
def test_the_merge_table(base, mine, theirs, lists, merged, conflicts):
    got, found = build_merge(base, mine, theirs, lists=lists)
    assert got == merged
    assert [(c["path"], c["base"], c["mine"], c["theirs"]) for c in found] == conflicts


def test_the_engine_default_holds_an_entry_once_and_a_ruleset_may_allow_two():
    plain = registry.all_rulesets()[0]
    assert plain.list_allows_duplicates("/anything") is ("/anything" in type(plain).duplicate_lists)
    assert entry_key({"item": "dagger", "state": "held"}) == entry_key({"item": "dagger"})
    assert entry_key({"ability": "a", "name": "Pistols"}) != entry_key({"ability": "a", "name": "Rifles"})
    assert entry_key("warfare") != entry_key("academia")
    assert pointer_matches("/levels/*/feats/general", "/levels/3/feats/general")
    assert not pointer_matches("/levels/*/feats/general", "/levels/3/feats")
    # Every ruleset that declares a list where one entry may be held twice names a list its
    # builder edits (a typo would silently hold entries once).
    for ruleset in registry.all_rulesets():
        paths = [s["path"] for s in ruleset.traits(ruleset.context(None, None)).get("sections", [])]
        for pattern in ruleset.duplicate_lists:
            assert any(pointer_matches(pattern, p) for p in paths), (ruleset.slug, pattern)


def test_the_same_change_on_both_sides_and_absent_versus_empty_are_no_conflict():
    base = {"abilities": {}, "notes": "x"}
    mine = {"notes": "y"}  # a form leaves out an empty rank object
    theirs = {"abilities": {}, "notes": "y"}
    assert build_merge(base, mine, theirs) == ({"abilities": {}, "notes": "y"}, [])
    # A key removed on one side, untouched on the other, is removed.
    assert build_merge({"a": 1, "b": 2}, {"a": 1}, {"a": 5, "b": 2}) == ({"a": 5}, [])


# ------------------------------------------------------------------ the services


#: The registry's first ruleset with two numbers on a blank build, each with room for two more,
#: and with a sheet character whose first number takes one more (the tabs raise them).
SLUG = vehicles.first(
    lambda rs: (
        len(vehicles.numbers_of(rs, rs.blank_build("Two tabs"))) >= 2
        and vehicles.numbers_of(rs, vehicles.sheet_build(rs), room=1)
    ),
    "a ruleset with two numbers on a blank build",
)
(STR, STR_WAS), (COORD, COORD_WAS) = vehicles.numbers_of(
    registry.get(SLUG), registry.get(SLUG).blank_build("x")
)[:2]


def _with(build, path, value):
    build = copy.deepcopy(build)
    set_at(build, path, value)
    return build


def _raised(character, path, value):
    build = copy.deepcopy(character.build)
    set_at(build, path, value)
    return build


def test_a_stale_page_save_merges_disjoint_traits():
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Two tabs")
    base_version, base_build = c.version, c.build  # tab B drew version 1
    c = character_save_draft(
        character_id=c.id, user=table.player, version=1, build=_raised(c, STR, STR_WAS + 2), autosave=True
    )
    saved = character_save_page_draft(
        character_id=c.id,
        user=table.player,
        base_version=base_version,
        base_build=base_build,
        build=_with(base_build, COORD, COORD_WAS + 1),
    )
    assert (saved.saved, saved.merged) == (True, True)
    assert (
        resolve(saved.character.build, STR) == STR_WAS + 2
        and resolve(saved.character.build, COORD) == COORD_WAS + 1
    )


def test_a_page_save_stores_the_build_once_and_answers_its_report():
    """The page's save works out the stored build (``stored_build``) once and validates it once,
    and answers with a ``PageSave``: what it wrote, whether it merged, the saved build's report
    (before: ``stored_build`` ran twice, and the answer was the model with attributes attached)."""
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Once")
    with (
        mock.patch.object(services, "stored_build", wraps=services.stored_build) as stored,
        mock.patch.object(services, "character_validate", wraps=services.character_validate) as validated,
    ):
        saved = character_save_page_draft(
            character_id=c.id,
            user=table.player,
            base_version=c.version,
            base_build=c.build,
            build=_with(c.build, COORD, COORD_WAS + 1),
        )
    assert (stored.call_count, validated.call_count) == (1, 1)
    assert isinstance(saved, services.PageSave)
    assert (saved.saved, saved.merged, saved.character.version) == (True, False, c.version + 1)
    assert saved.report is not None and saved.report.as_dict() == saved.character.report
    assert resolve(saved.character.build, COORD) == COORD_WAS + 1
    # Nothing changed: nothing written, no report.
    again = character_save_page_draft(
        character_id=c.id,
        user=table.player,
        base_version=saved.character.version,
        base_build=saved.character.build,
        build=saved.character.build,
    )
    assert (again.saved, again.report, again.character.version) == (False, None, c.version + 1)


def test_a_stale_page_save_of_the_same_trait_is_refused_and_writes_nothing():
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Two tabs")
    base_build = c.build
    c = character_save_draft(
        character_id=c.id, user=table.player, version=1, build=_raised(c, STR, STR_WAS + 2), autosave=True
    )
    rows = CharacterVersion.objects.filter(character=c).count()
    with pytest.raises(DraftConflict) as caught:
        character_save_page_draft(
            character_id=c.id,
            user=table.player,
            base_version=1,
            base_build=base_build,
            build=_with(base_build, STR, STR_WAS + 1),
        )
    assert caught.value.conflicts[0]["path"] == STR
    assert caught.value.current_version == 2
    c.refresh_from_db()
    assert (c.version, resolve(c.build, STR)) == (2, STR_WAS + 2)
    assert CharacterVersion.objects.filter(character=c).count() == rows


def test_a_page_older_than_the_kept_autosaves_is_refused_not_merged_blindly():
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Old tab")
    assert character_draft_base(character=c, version=1) == c.build
    assert character_draft_base(character=c, version=99) is None
    with pytest.raises(DraftConflict):
        character_save_page_draft(
            character_id=c.id, user=table.player, base_version=99, base_build=None, build=c.build
        )


# ------------------------------------------------------------------ the API keeps its 409


def test_a_stale_put_draft_is_a_409_with_the_current_version():
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Api")
    api = api_client(table.player)
    url = reverse("api-character-draft", args=[c.id])
    assert (
        api.put(url, {"version": 1, "build": _raised(c, STR, STR_WAS + 1)}, format="json").status_code == 200
    )
    response = api.put(url, {"version": 1, "build": _raised(c, COORD, COORD_WAS + 1)}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert "version 2" in body["detail"]
    assert body["errors"][0]["current"] == 2 and body["errors"][0]["field"] == "version"
    detail = api.get(reverse("api-character-detail", args=[c.id])).json()
    assert resolve(detail["build"], STR) == STR_WAS + 1 and resolve(detail["build"], COORD) == COORD_WAS


# ------------------------------------------------------------------ the builder page


def test_check_on_a_stale_page_shows_the_other_tabs_values_under_the_latest_version(client):
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Check")
    client.force_login(table.player)
    tab_b = BuilderSession(client, reverse("character_builder", args=[c.id]))  # drawn at version 1
    tab_a = BuilderSession(client, reverse("character_builder", args=[c.id]))
    for _ in range(2):
        tab_a.change(("_step", f"{STR}|1"), ("_autosave", "1"))
    c.refresh_from_db()
    assert resolve(c.build, STR) == STR_WAS + 2
    # Tab B presses Check (a plain post), then raises the other number.
    response = tab_b.change(("_check", "1"), htmx=False)
    assert response.status_code == 200
    root = parse_html(response.content)
    assert root.by_id(html_id(STR)).attrs["value"] == str(STR_WAS + 2)
    assert root.find_all("input", name="_version")[0].attrs["value"] == str(c.version)
    tab_b.change(("_step", f"{COORD}|1"), ("_autosave", "1"))
    c.refresh_from_db()
    assert (resolve(c.build, STR), resolve(c.build, COORD)) == (STR_WAS + 2, COORD_WAS + 1)


def test_a_stale_htmx_save_equal_to_its_base_does_not_put_old_values_back(client):
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Same")
    client.force_login(table.player)
    tab_b = BuilderSession(client, reverse("character_builder", args=[c.id]))
    character_save_draft(character_id=c.id, user=table.player, version=1, build=_raised(c, STR, STR_WAS + 2))
    response = tab_b.change(("_autosave", "1"))  # nothing changed on B: its values equal version 1's
    c.refresh_from_db()
    assert resolve(c.build, STR) == STR_WAS + 2
    assert parse_html(response.content).by_id(html_id(STR)).attrs["value"] == str(STR_WAS + 2)


def test_a_plain_stepper_post_saves_and_redirects(client):
    """A click before the page's scripts run is the button's plain form post: it saves."""
    table = make_table(SLUG)
    c = character_create(campaign=table.campaign, owner=table.player, name="Early")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    response = s.press("_step", f"{STR}|1")
    assert response.status_code == 302
    assert response["Location"].endswith(f"#{html_id(STR)}")
    c.refresh_from_db()
    assert resolve(c.build, STR) == STR_WAS + 1
    page = client.get(reverse("character_builder", args=[c.id]))
    assert b"All changes saved." in page.content


def test_forty_stepper_saves_then_submit_leave_a_short_history_and_a_small_version(client):
    table = make_table(SLUG)
    sheet = {**vehicles.sheet_build(registry.get(SLUG)), "name": "Forty"}
    c = character_create(campaign=table.campaign, owner=table.player, build=sheet, budget=sheet["budget"])
    (up, _), *_ = vehicles.numbers_of(registry.get(SLUG), sheet, room=1)
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    for i in range(40):
        # Up and down: 20 raises and 20 lowers of one number, each its own autosave.
        s.change(("_step", f"{up}|{1 if i % 2 == 0 else -1}"), ("_autosave", "1"))
    c.refresh_from_db()
    assert c.version == 41  # the token moved with every save
    assert CharacterVersion.objects.filter(character=c, kind="draft").count() <= 40
    s.set("/name", "Forty").change(("_autosave", "1"))
    response = s.press("_submit")
    assert response.status_code == 302, response.content[:500]
    c.refresh_from_db()
    assert c.status == "active"
    history = api_client(table.player).get(reverse("api-character-history", args=[c.id])).json()
    assert [(v["reason"]) for v in history] == ["submitted", "created"]
    assert c.shown_version == 2
    sheet = client.get(reverse("character_sheet", args=[c.id]))
    assert b"version 2</span>" in sheet.content
    assert f"version {c.version}<".encode() not in sheet.content
    page = client.get(reverse("character_history", args=[c.id]))
    rows = [r.attrs["id"] for r in parse_html(page.content).find_all("tr", class_="version-row")]
    assert len(rows) == 2
