import json
import pytest
from tests.test_acceptance_api import Client, sign_up, demo
from tests.test_zz_probe_tmp import show
pytestmark = pytest.mark.django_db

def test_probe3():
    gm, _ = sign_up("gmx"); p1, _ = sign_up("p1x")
    camp = gm.post("campaigns/", {"name": "t", "ruleset": "pando"}, status=201)
    deep = "[" * 50000 + "]" * 50000
    show(gm, "post", "campaigns/", raw=deep)
    show(Client(), "post", "/api/v1/rulesets/pando/validate/", raw=deep)
    b = demo("pando", "alex")
    nest = 1
    for _ in range(900): nest = [nest]
    show(gm, "post", "characters/", {"campaign": camp["id"], "build": {**b, "notes": nest}})
    show(Client(), "post", "/api/v1/rulesets/pando/validate/", {**b, "notes": nest})
