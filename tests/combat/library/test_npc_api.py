"""/api/v1/npcs/… and /api/v1/encounters/<id>/combatants/library/: the NPC library over the API.

The GM keeps NPCs (not held to the player budget: an ogre over it is accepted; the ogre is the
first registered ruleset's strongest ready NPC made stronger still), lists, replaces
and removes them, and adds N of one to an encounter; a player of the campaign gets 403, an
outsider 404, nobody signed in 401, and a refusal changes nothing."""

from __future__ import annotations

import copy

import pytest

from combat import services
from combat.library import services as library
from combat.models import Combatant, LibraryNpc
from combat.selectors import npc_archetypes
from rulesets.engine import registry
from rulesets.engine.context import NPC_PHASE
from rulesets.engine.pointer import resolve, set_at
from tests import vehicles
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db


def _ogre(ruleset):
    """The ruleset's last ready NPC made stronger than any player could be: its first number raised
    until it costs more than a player's budget (an NPC is not held to it). (the build, the JSON
    pointer raised, its value), or None."""
    archetypes = ruleset.npc_archetypes()
    if len(archetypes) < 2:
        return None
    build = copy.deepcopy(archetypes[-1]["build"])
    for pointer, top in vehicles.number_traits(ruleset):
        value = resolve(build, pointer, None)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        for raised in range(value + 1, (top if top is not None else value + 12) + 1):
            set_at(build, pointer, raised)
            report = ruleset.validate(build, phase=NPC_PHASE)
            if not report.valid:
                break
            if [w.code for w in report.warnings] == ["budget.exceeded"]:
                return build, pointer, raised
        set_at(build, pointer, value)
    return None


#: The first registered ruleset with ready NPCs, one of which can be made an ogre.
SLUG = vehicles.first(_ogre, "a ruleset with ready NPCs one of which can outgrow a player's budget")
RULESET = registry.get(SLUG)
OGRE, STRENGTH, TEN = _ogre(RULESET)
OGRE_NAME = OGRE["name"]
GOBLIN_NAME = RULESET.npc_archetypes()[0]["build"]["name"]


def _archetype(campaign, index: int) -> dict:
    return copy.deepcopy(npc_archetypes(registry.get(campaign.ruleset), campaign)[index]["build"])


