"""Every open sheet follows its character (characters/sheet/live.py, characters/table/consumers.py
``SheetConsumer``): every writer (the sheet, the API's PATCH, an encounter, an advancement's
approval) reaches the sockets of the people who may see the sheet, once its transaction commits;
a stranger, another player and an anonymous visitor are refused; a removed member's socket closes
and stays closed. On the in-memory channel layer and on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import copy
import json
import random

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from characters.advancement import services as advancement_svc
from characters.campaigns import services as campaign_services
from characters.models import Character
from characters.sheet import services as play
from characters.table.consumers import CLOSE_ANONYMOUS, CLOSE_NOT_FOUND
from characters.table.live import CLOSE_RECHECK
from combat import services as combat
from config.errors import RuleRefused
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from rulesets.engine.pointer import set_at
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _stray_connections_closed():
    """The consumer's database_sync_to_async threads keep their connections."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _socket(user, character_id) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/characters/{character_id}/sheet/", headers=headers)


def _full(ruleset) -> dict | None:
    return next((p for p in vehicles.pools(ruleset) if p["value"] == p["max"] >= 4), None)


#: The registry's first ruleset whose sheet character has a full pool (HP 10 / 10, say), and the pool.
SLUG = vehicles.first(_full, "a ruleset with a full pool")
HP = _full(registry.get(SLUG))["path"]


def _step(character, user, delta=-1):
    return play.character_state_action(
        character_id=character.pk, user=user, action={"action": "step", "path": HP, "delta": delta}
    )


def _with(state: dict, path: str, value: int) -> dict:
    state = copy.deepcopy(state)
    set_at(state, path, value)
    return state


def _heard_by_owner_and_gm(table, character, change) -> list[dict]:
    """Run ``change`` (sync) with the owner's and the GM's sockets open: what each received."""

    async def run():
        owner, gm = _socket(table["player"], character.pk), _socket(table["gm"], character.pk)
        assert (await owner.connect())[0] and (await gm.connect())[0]
        await database_sync_to_async(change)()
        got = [json.loads(await owner.receive_from(timeout=2)), json.loads(await gm.receive_from(timeout=2))]
        await owner.disconnect()
        await gm.disconnect()
        return got

    return async_to_sync(run)()


def test_a_sheet_change_reaches_the_owner_s_and_the_gm_s_open_sheets(layer, table):
    character = character_at_table(table, SLUG)
    to_owner, to_gm = _heard_by_owner_and_gm(table, character, lambda: _step(character, table["gm"]))
    saved = Character.objects.get(pk=character.pk)
    assert (
        to_owner
        == to_gm
        == {
            "character": character.pk,
            "version": saved.version,
            "stamp": saved.live_stamp,  # when it changed: an award changes the budget, not the version
            "build": False,
        }
    )


def test_the_api_s_patch_reaches_the_open_sheets(layer, table):
    character = character_at_table(table, SLUG)

    def patch():
        response = api_client(table["gm"]).patch(
            f"/api/v1/characters/{character.pk}/",
            {"version": character.version, "state": _with(character.state, HP, 3)},
            format="json",
        )
        assert response.status_code == 200

    to_owner, _ = _heard_by_owner_and_gm(table, character, patch)
    assert to_owner["version"] == character.version + 1


def test_a_play_action_over_the_api_reaches_the_open_sheets(layer, table):
    character = character_at_table(table, SLUG)

    def act():
        response = api_client(table["player"], token=True).post(
            f"/api/v1/characters/{character.pk}/actions/",
            {"action": "step", "path": HP, "delta": -1},
            format="json",
        )
        assert response.status_code == 200

    to_owner, to_gm = _heard_by_owner_and_gm(table, character, act)
    character.refresh_from_db()
    assert (
        to_owner
        == to_gm
        == {
            "character": character.pk,
            "version": character.version,
            "stamp": character.live_stamp,
            "build": False,
        }
    )


def test_the_gm_s_party_rest_reaches_the_open_sheets(layer, table):
    from tests.characters.party.test_party_rest import SLUG as REST_SLUG

    character = character_at_table(table, REST_SLUG)

    def rest():
        response = api_client(table["gm"]).post(
            f"/api/v1/campaigns/{character.campaign_id}/party-rest/",
            {"characters": [character.pk]},
            format="json",
        )
        assert response.json()["results"][0]["status"] == 200, response.json()

    to_owner, to_gm = _heard_by_owner_and_gm(table, character, rest)
    character.refresh_from_db()
    assert (
        to_owner
        == to_gm
        == {
            "character": character.pk,
            "version": character.version,
            "stamp": character.live_stamp,
            "build": False,
        }
    )


