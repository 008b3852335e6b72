"""A scripted Pando fight through the services, dice fixed (RULES.md 1 "Action rounds (combat)")."""

from __future__ import annotations

import pytest

from characters.models import Character, CharacterVersion
from combat import services
from combat.models import Combatant, EncounterEvent
from rulesets.engine import registry
from rulesets.engine.combat import Fighter
from rulesets.engine.dice import FixedRoller
from tests.combat.conftest import set_state
from tests.combat.helpers import refused, snapshot
from tests.rulesets.pando.fight_table import BOSS, GOBLIN, WOLF, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(table):  # noqa: F811
    """Pablo (M5, acro 3), Bea (M5, acro 2), the Raiders (2 goblins M3 + boss M6: average 4, acro 2, pres 2) and
    a Wolf (M4, acro 2, pres 2): the Wolf and the Raiders tie all the way down to the dice."""
    gm = table["gm"]
    set_state(table["pablo"], exhaustion=[{"type": "bleeding", "amount": 3}])  # 3 − endurance 2 → −1 a round
    set_state(table["bea"], stamina=5, exhaustion=[{"type": "bleeding", "amount": 3}])  # 3 − 1 → −2: 5 → 3
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Ambush at the ford")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    bea = services.encounter_add_combatant(encounter=e, user=gm, character=table["bea"].pk)[0]
    goblins = services.encounter_add_combatant(
        encounter=e, user=gm, name="Goblin", build=GOBLIN, count=2, group="Raiders"
    )
    boss = services.encounter_add_combatant(encounter=e, user=gm, name="Boss", build=BOSS, group="Raiders")[0]
    wolf = services.encounter_add_combatant(encounter=e, user=gm, name="Wolf", build=WOLF)[0]
    return {**table, "e": e, "c_pablo": pablo, "c_bea": bea, "goblins": goblins, "boss": boss, "wolf": wolf}


def test_npc_groups_are_named_one_to_n_and_start_with_a_fresh_play_state(fight):
    names = [c.name for c in fight["goblins"]]
    assert names == ["Goblin 1", "Goblin 2"]
    assert {c.group for c in fight["goblins"]} == {"Raiders"}
    g1 = Combatant.objects.get(pk=fight["goblins"][0].pk)
    assert g1.is_npc and g1.state["stamina"] == 11 and g1.state["harm"]["legs"] == 0


def test_an_invalid_npc_build_is_refused_with_the_reports_errors(fight):
    bad = {**GOBLIN, "attributes": {**GOBLIN["attributes"], "strength": 0}}
    exc = refused(
        "attribute.below_minimum",
        services.encounter_add_combatant,
        encounter=fight["e"],
        user=fight["gm"],
        name="Broken",
        build=bad,
    )
    assert exc.errors[0]["path"] == "/attributes/strength"
    assert not Combatant.objects.filter(name="Broken").exists()