@pytest.fixture
def t(db):
    gm, player, outsider = make_user("gm"), make_user("player"), make_user("outsider")
    campaign = make_campaign(gm=gm, ruleset=SLUG, players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    ogre = copy.deepcopy(OGRE)  # far over the player budget
    return {
        "gm": gm,
        "player": player,
        "outsider": outsider,
        "campaign": campaign,
        "encounter": encounter,
        "ogre": ogre,
        "api": api_client(gm, token=True),
    }


def test_the_gm_keeps_an_ogre_over_the_player_budget(t):
    r = t["api"].post("/api/v1/npcs/", {"campaign": t["campaign"].pk, "build": t["ogre"]}, format="json")
    assert r.status_code == 201, r.json()
    body = r.json()
    npc = LibraryNpc.objects.get()
    expected = RULESET.validate(OGRE, phase=NPC_PHASE)
    assert body["id"] == npc.pk and body["campaign"] == t["campaign"].pk and body["name"] == OGRE_NAME
    assert resolve(body["build"], STRENGTH) == TEN and body["build"]["ruleset"] == SLUG
    assert body["report"]["valid"] is True
    assert body["report"]["spent"] == dict(expected.spent) and body["report"]["budget"] == dict(
        expected.budget
    )
    assert any(body["report"]["spent"][c] > v for c, v in body["report"]["budget"].items())
    assert [w["code"] for w in body["report"]["warnings"]] == ["budget.exceeded"]


def test_list_read_replace_and_remove(t):
    api, campaign = t["api"], t["campaign"]
    ogre = api.post("/api/v1/npcs/", {"campaign": campaign.pk, "build": t["ogre"]}, format="json").json()
    goblin = api.post(
        "/api/v1/npcs/", {"campaign": campaign.pk, "build": _archetype(campaign, 0)}, format="json"
    ).json()
    mine_elsewhere = make_campaign(gm=t["gm"], ruleset=SLUG)
    bandit = library.npc_save(campaign=mine_elsewhere, user=t["gm"], build=_archetype(campaign, 0))
    theirs = make_campaign(gm=t["outsider"], ruleset=SLUG)
    library.npc_save(campaign=theirs, user=t["outsider"], build=_archetype(campaign, -1))

    listed = api.get("/api/v1/npcs/", {"campaign": campaign.pk})
    assert listed.status_code == 200
    assert [n["name"] for n in listed.json()] == sorted([GOBLIN_NAME, OGRE_NAME])
    every = api.get("/api/v1/npcs/").json()  # every campaign I run, none I don't
    assert sorted(n["id"] for n in every) == sorted([ogre["id"], goblin["id"], bandit.pk])

    assert resolve(api.get(f"/api/v1/npcs/{ogre['id']}/").json()["build"], STRENGTH) == TEN
    build = {**t["ogre"], "name": "Ogre chief"}
    r = api.put(f"/api/v1/npcs/{ogre['id']}/", {"build": build}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Ogre chief"
    assert LibraryNpc.objects.get(pk=ogre["id"]).name == "Ogre chief"

    assert api.delete(f"/api/v1/npcs/{goblin['id']}/").status_code == 204
    assert api.get(f"/api/v1/npcs/{goblin['id']}/").status_code == 404
    assert not LibraryNpc.objects.filter(pk=goblin["id"]).exists()


def _refused(build: dict) -> dict:
    """The ogre as a build the rules refuse (tests/vehicles.py ``broken``), its name kept."""
    return {**vehicles.broken(RULESET), "name": build["name"]}


@pytest.mark.parametrize(
    ("change", "status"),
    [
        (_refused, 422),  # a rule refuses it
        (lambda b: {**b, "name": "   "}, 400),
        (lambda b: [b], 400),  # not an object
    ],
)
def test_an_invalid_npc_is_refused_and_nothing_is_kept(t, change, status):
    build = change(copy.deepcopy(t["ogre"]))
    r = t["api"].post("/api/v1/npcs/", {"campaign": t["campaign"].pk, "build": build}, format="json")
    assert r.status_code == status, r.json()
    assert set(r.json()) == {"detail", "errors"} and r.json()["detail"]
    assert not LibraryNpc.objects.exists()


def test_a_refused_replacement_keeps_the_old_build(t):
    npc = library.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    bad = _refused(t["ogre"])
    r = t["api"].put(f"/api/v1/npcs/{npc.pk}/", {"build": bad}, format="json")
    assert r.status_code == 422
    npc.refresh_from_db()
    assert resolve(npc.build, STRENGTH) == TEN


def test_add_three_to_an_encounter(t):
    npc = library.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    eid = t["encounter"].pk
    r = t["api"].post(
        f"/api/v1/encounters/{eid}/combatants/library/", {"npc": npc.pk, "count": 3}, format="json"
    )
    assert r.status_code == 201, r.json()
    ids = r.json()["ids"]
    assert len(ids) == 3 and r.json()["id"] == ids[0]
    rows = list(Combatant.objects.filter(pk__in=ids).order_by("id").values_list("name", "is_npc", "group"))
    assert rows == [(f"{OGRE_NAME} {i}", True, OGRE_NAME) for i in (1, 2, 3)]
    board = t["api"].get(f"/api/v1/encounters/{eid}/").json()
    assert [c["name"] for c in board["combatants"]] == [f"{OGRE_NAME} {i}" for i in (1, 2, 3)]
    one = t["api"].post(f"/api/v1/encounters/{eid}/combatants/library/", {"npc": npc.pk}, format="json")
    assert one.status_code == 201 and len(one.json()["ids"]) == 1  # count defaults to 1


def test_adding_refuses_bad_counts_and_other_campaigns_npcs(t):
    npc = library.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    other = make_campaign(gm=t["gm"], ruleset=SLUG)
    foreign = library.npc_save(campaign=other, user=t["gm"], build=t["ogre"])
    url = f"/api/v1/encounters/{t['encounter'].pk}/combatants/library/"
    for body, status in (
        ({"npc": npc.pk, "count": 0}, 400),
        ({"npc": npc.pk, "count": 31}, 400),
        ({"npc": npc.pk, "count": "lots"}, 400),
        ({"count": 2}, 400),
        ({"npc": foreign.pk, "count": 1}, 404),
        ({"npc": 2**62, "count": 1}, 404),
    ):
        r = t["api"].post(url, body, format="json")
        assert r.status_code == status, (body, r.json())
        assert set(r.json()) == {"detail", "errors"}
    assert (
        "No such NPC in this campaign"
        in t["api"].post(url, {"npc": foreign.pk}, format="json").json()["detail"]
    )
    assert t["encounter"].combatants.count() == 0


def test_the_wrong_user(t):
    npc = library.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    campaign, eid = t["campaign"], t["encounter"].pk
    calls = [
        ("get", "/api/v1/npcs/", {"campaign": campaign.pk}),
        ("post", "/api/v1/npcs/", {"campaign": campaign.pk, "build": t["ogre"]}),
        ("get", f"/api/v1/npcs/{npc.pk}/", None),
        ("put", f"/api/v1/npcs/{npc.pk}/", {"build": {**t["ogre"], "name": "Mine now"}}),
        ("delete", f"/api/v1/npcs/{npc.pk}/", None),
        ("post", f"/api/v1/encounters/{eid}/combatants/library/", {"npc": npc.pk, "count": 2}),
    ]
    for user, expected in ((t["player"], 403), (t["outsider"], 404), (None, 401)):
        api = api_client(user, token=True) if user is not None else api_client()
        for method, url, body in calls:
            if method == "get":
                r = api.get(url, body or {})
            else:
                r = getattr(api, method)(url, body, format="json")
            assert r.status_code == expected, (user, method, url, r.status_code)
            assert set(r.json()) == {"detail", "errors"}
    # a player sees no library NPC in the list of the campaigns they run (none)
    assert api_client(t["player"], token=True).get("/api/v1/npcs/").json() == []
    npc.refresh_from_db()
    assert (LibraryNpc.objects.count(), npc.name, t["encounter"].combatants.count()) == (1, OGRE_NAME, 0)


def test_the_schema_documents_the_library(client):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/npcs/"])
    assert {"get", "put", "delete"} <= set(paths["/api/v1/npcs/{id}/"])
    add = paths["/api/v1/encounters/{id}/combatants/library/"]["post"]
    assert {"201", "400", "401", "403", "404"} <= set(add["responses"])
    assert {"403", "404"} <= set(paths["/api/v1/npcs/{id}/"]["delete"]["responses"])
