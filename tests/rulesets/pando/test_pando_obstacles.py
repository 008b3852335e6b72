"""Obstacles (RULES.md amendment W2) from the rulebook's words, through the API, the encounter's spend,
the sheet's spend and the pages.

Seed 000: "Characters can overcome obstacles by taking actions and using the EP to deal with the
obstacles. When enough cumulative EP has been spent on overcoming the obstacle it is resolved,
meaning the lock has been opened, or the stunned character regaines control of their faculties. The
EP can be accumulated over multiple rolls, but EP used to overcome the obstacle cannot be spent on
outcomes." and "sometimes the GM may choose for the obstacle's level and/or its restrictions to be
secret"; W2: "with within_rounds, the EP reset when that many rounds pass unmet".
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.effects.services import character_effect_apply
from characters.models import Character, Obstacle
from combat import services
from rulesets.engine.dice import FixedRoller
from tests.combat.helpers import event_texts, refused, snapshot
from tests.factories import api_client, make_user
from tests.rulesets.pando.fight_table import GOBLIN, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db


def create(table, **body):  # noqa: F811
    r = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{table['campaign'].pk}/obstacles/",
        {"name": "Locked door", "level": 5, **body},
        format="json",
    )
    assert r.status_code == 201, r.json()
    return r.json()


# ------------------------------------------------------------------ the API


def test_the_gm_sets_an_obstacle_and_the_api_answers_the_contracts_shape(table):  # noqa: F811
    body = create(table, secret=True, within_rounds=2)
    assert {
        k: body[k] for k in ("name", "level", "ep", "resolved", "secret", "encounter", "character", "effect")
    } == {
        "name": "Locked door",
        "level": 5,
        "ep": 0,
        "resolved": False,
        "secret": True,
        "encounter": None,
        "character": None,
        "effect": None,
    }
    player = api_client(table["player"])
    [seen] = player.get(f"/api/v1/campaigns/{table['campaign'].pk}/obstacles/").json()
    assert seen["id"] == body["id"] and seen["level"] is None  # "secret": no level for players
    assert player.get(f"/api/v1/obstacles/{body['id']}/").json()["level"] is None
    assert api_client(table["gm"]).get(f"/api/v1/obstacles/{body['id']}/").json()["level"] == 5


def test_only_the_gm_writes_and_strangers_see_nothing(table):  # noqa: F811
    body = create(table)
    player = api_client(table["player"])
    r = player.post(
        f"/api/v1/campaigns/{table['campaign'].pk}/obstacles/", {"name": "Wall", "level": 2}, format="json"
    )
    assert r.status_code == 403
    assert player.patch(f"/api/v1/obstacles/{body['id']}/", {"level": 1}, format="json").status_code == 403
    assert player.delete(f"/api/v1/obstacles/{body['id']}/").status_code == 403
    stranger = api_client(table["stranger"])
    assert stranger.get(f"/api/v1/obstacles/{body['id']}/").status_code == 404
    assert stranger.get(f"/api/v1/campaigns/{table['campaign'].pk}/obstacles/").status_code == 404
    gm = api_client(table["gm"])
    assert (
        gm.patch(f"/api/v1/obstacles/{body['id']}/", {"level": 7, "secret": True}, format="json").json()[
            "level"
        ]
        == 7
    )
    assert gm.delete(f"/api/v1/obstacles/{body['id']}/").status_code == 204
    assert not Obstacle.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "", "level": 3}, "name"),
        ({"name": "Door", "level": 0}, "level"),
        ({"name": "Door", "level": 3, "within_rounds": 0}, "within_rounds"),
        ({"name": "Door", "level": 3, "character": 999999}, "character"),
        ({"name": "Door", "level": 3, "effect": "nope"}, "effect"),
    ],
)
def test_a_bad_obstacle_is_a_400_naming_the_field_and_nothing_is_made(table, body, field):  # noqa: F811
    r = api_client(table["gm"]).post(
        f"/api/v1/campaigns/{table['campaign'].pk}/obstacles/", body, format="json"
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["field"] == field
    assert not Obstacle.objects.exists()


def test_a_gm_patch_that_meets_the_level_resolves_it_and_ends_the_linked_stun(table):  # noqa: F811
    bea = table["bea"]
    _, stun = character_effect_apply(character_id=bea.pk, user=table["gm"], spec={"effect": "stunned"})
    body = create(table, name="Stunned", level=3, character=bea.pk, effect=stun["id"])
    r = api_client(table["gm"]).patch(f"/api/v1/obstacles/{body['id']}/", {"ep": 3}, format="json")
    assert r.json()["resolved"] is True
    assert Character.objects.get(pk=bea.pk).state.get("effects", []) == []


# ------------------------------------------------------------------ EP from the encounter's spend


@pytest.fixture
def fight(table):  # noqa: F811
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Ford")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    e.refresh_from_db()
    return {**table, "e": e, "c_pablo": pablo, "c_goblin": goblin}


def strike(fight, faces=(1, 1, 1)):
    services.encounter_act(
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "strike:0", "target": fight["c_goblin"].pk},
        roller=FixedRoller(list(faces)),
    )


def spend(fight, **action):
    services.encounter_act(
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", **action},
    )
    fight["e"].refresh_from_db()


def test_ep_put_into_an_obstacle_accumulate_over_rolls_and_cannot_buy_outcomes(fight):
    door = create(fight, encounter=fight["e"].pk)
    strike(fight)
    # 3 EP: 2 into the door, the third on a hit.
    spend(fight, obstacle=door["id"], ep_to_obstacle=2, outcomes=[{"id": "hit", "body_part": "legs"}])
    assert Obstacle.objects.get(pk=door["id"]).ep == 2
    texts = event_texts(fight["e"])
    assert texts[-2].startswith("Pablo spends 3 EP: 2 EP into Locked door; Hit (1 EP) on Goblin")
    assert texts[-1] == "Pablo puts 2 EP into Locked door (2/5)."
    strike(fight)
    spend(fight, obstacle=door["id"], ep_to_obstacle=3, outcomes=[])
    row = Obstacle.objects.get(pk=door["id"])
    assert row.ep == 5 and row.resolved
    assert (
        event_texts(fight["e"])[-1] == "Pablo puts 3 EP into Locked door: Locked door is overcome (5/5 EP)."
    )


def test_ep_into_an_obstacle_count_against_the_roll_and_a_resolved_one_refuses(fight):
    door = create(fight, level=1)
    strike(fight)
    before = snapshot(fight["e"])
    refused(
        "pando.ep_exceeded",
        services.encounter_act,
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={
            "action": "spend",
            "obstacle": door["id"],
            "ep_to_obstacle": 2,
            "outcomes": [{"id": "knock_prone"}],
        },
    )
    assert snapshot(fight["e"]) == before and Obstacle.objects.get(pk=door["id"]).ep == 0
    spend(fight, obstacle=door["id"], ep_to_obstacle=1, outcomes=[])
    assert Obstacle.objects.get(pk=door["id"]).resolved
    before = snapshot(fight["e"])
    refused(
        "pando.obstacle_resolved",
        services.encounter_act,
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", "obstacle": door["id"], "ep_to_obstacle": 1, "outcomes": []},
    )
    assert snapshot(fight["e"]) == before and fight["e"].state["attack"]["ep"] == 2


def test_overcoming_a_fighters_stun_ends_the_effect_in_the_fight(fight):
    """ "the stunned character regaines control of their faculties"."""
    _, stun = character_effect_apply(
        character_id=fight["pablo"].pk, user=fight["gm"], spec={"effect": "stunned"}
    )
    stunned = create(fight, name="Stunned", level=2, character=fight["pablo"].pk, effect=stun["id"])
    strike(fight, faces=(1, 1))  # stunned: one die fewer
    spend(fight, obstacle=stunned["id"], ep_to_obstacle=2, outcomes=[])
    assert Character.objects.get(pk=fight["pablo"].pk).state.get("effects", []) == []
    assert event_texts(fight["e"])[-1].startswith(
        "Pablo puts 2 EP into Stunned: Stunned is overcome (2/2 EP)."
    )


def test_within_rounds_the_ep_reset_when_the_rounds_pass_unmet(fight):
    door = create(fight, level=9, within_rounds=1, encounter=fight["e"].pk)
    strike(fight)
    spend(fight, obstacle=door["id"], ep_to_obstacle=3, outcomes=[])
    assert Obstacle.objects.get(pk=door["id"]).ep == 3
    for _ in range(2):  # Pablo's turn, the goblin's: round 2 begins
        services.encounter_next_turn(encounter=fight["e"], user=fight["gm"])
    fight["e"].refresh_from_db()
    assert fight["e"].round == 2
    assert Obstacle.objects.get(pk=door["id"]).ep == 0
    assert "Locked door: the EP put in (3) run out, not enough within 1 rounds." in event_texts(fight["e"])


def test_the_encounter_page_and_the_api_show_a_secret_level_as_unknown_to_players(fight, client):
    create(fight, secret=True)
    client.force_login(fight["player"])
    page = client.get(reverse("encounter_detail", args=[fight["e"].pk])).content.decode()
    assert "Locked door: 0/? EP" in page
    client.force_login(fight["gm"])
    assert (
        "Locked door: 0/5 EP (secret level)"
        in client.get(reverse("encounter_detail", args=[fight["e"].pk])).content.decode()
    )
    [seen] = api_client(fight["player"]).get(f"/api/v1/encounters/{fight['e'].pk}/").json()["obstacles"]
    assert seen["level"] is None and seen["name"] == "Locked door"
    strike(fight)
    client.force_login(fight["player"])
    page = client.get(reverse("encounter_detail", args=[fight["e"].pk])).content.decode()
    assert "Locked door (0/? EP)" in page  # the spend form's choice


def test_the_party_page_lists_obstacles_and_the_gm_sets_one(table, client):  # noqa: F811
    client.force_login(table["gm"])
    r = client.post(
        reverse("campaign_obstacle_create", args=[table["campaign"].pk]),
        {"name": "Rope bridge", "level": "4", "within_rounds": "", "character": ""},
        follow=True,
    )
    assert "Rope bridge: 0/4 EP" in r.content.decode()
    assert Obstacle.objects.get().level == 4
    outsider = make_user("outsider")
    client.force_login(outsider)
    r = client.post(
        reverse("campaign_obstacle_create", args=[table["campaign"].pk]), {"name": "X", "level": "1"}
    )
    assert r.status_code == 404 and Obstacle.objects.count() == 1


def test_the_sheet_lists_the_characters_afflictions(table, client):  # noqa: F811
    create(table, name="Poisoned", level=4, character=table["pablo"].pk)
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[table["pablo"].pk])).content.decode()
    assert "Afflictions to overcome" in page and "Poisoned: 0/4 EP" in page
