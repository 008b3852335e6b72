"""Numbers are bounded at every door that stores (issue #32): a number past ±1,000,000 (a float
that is not finite included) in a build, an NPC, an effect or a table's numbers is a 400
``value.out_of_bounds`` and nothing is stored; within the bound the rulesets' own ranges stay the
report's errors. Before the bound, an NPC with a number trait at 10**400 was stored (201, in the
encounter and the library) and every start of its encounter was a 500 (an OverflowError)."""

from __future__ import annotations

import copy
import json

import pytest

from characters.models import Character
from combat import services
from combat.models import Combatant, LibraryNpc
from config.bounds import SANITY_BOUND, out_of_bounds
from rulesets.engine import registry
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db

#: The first registered ruleset with a quick NPC and a number trait the builder raises.
SLUG = vehicles.first(lambda rs: rs.quick_npc() and vehicles.number_traits(rs), "a ruleset with NPC numbers")
RULESET = registry.get(SLUG)
POINTER = vehicles.number_traits(RULESET)[0][0]
#: The values the attack tried, as JSON text, and the first past the bound either way.
HUGE = [
    "1" + "0" * 400,
    str(2**63),
    str(10**30),
    str(-(10**7)),
    str(SANITY_BOUND + 1),
    str(-SANITY_BOUND - 1),
]


def _npc_json(value_text: str) -> str:
    """The quick NPC with its first number trait at ``value_text`` (put in as JSON text)."""
    build = {**copy.deepcopy(RULESET.quick_npc()), "name": "Big"}
    set_at(build, POINTER, 424242)
    return json.dumps(build).replace("424242", value_text)