def test_the_scripted_fight(fight):
    gm, player, other = fight["gm"], fight["player"], fight["other"]
    e, pablo, bea, wolf, boss = fight["e"], fight["c_pablo"], fight["c_bea"], fight["wolf"], fight["boss"]
    g1, g2 = fight["goblins"]

    # Start: Pablo and Bea tie at Momentum 5, Pablo has more acrobatics. The Raiders (average 4) and the Wolf
    # (4) tie on Momentum, acrobatics and presence: d6 roll-offs 3 v 3 (again), then 2 v 5: the Wolf goes first.
    roller = FixedRoller([3, 3, 2, 5])
    e = services.encounter_start(encounter=e, user=gm, roller=roller)
    assert roller.faces == []
    e.refresh_from_db()
    assert e.status == "active" and e.round == 1 and e.turn == 0
    assert e.order == [pablo.pk, bea.pk, wolf.pk, g1.pk, g2.pk, boss.pk]
    for c in (g1, g2, boss):
        c.refresh_from_db()
        assert c.combat["momentum"] == 4 and c.combat["own_momentum"] in (3, 6)
    # Round start: stamina loss first, then speed = min(max speed, stamina).
    character = Character.objects.get(pk=fight["pablo"].pk)
    assert character.state["stamina"] == 11  # 12 − (3 − 2)
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 6
    bea.refresh_from_db()
    assert Character.objects.get(pk=fight["bea"].pk).state["stamina"] == 3  # 5 − (3 − 1)
    assert bea.combat["speed"] == 3  # not min(5, 5): the loss comes before speed
    texts = list(EncounterEvent.objects.filter(encounter=e).values_list("text", flat=True))
    assert any("Wolf rolls 5" in t for t in texts)
    assert any(
        t.startswith("Turn order by Momentum: Pablo (5), Bea (5), Wolf (4), Raiders (4)") for t in texts
    )

    # Pablo strikes the wolf three times: 1, 2, 3 speed. Coordination 3d6 against Blades 3.
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0", "target": wolf.pk},
        roller=FixedRoller([1, 2, 6]),
    )
    e.refresh_from_db()
    attack = e.state["attack"]
    assert {k: attack[k] for k in ("attacker", "target", "weapon", "ep", "main_taken")} == {
        "attacker": pablo.pk,
        "target": wolf.pk,
        "weapon": "longsword",
        "ep": 2,
        "main_taken": False,
    }
    # What the EP may buy (W1): the strike's outcomes, then the longsword's (a slashing weapon).
    assert [o["id"] for o in attack["outcomes"]] == ["hit", "knock_prone", "disarm", "cause_bleeding"]
    last = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first()
    assert last.text == "Pablo strikes Wolf with the longsword: 2 EP, −1 speed."
    assert last.actor_id == pablo.pk and last.user_id == player.pk
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "harm", "body_part": "legs", "amount": 2},
    )
    wolf.refresh_from_db()
    assert wolf.state["harm"]["legs"] == 2
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0"},
        roller=FixedRoller([6, 6, 6]),
    )
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0"},
        roller=FixedRoller([3, 3, 3]),
    )
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 0 and pablo.combat["uses"] == {"strike": 3}
    costs = list(
        EncounterEvent.objects.filter(encounter=e, kind="strike").values_list("data__cost", flat=True)
    )
    assert costs == [1, 2, 3]

    # The fourth strike would cost 4: refused, nothing changed, no event written.
    before = snapshot(e)
    refused(
        "pando.not_enough_speed",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0"},
        roller=FixedRoller([1, 1, 1]),
    )
    assert snapshot(e) == before

    # The GM wounds Pablo's sword arm: it shows on the sheet, and the character's version moves on.
    version = Character.objects.get(pk=fight["pablo"].pk).version
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=pablo.pk,
        action={"action": "gm_harm", "body_part": "right_arm", "amount": 1},
    )
    character = Character.objects.get(pk=fight["pablo"].pk)
    assert character.state["harm"]["right_arm"] == 1
    assert character.version == version + 1
    assert (
        CharacterVersion.objects.get(character=character, number=character.version)
        .reason.split(" · ")[-1]
        .startswith("Ambush at the ford: GM: Pablo takes 1 harm to the right arm")
    )  # the last sentence of this session of play's version

    # Not Pablo's turn to end for the player of Bea? It is Pablo's turn: Bea's player may not end it.
    with pytest.raises(services.NotPermitted):
        services.encounter_next_turn(encounter=e, user=other)
    services.encounter_next_turn(encounter=e, user=player)  # Pablo's player ends Pablo's turn
    e.refresh_from_db()
    assert e.order[e.turn] == bea.pk
    assert "attack" not in e.state  # unspent EP are lost when the turn ends
    services.encounter_next_turn(encounter=e, user=other)  # Bea's player ends Bea's turn: the Wolf's

    # The wolf strikes Pablo (dagger, coordination 2d6 against Melee 2): 2 EP. Pablo has no speed left to block.
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=wolf.pk,
        action={"action": "strike:0", "target": pablo.pk},
        roller=FixedRoller([1, 2]),
    )
    refused(
        "pando.not_enough_speed",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "block:1"},
        roller=FixedRoller([1, 1]),
    )
    # Bea is not attacked: her block is not triggered.
    refused(
        "pando.no_trigger",
        services.encounter_act,
        encounter=e,
        user=other,
        combatant_id=bea.pk,
        action={"action": "dodge"},
        roller=FixedRoller([1, 1]),
    )
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=wolf.pk,
        action={"action": "harm", "body_part": "torso", "amount": 2},
    )
    character = Character.objects.get(pk=fight["pablo"].pk)
    assert character.state["harm"]["torso"] == 2  # harm on the target's body part, on the sheet

    # The Raiders act together: every member is current during the group's turn.
    services.encounter_next_turn(encounter=e, user=gm)
    e.refresh_from_db()
    assert e.order[e.turn] == g1.pk
    services.encounter_act(encounter=e, user=gm, combatant_id=g2.pk, action={"action": "move"})
    services.encounter_act(encounter=e, user=gm, combatant_id=boss.pk, action={"action": "move"})
    refused(
        "combat.not_your_turn",
        services.encounter_act,
        encounter=e,
        user=other,
        combatant_id=bea.pk,
        action={"action": "move"},
    )

    # Round 2: stamina loss again, then speed. Pablo's wounded sword arm: a strike costs 1 + 1.
    services.encounter_next_turn(encounter=e, user=gm)
    e.refresh_from_db()
    assert e.round == 2 and e.turn == 0 and e.order[0] == pablo.pk
    assert Character.objects.get(pk=fight["pablo"].pk).state["stamina"] == 10
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 6 and pablo.combat["uses"] == {}
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0"},
        roller=FixedRoller([4, 4, 4]),
    )
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 4
    assert EncounterEvent.objects.filter(encounter=e).order_by("-seq").first().data["cost"] == 2
    # The shield arm is healthy: blocking is not triggered, but moving costs 1 as usual.
    services.encounter_act(encounter=e, user=player, combatant_id=pablo.pk, action={"action": "move"})
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 3

    # Two more harm: the arm is lame and cannot strike.
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=pablo.pk,
        action={"action": "gm_harm", "body_part": "right_arm", "amount": 2},
    )
    before = snapshot(e)
    exc = refused(
        "pando.body_part_unusable",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "strike:0"},
        roller=FixedRoller([1, 1, 1]),
    )
    assert "right arm (lame)" in exc.errors[0]["message"]
    assert snapshot(e) == before

    seqs = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_protection_reduces_harm_spent_from_ep(fight):
    """EP spent on harm minus the harm protection of that body part (the shield arm has 1)."""
    gm, e, pablo, wolf = fight["gm"], fight["e"], fight["c_pablo"], fight["wolf"]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([5, 2]))
    e.refresh_from_db()
    while e.order[e.turn] != wolf.pk:
        services.encounter_next_turn(encounter=e, user=gm)
        e.refresh_from_db()
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=wolf.pk,
        action={"action": "strike:0", "target": pablo.pk},
        roller=FixedRoller([1, 1]),
    )
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=wolf.pk,
        action={"action": "harm", "body_part": "left_arm", "amount": 2},
    )
    assert Character.objects.get(pk=fight["pablo"].pk).state["harm"]["left_arm"] == 1
    text = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first().text
    assert "1 stopped by armour" in text


