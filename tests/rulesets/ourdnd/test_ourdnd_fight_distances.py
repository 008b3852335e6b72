"""Our D&D's distances through the combat services, the API and the page (seed 003 "MOVMENT AND
DISTANCE"): a move or an attack the distance forbids is a 422 with the rule's words and changes
nothing; the rows show the bands; a campaign's house rules place the sides."""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from combat import services
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.combat.helpers import event_texts, refused, snapshot
from tests.factories import api_client, make_campaign, make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
BRAM = json.loads((ROOT / "rulesets/systems/ourdnd/demo/bram_shieldbearer.json").read_text())  # STR 2, sword
GOBLIN = {
    "ruleset": "ourdnd",
    "name": "Goblin",
    "budget": {"points": 3},
    "stats": {"str": 1, "dex": 2, "con": 0, "int": 0, "wis": 0, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "dagger"}],
}


def scene(house: dict | None = None) -> dict:
    """Bram against a goblin, started: Bram rolls 15, the DM 9, so Bram acts first."""
    gm, player = make_user("gm"), make_user("player")
    settings = {"house_rules": house} if house else None
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player], settings=settings)
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign, build=BRAM)
    e = services.encounter_create(campaign=campaign, user=gm, name="The goblin bridge")
    c_bram = services.encounter_add_combatant(encounter=e, user=gm, character=bram)[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([15, 9]))
    e.refresh_from_db()
    return {"gm": gm, "player": player, "e": e, "bram": c_bram, "goblin": goblin}


def test_the_campaign_s_start_distance_places_the_sides_and_melee_is_refused_until_close():
    s = scene({"start_distance": "near"})
    e, bram, goblin = s["e"], s["bram"], s["goblin"]
    assert e.state["positions"] == {str(bram.pk): 0, str(goblin.pk): 1}
    assert (
        "The two sides start NEAR (house default; the campaign may change it, and the DM places anyone with "
        "Set distance)." in event_texts(e)
    )

    before = snapshot(e)
    err = refused(
        "ourdnd.out_of_reach",
        services.encounter_act,
        encounter=e,
        user=s["player"],
        combatant_id=bram.pk,
        action={"action": "attempt", "stat": "str", "target": goblin.pk, "gear": "sword"},
        roller=FixedRoller([15, 4]),
    )
    assert err.errors[0]["message"] == (
        "Melee needs CLOSE (Sword reach no farther), and Goblin is NEAR Bram the "
        "Shield-Bearer: move closer first, or use something that reaches farther."
    )
    assert snapshot(e) == before

    # Move near + action: CLOSE, then the sword.
    services.encounter_act(
        encounter=e,
        user=s["player"],
        combatant_id=bram.pk,
        action={"action": "move_near", "target": goblin.pk, "to": "close"},
    )
    services.encounter_act(
        encounter=e,
        user=s["player"],
        combatant_id=bram.pk,
        action={"action": "attempt", "stat": "str", "target": goblin.pk, "gear": "sword"},
        roller=FixedRoller([15, 4]),
    )
    goblin.refresh_from_db()
    assert goblin.state["hp"] == 6
    assert event_texts(e)[-3] == "Bram the Shield-Bearer moves near: now CLOSE to Goblin."


def test_a_move_the_distance_forbids_changes_nothing():
    s = scene()
    e, bram, goblin = s["e"], s["bram"], s["goblin"]
    services.encounter_act(
        encounter=e,
        user=s["gm"],
        combatant_id=goblin.pk,
        action={"action": "set_distance", "target": bram.pk, "to": "far"},
    )
    e.refresh_from_db()
    assert e.state["positions"][str(goblin.pk)] - e.state["positions"][str(bram.pk)] == 2
    before = snapshot(e)
    err = refused(
        "ourdnd.too_far_to_move",
        services.encounter_act,
        encounter=e,
        user=s["player"],
        combatant_id=bram.pk,
        action={"action": "move_near", "target": goblin.pk, "to": "close"},
    )
    assert "A NEAR move is a few big steps" in err.errors[0]["message"]
    assert snapshot(e) == before


def test_the_api_refuses_with_422_and_the_rule_s_words(db):
    s = scene({"start_distance": "out_of_range"})
    e, bram, goblin = s["e"], s["bram"], s["goblin"]
    player, gm = api_client(s["player"]), api_client(s["gm"])
    before = gm.get(f"/api/v1/encounters/{e.pk}/").json()
    with mock.patch("combat.services.Roller", lambda: FixedRoller([15, 4])):
        r = player.post(
            f"/api/v1/encounters/{e.pk}/actions/",
            {"combatant": bram.pk, "action": "attempt", "stat": "str", "target": goblin.pk, "gear": "sword"},
            format="json",
        )
    assert r.status_code == 422
    assert r.json()["errors"][0]["code"] == "ourdnd.out_of_range"
    assert r.json()["detail"] == (
        "Goblin is OUT OF RANGE of Bram the Shield-Bearer: none of Bram the "
        "Shield-Bearer's effects can reach OUT OF RANGE."
    )
    after = gm.get(f"/api/v1/encounters/{e.pk}/").json()
    assert after == before
    row = next(c for c in after["combatants"] if c["id"] == bram.pk)
    assert row["summary"]["details"] == [{"label": "Goblin", "value": "OUT OF RANGE"}]
    assert row["summary"]["details_label"] == "Distances"


def test_the_encounter_page_shows_the_bands():
    s = scene({"start_distance": "far"})
    c = Client()
    c.force_login(s["player"])
    page = c.get(reverse("encounter_detail", args=[s["e"].pk])).content.decode()
    assert '<p class="combatant-details-head">Distances</p>' in page
    assert '<div data-detail="distance"><dt>Goblin</dt><dd>FAR</dd></div>' in page
    assert '<div data-detail="distance"><dt>Bram the Shield-Bearer</dt><dd>FAR</dd></div>' in page
    assert "positions" not in page and "out_of_range" not in page.replace('value="out_of_range"', "")


def test_a_campaign_naming_an_unknown_band_is_refused():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as exc:
        make_campaign(ruleset="ourdnd", settings={"house_rules": {"start_distance": "next door"}})
    assert "The sides start close, near, far, very_far or out_of_range from each other." in str(exc.value)