@pytest.fixture
def t(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    return {"gm": gm, "player": player, "campaign": campaign, "encounter": encounter}


def _refused_out_of_bounds(r, pointer: str) -> None:
    assert r.status_code == 400, r.content
    body = r.json()
    assert body["detail"].endswith("numbers go from −1,000,000 to 1,000,000.")
    assert [(e["code"], e["path"]) for e in body["errors"]] == [("value.out_of_bounds", pointer)]


def test_the_walker_finds_every_number_past_the_bound_and_nothing_else():
    doc = {"a": [1, -SANITY_BOUND, SANITY_BOUND + 1], "b/c": {"d": float("inf")}, "e": True, "f": "1e400"}
    assert out_of_bounds(doc) == ["/a/2", "/b~1c/d"]
    assert out_of_bounds(float("nan")) == [""]
    assert out_of_bounds(SANITY_BOUND) == [] and out_of_bounds(-SANITY_BOUND - 1) == [""]


@pytest.mark.parametrize("value", HUGE)
def test_an_npc_past_the_bound_is_refused_at_the_encounter_and_the_library(t, value):
    api = api_client(t["gm"], token=True)
    eid = t["encounter"].pk
    r = api.post(
        f"/api/v1/encounters/{eid}/combatants/",
        f'{{"name": "Big", "build": {_npc_json(value)}}}',
        content_type="application/json",
    )
    _refused_out_of_bounds(r, POINTER)
    r = api.post(
        "/api/v1/npcs/",
        f'{{"campaign": {t["campaign"].pk}, "build": {_npc_json(value)}}}',
        content_type="application/json",
    )
    _refused_out_of_bounds(r, POINTER)
    assert Combatant.objects.count() == 0 and LibraryNpc.objects.count() == 0


def test_a_float_past_any_finite_one_is_refused_too(t):
    r = api_client(t["gm"], token=True).post(
        f"/api/v1/encounters/{t['encounter'].pk}/combatants/",
        f'{{"name": "Big", "build": {_npc_json("1e400")}}}',
        content_type="application/json",
    )
    assert r.status_code == 400 and Combatant.objects.count() == 0


def test_within_the_bound_the_rules_answer_and_every_combat_step_works(t):
    """10**6 is not refused by the bound: the rules decide (an NPC is not held to the budget), and
    an encounter with it starts and turns without overflowing."""
    api = api_client(t["gm"], token=True)
    eid = t["encounter"].pk
    r = api.post(
        f"/api/v1/encounters/{eid}/combatants/",
        f'{{"name": "Big", "build": {_npc_json(str(SANITY_BOUND))}, "count": 2}}',
        content_type="application/json",
    )
    assert r.status_code in (201, 422), r.json()
    assert "value.out_of_bounds" not in json.dumps(r.json())
    quick = {**RULESET.quick_npc(), "name": "Small"}
    assert (
        api.post(f"/api/v1/encounters/{eid}/combatants/", {"build": quick}, format="json").status_code == 201
    )
    assert api.post(f"/api/v1/encounters/{eid}/start/").status_code == 200
    for _ in range(4):
        assert api.post(f"/api/v1/encounters/{eid}/next-turn/").status_code == 200


def test_the_quick_build_form_refuses_it_in_words_and_adds_nobody(t):
    client = api_client(t["gm"])
    r = client.post(
        f"/encounters/{t['encounter'].pk}/combatants/",
        {"name": "Big", "build": _npc_json("1" + "0" * 400), "count": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert "numbers go from −1,000,000 to 1,000,000" in r.content.decode()
    assert Combatant.objects.count() == 0


def test_a_character_past_the_bound_is_refused_at_create_draft_and_import(t):
    api = api_client(t["player"], token=True)
    build = vehicles.sheet_build(RULESET)
    pointer = vehicles.number_traits(RULESET)[0][0]
    huge = copy.deepcopy(build)
    set_at(huge, pointer, 10**400)
    r = api.post(
        "/api/v1/characters/",
        {"campaign": t["campaign"].pk, "build": huge},
        format="json",
    )
    _refused_out_of_bounds(r, pointer)
    assert Character.objects.count() == 0

    draft = make_character(ruleset=SLUG, owner=t["player"], campaign=t["campaign"], status="draft")
    r = api.put(
        f"/api/v1/characters/{draft.pk}/draft/", {"version": draft.version, "build": huge}, format="json"
    )
    _refused_out_of_bounds(r, pointer)
    draft.refresh_from_db()
    assert resolve(draft.build, pointer) == resolve(build, pointer) and draft.version == 1

    page = api_client(t["player"]).post(
        f"/campaigns/{t['campaign'].pk}/characters/import/",
        {"document": json.dumps({**huge, "ruleset": SLUG})},
    )
    assert page.status_code == 400
    assert "numbers go from −1,000,000 to 1,000,000" in page.content.decode()
    assert Character.objects.count() == 1


def test_an_advancement_past_the_bound_is_refused(t):
    character = make_character(ruleset=SLUG, owner=t["player"], campaign=t["campaign"])
    pointer = vehicles.number_traits(RULESET)[0][0]
    build = copy.deepcopy(character.build)
    set_at(build, pointer, 2**63)
    r = api_client(t["player"], token=True).post(
        f"/api/v1/characters/{character.pk}/advancements/", {"build": build}, format="json"
    )
    _refused_out_of_bounds(r, pointer)
    assert not character.advancements.exists()


def test_the_rules_service_still_reports_on_any_number(t):
    """validate stores nothing: a number past the bound is the report's business there."""
    r = api_client().post(
        f"/api/v1/rulesets/{SLUG}/validate/", _npc_json("1" + "0" * 400), content_type="application/json"
    )
    assert r.status_code == 200, r.content
    assert r.json()["ruleset"] == SLUG and "value.out_of_bounds" not in r.content.decode()


def test_a_play_state_past_the_bound_is_refused(t):
    character = make_character(ruleset=SLUG, owner=t["player"], campaign=t["campaign"])
    before = (character.version, character.state)
    state = {**character.state, "notes_count": 10**30}
    r = api_client(t["player"], token=True).patch(
        f"/api/v1/characters/{character.pk}/", {"version": character.version, "state": state}, format="json"
    )
    _refused_out_of_bounds(r, "/notes_count")
    character.refresh_from_db()
    assert (character.version, character.state) == before


def test_a_table_number_past_the_bound_is_refused_for_party_odds():
    from tests.characters.party.helpers import make_party, party_odds, rollables

    slug = vehicles.first(lambda rs: bool(rs.table_keys), "a ruleset whose table sets a number")
    ruleset = registry.get(slug)
    gm, player, other = make_user("gm"), make_user("player"), make_user("other")
    table = {"gm": gm, "player": player, "other": other}
    campaign, characters = make_party(table, slug, 1)
    roll = rollables(gm, characters[0])[0]
    key = ruleset.table_keys[0]
    got = party_odds(gm, campaign, {"rollable": roll["id"], "table": {key: 10**30}})
    _refused_out_of_bounds(got, f"/{key}")


def test_a_play_action_past_the_bound_is_refused_in_words(t):
    """The sheet's play actions ("take 3 harm") store their result: a number of 10**8 (within the form reader's ±999,999,999, a
    whole number to the form's reader) is a 400 in words and the play state is unchanged."""
    from django.urls import reverse

    slug = vehicles.first(vehicles.number_action, "a ruleset whose sheet has a play action with a number")
    campaign = make_campaign(gm=t["gm"], ruleset=slug, players=[t["player"]])
    character = make_character(ruleset=slug, owner=t["player"], campaign=campaign)
    action, number = vehicles.number_action(registry.get(slug))
    before = (character.version, character.state)
    got = api_client(t["player"]).post(
        reverse("character_state_action", args=[character.pk]),
        {**{k: str(v) for k, v in action.items()}, number: str(10**8)},
        HTTP_HX_REQUEST="true",
    )
    assert got.status_code == 400
    assert "numbers go from −1,000,000 to 1,000,000" in got.content.decode()
    character.refresh_from_db()
    assert (character.version, character.state) == before
