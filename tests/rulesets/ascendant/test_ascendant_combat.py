"""Ascendant combat hooks, pure Python: scripted fights with fixed dice (rulesets/systems/ascendant/combat/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine import registry
from rulesets.engine.combat import Fighter
from tests.rulesets import combat_helpers
from tests.rulesets.report_helpers import typical

ROOT = Path(__file__).resolve().parents[3]
RULESET = registry.get("ascendant")
RULES = RULESET.combat()


def _build(path: str, name: str | None = None) -> dict:
    build = json.loads((ROOT / path).read_text())
    if name:
        build["name"] = name
    return build


LIRAEL = _build(
    "rulesets/systems/ascendant/demo/lirael.json"
)  # bard 5: rapier +8 (dex), Deflection 19, Perception 6 (+2)
CULTIST = _build(
    "rulesets/systems/ascendant/demo/ysolde.json", "Cultist"
)  # wizard 1: Deflection 14, 16 Stamina, Perc 4
BRANNOC = typical("ascendant")  # fighter 10: longsword +12, Power Attack


def fighter(id: int, build: dict, *, npc: bool) -> Fighter:
    return combat_helpers.make_fighter(RULESET, id, build, npc=npc)


class Table(combat_helpers.Table):
    rules = RULES


@pytest.fixture
def table() -> Table:
    """Lirael (PC 1) against two cultists (NPCs 2 and 3). Initiative: Lirael d20 10 + 8 = 18, Cultist 14 + 4 = 18
    (a tie: the NPC goes first), Cultist 2 3 + 4 = 7."""
    t = Table(
        fighter(1, LIRAEL, npc=False),
        fighter(2, CULTIST, npc=True),
        fighter(3, {**CULTIST, "name": "Cultist 2"}, npc=True),
    )
    t.start([10, 14, 3])
    return t


def test_initiative_is_a_perception_check_ties_go_to_npcs(table):
    assert table.order == [2, 1, 3]
    assert table.log == [
        "Initiative (Perception): Cultist 18 (d20 14 +4), Lirael Windsong 18 (d20 10 +8), "
        "Cultist 2 7 (d20 3 +4)."
    ]
    lirael = table.by_id[1].combat
    assert lirael["initiative"] == 18 and lirael["initiative_modifier"] == 8
    assert lirael["initiative_applied"] == ["Incredible Initiative"]
    assert (lirael["actions"], lirael["reaction"], lirael["attacks"]) == (3, True, 0)


def test_initiative_ties_between_pcs_go_to_the_higher_dexterity():
    t = Table(fighter(1, {**CULTIST, "name": "Ysolde"}, npc=False), fighter(2, LIRAEL, npc=False))
    t.start([14, 10])  # 18 and 18: Lirael's Dexterity +4 beats Ysolde's +2
    assert t.order == [2, 1]


def test_three_strikes_with_the_multiple_attack_penalty_then_no_actions_left(table):
    table.turn(1)
    assert table.spec(1, "strike").odds == {"modifier": 8, "threshold": 14}
    table.act(1, {"action": "strike", "target": 2, "weapon": "rapier"}, [10, 3])
    assert table.log[-1] == (
        "Lirael Windsong: Strike at Cultist with the rapier (−1 action): d20 10 +8 = 18 vs "
        "Deflection 14: success — 3 damage (1d6 3). Cultist takes 3 damage: 13/16 Stamina."
    )
    spec = table.spec(1, "strike")
    assert (
        spec.odds == {"modifier": 3, "threshold": 14}
        and spec.cost == "1 action (2nd attack: −5, house default)"
    )
    table.act(1, {"action": "strike", "target": "2", "weapon": "rapier"}, [15, 4])  # a form sends "2"
    assert "d20 15 +3 = 18 vs Deflection 14: success — 4 damage" in table.log[-1]
    # Third: −10. A natural 20 on 20 − 2 = 18 ≥ 14 turns a success into a critical hit: double damage.
    table.act(1, {"action": "strike", "target": 2, "weapon": "rapier"}, [20, 2])
    assert (
        "d20 20 (natural 20) -2 = 18 vs Deflection 14: critical success — 4 damage (1d6 2 ×2 (critical hit))"
        in table.log[-1]
    )
    assert table.by_id[2].state["stamina"] == 16 - 3 - 4 - 4
    assert table.by_id[1].combat["actions"] == 0 and table.by_id[1].combat["attacks"] == 3

    spec = table.spec(1, "strike")
    assert not spec.allowed and spec.code == "ascendant.no_actions_left"
    exc = table.refused("ascendant.no_actions_left", 1, {"action": "strike", "target": 2})
    assert "no actions left" in exc.message and "end the turn" in exc.message


def test_a_two_action_activity_with_one_action_left_is_refused_whole(table):
    table.turn(1)
    assert table.spec(1, "cast_spell").cost == "2 actions (3d6 damage)"
    table.act(1, {"action": "strike", "target": 2}, [1])  # a natural 1 and a miss
    table.act(1, {"action": "stride"})
    assert table.by_id[1].combat["actions"] == 1
    spec = table.spec(1, "cast_spell")
    assert not spec.allowed and spec.code == "ascendant.not_enough_actions"
    exc = table.refused("ascendant.not_enough_actions", 1, {"action": "cast_spell", "target": 2})
    assert exc.message == (
        "Cast a Spell (attack) costs 2 actions but Lirael Windsong has 1 left: take a 1-action "
        "activity or end the turn."
    )
    assert table.spec(1, "stride").allowed  # a 1-action activity still fits


def test_a_spell_costs_two_actions_and_rolls_its_dice(table):
    table.turn(1)
    # Spell attack: proficiency 4 + Charisma 5 = +9 vs 14; 3d6 at level 5.
    table.act(1, {"action": "cast_spell", "target": 2}, [6, 2, 3, 4])
    assert table.log[-1].startswith(
        "Lirael Windsong casts a spell at Cultist (−2 actions): d20 6 +9 = 15 vs "
        "Deflection 14: success — 9 damage (3d6 2+3+4)"
    )
    assert table.by_id[2].state["stamina"] == 7
    assert table.by_id[1].combat["actions"] == 1


def test_the_reaction_is_used_once_per_round_and_refreshed_on_the_own_turn(table):
    table.turn(2)  # the cultist's turn
    spec = table.spec(1, "reactive_strike")
    assert spec.reaction and not spec.allowed and spec.code == "ascendant.no_trigger"
    table.act(2, {"action": "stride"})
    assert table.es["last_action"] == {"actor": 2, "action": "stride"}
    assert table.spec(1, "reactive_strike").allowed  # off her turn, triggered by a foe's Stride
    table.act(1, {"action": "reactive_strike", "target": 2, "weapon": "rapier"}, [9, 6])
    assert table.log[-1].startswith(
        "Lirael Windsong: Reactive Strike at Cultist with the rapier (reaction): d20 9 +8 = 17"
    )  # no multiple attack penalty, no action spent
    lirael = table.by_id[1].combat
    assert lirael["reaction"] is False and lirael["actions"] == 3 and lirael["attacks"] == 0
    assert table.by_id[2].state["stamina"] == 10
    # Her strike on her own turn is refused: not her turn.
    table.refused("combat.not_your_turn", 1, {"action": "strike", "target": 2})

    table.act(2, {"action": "stride"})
    exc = table.refused("ascendant.reaction_used", 1, {"action": "reactive_strike", "target": 2})
    assert "comes back at the start of their turn" in exc.message

    table.turn(1)
    assert table.by_id[1].combat["reaction"] is True and table.by_id[1].combat["actions"] == 3


def test_conditions_stack_by_type_on_checks_and_thresholds(table):
    table.turn(1)
    table.act(1, {"action": "gm_add_condition", "id": "frightened", "value": "2"}, gm=True)
    assert table.log[-1] == "GM: Lirael Windsong is frightened 2."
    assert table.by_id[1].state["conditions"] == [{"id": "frightened", "value": 2}]
    assert table.spec(1, "strike").odds == {"modifier": 6, "threshold": 14}
    # Sickened 1 is another status penalty: only the worse (−2) applies.
    table.act(1, {"action": "gm_add_condition", "id": "sickened", "value": 1}, gm=True)
    assert table.spec(1, "strike").odds["modifier"] == 6
    # Off-guard (circumstance −2) and clumsy 1 (status −1) on the cultist both apply to Deflection.
    table.act(2, {"action": "gm_add_condition", "id": "off_guard"}, gm=True)
    table.act(2, {"action": "gm_add_condition", "id": "clumsy", "value": 1}, gm=True)
    assert table.spec(1, "strike").odds == {"modifier": 6, "threshold": 11}
    table.act(1, {"action": "strike", "target": 2}, [5, 1])
    assert "d20 5 +6 = 11 vs Deflection 11: success" in table.log[-1]
    # Raise a Shield: +2 circumstance, alongside off-guard's −2 circumstance penalty.
    table.turn(2)
    table.act(2, {"action": "raise_shield"})
    assert table.spec(1, "strike").odds["threshold"] == 13
    summary = RULES.summary(table.by_id[2], table.es)
    assert {"label": "Deflection", "value": "13", "key": "deflection"} in summary["stats"]
    assert summary["status"] == ["off-guard", "clumsy 1", "shield raised"]
    # Removing a condition.
    table.act(1, {"action": "gm_remove_condition", "id": "frightened", "value": ""}, gm=True)
    assert table.by_id[1].state["conditions"] == [{"id": "sickened", "value": 1}]
    # A frightened initiative: the condition lowers the Perception check too.
    assert RULES._perception(table.by_id[1])[0] == 6 + 2 - 1


def test_gm_actions_need_the_gm_and_a_valid_amount(table):
    table.turn(1)
    spec = table.spec(2, "gm_damage")
    assert spec.gm and spec.reaction
    table.refused("ascendant.invalid_amount", 2, {"action": "gm_damage", "amount": "lots"}, gm=True)
    table.refused("state.unknown_condition", 2, {"action": "gm_add_condition", "id": "sleepy"}, gm=True)
    table.refused("combat.unknown_action", 2, {"action": "fly"})


def test_an_unconscious_fighter_cannot_act_and_the_dead_cannot_be_targeted(table):
    table.turn(2)
    table.act(2, {"action": "gm_damage", "amount": 16}, gm=True)
    assert table.log[-1] == "GM: Cultist takes 16 damage and falls unconscious, dying 1: 0/16 Stamina."
    spec = table.spec(2, "strike")
    assert not spec.allowed and spec.code == "ascendant.unconscious"
    table.refused("ascendant.unconscious", 2, {"action": "stride"})
    assert RULES.summary(table.by_id[2], table.es)["status"] == ["dying 1", "unconscious"]
    table.act(2, {"action": "gm_add_condition", "id": "dying", "value": 4}, gm=True)
    assert RULES.summary(table.by_id[2], table.es)["status"][0] == "dead"
    table.turn(1)
    table.refused("ascendant.target_dead", 1, {"action": "strike", "target": 2})
    table.refused("combat.invalid_target", 1, {"action": "strike", "target": 1})
    table.refused("combat.invalid_target", 1, {"action": "strike"})
    table.refused("ascendant.unknown_weapon", 1, {"action": "strike", "target": 3, "weapon": "lightsaber"})


def test_power_attack_costs_two_actions_adds_a_die_and_counts_as_two_attacks():
    t = Table(fighter(1, BRANNOC, npc=False), fighter(2, CULTIST, npc=True))
    t.start([10, 1])
    t.turn(1)
    assert t.spec(1, "power_attack").odds == {"modifier": 12, "threshold": 14}
    t.act(1, {"action": "power_attack", "target": 2, "weapon": "longsword"}, [5, 3, 4])
    assert "d20 5 +12 = 17 vs Deflection 14: success — 13 damage (2d8 3+4 +6)" in t.log[-1]
    assert t.by_id[2].state["stamina"] == 3
    spec = t.spec(1, "strike")
    assert spec.cost == "1 action (3rd attack: −10, house default)" and spec.odds["modifier"] == 2
    assert t.by_id[1].combat["actions"] == 1
    assert not t.spec(1, "sudden_charge").allowed


def test_the_free_action_is_once_a_turn_and_the_summary_shows_the_numbers(table):
    table.turn(1)
    table.act(1, {"action": "free_action", "note": "Drops the lantern"})
    assert table.log[-1] == "Lirael Windsong takes a free action: Drops the lantern."
    assert table.by_id[1].combat["actions"] == 3
    table.refused("ascendant.free_action_used", 1, {"action": "free_action"})
    table.act(1, {"action": "stride"})
    table.act(2, {"action": "gm_lose_actions", "amount": 1}, gm=True)  # not the cultist's turn: still allowed
    table.act(1, {"action": "gm_lose_actions", "amount": 1}, gm=True)  # a disrupted activity
    assert table.log[-1] == "GM: Lirael Windsong loses 1 action (1 left)."
    summary = RULES.summary(table.by_id[1], table.es)
    assert summary["stats"] == [
        {"label": "Stamina", "value": "66/66", "key": "stamina"},  # Toughness: +1 per level (#15)
        {"label": "Actions", "value": "1/3", "key": "actions"},
        {"label": "Reaction", "value": "ready", "key": "reaction"},
        {"label": "Deflection", "value": "19", "key": "deflection"},
        {"label": "Initiative", "value": "18", "key": "initiative"},
    ]
    assert summary["status"] == []
