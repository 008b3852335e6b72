"""Our D&D's turns (RULES.md §4 "Play and scenes", seed 003): initiative, the three kinds of
turn, the scene's TD, checks and attempts with effort, dying, first aid, recovery and Heroic
Inspiration, scripted through the combat hooks with fixed dice."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rulesets.engine import FixedRoller
from rulesets.engine.combat import Fighter, Outcome
from rulesets.systems.ourdnd import RULESET as OURDND
from tests.rulesets import combat_helpers
from tests.rulesets.report_helpers import typical

ROOT = Path(__file__).resolve().parents[3]
BRAM = json.loads(
    (ROOT / "rulesets/systems/ourdnd/demo/bram_shieldbearer.json").read_text()
)  # str 2 con 2, def 3, 10 HP
WREN = json.loads(
    (ROOT / "rulesets/systems/ourdnd/demo/wren_emberhand.json").read_text()
)  # int 3 con 1, fire staff d10
PIP = typical("ourdnd")  # dex 3, shortbow d6, 20 HP
GOBLIN = {
    "ruleset": "ourdnd",
    "name": "Goblin",
    "budget": {"points": 3},
    "stats": {"str": 1, "dex": 2, "con": 0, "int": 0, "wis": 0, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "dagger"}],
}
RULES = OURDND.combat()


def fighter(fid: int, build: dict, *, npc: bool = False, name: str | None = None, **state) -> Fighter:
    return combat_helpers.make_fighter(
        OURDND, fid, build, npc=npc, name=name or build["name"].split()[0], state=state
    )


class Scene(combat_helpers.Scene):
    rules = RULES

    def st(self, fid: int) -> dict:
        return self.by_id[fid].state


def party(faces=(20, 5, 2), **es) -> Scene:
    """Bram, Wren, then a goblin at the DM's seat. Default rolls: Bram 20 (first), Wren 5, DM 2."""
    return Scene([fighter(1, BRAM), fighter(2, WREN), fighter(3, GOBLIN, npc=True)], es, list(faces))


# ------------------------------------------------------------------ initiative


def test_the_highest_roll_goes_first_then_clockwise_and_the_dm_rolls_once_for_all_npcs():
    fighters = [
        fighter(1, BRAM),
        fighter(2, WREN),
        fighter(3, GOBLIN, npc=True, name="Goblin 1"),
        fighter(4, GOBLIN, npc=True, name="Goblin 2"),
        fighter(5, PIP),
    ]
    # Seats: Bram 5, Wren 12, the DM 17 (both goblins), Pip 17: the tie goes to the earlier seat, the DM's.
    scene = Scene(fighters, faces=[5, 12, 17, 17])
    assert scene.order == [3, 4, 5, 1, 2]
    assert scene.by[3].combat["initiative"] == scene.by[4].combat["initiative"] == 17
    assert RULES.turn_span(scene.order, 0, scene.by) == 2  # the goblins act in the DM's one turn
    assert RULES.turn_span(scene.order, 2, scene.by) == 1
    assert "The DM rolled highest (17) and goes first, then clockwise" in scene.log[-2]
    assert scene.es["td"] == 12 and scene.es["td_start"] == 12 and scene.es["td_lowered"] == 0


def test_both_npcs_act_in_the_dm_s_turn_and_nobody_else_does():
    scene = Scene(
        [
            fighter(1, BRAM),
            fighter(3, GOBLIN, npc=True, name="Goblin 1"),
            fighter(4, GOBLIN, npc=True, name="Goblin 2"),
        ],
        faces=[3, 9],
    )
    assert scene.current == 3
    assert scene.spec(4, "check").allowed
    message = scene.refused(1, "combat.not_your_turn", action="check", stat="str")
    assert message == "It is not Bram's turn."


# ------------------------------------------------------------------ the three kinds of turn


def test_move_far_takes_the_whole_turn():
    scene = party()
    out = scene.act(1, action="move_far")
    assert out.end_turn and scene.by[1].combat["move"] == "far"
    message = scene.refused(1, "ourdnd.moved_far", action="attempt", stat="str", target=3)
    assert "moved far" in message


def test_move_near_then_an_action_but_never_a_move_after_an_action():
    scene = party()
    scene.act(1, action="move_near")
    scene.refused(1, "ourdnd.already_moved", action="move_near")
    scene.act(1, [3], action="check", stat="str")  # 3 + 2 = 5 vs 12: failure
    scene.refused(1, "ourdnd.already_acted", action="check", stat="str")
    other = party()
    other.act(1, [15], action="check", stat="str")
    other.refused(1, "ourdnd.already_acted", action="move_near")


