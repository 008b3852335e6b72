"""Maelstrom combat hooks, pure Python: scripted fights with fixed dice (rulesets/systems/maelstrom/combat/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine import registry, validate
from rulesets.engine.combat import Fighter
from tests.rulesets import combat_helpers
from tests.rulesets.report_helpers import typical

ROOT = Path(__file__).resolve().parents[3]
RULESET = registry.get("maelstrom")
RULES = RULESET.combat()
L, B, A = "lethal", "bashing", "aggravated"


def _build(path: str) -> dict:
    return json.loads((ROOT / path).read_text())


ROOK = _build(
    "rulesets/systems/maelstrom/demo/rook.json"
)  # reflexes 4, wits 2; precision 4 + firearms 3; strength 2; wp 3
KESTREL = _build(
    "rulesets/systems/maelstrom/demo/kestrel.json"
)  # reflexes 2, wits 3; melee 0; investigation 4; wp 4
VASQUEZ = typical("maelstrom")  # reflexes 3, wits 2; precision 4 + firearms 3; wp 3


def fighter(id: int, build: dict, *, npc: bool) -> Fighter:
    return combat_helpers.make_fighter(RULESET, id, build, npc=npc)


class Table(combat_helpers.Table):
    rules = RULES
    refusal_faces = (1,) * 12

    def health(self, fid: int) -> list:
        return self.by_id[fid].state["health"]


@pytest.fixture
def table() -> Table:
    """Rook (PC 1), Vasquez (NPC 2), Kestrel (PC 3). Initiative d10s 3, 4, 4: all three at 9."""
    t = Table(fighter(1, ROOK, npc=False), fighter(2, VASQUEZ, npc=True), fighter(3, KESTREL, npc=False))
    t.start([3, 4, 4])
    return t


def test_initiative_is_reflexes_plus_wits_plus_a_d10_with_documented_ties(table):
    # Rook's Reflexes + Wits 6 beats 5; Kestrel and Vasquez tie at 5: Kestrel's Wits 3 beats 2.
    assert table.order == [1, 3, 2]
    assert table.log == [
        "Initiative (Reflexes + Wits + d10): Rook Abara 9 (6 + 3), Kestrel 9 (5 + 4), "
        "Vasquez Oduya 9 (5 + 4)."
    ]
    assert table.es == {"difficulty": 6, "threshold": 0}
    assert table.by_id[1].combat == {
        "acted": False,
        "willpower_spent": False,
        "willpower_roll": None,
        "initiative": 9,
        "initiative_roll": 3,
        "initiative_base": 6,
    }


def test_pcs_go_before_npcs_when_everything_ties():
    t = Table(fighter(1, {**ROOK, "name": "Rook NPC"}, npc=True), fighter(2, ROOK, npc=False))
    t.start([5, 5])
    assert t.order == [2, 1]


def test_damage_fills_the_track_from_the_top_and_the_pool_shrinks_by_the_wound_penalty(table):
    table.turn(1)
    assert table.spec(2, "ranged").odds == {"pool": 7, "difficulty": 6, "threshold": 0}
    assert table.spec(1, "ranged").odds == {"pool": 7, "difficulty": 6, "threshold": 0}
    # Rook shoots Vasquez: 3 successes → pistol 2 + 2 extra = 4 lethal; Strength 2 soaks 1 (6, 2).
    table.act(1, {"action": "ranged", "target": 2, "weapon": "pistol"}, [6, 7, 8, 2, 3, 4, 5, 6, 2])
    assert table.log[-1] == (
        "Rook Abara attacks Vasquez Oduya with the pistol: 7 dice. Rolled 6, 7, 8, 2, 3, 4, 5 at difficulty 6: "
        "3 successes, 0 botches → 3 successes. Hit: 4 levels of lethal; Vasquez Oduya soaks 1 (Strength 2: 6, 2). "
        "Vasquez Oduya: Takes 3 levels of lethal damage; now Hurt."
    )
    assert table.health(2) == [L, L, L, None, None, None, None, None]
    spec = table.spec(2, "ranged")
    assert spec.odds["pool"] == 6 and "wound penalty -1" in spec.cost
    assert table.by_id[1].combat["acted"] is True

    # The GM adds bashing (below the lethal), then aggravated (on top of everything).
    table.act(2, {"action": "gm_damage", "levels": "2", "type": "bashing"}, gm=True)
    assert table.health(2) == [L, L, L, B, B, None, None, None]
    assert table.spec(2, "ranged").odds["pool"] == 5  # Wounded −2
    table.act(2, {"action": "gm_damage", "levels": 1, "type": "aggravated"}, gm=True)
    assert table.health(2) == [A, L, L, L, B, B, None, None]
    assert table.spec(2, "ranged").odds["pool"] == 4  # Mauled −3
    assert table.log[-1] == "GM: Vasquez Oduya: Takes 1 level of aggravated damage; now Mauled."
    summary = RULES.summary(table.by_id[2], table.es)
    assert summary["stats"][:3] == [
        {"label": "Health", "value": "Mauled (2 bashing, 3 lethal, 1 aggravated)", "key": "health"},
        {"label": "Wound penalty", "value": "-3", "key": "wound_penalty"},
        {"label": "Willpower", "value": "3/3", "key": "willpower"},
    ]
    assert summary["status"] == ["Mauled (-3 dice)"]


def test_one_action_a_turn_and_only_on_your_turn(table):
    table.turn(1)
    table.act(
        1, {"action": "melee", "target": 2, "weapon": "fists"}, [1, 2, 3]
    )  # Strength 2 + Melee 1: a botch
    assert table.log[-1].endswith("→ botch (1 uncancelled). Miss.")
    exc = table.refused("maelstrom.already_acted", 1, {"action": "ranged", "target": 2})
    assert "one action a turn" in exc.message
    assert not table.spec(1, "roll").allowed
    table.refused("combat.not_your_turn", 3, {"action": "ranged", "target": 2})
    table.turn(3)
    assert table.spec(3, "ranged").allowed
    assert not table.spec(1, "ranged").allowed and table.spec(1, "ranged").code == "combat.not_your_turn"


def test_aggravated_damage_cannot_be_soaked_and_misses_do_nothing(table):
    table.turn(1)
    table.act(1, {"action": "melee", "target": 2, "weapon": "plasma_cutter"}, [9, 9, 2])  # 2 successes
    assert table.log[-1].endswith(
        "Hit: 3 levels of aggravated; Vasquez Oduya aggravated damage cannot be soaked. "
        "Vasquez Oduya: Takes 3 levels of aggravated damage; now Hurt."
    )
    assert table.health(2)[:4] == [A, A, A, None]
    table.turn(3)
    table.act(3, {"action": "melee", "target": 2, "weapon": "club"}, [5, 5])  # Kestrel: no Melee dots
    assert "2 dice (no Melee dots: strength alone)" in table.log[-1] and table.log[-1].endswith("Miss.")
    table.turn(2)
    # Hurt (−1): 6 dice. Everything soaked: stunner 2 bashing + 0 extra, Kestrel's Strength 2 soaks 2.
    table.act(2, {"action": "ranged", "target": 3, "weapon": "stunner"}, [6, 2, 2, 2, 2, 2, 6, 6])
    assert "6 dice (wound penalty -1)" in table.log[-1]
    assert table.log[-1].endswith("Hit: 2 levels of bashing; Kestrel soaks 2 (Strength 2: 6, 6) — no damage.")
    assert table.health(3) == [None] * 8


def test_willpower_ignores_the_wound_penalty_for_one_action(table):
    table.act(2, {"action": "gm_damage", "levels": 6, "type": "lethal"}, gm=True)  # Mauled: −3
    table.turn(2)
    assert table.spec(2, "ranged").odds["pool"] == 4
    table.act(2, {"action": "spend_willpower"})
    assert table.log[-1] == (
        "Vasquez Oduya: Spends a willpower dot to ignore wound penalties for the next action. (2 left)"
    )
    assert table.by_id[2].state["willpower"] == 2 and table.by_id[2].state["ignore_wounds"] is True
    assert table.spec(2, "ranged").odds["pool"] == 7
    table.refused("maelstrom.wounds_already_ignored", 2, {"action": "spend_willpower"})
    # Rifle at Rook: 2 successes − 1 botch = 1 → 3 lethal; Rook's soak botches (1, 1): nothing soaked.
    table.act(2, {"action": "ranged", "target": 1, "weapon": "rifle"}, [1, 2, 3, 4, 5, 6, 9, 1, 1])
    assert table.log[-1].startswith(
        "Vasquez Oduya attacks Rook Abara with the rifle: 7 dice (wound penalty ignored "
        "(willpower)). Rolled 1, 2, 3, 4, 5, 6, 9"
    )
    assert "Rook Abara soaks 0 (Strength 2: 1, 1)" in table.log[-1]
    assert table.health(1)[:4] == [L, L, L, None]
    # The action is over: the penalty is back, and the dot is spent.
    assert table.by_id[2].state["ignore_wounds"] is False
    assert table.spec(2, "ranged").odds["pool"] == 4
    spend = table.spec(2, "spend_willpower")
    assert not spend.allowed and spend.code == "maelstrom.already_acted"
    # Rook, unwounded at the start of the fight, had nothing to ignore; now Hurt (−1) he may.
    table.turn(1)
    assert table.spec(1, "spend_willpower").allowed


def test_spending_the_last_dot_lets_the_fighter_act_once_then_incapacitates(table):
    kestrel = table.by_id[3]
    kestrel.state = {**kestrel.state, "willpower": 1, "health": [B, B] + [None] * 6}  # Scratched −1
    table.turn(3)
    roll = table.spec(3, "roll")
    assert roll.odds == {"pool": 1, "difficulty": 6, "threshold": 0}  # Reflexes 2 alone (no Athletics) − 1
    table.act(3, {"action": "spend_willpower"})
    assert table.by_id[3].state["willpower"] == 0
    assert table.spec(3, "roll").allowed  # 0 willpower, but the spend pushes through this one action
    table.act(
        3,
        {"action": "roll", "attribute": "wits", "ability": "investigation", "note": "reads the room"},
        [6, 6, 6, 1, 2, 3, 4],
    )
    assert table.log[-1].startswith(
        "Kestrel — reads the room — rolls Wits + Investigation, 7 dice (wound penalty "
        "ignored (willpower)). Rolled 6, 6, 6, 1, 2, 3, 4"
    )
    effects = RULESET.state_effects(KESTREL, validate(KESTREL), table.by_id[3].state)
    assert effects["incapacitated"] is True
    table.turn(3)
    assert table.log[-1] == "Kestrel is incapacitated (no willpower left) and cannot act."
    spec = table.spec(3, "ranged")
    assert not spec.allowed and spec.code == "maelstrom.incapacitated"


def test_an_incapacitated_fighter_cannot_act_and_the_dead_cannot_be_attacked(table):
    table.act(1, {"action": "gm_damage", "levels": 8, "type": "bashing"}, gm=True)
    assert table.health(1) == [B] * 8
    table.turn(1)
    assert table.log[-1] == "Rook Abara is incapacitated (the health track is full) and cannot act."
    for sid in ("melee", "ranged", "roll", "willpower_roll"):
        spec = table.spec(1, sid)
        assert not spec.allowed and spec.code == "maelstrom.incapacitated", sid
    table.refused("maelstrom.incapacitated", 1, {"action": "ranged", "target": 2})
    # More bashing on a full track turns bashing into lethal; lethal in the last box, then any level kills.
    table.act(1, {"action": "gm_damage", "levels": 1, "type": "bashing"}, gm=True)
    assert table.health(1) == [L] + [B] * 7
    table.act(1, {"action": "gm_damage", "levels": 7, "type": "lethal"}, gm=True)
    assert table.health(1) == [L] * 8
    table.act(1, {"action": "gm_damage", "levels": 1, "type": "lethal"}, gm=True)
    assert table.log[-1] == "GM: Rook Abara: Takes 1 lethal — a fatal wound: the character dies."
    assert table.spec(1, "ranged").code == "maelstrom.dead"
    table.turn(2)
    table.refused("maelstrom.target_dead", 2, {"action": "ranged", "target": 1})
    table.refused("maelstrom.dead", 1, {"action": "gm_damage", "levels": 1, "type": "lethal"}, gm=True)
    assert RULES.summary(table.by_id[1], table.es)["status"] == ["Dead"]


def test_willpower_rolls_botches_and_automatic_successes(table):
    table.turn(1)
    # Free and allowed off-turn: the storyteller calls for it.
    spec = table.spec(2, "willpower_roll")
    assert spec.allowed and spec.reaction and spec.odds == {"pool": 3, "difficulty": 6, "threshold": 0}
    table.act(2, {"action": "willpower_roll", "difficulty": "8", "note": "the fear"}, [1, 2, 3])
    assert table.log[-1] == (
        "Vasquez Oduya rolls willpower against the fear (3 dice). Rolled 1, 2, 3 at difficulty 8: "
        "0 successes, 1 botch → botch (1 uncancelled). Loses 1 willpower."
    )
    assert table.by_id[2].state["willpower"] == 2
    exc = table.refused("maelstrom.botch_not_cancellable", 2, {"action": "willpower_auto"})
    assert "botched" in exc.message
    table.turn(2)
    table.act(2, {"action": "willpower_auto"})
    assert table.log[-1] == "Vasquez Oduya: Spends a willpower dot: succeeds automatically with 1 successes."
    table.refused("maelstrom.last_willpower", 2, {"action": "willpower_auto"})
    table.refused("maelstrom.invalid_difficulty", 2, {"action": "willpower_roll", "difficulty": 11})


def test_zero_dots_and_the_storytellers_difficulty(table):
    table.turn(3)
    table.refused(
        "maelstrom.untrained_knowledge",
        3,
        {"action": "roll", "attribute": "intelligence", "ability": "navigation"},
    )
    table.refused("maelstrom.unknown_trait", 3, {"action": "roll", "attribute": "charm"})
    table.act(3, {"action": "roll", "attribute": "precision", "ability": "piloting"}, [7, 7, 2])
    assert table.log[-1].startswith(
        "Kestrel rolls Precision + Piloting, 3 dice (no Piloting dots: difficulty +1). "
        "Rolled 7, 7, 2 at difficulty 7: 2 successes"
    )
    # The GM raises the difficulty and adds a threshold for everyone.
    table.act(1, {"action": "gm_difficulty", "difficulty": "8", "threshold": "1"}, gm=True)
    assert table.es == {"difficulty": 8, "threshold": 1}
    assert table.log[-1] == "GM: rolls are now at difficulty 8, threshold 1."
    assert table.spec(1, "ranged").odds == {"pool": 7, "difficulty": 8, "threshold": 1}
    table.refused("maelstrom.invalid_amount", 1, {"action": "gm_difficulty", "difficulty": 11}, gm=True)
    assert table.spec(1, "gm_difficulty").gm  # the combat service refuses it to players (403)
    table.refused("state.malformed", 1, {"action": "gm_damage", "levels": 1, "type": "fire"}, gm=True)


def test_gm_damage_may_be_soaked_and_healed(table):
    table.act(2, {"action": "gm_damage", "levels": 3, "type": "lethal", "soak": "true"}, [6, 1], gm=True)
    assert table.log[-1] == (
        "GM: Vasquez Oduya soaks 0 (Strength 2: 6, 1). Vasquez Oduya: Takes 3 levels of lethal "
        "damage; now Hurt."
    )
    table.act(2, {"action": "gm_damage", "levels": 1, "type": "bashing", "soak": True}, [6, 7], gm=True)
    assert table.log[-1] == "GM: Vasquez Oduya soaks 2 (Strength 2: 6, 7). No damage gets through."
    table.act(2, {"action": "gm_heal", "levels": 1, "type": ""}, gm=True)
    assert table.health(2) == [L, L, None, None, None, None, None, None]
