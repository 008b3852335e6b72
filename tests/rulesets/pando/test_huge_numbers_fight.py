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
