"""A scripted Ascendant fight through the combat services, dice fixed (RULES.md 3 "Checks and encounters")."""

from __future__ import annotations

import pytest

from characters.models import Character, CharacterVersion
from combat import services
from combat.models import Combatant, EncounterEvent
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import last_event, refused, snapshot
from tests.factories import make_campaign, make_user
from tests.rulesets.ascendant.test_ascendant_combat import CULTIST, LIRAEL

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ascendant", players=[player])
    lirael = make_character(ruleset="ascendant", owner=player, campaign=campaign, build=LIRAEL)
    e = services.encounter_create(campaign=campaign, user=gm, name="The crypt")
    pc = services.encounter_add_combatant(encounter=e, user=gm, character=lirael)[0]
    npc = services.encounter_add_combatant(encounter=e, user=gm, name="Cultist", build=CULTIST)[0]
    return {"gm": gm, "player": player, "lirael": lirael, "e": e, "pc": pc, "npc": npc}


def test_the_scripted_fight(fight):
    gm, player, e, pc, npc = fight["gm"], fight["player"], fight["e"], fight["pc"], fight["npc"]
    assert Combatant.objects.get(pk=npc.pk).state["stamina"] == 16

    # Initiative: Lirael d20 10 + 8 = 18, the Cultist 14 + 4 = 18: a tie goes to the NPC.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([10, 14]))
    e.refresh_from_db()
    assert e.order == [npc.pk, pc.pk] and e.round == 1 and e.turn == 0
    texts = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("text", flat=True))
    assert "Initiative (Perception): Cultist 18 (d20 14 +4), Lirael Windsong 18 (d20 10 +8)." in texts
    assert texts[-1] == "Cultist: your turn."

    # The cultist strides away; Lirael's Reactive Strike (her reaction, on his turn) hits for 6.
    services.encounter_act(encounter=e, user=gm, combatant_id=npc.pk, action={"action": "stride"})
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "reactive_strike", "target": npc.pk, "weapon": "rapier"},
        roller=FixedRoller([9, 6]),
    )
    last = last_event(e)
    assert last.text == (
        "Lirael Windsong: Reactive Strike at Cultist with the rapier (reaction): d20 9 +8 = 17 vs "
        "Deflection 14: success — 6 damage (1d6 6). Cultist takes 6 damage: 10/16 Stamina."
    )
    assert last.actor_id == pc.pk and last.data["damage"] == 6
    assert Combatant.objects.get(pk=npc.pk).state["stamina"] == 10

    # He strides again: her reaction is spent for the round. Refused, and nothing changes.
    services.encounter_act(encounter=e, user=gm, combatant_id=npc.pk, action={"action": "stride"})
    before = snapshot(e)
    refused(
        "ascendant.reaction_used",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "reactive_strike", "target": npc.pk},
        roller=FixedRoller([20, 6]),
    )
    assert snapshot(e) == before

    # The GM frightens Lirael: on her sheet, with a new character version.
    version = Character.objects.get(pk=fight["lirael"].pk).version
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=pc.pk,
        action={"action": "gm_add_condition", "id": "frightened", "value": 1},
    )
    character = Character.objects.get(pk=fight["lirael"].pk)
    assert character.state["conditions"] == [{"id": "frightened", "value": 1}]
    assert character.version == version + 1
    assert CharacterVersion.objects.get(character=character, number=character.version).reason.split(" · ")[
        -1
    ] == (
        "The crypt: GM: Lirael Windsong is frightened 1."
    )  # the last sentence of this session of play's version
    with pytest.raises(services.NotPermitted):
        services.encounter_act(
            encounter=e, user=player, combatant_id=npc.pk, action={"action": "gm_damage", "amount": 5}
        )

    # Lirael's turn: 3 actions and her reaction back. A strike (frightened: +7), then a 2-action spell.
    services.encounter_next_turn(encounter=e, user=gm)
    pc.refresh_from_db()
    assert (pc.combat["actions"], pc.combat["reaction"]) == (3, True)
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "strike", "target": str(npc.pk), "weapon": "rapier"},
        roller=FixedRoller([10, 3]),
    )
    assert "d20 10 +7 = 17 vs Deflection 14: success — 3 damage" in last_event(e).text
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "cast_spell", "target": npc.pk},
        roller=FixedRoller([10, 2, 3, 4]),
    )
    assert last_event(e).text.endswith("Cultist takes 9 damage and falls unconscious, dying 1: 0/16 Stamina.")
    pc.refresh_from_db()
    assert pc.combat["actions"] == 0

    before = snapshot(e)
    exc = refused(
        "ascendant.no_actions_left",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "strike", "target": npc.pk},
        roller=FixedRoller([20, 6]),
    )
    assert "no actions left" in exc.errors[0]["message"]
    assert snapshot(e) == before

    # Round 2: the cultist is down and cannot act.
    services.encounter_next_turn(encounter=e, user=player)
    e.refresh_from_db()
    assert e.round == 2 and e.order[e.turn] == npc.pk
    assert last_event(e).text == "Cultist is unconscious and cannot act until healed above 0 Stamina."
    refused(
        "ascendant.unconscious",
        services.encounter_act,
        encounter=e,
        user=gm,
        combatant_id=npc.pk,
        action={"action": "stride"},
    )
    seqs = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
