"""Acceptance: a whole table walks the REST API of CONTRACT.md ("Resources"), once per ruleset.

An external client's view only: token auth (``Authorization: Token <key>``, never a session),
JSON in and out, the paths and fields the contract fixes. Per ruleset: accounts and tokens →
a campaign and its players → a character (an invalid draft first, then a demo build) → submit,
read, export, history, play state with versions → an award, an advancement request, the GM's
review (approve, reject), the ledger → an encounter with the PC and an NPC, one action, a rules
refusal, next turn, permissions → error shapes (413, bad JSON, 401, 404, 403, 409, 422).

The API rolls with the default random source, so the combat assertions never depend on dice:
the order holds every combatant, an action adds to the log, a refusal changes nothing.
"""

from __future__ import annotations

import copy
import json

import pytest
from rest_framework.test import APIClient

from combat.models import Combatant, Encounter
from rulesets.engine import registry
from tests import vehicles

pytestmark = pytest.mark.django_db

API = "/api/v1"
FORMAT = "sheetforge.build/1"
PASSWORD = "correct-horse-battery-staple-42"


# --------------------------------------------------------------------------- per ruleset
#
# Every registered ruleset walks the table with its own data (tests/vehicles.py): its sheet
# character as the PC, its quick NPC as the NPC; the advancement its sheet character can make
# and the currency the GM awards for it, at the rules' price; a build its rules refuse (saved as
# a draft, with the rules' own codes); the action its PC takes on its turn.


def case_of(slug: str) -> dict:
    ruleset = registry.get(slug)
    broken = vehicles.broken(ruleset)
    return dict(
        pc=vehicles.sheet_build(ruleset),
        npc=ruleset.quick_npc(),
        advance=vehicles.advance(ruleset),
        broken=broken,
        broken_codes=[i.code for i in ruleset.validate(broken).errors],
    )


# --------------------------------------------------------------------------- the client


class Client:
    """One user's API client: token auth only; every answer checked for the contract's basics."""

    def __init__(self, token: str | None = None):
        self.api = APIClient()
        if token:
            self.api.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    def call(
        self,
        method: str,
        path: str,
        body=None,
        *,
        status: int,
        raw: bytes | str | None = None,
        content_type: str = "application/json",
    ):
        url = path if path.startswith("/") else f"{API}/{path}"
        if raw is not None:
            response = self.api.generic(method.upper(), url, raw, content_type=content_type)
        elif method == "get":
            response = self.api.get(url, body or {})
        else:
            response = getattr(self.api, method)(url, body, format="json")
        assert response.status_code != 500
        assert response.status_code == status, (method, url, response.status_code, response.content[:3000])
        if response.status_code == 204:
            return None
        assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
        data = response.json()
        if status >= 400:
            assert isinstance(data, dict) and set(data) == {"detail", "errors"}, data
            assert isinstance(data["detail"], str) and data["detail"], data
            assert isinstance(data["errors"], list), data
        return data

    def get(self, path, params=None, *, status=200):
        return self.call("get", path, params, status=status)

    def post(self, path, body=None, *, status):
        return self.call("post", path, body if body is not None else {}, status=status)

    def patch(self, path, body, *, status):
        return self.call("patch", path, body, status=status)


#: The log lines of the turn passing (combat/step.py ``turn_started``, ``round_started``).
TURN_PASSING = ("turn", "round")


def action_events(new_events: list[dict]) -> list[dict]:
    """The log lines of the action itself: those before the turn passes. An action that ends the turn
    is followed by the "turn" line and, past the end of the order, the "round" line, each with what
    the ruleset's ``turn_start`` / ``round_start`` log (other fighters' lines too): not the action's."""
    passing = next((i for i, e in enumerate(new_events) if e["kind"] in TURN_PASSING), len(new_events))
    return new_events[:passing]


