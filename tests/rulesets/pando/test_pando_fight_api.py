"""A Pando fight through /api/v1/encounters/… (moved from tests/combat/test_api.py): the contract's shapes
with Pando's numbers and words, and a strike its speed cannot pay for refused, changing nothing."""

from __future__ import annotations

import pytest

from tests.combat.test_api import _fixed
from tests.factories import api_client
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(table):  # noqa: F811
    """The encounter of tests/combat/test_api.py on Pando's table: Pablo and two goblins, not started."""
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
    return {**table, "api_gm": gm, "eid": eid, "pablo_c": pablo, "goblins": r.json()["ids"]}


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
