"""A scripted Maelstrom fight through the combat services, dice fixed (RULES.md 5)."""

from __future__ import annotations

import pytest

from characters.models import Character, CharacterVersion
from combat import services
from combat.models import Combatant, EncounterEvent
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import last_event, refused, snapshot
from tests.factories import make_campaign, make_user
from tests.rulesets.maelstrom.test_maelstrom_combat import ROOK, VASQUEZ

pytestmark = pytest.mark.django_db
L = "lethal"


@pytest.fixture
def fight(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="maelstrom", players=[player])
    rook = make_character(ruleset="maelstrom", owner=player, campaign=campaign, build=ROOK)
    e = services.encounter_create(campaign=campaign, user=gm, name="Cargo bay")
    pc = services.encounter_add_combatant(encounter=e, user=gm, character=rook)[0]
    npc = services.encounter_add_combatant(encounter=e, user=gm, name="Vasquez", build=VASQUEZ)[0]
    return {"gm": gm, "player": player, "rook": rook, "e": e, "pc": pc, "npc": npc}


def test_the_scripted_fight(fight):
    gm, player, e, pc, npc = fight["gm"], fight["player"], fight["e"], fight["pc"], fight["npc"]

    # Initiative: Rook 6 + 3, Vasquez 5 + 4: both 9, Rook's Reflexes + Wits is higher.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([3, 4]))
    e.refresh_from_db()
    assert e.order == [pc.pk, npc.pk] and e.state == {"difficulty": 6, "threshold": 0}
    texts = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("text", flat=True))
    assert "Initiative (Reflexes + Wits + d10): Rook Abara 9 (6 + 3), Vasquez 9 (5 + 4)." in texts

    # Rook shoots: 3 successes → 4 lethal, Vasquez soaks 1.
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "ranged", "target": str(npc.pk), "weapon": "pistol"},
        roller=FixedRoller([6, 7, 8, 2, 3, 4, 5, 6, 2]),
    )
    last = last_event(e)
    assert last.text == (
        "Rook Abara attacks Vasquez with the pistol: 7 dice. Rolled 6, 7, 8, 2, 3, 4, 5 at difficulty 6: "
        "3 successes, 0 botches → 3 successes. Hit: 4 levels of lethal; Vasquez soaks 1 (Strength 2: 6, 2). "
        "Vasquez: Takes 3 levels of lethal damage; now Hurt."
    )
    assert last.data["damage"] == 3 and last.actor_id == pc.pk
    assert Combatant.objects.get(pk=npc.pk).state["health"] == [L, L, L, None, None, None, None, None]

    # One action a turn: the second is refused and nothing changes.
    before = snapshot(e)
    refused(
        "maelstrom.already_acted",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "ranged", "target": npc.pk},
        roller=FixedRoller([10] * 9),
    )
    assert snapshot(e) == before
    refused(
        "combat.not_your_turn",
        services.encounter_act,
        encounter=e,
        user=gm,
        combatant_id=npc.pk,
        action={"action": "ranged", "target": pc.pk},
        roller=FixedRoller([10] * 9),
    )
    assert snapshot(e) == before

    # Vasquez's turn: a willpower dot ignores his Hurt (−1) for the rifle shot; Rook's soak botches.
    services.encounter_next_turn(encounter=e, user=player)
    services.encounter_act(encounter=e, user=gm, combatant_id=npc.pk, action={"action": "spend_willpower"})
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=npc.pk,
        action={"action": "ranged", "target": pc.pk, "weapon": "rifle"},
        roller=FixedRoller([1, 2, 3, 4, 5, 6, 9, 1, 1]),
    )
    assert last_event(e).text.startswith(
        "Vasquez attacks Rook Abara with the rifle: 7 dice (wound penalty ignored (willpower))."
    )
    npc.refresh_from_db()
    assert npc.state["willpower"] == 2 and npc.state["ignore_wounds"] is False
    character = Character.objects.get(pk=fight["rook"].pk)
    assert character.state["health"] == [L, L, L, None, None, None, None, None]  # on Rook's sheet
    assert (
        CharacterVersion.objects.get(character=character, number=character.version)
        .reason.split(" · ")[-1]
        .startswith("Cargo bay: Vasquez attacks Rook Abara with the rifle")
    )  # the last sentence of this session of play's version

    # The storyteller raises the difficulty; the GM fills Rook's track: incapacitated on his turn.
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=npc.pk,
        action={"action": "gm_difficulty", "difficulty": 7, "threshold": 0},
    )
    e.refresh_from_db()
    assert e.state == {"difficulty": 7, "threshold": 0}
    with pytest.raises(services.NotPermitted):
        services.encounter_act(
            encounter=e,
            user=player,
            combatant_id=pc.pk,
            action={"action": "gm_damage", "levels": 1, "type": "bashing"},
        )
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=pc.pk,
        action={"action": "gm_damage", "levels": 5, "type": "bashing"},
    )
    services.encounter_next_turn(encounter=e, user=gm)
    e.refresh_from_db()
    assert e.round == 2 and e.order[e.turn] == pc.pk
    assert last_event(e).text == "Rook Abara is incapacitated (the health track is full) and cannot act."
    before = snapshot(e)
    refused(
        "maelstrom.incapacitated",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=pc.pk,
        action={"action": "melee", "target": npc.pk},
        roller=FixedRoller([10] * 9),
    )
    assert snapshot(e) == before
    seqs = list(EncounterEvent.objects.filter(encounter=e).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
