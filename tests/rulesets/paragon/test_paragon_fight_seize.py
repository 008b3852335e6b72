"""Seizing the offensive through the combat services (seed 001, the note on exchanges: "a combatant
who expends more HP than their opponent always gets to act first, regardless of Initiative and surprise
assaults"): the Hero Points leave the character's sheet, the higher spender strikes first, and a spend
the combatant cannot make is a 422 in the rule's words that changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from characters.models import Character
from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import event_texts, refused, snapshot
from tests.factories import make_campaign, make_user
from tests.rulesets.report_helpers import typical

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
AREN = typical("paragon")
SELA = json.loads((ROOT / "rulesets/systems/paragon/demo/sela_windborn.json").read_text())


@pytest.fixture
def exchange(db):
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="paragon", players=[player])
    aren = make_character(ruleset="paragon", owner=player, campaign=campaign, build=AREN)
    e = services.encounter_create(campaign=campaign, user=gm, name="The skyward stair")
    c_aren = services.encounter_add_combatant(encounter=e, user=gm, character=aren)[0]
    c_sela = services.encounter_add_combatant(encounter=e, user=gm, name="Sela Windborn", build=SELA)[0]
    # Initiative: Aren d12 8 + 2d6 4,6 + 4 = 22; Sela 3 + 5,1 = 9. Aren engages on his turn.
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=c_aren.pk,
        action={"action": "engage", "target": c_sela.pk, "kind": "ranged"},
    )
    return {"gm": gm, "player": player, "e": e, "aren": c_aren, "sela": c_sela, "character": aren}


def test_the_higher_spender_acts_first_through_the_services(exchange):
    gm, player, e, aren, sela = (exchange[k] for k in ("gm", "player", "e", "aren", "sela"))
    e.refresh_from_db()
    assert e.state["exchange"]["first"] == aren.pk  # the higher initiative, before any spend
    services.encounter_act(
        encounter=e, user=player, combatant_id=aren.pk, action={"action": "seize_offensive", "amount": 1}
    )
    services.encounter_act(
        encounter=e, user=gm, combatant_id=sela.pk, action={"action": "seize_offensive", "amount": "2"}
    )  # a form field's text
    e.refresh_from_db()
    assert (e.state["exchange"]["first"], e.state["exchange"]["seized"]) == (
        sela.pk,
        {str(aren.pk): 1, str(sela.pk): 2},
    )
    assert event_texts(e)[-1] == (
        "Sela Windborn spends 2 Hero Points to seize the offensive (2 against Aren of "
        "the Eastern Gate's 1; 3 left): Sela Windborn acts first in this exchange."
    )
    # The Hero Point left the player's character sheet; Sela's row has 3 left.
    assert Character.objects.get(pk=exchange["character"].pk).state["pools"]["heroism"] == 4
    sela.refresh_from_db()
    assert sela.state["pools"]["heroism"] == 3

    before = snapshot(e)
    err = refused(
        "paragon.acts_second",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "strike", "skill": "missile"},
        roller=FixedRoller([10, 4, 4]),
    )
    assert err.errors[0]["message"] == (
        "Sela Windborn seized the offensive with 2 Hero Points and acts first in this exchange."
    )
    assert snapshot(e) == before
    services.encounter_act(
        encounter=e,
        user=gm,
        combatant_id=sela.pk,
        action={"action": "strike", "skill": "triarmatura"},
        roller=FixedRoller([10, 4, 4, 4, 4]),
    )
    e.refresh_from_db()
    assert e.state["threat"]["attacker"] == sela.pk and e.state["threat"]["defender"] == aren.pk


def test_a_spend_beyond_the_hero_points_is_a_422_that_changes_nothing(exchange):
    player, e, aren = exchange["player"], exchange["e"], exchange["aren"]
    before = snapshot(e)
    err = refused(
        "paragon.no_hero_points",
        services.encounter_act,
        encounter=e,
        user=player,
        combatant_id=aren.pk,
        action={"action": "seize_offensive", "amount": 6},
    )
    assert err.errors[0]["message"] == (
        "Seizing the offensive with 6 Hero Points needs 6, but Aren of the Eastern Gate has 5."
    )
    assert snapshot(e) == before
    assert Character.objects.get(pk=exchange["character"].pk).state["pools"]["heroism"] == 5


def test_the_api_answers_a_refused_spend_with_422_and_the_rule_s_words(exchange, client):
    player, e, aren = exchange["player"], exchange["e"], exchange["aren"]
    client.force_login(player)
    before = snapshot(e)
    response = client.post(
        f"/api/v1/encounters/{e.pk}/actions/",
        {"combatant": aren.pk, "action": "seize_offensive", "amount": 9},
        content_type="application/json",
    )
    assert response.status_code == 422
    body = response.json()
    assert body["errors"][0]["code"] == "paragon.no_hero_points"
    assert "needs 9, but Aren of the Eastern Gate has 5" in body["errors"][0]["message"]
    assert snapshot(e) == before


def test_a_campaign_house_rule_makes_equal_spends_simultaneous(db):
    gm, player = make_user("gm2"), make_user("player2")
    campaign = make_campaign(
        gm=gm,
        ruleset="paragon",
        players=[player],
        settings={"house_rules": {"seize_offensive_tie": "simultaneous"}},
    )
    aren = make_character(ruleset="paragon", owner=player, campaign=campaign, build=AREN)
    e = services.encounter_create(campaign=campaign, user=gm, name="A tie")
    c_aren = services.encounter_add_combatant(encounter=e, user=gm, character=aren)[0]
    c_sela = services.encounter_add_combatant(encounter=e, user=gm, name="Sela Windborn", build=SELA)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=c_aren.pk,
        action={"action": "engage", "target": c_sela.pk, "kind": "ranged"},
    )
    for who, user in ((c_sela, gm), (c_aren, player)):
        services.encounter_act(
            encounter=e, user=user, combatant_id=who.pk, action={"action": "seize_offensive", "amount": 1}
        )
    e.refresh_from_db()
    assert e.state["exchange"]["first"] is None
    assert event_texts(e)[-1].endswith(
        "equal spends, both act simultaneously (house default; your GM may change it)."
    )
