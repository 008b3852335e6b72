"""A short Paragon fight through the combat services, dice fixed (RULES.md 2 "Play state and combat")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.exceptions import PermissionDenied

from characters.models import Character
from combat import services
from config.api import RuleRefused
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import event_texts, snapshot
from tests.factories import make_campaign, make_user
from tests.rulesets.report_helpers import typical

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
AREN = typical("paragon")
HESK = json.loads((ROOT / "rulesets/systems/paragon/demo/old_hesk.json").read_text())


@pytest.fixture
def duel(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="paragon", players=[player])
    aren = make_character(ruleset="paragon", owner=player, campaign=campaign, build=AREN)
    e = services.encounter_create(campaign=campaign, user=gm, name="The gatehouse")
    c_aren = services.encounter_add_combatant(encounter=e, user=gm, character=aren)[0]
    c_hesk = services.encounter_add_combatant(encounter=e, user=gm, name="Old Hesk", build=HESK)[0]
    # Initiative: Aren d12 8 + 2d6 4,6 + 4 = 22; Hesk 3 + 5,1 = 9.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    return {"gm": gm, "player": player, "e": e, "aren": c_aren, "hesk": c_hesk, "character": aren}


def test_a_strike_hits_through_the_services_and_a_refusal_changes_nothing(duel):
    gm, player, e, aren, hesk = duel["gm"], duel["player"], duel["e"], duel["aren"], duel["hesk"]
    e.refresh_from_db()
    assert e.order == [aren.pk, hesk.pk] and e.turn == 0
    texts = event_texts(e)
    assert "Aren of the Eastern Gate rolls initiative: d12!+2d6+4: 8 | 4,6 +4 = 22." in texts
    assert "Turn order by initiative: Aren of the Eastern Gate (22), Old Hesk (9)." in texts

    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "engage", "target": hesk.pk, "kind": "melee"},
    )
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "strike", "skill": "triarmatura", "weapon": "strong"},
        roller=FixedRoller([10, 4, 4, 4]),
    )
    e.refresh_from_db()
    assert e.state["threat"]["defender"] == hesk.pk and e.state["threat"]["total"] == 26
    # The GM answers for Hesk: he takes the hit (3d6 = 15 Health, Morale −3) and falls incapacitated.
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=hesk.pk,
        action={"action": "take_hit"},
        roller=FixedRoller([6, 5, 4, 3]),
    )
    hesk.refresh_from_db()
    assert hesk.state["pools"]["health"] == 5 and hesk.state["pools"]["morale"] == 3
    texts = event_texts(e)
    assert texts[-2].startswith(
        "Aren of the Eastern Gate hits Old Hesk (strong weapon 3d6: 6+5+4 = 15). Old Hesk: health 20 → 5."
    )
    assert texts[-1] == "Old Hesk is incapacitated: the exchange ends."

    before = snapshot(e)
    with pytest.raises(RuleRefused) as exc:
        services.encounter_act(
            encounter=e,
            user=player,
            combatant_id=aren.pk,
            action={"action": "engage", "target": hesk.pk, "kind": "melee"},
        )
    assert exc.value.errors[0]["code"] == "paragon.already_engaged"
    assert snapshot(e) == before

    # Hesk's turn: an ordinary man has no Hero Point to resist with.
    services.encounter_next_turn(encounter=e, user=gm)
    e.refresh_from_db()
    assert e.turn == 1
    before = snapshot(e)
    with pytest.raises(RuleRefused) as exc:
        services.encounter_act(
            encounter=e, user=gm, combatant_id=hesk.pk, action={"action": "resist_incapacitation"}
        )
    assert exc.value.errors[0]["code"] == "paragon.no_hero_points"
    assert snapshot(e) == before


def test_a_chained_strike_spends_the_character_s_stamina_on_the_sheet(duel):
    player, e, aren, hesk, gm = duel["player"], duel["e"], duel["aren"], duel["hesk"], duel["gm"]
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "engage", "target": hesk.pk, "kind": "melee"},
    )
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "strike", "skill": "triarmatura"},
        roller=FixedRoller([10, 4, 4, 4]),
    )
    services.encounter_act(encounter=e, user=gm, combatant_id=hesk.pk, action={"action": "avoid"})
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "strike", "skill": "triarmatura"},
        roller=FixedRoller([1, 1, 1, 1]),
    )
    character = Character.objects.get(pk=duel["character"].pk)
    assert character.state["pools"]["stamina"] == 19
    hesk.refresh_from_db()
    assert hesk.state["pools"]["stamina"] == 19
    assert event_texts(e)[-1].endswith("a miss, the chain ends.")


def test_a_player_cannot_take_a_gm_action(duel):
    before = snapshot(duel["e"])
    with pytest.raises(PermissionDenied):
        services.encounter_act(
            encounter=duel["e"],
            user=duel["player"],
            combatant_id=duel["aren"].pk,
            action={"action": "gm_restore", "pool": "health", "amount": 1},
        )
    assert snapshot(duel["e"]) == before
