"""/api/v1/encounters/…: the contract's shapes, refusals that change nothing, and who may do what."""

from __future__ import annotations

from unittest import mock

import pytest
from django.utils.html import escape

from combat.models import Combatant, Encounter, EncounterEvent
from rulesets.engine.context import NPC_PHASE
from rulesets.engine.dice import FixedRoller
from tests import vehicles
from tests.combat.conftest import GOBLIN, RULESET
from tests.factories import api_client, make_campaign
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


def _fixed(faces):
    """Every Roller() the services make during the block rolls these faces."""
    return mock.patch("combat.services.Roller", lambda: FixedRoller(list(faces)))


@pytest.fixture
def running(table):
    gm = api_client(table["gm"], token=True)
    r = gm.post("/api/v1/encounters/", {"campaign": table["campaign"].pk, "name": "Bridge"}, format="json")
    assert r.status_code == 201, r.json()
    eid = r.json()["id"]
    r = gm.post(f"/api/v1/encounters/{eid}/combatants/", {"character": table["pablo"].pk}, format="json")
    assert r.status_code == 201
    pablo = r.json()["id"]
    r = gm.post(
        f"/api/v1/encounters/{eid}/combatants/",
        {"name": "Goblin", "build": GOBLIN, "count": 2},
        format="json",
    )
    assert r.status_code == 201
    goblins = r.json()["ids"]
    assert len(goblins) == 2 and r.json()["id"] == goblins[0]
    return {**table, "api_gm": gm, "eid": eid, "pablo_c": pablo, "goblins": goblins}


def test_bad_input_is_a_400_never_a_500(running):
    gm, eid = running["api_gm"], running["eid"]
    cases = [
        ("/api/v1/encounters/", {"campaign": "x", "name": "A"}),
        ("/api/v1/encounters/", {"campaign": running["campaign"].pk, "name": ""}),
        ("/api/v1/encounters/", [1, 2]),
        (f"/api/v1/encounters/{eid}/combatants/", {}),
        (f"/api/v1/encounters/{eid}/combatants/", {"character": 1, "build": GOBLIN}),
        (f"/api/v1/encounters/{eid}/combatants/", {"name": "Orc", "build": "not an object"}),
        (f"/api/v1/encounters/{eid}/combatants/", {"name": "Orc", "build": GOBLIN, "count": 0}),
        (f"/api/v1/encounters/{eid}/combatants/", {"character": 2**70}),
        (f"/api/v1/encounters/{eid}/actions/", {"combatant": "me", "action": "move"}),
        (f"/api/v1/encounters/{eid}/actions/", {"combatant": 1, "action": 5}),
        (f"/api/v1/encounters/{eid}/actions/", {"combatant": 999999, "action": "move"}),
        (f"/api/v1/encounters/{eid}/next-turn/", [1]),
    ]
    for url, body in cases:
        r = gm.post(url, body, format="json")
        assert r.status_code == 400, (url, body, r.status_code, r.content)
        assert set(r.json()) == {"detail", "errors"}
    assert gm.get("/api/v1/encounters/?campaign=abc").status_code == 400
    assert gm.get("/api/v1/encounters/99999999999999999999/").status_code == 404
    broken = {**vehicles.broken(RULESET), "name": "Orc"}
    refused = RULESET.validate(broken, phase=NPC_PHASE).errors
    r = gm.post(f"/api/v1/encounters/{eid}/combatants/", {"name": "Orc", "build": broken}, format="json")
    assert refused and r.status_code == 422 and r.json()["errors"][0]["code"] == refused[0].code


def test_who_may_do_what(running):
    eid, pablo = running["eid"], running["pablo_c"]
    player, other, stranger = (api_client(running[k]) for k in ("player", "other", "stranger"))
    assert stranger.get(f"/api/v1/encounters/{eid}/").status_code == 404
    assert stranger.post(f"/api/v1/encounters/{eid}/start/").status_code == 404
    assert (
        stranger.post(
            f"/api/v1/encounters/{eid}/actions/", {"combatant": pablo, "action": "move"}, format="json"
        ).status_code
        == 404
    )
    assert stranger.get(f"/api/v1/encounters/?campaign={running['campaign'].pk}").status_code == 404
    assert stranger.get("/api/v1/encounters/").json() == []
    assert api_client().get(f"/api/v1/encounters/{eid}/").status_code == 401

    assert (
        player.post(
            "/api/v1/encounters/", {"campaign": running["campaign"].pk, "name": "Mine"}, format="json"
        ).status_code
        == 403
    )
    assert (
        player.post(
            f"/api/v1/encounters/{eid}/combatants/", {"name": "Orc", "build": GOBLIN}, format="json"
        ).status_code
        == 403
    )
    assert player.post(f"/api/v1/encounters/{eid}/start/").status_code == 403
    running["api_gm"].post(f"/api/v1/encounters/{eid}/start/")
    goblin = Combatant.objects.get(pk=running["goblins"][0])
    gm_action = vehicles.fight_action(goblin.encounter, goblin, gm=True, target=goblin)
    assert gm_action, "the GM has an action"
    events = EncounterEvent.objects.filter(encounter_id=eid).count()
    r = other.post(
        f"/api/v1/encounters/{eid}/actions/", {"combatant": pablo, "action": "move"}, format="json"
    )
    assert r.status_code == 403
    r = player.post(
        f"/api/v1/encounters/{eid}/actions/",
        {"combatant": running["goblins"][0], "action": "move"},
        format="json",
    )
    assert r.status_code == 403
    r = player.post(
        f"/api/v1/encounters/{eid}/actions/",
        {"combatant": running["goblins"][0], **gm_action},
        format="json",
    )
    assert r.status_code == 403
    assert (
        other.post(f"/api/v1/encounters/{eid}/next-turn/").status_code == 403
    )  # Pablo's turn, not Bea's player's
    assert player.post(f"/api/v1/encounters/{eid}/end/").status_code == 403
    assert EncounterEvent.objects.filter(encounter_id=eid).count() == events
    assert Encounter.objects.get(pk=eid).status == "active"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_ruleset_without_combat_rules_is_a_clear_422(db, table, slug):
    from rulesets.engine import registry
    from tests.characters.sheet.test_sheet_fixtures import make_character

    name = registry.get(slug).name
    campaign = make_campaign(gm=table["gm"], ruleset=slug, players=[table["player"]])
    kestrel = make_character(ruleset=slug, owner=table["player"], campaign=campaign)
    gm = api_client(table["gm"])
    eid = gm.post("/api/v1/encounters/", {"campaign": campaign.pk, "name": "Later"}, format="json").json()[
        "id"
    ]
    with mock.patch.object(type(registry.get(slug)), "combat", side_effect=NotImplementedError("no")):
        r = gm.post(f"/api/v1/encounters/{eid}/combatants/", {"character": kestrel.pk}, format="json")
        assert r.status_code == 201
        r = gm.post(f"/api/v1/encounters/{eid}/start/")
        assert r.status_code == 422
        assert r.json()["errors"][0]["code"] == "combat.unsupported"
        assert f"{name} has no combat rules yet" in r.json()["detail"]
        assert gm.get(f"/api/v1/encounters/{eid}/").json()["status"] == "setup"
        page = gm.get(f"/encounters/{eid}/")
        assert page.status_code == 200
        assert escape(f"{name} has no combat rules yet") in page.content.decode()
        page = gm.post(f"/encounters/{eid}/start/", follow=True)
        assert page.status_code == 200 and escape(f"{name} has no combat rules yet") in page.content.decode()
