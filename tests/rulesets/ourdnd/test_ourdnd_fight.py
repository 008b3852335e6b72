"""A short Our D&D scene through the combat services, dice fixed (RULES.md 4 "Play and scenes")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from characters.models import Character
from combat import services
from config.api import RuleRefused
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import event_texts, snapshot
from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
BRAM = json.loads(
    (ROOT / "rulesets/systems/ourdnd/demo/bram_shieldbearer.json").read_text()
)  # str 2, Defense 3, 10 HP
GOBLIN = {
    "ruleset": "ourdnd",
    "name": "Goblin",
    "budget": {"points": 3},
    "stats": {"str": 1, "dex": 2, "con": 0, "int": 0, "wis": 0, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "dagger"}],
}


def test_a_scene_through_the_services(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player])
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign, build=BRAM)
    e = services.encounter_create(campaign=campaign, user=gm, name="The goblin bridge")
    c_bram = services.encounter_add_combatant(encounter=e, user=gm, character=bram)[0]
    g1, g2 = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=2)

    # Bram rolls 15, the DM one d20 for both goblins: 9. Bram goes first, then the DM's seat.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([15, 9]))
    e.refresh_from_db()
    assert e.order == [c_bram.pk, g1.pk, g2.pk] and e.state["td"] == 12
    assert "The DM rolls initiative for Goblin 1, Goblin 2: d20 9." in event_texts(e)

    # Bram lowers the TD with his torch, then attempts: d20 10 + STR 2 = 12 vs 11, sword d6 5.
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=c_bram.pk,
        action={"action": "lower_td", "amount": 1, "reason": "torch"},
    )
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=c_bram.pk,
        action={"action": "attempt", "stat": "str", "target": g1.pk, "gear": "sword"},
        roller=FixedRoller([10, 5]),
    )
    g1.refresh_from_db()
    assert g1.state["hp"] == 5
    texts = event_texts(e)
    assert texts[-3] == "Bram the Shield-Bearer lowers the TD by 1 (torch): TD 11."
    assert texts[-2] == "Bram the Shield-Bearer's STR attempt on Goblin 1: d20 10 + 2 = 12 vs TD 11: success."
    assert texts[-1] == "Effort (sword): Effort d6: 5 = 5. Goblin 1 takes 5 damage: HP 10 → 5."

    # A second action is refused and changes nothing (422 with the rule's code).
    before = snapshot(e)
    with pytest.raises(RuleRefused) as exc:
        services.encounter_act(
            encounter=e, user=player, combatant_id=c_bram.pk, action={"action": "move_near"}
        )
    assert exc.value.errors[0]["code"] == "ourdnd.already_acted"
    assert snapshot(e) == before

    # The DM's turn: both goblins act. Against Bram they need his Defense + 10 = 13.
    services.encounter_next_turn(encounter=e, user=gm)
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=g2.pk,
        action={"action": "attempt", "stat": "str", "target": c_bram.pk, "gear": "dagger"},
        roller=FixedRoller([12, 6]),
    )
    character = Character.objects.get(pk=bram.pk)
    assert character.state["hp"] == 4
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=g1.pk,
        action={"action": "attempt", "stat": "str", "target": c_bram.pk, "gear": "dagger"},
        roller=FixedRoller([15, 4]),
    )
    character = Character.objects.get(pk=bram.pk)
    assert character.state["hp"] == 0 and character.state["dying"] is True

    # Round 2: Bram's turn is his dying roll: d4 2 rounds, miracle d20 7.
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([2, 7]))
    e.refresh_from_db()
    assert e.round == 2 and e.turn == 0
    character = Character.objects.get(pk=bram.pk)
    assert character.state["dying_rounds"] == 2
    assert event_texts(e)[-1] == "Bram the Shield-Bearer is dying. Countdown: 2 rounds. Miracle roll: 7."
    before = snapshot(e)
    with pytest.raises(RuleRefused) as exc:
        services.encounter_act(
            encounter=e, user=player, combatant_id=c_bram.pk, action={"action": "check", "stat": "str"}
        )
    assert exc.value.errors[0]["code"] == "ourdnd.unconscious"
    assert snapshot(e) == before


def test_move_far_ends_the_turn_through_the_services(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player])
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign, build=BRAM)
    e = services.encounter_create(campaign=campaign, user=gm, name="The chase")
    c_bram = services.encounter_add_combatant(encounter=e, user=gm, character=bram)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([15, 9]))
    services.encounter_act(encounter=e, user=player, combatant_id=c_bram.pk, action={"action": "move_far"})
    e.refresh_from_db()
    assert e.turn == 1
    assert event_texts(e)[-2] == "Bram the Shield-Bearer moves far (the whole turn)."
