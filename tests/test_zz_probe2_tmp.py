import json
import pytest
from tests.test_acceptance_api import Client, sign_up, demo
from tests.test_zz_probe_tmp import show
pytestmark = pytest.mark.django_db

def test_probe2():
    gm, _ = sign_up("gmx"); p1, _ = sign_up("p1x")
    show(Client(), "post", "auth/register/", {"username": "a\ud800", "password": "x"})
    show(Client(), "post", "auth/token/", {"username": "a\ud800", "password": "x"})
    show(Client(), "post", "auth/token/", {"username": "a\u0000", "password": "x"})
    show(gm, "post", "campaigns/", {"name": "t\ud800", "ruleset": "pando"})
    camp = gm.post("campaigns/", {"name": "t", "ruleset": "pando"}, status=201)
    show(p1, "post", "campaigns/join/", {"join_code": "\ud800"})
    p1.post("campaigns/join/", {"join_code": camp["join_code"]}, status=200)
    b = demo("pando", "alex")
    show(p1, "post", "characters/", {"campaign": camp["id"], "name": "x\ud800"})
    ch = p1.post("characters/", {"campaign": camp["id"], "build": b}, status=201)
    sub = p1.post(f"characters/{ch['id']}/submit/", {}, status=200)
    show(gm, "post", f"characters/{ch['id']}/awards/", {"currency": "cp", "amount": 10, "reason": "r\ud800"})
    e = gm.post("encounters/", {"campaign": camp["id"], "name": "E"}, status=201)
    show(gm, "post", "encounters/", {"campaign": camp["id"], "name": "E\ud800"})
    me = gm.post(f"encounters/{e['id']}/combatants/", {"character": ch["id"]}, status=201)["id"]
    show(gm, "post", f"encounters/{e['id']}/combatants/", {"name": "N\ud800", "build": b})
    show(gm, "post", f"encounters/{e['id']}/combatants/", {"name": "N", "build": b, "group": "g\ud800"})
    npc = gm.post(f"encounters/{e['id']}/combatants/", {"name": "N", "build": b}, status=201)["id"]
    board = gm.post(f"encounters/{e['id']}/start/", {}, status=200)
    cur = board["order"][board["turn"]]
    other = npc if cur == me else me
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": cur, "action": "aid", "note": "x\u0000", "target": other})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": cur, "action": "aid", "note": "x\ud800", "target": other})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": cur, "action": "aid\u0000", "target": other})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": cur, "action": {"action": "aid", "note": "y\u0000"}, "target": other})
