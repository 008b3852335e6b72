"""Maelstrom's join and turn_start are the engine's defaults (rulesets/engine/combat.py), fed by its
initiative (Reflexes + Wits + d10), its fresh turn and who cannot act; perform opens with the
engine's ``allowed_spec``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine import FixedRoller, registry
from rulesets.engine.combat import CombatRefused, CombatRules
from rulesets.systems.maelstrom.combat import MaelstromCombat
from tests.rulesets import combat_helpers

ROOT = Path(__file__).resolve().parents[3]
RULESET = registry.get("maelstrom")
RULES = RULESET.combat()
ROOK = json.loads((ROOT / "rulesets/systems/maelstrom/demo/rook.json").read_text())  # reflexes 4, wits 2


def fighter(fid: int, *, state: dict | None = None):
    f = combat_helpers.make_fighter(RULESET, fid, ROOK, npc=True)
    if state is not None:
        f.state = state
    return f


def test_maelstrom_has_no_copy_of_join_or_turn_start():
    assert "join" not in MaelstromCombat.__dict__ and "turn_start" not in MaelstromCombat.__dict__
    assert MaelstromCombat.join is CombatRules.join and MaelstromCombat.turn_start is CombatRules.turn_start


def test_a_latecomer_rolls_initiative_and_acts_last_this_round():
    newcomer = fighter(7)
    out = RULES.join(newcomer, [newcomer], {}, FixedRoller([5]))
    assert out.combat == {
        7: {
            "acted": False,
            "willpower_spent": False,
            "willpower_roll": None,
            "initiative": 11,
            "initiative_roll": 5,
            "initiative_base": 6,
        }
    }
    assert [e.text for e in out.events] == [
        "Rook Abara joins: initiative 11 (6 + 5); they act last this round."
    ]


def test_a_turn_starts_afresh_and_says_who_cannot_act():
    f = fighter(1)
    f.combat = {"acted": True, "willpower_spent": True, "willpower_roll": "botch", "initiative": 9}
    out = RULES.turn_start(f, [f], {}, FixedRoller([]))
    assert out.combat[1] == {
        "acted": False,
        "willpower_spent": False,
        "willpower_roll": None,
        "initiative": 9,
    }
    assert out.events == []
    assert f.combat["acted"] is True  # the fighter's numbers are not mutated
    down = fighter(2, state={**f.state, "willpower": 0})
    out = RULES.turn_start(down, [down], {}, FixedRoller([]))
    assert [e.text for e in out.events] == ["Rook Abara is incapacitated (no willpower left) and cannot act."]


def test_the_engine_defaults_do_nothing_for_a_ruleset_without_initiative():
    bare = CombatRules(RULESET)
    f = fighter(1)
    assert RULES.join.__func__ is CombatRules.join
    out = bare.join(f, [f], {}, FixedRoller([]))
    assert (out.combat, out.events) == ({}, [])
    out = bare.turn_start(f, [f], {}, FixedRoller([]))
    assert (out.combat, out.events) == ({}, [])


def test_perform_refuses_an_action_that_is_not_allowed_with_its_rule():
    f = fighter(1)
    f.combat = {**RULES.fresh_turn(), "acted": True}
    with pytest.raises(CombatRefused) as refused:
        RULES.perform({"action": "roll"}, f, [f], {}, FixedRoller([]), current=1, by_gm=False)
    assert refused.value.code == "maelstrom.already_acted"
    with pytest.raises(CombatRefused) as refused:
        RULES.perform({"action": "fly"}, f, [f], {}, FixedRoller([]), current=1, by_gm=False)
    assert refused.value.code == "combat.unknown_action"
