import json
import pytest
from tests.test_acceptance_api import Client, sign_up, demo
pytestmark = pytest.mark.django_db

def show(c, method, path, body=None, raw=None, ct="application/json"):
    url = path if path.startswith("/") else f"/api/v1/{path}"
    api = c.api
    api.raise_request_exception = False
    if raw is not None:
        r = api.generic(method.upper(), url, raw, content_type=ct)
    elif method == "get":
        r = api.get(url, body or {})
    else:
        r = api.generic(method.upper(), url, json.dumps(body), content_type="application/json")
    print(method, path, r.status_code, r.get("Content-Type"), r.content[:300])
    return r

def test_probe():
    gm, _ = sign_up("gmx"); p1, _ = sign_up("p1x")
    camp = gm.post("campaigns/", {"name": "t", "ruleset": "pando"}, status=201)
    p1.post("campaigns/join/", {"join_code": camp["join_code"]}, status=200)
    b = demo("pando", "alex")
    show(gm, "get", "/api/v1/nope/")
    show(gm, "get", "characters/99999999999999999999/")
    show(gm, "get", "encounters/99999999999999999999/")
    show(gm, "get", "characters/", {"campaign": "99999999999999999999"})
    show(gm, "get", "advancements/", {"campaign": "99999999999999999999"})
    show(gm, "post", "campaigns/join/", {"join_code": "x\u0000y"})
    show(p1, "post", "characters/", {"campaign": camp["id"], "build": {**b, "notes": "a\u0000b"}})
    show(p1, "post", "characters/", {"campaign": 99999999999999999999, "build": b})
    ch = p1.post("characters/", {"campaign": camp["id"], "build": b}, status=201)
    show(p1, "post", f"characters/{ch['id']}/draft/", {"version": ch["version"], "build": {**b, "notes": "a\u0000b"}})
    show(p1, "post", f"characters/{ch['id']}/draft/", {"version": ch["version"], "build": {**b, "x\u0000": 1}})
    sub = p1.post(f"characters/{ch['id']}/submit/", {}, status=200)
    show(p1, "patch", f"characters/{ch['id']}/", {"version": sub["version"], "state": {"notes": "a\u0000"}})
    show(p1, "patch", f"characters/{ch['id']}/", {"version": sub["version"], "state": {"a": "\ud800"}})
    gm.post(f"characters/{ch['id']}/awards/", {"currency": "cp", "amount": 10, "reason": "r"}, status=201)
    show(gm, "post", f"characters/{ch['id']}/awards/", {"currency": "cp", "amount": 10, "reason": "r\u0000"})
    show(p1, "post", f"characters/{ch['id']}/advancements/", {"build": {**b, "skills": b["skills"] + ["athletics"], "notes": "a\u0000"}})
    show(p1, "post", f"characters/{ch['id']}/advancements/", {"build": {**b, "skills": b["skills"] + ["athletics"]}, "note": "a\u0000"})
    e = gm.post("encounters/", {"campaign": camp["id"], "name": "E"}, status=201)
    show(gm, "post", f"encounters/{e['id']}/combatants/", {"name": "N", "build": {**b, "notes": "z\u0000"}})
    show(gm, "post", f"encounters/{e['id']}/combatants/", {"character": 99999999999999999999})
    me = gm.post(f"encounters/{e['id']}/combatants/", {"character": ch["id"]}, status=201)["id"]
    gm.post(f"encounters/{e['id']}/combatants/", {"name": "N", "build": b}, status=201)
    gm.post(f"encounters/{e['id']}/start/", {}, status=200)
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": me, "action": "aid", "note": "x\u0000", "target": me})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": me, "action": "move", "target": 99999999999999999999})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": me, "action": {"action": "move", "x": "\u0000"}})
    show(gm, "post", "encounters/", {"campaign": camp["id"], "name": "x\u0000"})
    show(gm, "post", "campaigns/", raw="name=x", ct="application/x-www-form-urlencoded")
    show(gm, "post", "campaigns/", raw=b"\xff\xfe{", ct="application/json")
    show(gm, "put", "campaigns/", {})
    show(gm, "post", f"characters/{ch['id']}/revert/", {"to_version": 99999999999999})
    show(gm, "post", f"/api/v1/rulesets/pando/validate/", {**b, "notes": "\u0000"})
    show(gm, "post", f"/api/v1/rulesets/pando/validate/", {**b, "\ud800": 1})
    show(p1, "post", "characters/", {"campaign": camp["id"], "build": {**b, "notes": "a\ud800b"}})
    show(gm, "post", f"encounters/{e['id']}/actions/", {"combatant": me, "action": "aid", "note": "x\ud800", "target": me})