def test_an_encounter_s_damage_reaches_the_open_sheets(layer, table):
    character = character_at_table(table, SLUG)
    e = combat.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    fighter = combat.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    combat.encounter_start(encounter=e, user=table["gm"], roller=Roller(random.Random(15)))
    damage_action = vehicles.gm_harm(SLUG)  # the GM's harm or damage, as the rules take it
    assert damage_action, "the GM harms a PC"
    before = Character.objects.get(pk=character.pk).state

    def damage():
        combat.encounter_act(encounter=e, user=table["gm"], combatant_id=fighter.pk, action=damage_action)

    to_owner, to_gm = _heard_by_owner_and_gm(table, character, damage)
    character.refresh_from_db()
    assert character.state != before and to_owner == to_gm
    assert to_owner["version"] == character.version


def test_an_approved_advancement_reaches_the_open_sheets_as_a_build_change(layer, table):
    slug = vehicles.first(vehicles.advance, "a ruleset whose sheet character advances")
    wanted = vehicles.advance(registry.get(slug))
    character = character_at_table(table, slug)
    gm, player = table["gm"], table["player"]
    advancement_svc.award_create(
        gm=gm, character_id=character.pk, currency=wanted.currency, amount=wanted.cost, reason="arc"
    )
    request = advancement_svc.advancement_request(character_id=character.pk, user=player, build=wanted.build)
    to_owner, _ = _heard_by_owner_and_gm(
        table, character, lambda: advancement_svc.advancement_approve(advancement_id=request.pk, gm=gm)
    )
    assert to_owner["build"] is True
    assert to_owner["version"] == Character.objects.get(pk=character.pk).version


def test_a_refused_change_sends_nothing(layer, table):
    character = character_at_table(table, SLUG)  # the pool at its maximum

    async def run():
        owner = _socket(table["player"], character.pk)
        assert (await owner.connect())[0]

        def refused():
            with pytest.raises(RuleRefused):
                _step(character, table["player"], delta=1)

        await database_sync_to_async(refused)()
        quiet = await owner.receive_nothing(timeout=0.5)
        await owner.disconnect()
        return quiet

    assert async_to_sync(run)() is True


def test_a_stranger_another_player_and_an_anonymous_visitor_are_refused_and_hear_nothing(layer, table):
    character = character_at_table(table, SLUG)

    async def run():
        results = [
            await _socket(u, character.pk).connect(timeout=2)
            for u in (table["stranger"], table["other"], None)
        ]
        results.append(await _socket(table["player"], 999_999_999).connect(timeout=2))
        return results

    assert async_to_sync(run)() == [
        (False, CLOSE_NOT_FOUND),
        (False, CLOSE_NOT_FOUND),
        (False, CLOSE_ANONYMOUS),
        (False, CLOSE_NOT_FOUND),
    ]


def test_a_removed_member_s_sheet_socket_closes_hears_no_more_and_cannot_reconnect(layer, table):
    character = character_at_table(table, SLUG)
    campaign = character.campaign

    async def run():
        owner = _socket(table["player"], character.pk)
        assert (await owner.connect())[0]
        await database_sync_to_async(campaign_services.campaign_remove_player)(
            gm=table["gm"], campaign=campaign, user=table["player"]
        )
        closed = await owner.receive_output(timeout=1)
        await database_sync_to_async(_step)(character, table["gm"])  # the GM plays on
        again = _socket(table["player"], character.pk)
        reconnect = await again.connect(timeout=2)
        return closed, reconnect

    closed, reconnect = async_to_sync(run)()
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, CLOSE_NOT_FOUND)


def test_the_live_blocks_are_the_viewer_s_own_and_follow_the_same_access_rule(client, table):
    character = character_at_table(table, SLUG)
    _step(character, table["gm"])
    url = reverse("character_sheet_live", args=[character.pk])
    client.force_login(table["player"])
    html = client.get(url, **HX).content.decode()
    version = Character.objects.get(pk=character.pk).version
    assert f'data-version="{version}"' in html
    for block in ("sheet-state", "sheet-effects", "sheet-derived", "sheet-rollables", "sheet-version"):
        assert f'id="{block}"' in html
    assert "hx-swap-oob" not in html and "<html" not in html
    assert client.get(url).status_code == 302  # a plain GET: the sheet
    client.force_login(table["stranger"])
    assert client.get(url, **HX).status_code == 404
    client.force_login(table["other"])
    assert client.get(url, **HX).status_code == 404
