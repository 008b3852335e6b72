"""Paragon RPG's violence (RULES.md §2 "Play state and combat", seed 001 "VIOLENCE"): scripted
fights through the combat hooks with fixed dice."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from rulesets.engine import FixedRoller
from rulesets.engine.combat import Fighter, Outcome
from rulesets.systems.paragon import RULESET as PARAGON
from tests.rulesets import combat_helpers
from tests.rulesets.report_helpers import typical

ROOT = Path(__file__).resolve().parents[3]
AREN = typical("paragon")  # def melee 20, triarmatura 23
HESK = json.loads(
    (ROOT / "rulesets/systems/paragon/demo/old_hesk.json").read_text()
)  # ordinary: def melee 20
SELA = json.loads(
    (ROOT / "rulesets/systems/paragon/demo/sela_windborn.json").read_text()
)  # triarmatura def 28
RULES = PARAGON.combat()


def fighter(fid: int, build: dict, *, npc: bool = False, group: str = "", **state_changes) -> Fighter:
    f = combat_helpers.make_fighter(PARAGON, fid, build, npc=npc, name=build["name"].split()[0], group=group)
    f.state["pools"].update(state_changes)
    return f


class Fight(combat_helpers.Scene):
    """A fight started with the opening rolls ``faces``, so a test reads like a fight."""

    rules = RULES

    def pools(self, fid: int) -> dict:
        return self.by_id[fid].state["pools"]


def duel(**es) -> Fight:
    """Aren (PC) against Old Hesk (NPC). Initiative: Aren d12 8 + 2d6 4,6 + 4 = 22; Hesk 3 + 5,1 = 9."""
    return Fight([fighter(1, AREN), fighter(2, HESK, npc=True)], es, [8, 4, 6, 3, 5, 1])


# ------------------------------------------------------------------ initiative


def test_initiative_orders_by_the_initiative_check_highest_first():
    fight = duel()
    assert fight.order == [1, 2]
    assert fight.by[1].combat["initiative"] == 22 and fight.by[2].combat["initiative"] == 9
    assert fight.log[0] == "Aren rolls initiative: d12!+2d6+4: 8 | 4,6 +4 = 22."


def test_killing_intent_adds_a_d6_to_initiative_and_five_temporary_morale_and_ties_keep_the_listed_order():
    # Hesk 9 + 6,6 = 21; Aren 5 + 3,3 + 4 = 15, killing intent d6 6 → 21: a tie, Hesk is listed first.
    fight = Fight(
        [fighter(2, HESK, npc=True), fighter(1, AREN)], {"killing_intent": [1]}, [9, 6, 6, 5, 3, 3, 6]
    )
    assert fight.by[1].combat["initiative"] == 21 and fight.by[2].combat["initiative"] == 21
    assert fight.order == [2, 1]
    assert fight.by[1].combat["temp_morale"] == 5 and fight.by[2].combat["temp_morale"] == 0
    assert RULES.summary(fight.by[1], fight.es)["stats"][2]["value"] == "12/12 (+5 temporary)"


def test_the_d12_explodes_on_initiative():
    fight = Fight([fighter(1, AREN)], {}, [12, 3, 1, 1])
    assert fight.by[1].combat["initiative"] == 12 + 3 + 1 + 1 + 4


def test_a_surprised_fighter_cannot_act_in_the_surprise_round_only():
    fight = duel(surprised=[1])
    assert fight.es["surprise_round"] is True
    assert fight.spec(1, "engage").code == "paragon.surprised"
    fight.refused(1, "paragon.surprised", action="engage", target=2, kind="melee")
    fight.apply(RULES.round_start(fight.fighters, fight.es, 2, FixedRoller([])))
    assert fight.es["surprise_round"] is False
    assert fight.spec(1, "engage").allowed


def test_against_a_surprised_foe_the_attacker_acts_first_despite_lower_initiative():
    fight = duel(surprised=[1])
    fight.current = 2
    fight.act(2, action="engage", target=1, kind="melee")
    assert fight.es["exchange"]["first"] == 2


# ------------------------------------------------------------------ exchanges and strikes


def test_only_the_current_fighter_engages():
    fight = duel()
    message = fight.refused(2, "combat.not_your_turn", action="engage", target=1, kind="melee")
    assert message == "It is not Old's turn."


def test_a_strike_threatens_and_a_hit_takes_health_and_morale():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    assert fight.es["exchange"]["first"] == 1
    assert fight.spec(1, "strike").odds == {
        "force": 3,
        "skill": 2,
        "tn": 20,
    }  # triarmatura vs Defense (Melee)
    # Triarmatura d12 10 + 3d6 4,4,4 + 4 = 26 vs 20: a threat.
    fight.act(1, [10, 4, 4, 4], action="strike", target=2, skill="triarmatura", weapon="strong")
    assert fight.es["threat"] == {"attacker": 1, "defender": 2, "weapon": "strong", "total": 26, "tn": 20}
    fight.refused(1, "paragon.threat_pending", action="strike", target=2)
    # Hesk lets it hit: strong weapon 3d6 = 6+5+4 = 15 Health, and 1d6 = 3 Morale.
    fight.act(2, [6, 5, 4, 3], action="take_hit")
    assert fight.pools(2)["health"] == 5 and fight.pools(2)["morale"] == 3
    assert "incapacitated" in RULES.summary(fight.by[2], fight.es)["status"]
    assert fight.es["exchange"] is None and fight.es["threat"] is None  # cut down: the exchange ends
    assert fight.log[-1] == "Old is incapacitated: the exchange ends."


def test_avoiding_costs_one_stamina_and_the_chain_goes_on_until_a_miss_then_the_other_side_acts():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="triarma")
    fight.act(2, action="avoid")
    assert fight.pools(2)["stamina"] == 19 and fight.pools(2)["health"] == 20
    # Hesk has the lower initiative: he answers only once Aren's action is over.
    fight.refused(2, "paragon.acts_second", action="strike", skill="melee", weapon="strong")
    assert fight.spec(1, "strike").cost == "1 stamina (chained strike 2/5)"
    fight.act(1, [1, 1, 1, 1], action="strike", skill="triarmatura", weapon="triarma")  # 8 vs 20: a miss
    assert fight.pools(1)["stamina"] == 19
    assert fight.es["exchange"]["done"] == [1]
    fight.refused(1, "paragon.action_used", action="strike")
    # Hesk's melee d12 7 + 2d6 6,6 + 4 = 23 vs Aren's Defense (Triarmatura) 23: a threat.
    fight.act(2, [7, 6, 6], action="strike", skill="melee", weapon="weak")
    assert fight.es["threat"]["tn"] == 23
    fight.act(1, [2, 2, 5], action="take_hit")  # weak 2d6 = 4; Morale −5
    assert fight.pools(1)["health"] == 16 and fight.pools(1)["morale"] == 7


def test_a_chain_holds_five_strikes_each_after_the_first_costing_one_stamina():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    for _ in range(5):
        fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="triarma")
        fight.act(2, action="avoid")
    assert fight.pools(1)["stamina"] == 16  # 4 chained strikes
    assert fight.pools(2)["stamina"] == 15  # 5 avoids
    message = fight.refused(1, "paragon.chain_limit", action="strike")
    assert "at most 5" in message


def test_a_chained_strike_without_stamina_is_refused():
    # Both are tired at Stamina 0 (house default: one force die fewer on every check).
    # Initiative: Aren d12 8 + 1d6 4 + 4 = 16; Hesk 6 + 3 = 9.
    fight = Fight([fighter(1, AREN, stamina=0), fighter(2, HESK, npc=True, stamina=0)], {}, [8, 4, 6, 3])
    assert fight.by[1].combat["initiative"] == 16 and fight.by[2].combat["initiative"] == 9
    fight.act(1, action="engage", target=2, kind="melee")
    assert fight.spec(1, "strike").odds == {"force": 2, "skill": 2, "tn": 20}
    fight.act(1, [10, 4, 4], action="strike", skill="triarmatura")  # the first strike is free: 22 vs 20
    assert fight.spec(2, "avoid").code == "paragon.not_enough_stamina"
    fight.refused(2, "paragon.not_enough_stamina", action="avoid")
    fight.act(2, [1, 1], action="take_hit")  # unarmed 1d6 = 1, Morale −1
    message = fight.refused(1, "paragon.not_enough_stamina", action="strike")
    assert message == "A chained strike costs 1 stamina but Aren has 0."


def test_an_unanswered_threat_hits_when_the_next_turn_starts():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="weak")
    fight.turn(2, [3, 3, 2])  # weak 2d6 = 6, Morale −2
    assert fight.pools(2)["health"] == 14 and fight.pools(2)["morale"] == 4
    assert fight.es["threat"] is None and fight.es["exchange"] is None


def test_killing_intent_morale_is_lost_before_the_pool():
    fight = Fight(
        [fighter(1, AREN), fighter(2, HESK, npc=True)], {"killing_intent": [2]}, [8, 4, 6, 3, 5, 1, 1]
    )
    fight.act(1, action="engage", target=2, kind="melee")
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="unarmed")
    fight.act(2, [2, 6], action="take_hit")  # Morale −6: 5 temporary, then 1 off the pool
    assert fight.by[2].combat["temp_morale"] == 0 and fight.pools(2)["morale"] == 5


def test_a_defenceless_foe_is_finished_by_a_melee_strike_without_a_roll():
    fight = Fight([fighter(1, AREN), fighter(2, HESK, npc=True, health=9)], {}, [8, 4, 6, 3, 5, 1])
    fight.act(1, action="engage", target=2, kind="melee")
    fight.act(1, action="strike", weapon="weak")
    assert fight.pools(2)["health"] == 0
    assert RULES.summary(fight.by[2], fight.es)["status"][0] == "dead"


def test_a_hero_point_resists_incapacitation():
    fight = Fight([fighter(1, AREN, health=9), fighter(2, HESK, npc=True)], {}, [8, 4, 6, 3, 5, 1])
    assert fight.spec(1, "engage").code == "paragon.incapacitated"
    fight.act(1, action="resist_incapacitation")
    assert fight.pools(1)["heroism"] == 4 and fight.by[1].state["incapacitation_resisted"] is True
    assert fight.spec(1, "engage").allowed


# ------------------------------------------------------------------ footing, interception, evasion, retreat


def test_forward_to_rearward_costs_a_stamina_or_the_turn():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="ranged")  # ends the opening: footing is no longer free
    fight.apply(Outcome(encounter_state={**fight.es, "exchange": None}))
    fight.act(1, action="footing")
    assert fight.by[1].combat["footing"] == "rearward" and fight.pools(1)["stamina"] == 19
    fight.act(1, action="footing")  # back to Forward: free
    assert fight.pools(1)["stamina"] == 19
    fight.turn(1)
    out = fight.act(1, action="footing", forgo=True)
    assert out.end_turn and fight.pools(1)["stamina"] == 19
    fight.refused(1, "paragon.turn_forgone", action="engage", target=2, kind="ranged")


def test_rearward_starts_only_ranged_exchanges():
    fight = duel(footing={"1": "rearward"})
    assert fight.spec(1, "engage").params[0]["options"] == ["ranged"]
    fight.refused(1, "paragon.rearward_ranged_only", action="engage", target=2, kind="melee")


def test_melee_against_a_rearward_foe_costs_a_stamina_and_can_be_intercepted():
    # Aren and Sela (PCs) against Hesk; Sela hangs back. Hesk 22 first, Aren 9, Sela 5.
    fighters = [fighter(1, AREN), fighter(2, HESK, npc=True), fighter(3, SELA)]
    fight = Fight(fighters, {"footing": {"3": "rearward"}}, [3, 5, 1, 8, 4, 6, 1, 2, 2])
    assert fight.order == [2, 1, 3]
    fight.act(2, action="engage", target=3, kind="melee")
    assert fight.pools(2)["stamina"] == 19 and fight.es["exchange"]["declared"] is True
    assert fight.spec(1, "intercept").allowed and not fight.spec(3, "intercept").allowed
    fight.act(1, action="intercept")
    assert fight.pools(1)["stamina"] == 19
    ex = fight.es["exchange"]
    assert (ex["attacker"], ex["defender"], ex["intercepted"], ex["first"]) == (2, 1, 3, 2)


def test_evasion_is_an_opposed_roll_with_rearward_s_extra_die():
    fighters = [fighter(1, AREN, npc=True), fighter(3, SELA)]
    fight = Fight(fighters, {"footing": {"3": "rearward"}}, [8, 4, 6, 1, 2, 2])
    fight.act(1, action="engage", target=3, kind="melee")
    assert fight.spec(3, "evade").allowed
    # Sela athletics: fire 1 + rearward die = 2d6, rank 0: d12 5 + 2,2 = 9; Aren d12 4 + 2d6 1,1 + 2 = 8.
    fight.act(3, [5, 2, 2, 4, 1, 1], action="evade", skill="athletics")
    assert fight.es["exchange"] is None and fight.pools(3)["stamina"] == 19
    assert "evaded" in fight.log[-1]


def test_retreat_needs_rearward_footing_and_quits_the_field_next_turn():
    fight = duel(footing={"1": "rearward"})
    out = fight.act(1, action="retreat")
    assert out.end_turn and fight.by[1].combat["retreating"] is True
    fight.turn(1)
    assert fight.by[1].combat["retreated"] is True
    assert fight.spec(1, "engage").code == "paragon.retreated"
    forward = duel()
    forward.refused(1, "paragon.not_rearward", action="retreat")


# ------------------------------------------------------------------ GM, odds, purity


def test_gm_actions_are_gm_only_and_change_the_pools():
    fight = duel()
    assert fight.spec(2, "gm_damage").gm
    fight.act(2, gm=True, action="gm_damage", pool="health", amount=3)
    assert fight.pools(2)["health"] == 17


def test_every_odds_request_is_one_the_ruleset_answers():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    for f in fight.fighters:
        for spec in RULES.actions(f, fight.fighters, fight.es, current=fight.current):
            if spec.odds:
                assert 0 < PARAGON.odds(spec.odds)["pass"] <= 1


def test_the_hooks_do_not_mutate_their_arguments():
    fight = duel()
    fight.act(1, action="engage", target=2, kind="melee")
    snapshot = copy.deepcopy((fight.fighters, fight.es))
    RULES.perform(
        {"action": "strike", "skill": "triarmatura", "weapon": "strong"},
        fight.by[1],
        fight.fighters,
        fight.es,
        FixedRoller([10, 4, 4, 4]),
        current=1,
        by_gm=False,
    )
    RULES.turn_start(fight.by[2], fight.fighters, fight.es, FixedRoller([]))
    RULES.actions(fight.by[2], fight.fighters, fight.es, current=1)
    RULES.summary(fight.by[2], fight.es)
    assert (fight.fighters, fight.es) == snapshot