def test_turn_start_gives_a_fresh_turn():
    scene = party()
    scene.act(1, action="move_far")
    scene.turn(2)
    scene.turn(1)
    assert scene.by[1].combat["move"] is None and scene.by[1].combat["acted"] is False


# ------------------------------------------------------------------ the TD


def test_players_lower_the_td_at_most_three_below_where_it_started():
    scene = party()
    assert scene.spec(1, "set_td").gm  # the combat service refuses it to players (403)
    scene.act(1, gm=True, action="set_td", td=15)
    scene.act(1, action="lower_td", amount=1, reason="torch")
    assert scene.es["td"] == 14 and scene.spec(2, "check").odds["td"] == 14
    scene.act(2, action="lower_td", amount=2, reason="light spell")
    assert scene.es["td"] == 12 and scene.es["td_lowered"] == 3
    message = scene.refused(1, "ourdnd.td_floor", action="lower_td", amount=1)
    assert message == (
        "The TD has been lowered 3 already: players never lower it more than 3 below where it started (15)."
    )
    assert scene.spec(1, "lower_td").code == "ourdnd.td_floor"
    scene.refused(3, "ourdnd.players_only", action="lower_td", amount=1)


# ------------------------------------------------------------------ checks, attempts and effort


def test_an_attempt_rolls_effort_after_success_and_effort_is_damage_to_hp():
    scene = party(faces=(2, 20, 5))  # Wren first
    assert scene.current == 2
    spec = scene.spec(2, "attempt")
    assert spec.odds == {"stat": 3, "td": 12, "mode": "normal"}
    assert OURDND.odds(spec.odds)["success"] == pytest.approx(12 / 20)
    scene.act(2, [10, 7], action="attempt", stat="int", target=3, gear="fire_staff")  # 13 vs 12, effort d10 7
    assert scene.st(3)["hp"] == 3
    assert scene.log[-1] == "Effort (fire staff): Effort d10: 7 = 7. Goblin takes 7 damage: HP 10 → 3."


def test_a_failed_attempt_rolls_no_effort_and_a_natural_one_is_a_blunder():
    scene = party()
    scene.act(1, [1], action="attempt", stat="str", target=3, gear="sword")
    assert scene.st(3)["hp"] == 10
    assert scene.log[-1].startswith("Blunder!")


def test_a_natural_20_is_critical_adds_a_d12_to_effort_and_grants_inspiration():
    scene = party()
    scene.act(1, [20, 4, 9], action="attempt", stat="str", target=3, gear="sword")  # d6 4 + d12 9 = 13
    assert scene.st(3)["hp"] == 0 and scene.st(3)["dying"] is True
    assert scene.st(1)["inspiration"] is True
    assert "Natural 20: Bram the Shield-Bearer gains Heroic Inspiration." in scene.log


def test_a_second_natural_20_passes_inspiration_to_an_ally_without_one():
    scene = party()
    scene.apply(Outcome(state={1: {**scene.st(1), "inspiration": True}}))
    scene.act(1, [20], action="check", stat="cha")
    assert scene.st(1)["inspiration"] is True and scene.st(2)["inspiration"] is True


def test_inspiration_adds_a_d12_to_effort_and_is_spent():
    scene = party()
    scene.apply(Outcome(state={1: {**scene.st(1), "inspiration": True}}))
    scene.act(1, [12, 3, 5], action="attempt", stat="str", target=3, gear="sword", inspire=True)  # 3 + 5
    assert scene.st(3)["hp"] == 2 and scene.st(1)["inspiration"] is False


def test_inspiration_re_rolls_a_failed_roll_without_taking_another_action():
    scene = party()
    scene.act(1, [2], action="attempt", stat="str", target=3, gear="sword")  # 4 vs 12: failure
    scene.refused(1, "ourdnd.no_inspiration", action="reroll")
    scene.apply(Outcome(state={1: {**scene.st(1), "inspiration": True}}))
    assert scene.spec(1, "reroll").odds == {"stat": 2, "td": 12, "mode": "normal"}
    scene.act(1, [15, 6], action="reroll")  # 17: success, effort 6
    assert scene.st(3)["hp"] == 4 and scene.st(1)["inspiration"] is False
    scene.refused(1, "ourdnd.nothing_to_reroll", action="reroll")


