"""No Pando combat step overflows (issue #32): an NPC stored before the sanity bound with
acrobatics 10**400 made every start of its encounter a 500 (``float()`` of the group's average
Momentum, OverflowError). The turn order's averages are exact fractions now: the fight starts and
the huge one goes first."""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.rulesets.combat_helpers import make_fighter

PANDO = registry.get("pando")


@pytest.mark.parametrize("huge", [10**400, 2**63, 10**30])
def test_a_huge_npc_group_still_gets_a_turn_order(huge):
    rules = PANDO.combat()
    quick = {**copy.deepcopy(PANDO.quick_npc()), "name": "Goblin"}
    giant = copy.deepcopy(quick)
    giant["attributes"]["acrobatics"] = huge
    giant["budget"] = {"cp": 2 * huge**2}  # an NPC is not held to it; make_fighter asks a valid build
    fighters = [
        make_fighter(PANDO, 1, {**giant, "name": "Giant 1"}, npc=True, group="Giants"),
        make_fighter(PANDO, 2, {**giant, "name": "Giant 2"}, npc=True, group="Giants"),
        make_fighter(PANDO, 3, quick, npc=True),
    ]
    out = rules.start(fighters, {}, FixedRoller([1, 2, 3, 4, 5, 6] * 4))
    assert out.order == [1, 2, 3]
    momentum = huge + quick["attributes"]["presence"]
    assert out.combat[1]["momentum"] == out.combat[2]["momentum"] == momentum
    text = next(e.text for e in out.events if e.kind == "order")
    assert text.startswith(f"Turn order by Momentum: Giants ({momentum}), Goblin (")


@pytest.mark.django_db
def test_the_gm_cannot_set_a_momentum_past_the_bound():
    """The number a person types into an action (the GM's "Set Momentum", no maximum of its own)
    is bounded like any stored number: a 400 value.out_of_bounds, the encounter unchanged."""
    from combat import services
    from combat.models import Encounter
    from tests.factories import api_client, make_campaign, make_user

    gm = make_user("gm")
    campaign = make_campaign(gm=gm, ruleset="pando")
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Bridge")
    [goblin] = services.encounter_add_combatant(
        encounter=encounter, user=gm, build={**PANDO.quick_npc(), "name": "Goblin"}
    )
    services.encounter_start(encounter=encounter, user=gm, roller=FixedRoller([3] * 10))
    before = Encounter.objects.get(pk=encounter.pk).version
    api = api_client(gm, token=True)
    url = f"/api/v1/encounters/{encounter.pk}/actions/"
    got = api.post(url, {"combatant": goblin.pk, "action": "gm_momentum", "value": 10**30}, format="json")
    assert got.status_code == 400, got.json()
    assert [(e["code"], e["path"]) for e in got.json()["errors"]] == [("value.out_of_bounds", "/value")]
    assert Encounter.objects.get(pk=encounter.pk).version == before
    ok = api.post(url, {"combatant": goblin.pk, "action": "gm_momentum", "value": 9}, format="json")
    assert ok.status_code == 200, ok.json()
