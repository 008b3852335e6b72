"""One draft in two tabs: a stale page's save merges its own changes onto the latest draft or says
why it cannot; the API's stale PUT stays a 409; autosaves keep the history short (issues 18, 19)."""

from __future__ import annotations

import copy

import pytest
from django.urls import reverse

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
    assert [(c["path"], c["mine"], c["theirs"]) for c in conflicts] == [
        ("/attributes/strength", 2, 4),
        ("/skills", ["blades"], ["melee"]),
    ]
    assert merged == theirs


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
    assert resolve(saved.build, STR) == STR_WAS + 2 and resolve(saved.build, COORD) == COORD_WAS + 1


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