def test_easy_keeps_the_higher_of_two_d20():
    scene = party()
    scene.act(1, [3, 11, 2], action="attempt", stat="str", target=3, gear="sword", mode="easy")  # 11 + 2 = 13
    assert scene.st(3)["hp"] == 8


def test_an_npc_attacks_against_the_pc_s_defense_plus_10():
    scene = party(faces=(2, 5, 20))  # the goblin first
    # Bram's Defense: CON 2 + shield 1 = 3, so the goblin needs 13: d20 11 + STR 1 = 12 misses.
    scene.act(3, [11], action="attempt", stat="str", target=1, gear="dagger")
    assert scene.st(1)["hp"] == 10 and "vs 13 (Bram's Defense + 10)" in scene.log[-1]
    second = party(faces=(2, 5, 20))
    second.act(3, [12, 5], action="attempt", stat="str", target=1, gear="dagger")  # 13: hit, d6 5
    assert second.st(1)["hp"] == 5


# ------------------------------------------------------------------ 0 HP, dying, first aid, recover


def test_zero_hp_is_dying_the_next_turn_rolls_the_countdown_and_first_aid_stabilises():
    scene = party()
    scene.act(1, gm=True, action="gm_damage", amount=10)
    assert scene.st(1)["dying"] and scene.st(1)["unconscious"] and scene.st(1)["dying_rounds"] is None
    assert scene.spec(1, "check").code == "ourdnd.unconscious"
    scene.turn(1, [3, 5])  # d4 3 rounds, miracle d20 5
    assert scene.st(1)["dying_rounds"] == 3
    scene.turn(2)
    assert scene.spec(2, "first_aid").odds == {"stat": 3, "td": 12, "mode": "normal"}
    scene.act(2, [9], action="first_aid", target=1, stat="int")  # 9 + 3 = 12
    assert scene.st(1)["stable"] is True and scene.st(1)["dying"] is False and scene.st(1)["hp"] == 0


def test_a_natural_20_on_a_dying_turn_revives_with_1_hp():
    scene = party()
    scene.act(1, gm=True, action="gm_damage", amount=10)
    scene.turn(1, [2, 20])
    assert scene.st(1)["hp"] == 1 and scene.st(1)["dying"] is False


def test_minus_20_in_one_blow_is_death():
    scene = party()
    scene.act(1, gm=True, action="gm_damage", amount=30)
    assert scene.st(1)["dead"] is True
    assert RULES.summary(scene.by[1], scene.es)["status"] == ["dead"]


def test_recover_takes_the_whole_turn_and_regains_con_plus_1():
    scene = party()
    scene.apply(Outcome(state={1: {**scene.st(1), "hp": 4}}))
    assert scene.spec(1, "recover").odds == {"stat": 2, "td": 12, "mode": "normal"}
    out = scene.act(1, [10], action="recover")  # 10 + 2 = 12
    assert out.end_turn and scene.st(1)["hp"] == 7
    scene.turn(1)
    scene.act(1, action="move_near")
    message = scene.refused(1, "ourdnd.whole_turn", action="recover")
    assert "whole turn" in message


# ------------------------------------------------------------------ the row and purity


def test_summary_shows_hp_defense_initiative_td_and_state():
    scene = party()
    scene.act(1, gm=True, action="gm_damage", amount=10)
    summary = RULES.summary(scene.by[1], scene.es)
    assert summary["stats"] == [
        {"label": "HP", "value": "0/10", "key": "hp"},
        {"label": "Defense", "value": "3", "key": "defense"},
        {"label": "Initiative", "value": "20", "key": "initiative"},
        {"label": "TD", "value": "12", "key": "td"},
    ]
    assert summary["status"] == ["dying (countdown not rolled)", "unconscious"]


def test_the_hooks_do_not_mutate_their_arguments():
    scene = party()
    snapshot = copy.deepcopy((scene.fighters, scene.es))
    RULES.perform(
        {"action": "attempt", "stat": "str", "target": 3, "gear": "sword"},
        scene.by[1],
        scene.fighters,
        scene.es,
        FixedRoller([20, 6, 12]),
        current=1,
        by_gm=False,
    )
    RULES.perform(
        {"action": "lower_td", "amount": 2},
        scene.by[1],
        scene.fighters,
        scene.es,
        FixedRoller([]),
        current=1,
        by_gm=False,
    )
    RULES.turn_start(scene.by[1], scene.fighters, scene.es, FixedRoller([]))
    RULES.start(scene.fighters, scene.es, FixedRoller([1, 2, 3]))
    assert (scene.fighters, scene.es) == snapshot