def test_a_reaction_takes_ep_off_the_attack(fight):
    gm, player, e, pablo, wolf = fight["gm"], fight["player"], fight["e"], fight["c_pablo"], fight["wolf"]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([5, 2]))
    e.refresh_from_db()
    while e.order[e.turn] != wolf.pk:
        services.encounter_next_turn(encounter=e, user=gm)
        e.refresh_from_db()
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=wolf.pk,
        action={"action": "strike:0", "target": pablo.pk},
        roller=FixedRoller([1, 1]),
    )
    # Pablo blocks with the round shield: strength 2d6 against Melee 2 → one die counts.
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pablo.pk,
        action={"action": "block:1"},
        roller=FixedRoller([2, 5]),
    )
    e.refresh_from_db()
    assert e.state["attack"]["ep"] == 1
    pablo.refresh_from_db()
    assert pablo.combat["speed"] == 5 and pablo.combat["uses"] == {"block": 1}
    last = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first()
    assert last.text == "Pablo blocks with the round shield: 1 EP, −1 speed; the attack drops 2→1 EP."


def test_the_tie_break_chain_momentum_acrobatics_presence_then_dice():
    rules = registry.get("pando").combat()

    def f(id, momentum, acrobatics, presence):
        build = {"attributes": {"acrobatics": acrobatics, "presence": presence}}
        return Fighter(
            id=id,
            name=f"F{id}",
            is_npc=False,
            group="",
            build=build,
            derived={"momentum": momentum},
            state={},
            combat={},
        )

    fighters = [f(1, 4, 1, 3), f(2, 4, 2, 1), f(3, 4, 2, 2), f(4, 6, 1, 1), f(5, 4, 2, 2), f(6, 2, 1, 1)]
    roller = FixedRoller([4, 4, 2, 6])  # 3 and 5 tie on the dice, then 5 wins the re-roll
    out = rules.start(fighters, {}, roller)
    assert out.order == [4, 5, 3, 2, 1, 6]
    assert roller.faces == []


def test_momentum_set_by_the_gm_takes_effect_next_round(fight):
    gm, e, bea = fight["gm"], fight["e"], fight["c_bea"]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([5, 2]))
    services.encounter_act(
        encounter=e, user=gm, combatant_id=bea.pk, action={"action": "gm_momentum", "value": 9}
    )
    e.refresh_from_db()
    assert e.order[0] == fight["c_pablo"].pk  # not yet
    for _ in range(4):  # Pablo, Bea, Wolf, the Raiders
        services.encounter_next_turn(encounter=e, user=gm)
    e.refresh_from_db()
    assert e.round == 2 and e.order[0] == bea.pk
