"""Every open sheet follows its character (characters/sheet/live.py, characters/table/consumers.py
``SheetConsumer``): every writer (the sheet, the API's PATCH, an encounter, an advancement's
approval) reaches the sockets of the people who may see the sheet, once its transaction commits;
a stranger, another player and an anonymous visitor are refused; a removed member's socket closes
and stays closed. On the in-memory channel layer and on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import copy
import json

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
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
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


def _step(character, user):
    return play.character_state_action(
        character_id=character.pk, user=user, action={"action": "step", "path": "/hp", "delta": -1}
    )


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
    character = character_at_table(table, "ourdnd")
    to_owner, to_gm = _heard_by_owner_and_gm(table, character, lambda: _step(character, table["gm"]))
    version = Character.objects.get(pk=character.pk).version
    assert to_owner == to_gm == {"character": character.pk, "version": version, "build": False}


def test_the_api_s_patch_reaches_the_open_sheets(layer, table):
    character = character_at_table(table, "ourdnd")

    def patch():
        response = api_client(table["gm"]).patch(
            f"/api/v1/characters/{character.pk}/",
            {"version": character.version, "state": {**character.state, "hp": 4}},
            format="json",
        )
        assert response.status_code == 200

    to_owner, _ = _heard_by_owner_and_gm(table, character, patch)
    assert to_owner["version"] == character.version + 1


def test_an_encounter_s_damage_reaches_the_open_sheets(layer, table):
    character = character_at_table(table, "ourdnd")
    e = combat.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    fighter = combat.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    combat.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([15]))

    def damage():
        combat.encounter_act(
            encounter=e,
            user=table["gm"],
            combatant_id=fighter.pk,
            action={"action": "gm_damage", "amount": 2},
        )

    to_owner, to_gm = _heard_by_owner_and_gm(table, character, damage)
    character.refresh_from_db()
    assert character.state["hp"] == 8 and to_owner == to_gm
    assert to_owner["version"] == character.version


def test_an_approved_advancement_reaches_the_open_sheets_as_a_build_change(layer, table):
    character = character_at_table(table, "pando")
    gm, player = table["gm"], table["player"]
    advancement_svc.award_create(gm=gm, character_id=character.pk, currency="cp", amount=6, reason="arc")
    build = copy.deepcopy(BUILDS["pando"])
    build["attributes"]["strength"] = 3
    request = advancement_svc.advancement_request(character_id=character.pk, user=player, build=build)
    to_owner, _ = _heard_by_owner_and_gm(
        table, character, lambda: advancement_svc.advancement_approve(advancement_id=request.pk, gm=gm)
    )
    assert to_owner["build"] is True
    assert to_owner["version"] == Character.objects.get(pk=character.pk).version


def test_a_refused_change_sends_nothing(layer, table):
    character = character_at_table(table, "ourdnd")  # at its maximum HP

    async def run():
        owner = _socket(table["player"], character.pk)
        assert (await owner.connect())[0]

        def refused():
            with pytest.raises(RuleRefused):
                play.character_state_action(
                    character_id=character.pk,
                    user=table["player"],
                    action={"action": "step", "path": "/hp", "delta": 1},
                )

        await database_sync_to_async(refused)()
        quiet = await owner.receive_nothing(timeout=0.5)
        await owner.disconnect()
        return quiet

    assert async_to_sync(run)() is True


def test_a_stranger_another_player_and_an_anonymous_visitor_are_refused_and_hear_nothing(layer, table):
    character = character_at_table(table, "ourdnd")

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
    character = character_at_table(table, "ourdnd")
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
    character = character_at_table(table, "ourdnd")
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