def test_the_action_events_leave_out_the_turn_and_the_round_passing_whatever_the_ruleset_logs():
    log = [
        {"kind": "strike", "actor": 1},
        {"kind": "round", "actor": None},
        {"kind": "stamina", "actor": 2},  # a ruleset's round_start line about someone else
        {"kind": "turn", "actor": 2},
        {"kind": "down", "actor": 2},
    ]
    assert [e["actor"] for e in action_events(log)] == [1]
    assert action_events(log[:1]) == log[:1]


def codes(body: dict) -> list[str]:
    """The codes of an error answer's (or a report's) ``errors``."""
    return [e.get("code") for e in body["errors"]]


def sign_up(username: str) -> tuple[Client, int]:
    anon = Client()
    user = anon.post("auth/register/", {"username": username, "password": PASSWORD}, status=201)
    assert set(user) >= {"id", "username"} and user["username"] == username
    token = anon.post("auth/token/", {"username": username, "password": PASSWORD}, status=200)
    assert set(token) == {"token"} and token["token"]
    return Client(token["token"]), user["id"]


# --------------------------------------------------------------------------- the walk


@pytest.mark.parametrize("slug", vehicles.every(vehicles.advance))
def test_a_table_walks_the_api(slug):
    case = case_of(slug)
    pc_build = case["pc"]
    starting = dict(pc_build["budget"])

    # 1. Accounts and tokens. ----------------------------------------------------------------
    gm, gm_id = sign_up(f"gm_{slug}")
    p1, p1_id = sign_up(f"p1_{slug}")
    p2, p2_id = sign_up(f"p2_{slug}")
    stranger, _ = sign_up(f"stranger_{slug}")
    anon = Client()
    anon.post("auth/register/", {"username": f"gm_{slug}", "password": PASSWORD}, status=400)  # taken
    anon.post("auth/token/", {"username": f"gm_{slug}", "password": "wrong"}, status=400)
    anon.get("campaigns/", status=401)
    Client("not-a-token").get("campaigns/", status=401)

    # 2. The campaign. ------------------------------------------------------------------------
    campaign = gm.post(
        "campaigns/",
        {"name": f"{slug} table", "ruleset": slug, "settings": {"starting_budget": starting}},
        status=201,
    )
    assert {"id", "join_code"} <= set(campaign) and campaign["join_code"]
    cid = campaign["id"]
    p1.post("campaigns/", {"name": "x", "ruleset": "nope"}, status=400)
    for player in (p1, p2):
        joined = player.post("campaigns/join/", {"join_code": campaign["join_code"]}, status=200)
        assert joined == {**joined, "id": cid, "role": "player"}
    detail = gm.get(f"campaigns/{cid}/")
    assert {"id", "name", "ruleset", "settings", "members"} <= set(detail)
    assert (detail["id"], detail["name"], detail["ruleset"]) == (cid, f"{slug} table", slug)
    assert detail["settings"]["starting_budget"] == starting
    roles = {m["id"]: m["role"] for m in detail["members"]}
    assert roles == {gm_id: "gm", p1_id: "player", p2_id: "player"}
    assert p1.get(f"campaigns/{cid}/")["id"] == cid
    assert [c["id"] for c in p2.get("campaigns/")] == [cid]
    stranger.get(f"campaigns/{cid}/", status=404)
    assert stranger.get("campaigns/") == []

    # 3. The character. -----------------------------------------------------------------------
    broken = case["broken"]
    draft = p1.post("characters/", {"campaign": cid, "build": broken}, status=201)
    assert draft["status"] == "draft"
    assert draft["report"]["valid"] is False and draft["report"]["errors"]
    assert set(case["broken_codes"]) <= set(codes(draft["report"])), draft["report"]["errors"]
    refused = p1.post(f"characters/{draft['id']}/submit/", {}, status=422)  # only a valid build is submitted
    assert refused["errors"] and all(e.get("code") for e in refused["errors"]), refused
    resaved = p1.post(
        f"characters/{draft['id']}/draft/", {"version": draft["version"], "build": pc_build}, status=200
    )
    assert resaved["version"] == draft["version"] + 1 and resaved["report"]["valid"] is True
    p1.post(f"characters/{draft['id']}/draft/", {"version": draft["version"], "build": broken}, status=409)

    sent = copy.deepcopy(pc_build)
    sent["budget"] = {c: v + 999 for c, v in starting.items()}  # the campaign's budget wins
    created = p1.post("characters/", {"campaign": cid, "build": sent}, status=201)
    assert {"id", "version", "build", "state", "report", "budget"} <= set(created)
    assert created["status"] == "draft" and created["report"]["valid"] is True, created["report"]
    assert created["build"]["budget"] == starting
    assert created["build"]["ruleset"] == slug
    pc = created["id"]
    url = f"characters/{pc}/"

    submitted = p1.post(f"{url}submit/", {"version": created["version"]}, status=200)
    assert submitted["status"] == "active" and submitted["version"] > created["version"]
    p1.post(f"{url}submit/", {}, status=422)  # not a draft any more
    p1.post(f"{url}draft/", {"version": submitted["version"], "build": pc_build}, status=422)

    sheet = p1.get(url)
    assert {"id", "version", "owner", "campaign", "build", "state", "report", "budget"} <= set(sheet)
    assert (sheet["id"], sheet["owner"], sheet["campaign"]) == (pc, p1_id, cid)
    assert sheet["build"]["name"] == pc_build["name"] and sheet["report"]["valid"] is True
    assert {c["id"] for c in p1.get("characters/", {"campaign": cid})} == {draft["id"], pc}

    export = p1.get(f"{url}export/")
    assert export["format"] == FORMAT and export["ruleset"] == slug and export["name"] == pc_build["name"]
    assert export["budget"] == starting
    assert export == {**sheet["build"], "format": FORMAT}

    history = p1.get(f"{url}history/")
    numbers = [v["number"] for v in history]
    assert numbers == sorted(numbers, reverse=True) and numbers[0] == sheet["version"] and len(numbers) >= 2

    state = p1.patch(url, {"version": sheet["version"], "state": sheet["state"]}, status=200)
    assert state["version"] == sheet["version"] + 1 and state["state"] == sheet["state"]
    p1.patch(url, {"version": sheet["version"], "state": sheet["state"]}, status=409)
    gm.patch(url, {"version": sheet["version"], "state": sheet["state"]}, status=409)
    p1.patch(url, {"version": state["version"], "build": {}}, status=400)  # play state only
    assert p1.get(url)["version"] == state["version"]

    # Player 2 is a member but not the owner: every character endpoint is a 404.
    for path in ("", "export/", "history/", "ledger/", "advancements/"):
        p2.get(f"{url}{path}", status=404)
        stranger.get(f"{url}{path}", status=404)
    p2.patch(url, {"version": state["version"], "state": sheet["state"]}, status=404)
    p2.post(f"{url}submit/", {}, status=404)
    p2.post(f"{url}draft/", {"version": state["version"], "build": pc_build}, status=404)
    p2.post(f"{url}revert/", {"to_version": 1}, status=404)
    p2.post(f"{url}advancements/", {"build": pc_build}, status=404)
    p2.post(f"{url}awards/", {"currency": case["advance"].currency, "amount": 1, "reason": "x"}, status=404)
    assert pc not in [c["id"] for c in p2.get("characters/", {"campaign": cid})]
    # The GM reads it.
    assert gm.get(url)["id"] == pc
    assert gm.get(f"{url}export/")["format"] == FORMAT
    assert gm.get(f"{url}history/")[0]["number"] == state["version"]
    assert pc in [c["id"] for c in gm.get("characters/", {"campaign": cid})]

    # 4. Advancement. -------------------------------------------------------------------------
    currency, cost = case["advance"].currency, case["advance"].cost
    award_amount = cost  # more than was unspent before the award, unless it had all of it
    p1.post(
        f"{url}awards/", {"currency": currency, "amount": award_amount, "reason": "self-serve"}, status=403
    )
    award = gm.post(
        f"{url}awards/", {"currency": currency, "amount": award_amount, "reason": "the ogre"}, status=201
    )
    assert (award["currency"], award["amount"], award["kind"]) == (currency, award_amount, "award")
    assert award["character"] == pc and award["reason"] == "the ogre" and "id" in award
    gm.post(f"{url}awards/", {"currency": "no_such_currency", "amount": 1, "reason": "x"}, status=400)

    before = p1.get(url)
    wanted = {**copy.deepcopy(case["advance"].build), "budget": before["build"]["budget"]}
    p1.post(f"{url}advancements/", {"build": {**wanted, "name": ""}}, status=422)  # invalid → refused
    gm.post(f"{url}advancements/", {"build": wanted}, status=403)  # the owner proposes, not the GM

    # A first request, rejected: nothing applied.
    first = p1.post(f"{url}advancements/", {"build": wanted}, status=201)
    assert first["status"] == "pending" and first["diff"] and first["report"]["valid"] is True
    assert first["cost"][currency] == cost
    pending = gm.get("advancements/", {"campaign": cid, "status": "pending"})
    assert [a["id"] for a in pending] == [first["id"]]
    assert p2.get("advancements/", {"campaign": cid, "status": "pending"}) == []
    stranger.get("advancements/", {"campaign": cid}, status=404)
    p1.post(f"advancements/{first['id']}/approve/", {}, status=403)
    p1.post(f"advancements/{first['id']}/reject/", {"comment": "nah"}, status=403)
    p2.post(f"advancements/{first['id']}/approve/", {}, status=404)
    gm.post(f"advancements/{first['id']}/reject/", {}, status=400)  # a rejection needs a comment
    rejected = gm.post(
        f"advancements/{first['id']}/reject/", {"comment": "Not in the middle of the siege."}, status=200
    )
    assert rejected["status"] == "rejected"
    gm.post(f"advancements/{first['id']}/approve/", {}, status=409)
    unchanged = p1.get(url)
    assert (unchanged["version"], unchanged["build"]) == (before["version"], before["build"])
    assert gm.get("advancements/", {"campaign": cid, "status": "pending"}) == []

    # A second request, approved and applied.
    second = p1.post(f"{url}advancements/", {"build": wanted, "note": "after the siege"}, status=201)
    assert second["status"] == "pending" and second["cost"][currency] == cost
    assert {"id", "status", "diff", "report", "cost"} <= set(second)
    pending = gm.get("advancements/", {"campaign": cid, "status": "pending"})
    assert [a["id"] for a in pending] == [second["id"]]
    approved = gm.post(f"advancements/{second['id']}/approve/", {"comment": "Well earned."}, status=200)
    assert approved["status"] == "approved"
    gm.post(f"advancements/{second['id']}/approve/", {}, status=409)
    gm.post(f"advancements/{second['id']}/reject/", {"comment": "too late"}, status=409)
    after = p1.get(url)
    assert after["version"] > before["version"]
    assert {k: v for k, v in after["build"].items() if k != "budget"} == {
        k: v for k, v in wanted.items() if k not in ("budget",)
    } | {"format": FORMAT}
    assert after["build"]["budget"][currency] == starting.get(currency, 0) + award_amount
    assert after["report"]["valid"] is True

    ledger = p1.get(f"{url}ledger/")
    assert gm.get(f"{url}ledger/") == ledger
    entries = ledger["entries"]
    kinds = [(e["kind"], e["currency"], e["amount"]) for e in entries]
    assert ("award", currency, award_amount) in kinds
    assert ("spend", currency, -cost) in kinds
    assert all("balance" in e for e in entries)
    mine = [e for e in entries if e["currency"] == currency]
    running = 0
    for e in mine:
        running += e["amount"]
        assert e["balance"] == running, mine
    assert ledger["balance"][currency] == running == after["budget"][currency]["unspent"]

    # 5. An encounter. ------------------------------------------------------------------------
    p1.post("encounters/", {"campaign": cid, "name": "Ambush"}, status=403)
    stranger.post("encounters/", {"campaign": cid, "name": "Ambush"}, status=404)
    encounter = gm.post("encounters/", {"campaign": cid, "name": "Ambush at the ford"}, status=201)
    eid = encounter["id"]
    enc = f"encounters/{eid}/"
    me = gm.post(f"{enc}combatants/", {"character": pc}, status=201)["id"]
    npc_build = case["npc"]
    p1.post(f"{enc}combatants/", {"name": "Bandit", "build": npc_build}, status=403)  # NPCs: the GM's
    npc = gm.post(f"{enc}combatants/", {"name": "Bandit", "build": npc_build}, status=201)["id"]
    p1.post(f"{enc}start/", {}, status=403)
    started = gm.post(f"{enc}start/", {}, status=200)
    assert sorted(started["order"]) == sorted([me, npc])
    gm.post(f"{enc}start/", {}, status=422)

    board = p1.get(enc)
    encounter_row = Encounter.objects.get(pk=eid)
    action = vehicles.fight_action(
        encounter_row, Combatant.objects.get(pk=me), gm=False, target=Combatant.objects.get(pk=npc)
    )
    assert action, f"{slug}'s PC has no action on its turn"
    case["action"] = action
    assert {"id", "round", "turn", "order", "combatants", "log"} <= set(board)
    assert board["id"] == eid and board["round"] == 1 and isinstance(board["log"], list) and board["log"]
    assert {c["id"] for c in board["combatants"]} == set(board["order"]) == {me, npc}
    assert board == gm.get(enc) == p2.get(enc)
    stranger.get(enc, status=404)
    stranger.post(f"{enc}actions/", {"combatant": me, **case["action"]}, status=404)
    stranger.post(f"{enc}next-turn/", {}, status=404)

    def current(b):
        return b["order"][b["turn"]]

    def refuse_off_turn(b):
        """Not the PC's turn: the player's action is a 422 with the rule's code; nothing changes."""
        refused = p1.post(f"{enc}actions/", {"combatant": me, **case["action"]}, status=422)
        assert any(str(c).endswith("not_your_turn") for c in codes(refused)), refused
        assert all(e.get("message") for e in refused["errors"])
        assert p1.get(enc) == b

    refused_once = False
    for _ in range(4):  # at most a round and a bit until the PC's turn
        if current(board) == me:
            break
        if not refused_once:
            refuse_off_turn(board)
            refused_once = True
        p1.post(f"{enc}next-turn/", {}, status=403)  # not the player's turn to end
        board = gm.post(f"{enc}next-turn/", {}, status=200)
    assert current(board) == me, board

    # The player acts for their combatant; others may not.
    p1.post(f"{enc}actions/", {"combatant": npc, **case["action"]}, status=403)
    p2.post(f"{enc}actions/", {"combatant": me, **case["action"]}, status=403)
    assert p1.get(enc) == board
    acted = p1.post(f"{enc}actions/", {"combatant": me, **case["action"]}, status=200)
    assert {"id", "round", "turn", "order", "combatants", "log"} <= set(acted)
    assert acted["log"][: len(board["log"])] == board["log"]
    new_events = acted["log"][len(board["log"]) :]
    # One event, whatever the dice said (and the turn passing, for an action that ends the turn).
    assert [e["actor"] for e in action_events(new_events)] == [me], new_events
    assert new_events[0]["actor"] == me and new_events[0]["seq"] == board["log"][-1]["seq"] + 1
    assert p1.get(enc) == acted
    p1.post(f"{enc}actions/", {"combatant": me, "action": "no_such_action"}, status=422)
    p1.post(
        f"{enc}actions/",
        {"combatant": me, **case["action"], "expected_version": board["version"]},
        status=409,
    )  # stale
    assert p1.get(enc) == acted

    # The acting player ends their turn (unless the action did); off turn, the same action is refused.
    board = p1.post(f"{enc}next-turn/", {}, status=200) if current(acted) == me else acted
    for _ in range(3):
        if current(board) != me:
            break
        board = gm.post(f"{enc}next-turn/", {}, status=200)
    assert current(board) != me
    refuse_off_turn(board)
    p1.post(f"{enc}actions/", {"combatant": npc, **case["action"]}, status=403)
    assert p1.get(enc) == board
    assert [e["id"] for e in gm.get("encounters/", {"campaign": cid})] == [eid]

    # 6. Errors everywhere. -------------------------------------------------------------------
    huge = {"campaign": cid, "build": {**pc_build, "notes": "x" * (257 * 1024)}}
    p1.call("post", "characters/", raw=json.dumps(huge), status=413)
    p1.call("patch", url, raw=json.dumps({"version": 1, "state": {"x": "y" * (300 * 1024)}}), status=413)
    gm.call(
        "post", f"{enc}actions/", raw=json.dumps({"combatant": npc, "pad": "z" * (260 * 1024)}), status=413
    )
    anon.call(
        "post",
        f"rulesets/{slug}/validate/",
        raw=json.dumps({**pc_build, "notes": "n" * (257 * 1024)}),
        status=413,
    )
    for path in (
        "campaigns/",
        "campaigns/join/",
        "characters/",
        f"{url}advancements/",
        f"{url}awards/",
        f"advancements/{second['id']}/approve/",
        "encounters/",
        f"{enc}combatants/",
        f"{enc}actions/",
        f"{enc}next-turn/",
    ):
        gm.call("post", path, raw="{not json", status=400)
        gm.call("post", path, raw="[1, 2]", status=400)
    p1.call("patch", url, raw="{not json", status=400)
    p1.call("patch", url, raw="[]", status=400)
    anon.call("post", "auth/token/", raw="{not json", status=400)
    anon.call("post", f"rulesets/{slug}/validate/", raw="{not json", status=400)
    # Bodies the services could not store or walk are 400s, not 500s.
    nul = {**pc_build, "notes": "a\u0000b"}
    p1.call("post", "characters/", raw=json.dumps({"campaign": cid, "build": nul}), status=400)
    p1.call("post", f"{url}advancements/", raw=json.dumps({"build": nul}), status=400)
    gm.call("post", f"{enc}combatants/", raw=json.dumps({"name": "Bandit", "build": nul}), status=400)
    now = p1.get(url)
    lone = json.dumps({"version": now["version"], "state": {**now["state"], "note": "\ud800"}})
    assert "\\ud800" in lone
    p1.call("patch", url, raw=lone, status=400)
    gm.call(
        "post",
        f"{enc}actions/",
        raw=json.dumps({"combatant": npc, "action": "aid", "note": "\ud800"}),
        status=400,
    )
    nested: object = "deep"
    for _ in range(200):
        nested = [nested]
    p1.call(
        "post",
        "characters/",
        raw=json.dumps({"campaign": cid, "build": {**pc_build, "notes": nested}}),
        status=400,
    )
    p1.call("post", "characters/", raw="[" * 20000 + "]" * 20000, status=400)
    assert p1.get(url) == now
    p1.call("put", "campaigns/", raw="{}", status=405)
    p1.get("characters/", {"campaign": "abc"}, status=400)
    p1.get("characters/999999999/", status=404)
    gm.get("encounters/999999999/", status=404)
    gm.post("advancements/999999999/approve/", {}, status=404)
    p1.post("campaigns/join/", {"join_code": "NOPE-NOPE"}, status=400)
