"""/api/v1/encounters/…: the contract's shapes, refusals that change nothing, and who may do what."""

from __future__ import annotations

from unittest import mock

import pytest

from combat.models import Encounter, EncounterEvent
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import GOBLIN
from tests.factories import api_client, make_campaign

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


def test_create_add_start_act_next_turn_and_the_shapes(running):
    gm, eid, pablo = running["api_gm"], running["eid"], running["pablo_c"]
    r = gm.post(f"/api/v1/encounters/{eid}/start/")
    assert r.status_code == 200
    body = r.json()
    assert set(body) >= {
        "id",
        "round",
        "turn",
        "order",
        "combatants",
        "log",
        "status",
        "name",
        "campaign",
        "current",
    }
    assert body["status"] == "active" and body["round"] == 1 and body["turn"] == 0
    assert body["order"][0] == pablo and body["current"] == pablo  # Momentum 5 before the goblins' 3
    assert sorted(body["order"]) == sorted([pablo, *running["goblins"]])
    row = next(c for c in body["combatants"] if c["id"] == pablo)
    assert row["character"] == running["pablo"].pk and row["owner"] == "player" and row["is_npc"] is False
    assert {"label": "Speed", "value": "6/6"} in [
        {k: s[k] for k in ("label", "value")} for s in row["summary"]["stats"]
    ]
    assert row["combat"]["speed"] == 6
    assert [e["seq"] for e in body["log"]] == sorted(e["seq"] for e in body["log"])

    player = api_client(running["player"])
    with _fixed([1, 1, 6]):
        r = player.post(
            f"/api/v1/encounters/{eid}/actions/",
            {"combatant": pablo, "action": "strike:0", "target": running["goblins"][0]},
            format="json",
        )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["log"][-1]["text"] == "Pablo strikes Goblin 1 with the longsword: 2 EP, −1 speed."
    assert body["state"]["attack"]["ep"] == 2
    r = player.post(
        f"/api/v1/encounters/{eid}/actions/",
        {"combatant": pablo, "action": {"action": "harm", "body_part": "legs", "amount": 2}},
        format="json",
    )
    assert r.status_code == 200, r.json()
    goblin = next(c for c in r.json()["combatants"] if c["id"] == running["goblins"][0])
    assert goblin["state"]["harm"]["legs"] == 2
    assert "wounded legs (2)" in goblin["summary"]["status"]

    r = player.post(f"/api/v1/encounters/{eid}/next-turn/", {}, format="json")
    assert r.status_code == 200
    body = r.json()
    assert body["current_ids"] == running["goblins"]  # the goblins act together
    assert body["turn"] == 1

    r = gm.get(f"/api/v1/encounters/?campaign={running['campaign'].pk}")
    assert r.status_code == 200 and [e["id"] for e in r.json()] == [eid]
    assert r.json()[0]["status"] == "active"


def test_a_refused_action_is_a_422_with_the_rule_code_and_changes_nothing(running):
    gm, eid, pablo = running["api_gm"], running["eid"], running["pablo_c"]
    gm.post(f"/api/v1/encounters/{eid}/start/")
    player = api_client(running["player"])
    for faces in ([6, 6, 6], [6, 6, 6], [6, 6, 6]):
        with _fixed(faces):
            assert (
                player.post(
                    f"/api/v1/encounters/{eid}/actions/",
                    {"combatant": pablo, "action": "strike:0"},
                    format="json",
                ).status_code
                == 200
            )
    before = gm.get(f"/api/v1/encounters/{eid}/").json()
    with _fixed([1, 1, 1]):
        r = player.post(
            f"/api/v1/encounters/{eid}/actions/", {"combatant": pablo, "action": "strike:0"}, format="json"
        )
    assert r.status_code == 422
    assert r.json()["errors"][0]["code"] == "pando.not_enough_speed"
    assert "costs 4 speed" in r.json()["detail"]
    assert gm.get(f"/api/v1/encounters/{eid}/").json() == before

    r = player.post(
        f"/api/v1/encounters/{eid}/actions/", {"combatant": pablo, "action": "fly"}, format="json"
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "combat.unknown_action"
    r = player.post(
        f"/api/v1/encounters/{eid}/actions/",
        {"combatant": pablo, "action": "move", "expected_version": 1},
        format="json",
    )
    assert r.status_code == 409
    assert gm.get(f"/api/v1/encounters/{eid}/").json() == before


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
    r = gm.post(
        f"/api/v1/encounters/{eid}/combatants/",
        {"name": "Orc", "build": {**GOBLIN, "skills": ["nope"]}},
        format="json",
    )
    assert r.status_code == 422 and r.json()["errors"][0]["code"] == "skill.unknown"


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
        {"combatant": pablo, "action": "gm_harm", "body_part": "legs", "amount": 1},
        format="json",
    )
    assert r.status_code == 403
    assert (
        other.post(f"/api/v1/encounters/{eid}/next-turn/").status_code == 403
    )  # Pablo's turn, not Bea's player's
    assert player.post(f"/api/v1/encounters/{eid}/end/").status_code == 403
    assert EncounterEvent.objects.filter(encounter_id=eid).count() == events
    assert Encounter.objects.get(pk=eid).status == "active"


def test_a_ruleset_without_combat_rules_is_a_clear_422(db, table):
    from rulesets.engine import registry
    from tests.characters.sheet.test_sheet_fixtures import make_character

    campaign = make_campaign(gm=table["gm"], ruleset="maelstrom", players=[table["player"]])
    kestrel = make_character(ruleset="maelstrom", owner=table["player"], campaign=campaign)
    gm = api_client(table["gm"])
    eid = gm.post("/api/v1/encounters/", {"campaign": campaign.pk, "name": "Later"}, format="json").json()[
        "id"
    ]
    with mock.patch.object(type(registry.get("maelstrom")), "combat", side_effect=NotImplementedError("no")):
        r = gm.post(f"/api/v1/encounters/{eid}/combatants/", {"character": kestrel.pk}, format="json")
        assert r.status_code == 201
        r = gm.post(f"/api/v1/encounters/{eid}/start/")
        assert r.status_code == 422
        assert r.json()["errors"][0]["code"] == "combat.unsupported"
        assert "Maelstrom has no combat rules yet" in r.json()["detail"]
        assert gm.get(f"/api/v1/encounters/{eid}/").json()["status"] == "setup"
        page = gm.get(f"/encounters/{eid}/")
        assert page.status_code == 200
        assert "Maelstrom has no combat rules yet" in page.content.decode()
        page = gm.post(f"/encounters/{eid}/start/", follow=True)
        assert page.status_code == 200 and "Maelstrom has no combat rules yet" in page.content.decode()
