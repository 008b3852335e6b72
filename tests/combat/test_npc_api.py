"""/api/v1/npcs/… and /api/v1/encounters/<id>/combatants/library/: the NPC library over the API.

The GM keeps NPCs (not held to the player budget: an ogre over it is accepted), lists, replaces
and removes them, and adds N of one to an encounter; a player of the campaign gets 403, an
outsider 404, nobody signed in 401, and a refusal changes nothing."""

from __future__ import annotations

import copy

import pytest

from combat import services
from combat.models import Combatant, LibraryNpc
from combat.selectors import npc_archetypes
from rulesets.engine import registry
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db


def _archetype(campaign, ident: str) -> dict:
    found = {a["id"]: a for a in npc_archetypes(registry.get(campaign.ruleset), campaign)}
    return copy.deepcopy(found[ident]["build"])


@pytest.fixture
def t(db):
    gm, player, outsider = make_user("gm"), make_user("player"), make_user("outsider")
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player])
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    ogre = _archetype(campaign, "ogre")
    ogre["attributes"]["strength"] = 10  # stronger still: far over the player budget
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
    assert body["id"] == npc.pk and body["campaign"] == t["campaign"].pk and body["name"] == "Ogre"
    assert body["build"]["attributes"]["strength"] == 10 and body["build"]["ruleset"] == "pando"
    assert body["report"]["valid"] is True
    assert body["report"]["spent"]["cp"] == 138 and body["report"]["budget"]["cp"] == 40
    assert [w["code"] for w in body["report"]["warnings"]] == ["budget.exceeded"]


def test_list_read_replace_and_remove(t):
    api, campaign = t["api"], t["campaign"]
    ogre = api.post("/api/v1/npcs/", {"campaign": campaign.pk, "build": t["ogre"]}, format="json").json()
    goblin = api.post(
        "/api/v1/npcs/", {"campaign": campaign.pk, "build": _archetype(campaign, "goblin")}, format="json"
    ).json()
    mine_elsewhere = make_campaign(gm=t["gm"], ruleset="pando")
    bandit = services.npc_save(campaign=mine_elsewhere, user=t["gm"], build=_archetype(campaign, "bandit"))
    theirs = make_campaign(gm=t["outsider"], ruleset="pando")
    services.npc_save(campaign=theirs, user=t["outsider"], build=_archetype(campaign, "guard"))

    listed = api.get("/api/v1/npcs/", {"campaign": campaign.pk})
    assert listed.status_code == 200
    assert [n["name"] for n in listed.json()] == ["Goblin", "Ogre"]
    every = api.get("/api/v1/npcs/").json()  # every campaign I run, none I don't
    assert sorted(n["id"] for n in every) == sorted([ogre["id"], goblin["id"], bandit.pk])

    assert api.get(f"/api/v1/npcs/{ogre['id']}/").json()["build"]["attributes"]["strength"] == 10
    build = {**t["ogre"], "name": "Ogre chief"}
    r = api.put(f"/api/v1/npcs/{ogre['id']}/", {"build": build}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Ogre chief"
    assert LibraryNpc.objects.get(pk=ogre["id"]).name == "Ogre chief"

    assert api.delete(f"/api/v1/npcs/{goblin['id']}/").status_code == 204
    assert api.get(f"/api/v1/npcs/{goblin['id']}/").status_code == 404
    assert not LibraryNpc.objects.filter(pk=goblin["id"]).exists()


@pytest.mark.parametrize(
    ("change", "status"),
    [
        (lambda b: {**b, "attributes": {**b["attributes"], "strength": 0}}, 422),  # a rule refuses it
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
    npc = services.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    bad = {**t["ogre"], "attributes": {**t["ogre"]["attributes"], "strength": 0}}
    r = t["api"].put(f"/api/v1/npcs/{npc.pk}/", {"build": bad}, format="json")
    assert r.status_code == 422
    npc.refresh_from_db()
    assert npc.build["attributes"]["strength"] == 10


def test_add_three_to_an_encounter(t):
    npc = services.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    eid = t["encounter"].pk
    r = t["api"].post(
        f"/api/v1/encounters/{eid}/combatants/library/", {"npc": npc.pk, "count": 3}, format="json"
    )
    assert r.status_code == 201, r.json()
    ids = r.json()["ids"]
    assert len(ids) == 3 and r.json()["id"] == ids[0]
    rows = list(Combatant.objects.filter(pk__in=ids).order_by("id").values_list("name", "is_npc", "group"))
    assert rows == [("Ogre 1", True, "Ogre"), ("Ogre 2", True, "Ogre"), ("Ogre 3", True, "Ogre")]
    board = t["api"].get(f"/api/v1/encounters/{eid}/").json()
    assert [c["name"] for c in board["combatants"]] == ["Ogre 1", "Ogre 2", "Ogre 3"]
    one = t["api"].post(f"/api/v1/encounters/{eid}/combatants/library/", {"npc": npc.pk}, format="json")
    assert one.status_code == 201 and len(one.json()["ids"]) == 1  # count defaults to 1


def test_adding_refuses_bad_counts_and_other_campaigns_npcs(t):
    npc = services.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
    other = make_campaign(gm=t["gm"], ruleset="pando")
    foreign = services.npc_save(campaign=other, user=t["gm"], build=t["ogre"])
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
    npc = services.npc_save(campaign=t["campaign"], user=t["gm"], build=t["ogre"])
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
    assert (LibraryNpc.objects.count(), npc.name, t["encounter"].combatants.count()) == (1, "Ogre", 0)


def test_the_schema_documents_the_library(client):
    paths = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/npcs/"])
    assert {"get", "put", "delete"} <= set(paths["/api/v1/npcs/{id}/"])
    add = paths["/api/v1/encounters/{id}/combatants/library/"]["post"]
    assert {"201", "400", "401", "403", "404"} <= set(add["responses"])
    assert {"403", "404"} <= set(paths["/api/v1/npcs/{id}/"]["delete"]["responses"])
