"""Live updates over the websocket (channels' WebsocketCommunicator, driven through async_to_sync):
members hear the new version after a change and fetch the board; strangers and anonymous visitors are refused.
Once on the in-memory channel layer and once on Redis (db 15) when Redis answers."""

from __future__ import annotations

import json
import random
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from combat import services
from combat.consumers import CLOSE_ANONYMOUS, CLOSE_NOT_FOUND
from combat.models import Encounter, EncounterEvent
from rulesets.engine.dice import Roller
from tests.combat.conftest import GOBLIN, pc_action
from tests.combat.helpers import snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _stray_connections_closed(stray_connections_closed):
    """The consumer's database_sync_to_async threads keep their connections (CONN_MAX_AGE)."""


def _headers(user):
    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        c = Client()
        c.force_login(user)
        headers.append((b"cookie", f"sessionid={c.cookies['sessionid'].value}".encode()))
    return headers


def _communicator(user, encounter_id):
    from config.asgi import application

    return WebsocketCommunicator(application, f"/ws/encounters/{encounter_id}/", headers=_headers(user))


def test_a_member_hears_the_version_and_fetches_the_new_board_and_its_own_panel(layer, fight):
    """The notice is the same for everybody and carries the version only; the board the page then
    fetches (since the version it shows) holds the new log line, the rows and this viewer's panel,
    each part with the version it describes."""
    e, pablo, player = fight["e"], fight["c_pablo"], fight["player"]
    action = pc_action(fight)
    shown = Encounter.objects.get(pk=e.pk).version

    def act():
        services.encounter_act(
            encounter=e, user=player, combatant_id=pablo.pk, action=action, roller=Roller(random.Random(5))
        )

    async def run():
        watcher = _communicator(fight["gm"], e.pk)
        connected, _ = await watcher.connect()
        assert connected
        await database_sync_to_async(act)()
        message = await watcher.receive_from(timeout=5)
        await watcher.disconnect()
        return message

    notice = json.loads(async_to_sync(run)())
    version = Encounter.objects.get(pk=e.pk).version
    assert notice == {"encounter": e.pk, "version": version} == {"encounter": e.pk, "version": shown + 1}

    gm = Client()
    gm.force_login(fight["gm"])
    board = gm.get(reverse("encounter_board", args=[e.pk]), {"since": shown}, HTTP_HX_REQUEST="true")
    assert board.status_code == 200
    html = board.content.decode()
    said = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first().text
    assert "Pablo" in said and escape(said) in html  # the action's line, in words
    for part in ("encounter-status", "encounter-combatants", "encounter-log", "encounter-panel"):
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"[^>]*data-version="{version}"', html), part
    assert "csrfmiddlewaretoken" in html  # the viewer's own panel, its forms
    # A page that shows the current version fetches nothing.
    again = gm.get(reverse("encounter_board", args=[e.pk]), {"since": version}, HTTP_HX_REQUEST="true")
    assert again.status_code == 204


def _one_message(user, encounter_id, fn):
    async def run():
        watcher = _communicator(user, encounter_id)
        connected, _ = await watcher.connect()
        assert connected
        await database_sync_to_async(fn)()
        message = await watcher.receive_from(timeout=5)
        await watcher.disconnect()
        return message

    return async_to_sync(run)()


def test_every_change_is_one_notice_of_the_next_version(fight, settings):
    """A move, the end of a turn, a combatant joining: each is one notice, of the version after the one
    before (a page that sees a gap fetches what it missed)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    e, pablo = fight["e"], fight["c_pablo"]
    move = pc_action(fight, target=False)
    start = Encounter.objects.get(pk=e.pk).version
    changes = [
        lambda: services.encounter_act(encounter=e, user=fight["player"], combatant_id=pablo.pk, action=move),
        lambda: services.encounter_next_turn(encounter=e, user=fight["gm"]),
        lambda: services.encounter_add_combatant(encounter=e, user=fight["gm"], name="Wolf", build=GOBLIN),
    ]
    heard = [json.loads(_one_message(fight["gm"], e.pk, change)) for change in changes]
    assert heard == [{"encounter": e.pk, "version": start + n} for n in (1, 2, 3)]


def test_a_refused_action_broadcasts_nothing(layer, fight):
    e, pablo, player = fight["e"], fight["c_pablo"], fight["player"]

    before = snapshot(e)

    def refused():
        with pytest.raises(services.RuleRefused):
            services.encounter_act(
                encounter=e, user=player, combatant_id=pablo.pk, action={"action": "no_such_action"}
            )
        assert snapshot(e) == before  # and nothing changed

    async def run():
        watcher = _communicator(fight["player"], e.pk)
        connected, _ = await watcher.connect()
        assert connected
        await database_sync_to_async(refused)()
        nothing = await watcher.receive_nothing(timeout=0.3)
        await watcher.disconnect()
        return nothing

    assert async_to_sync(run)() is True


@pytest.mark.parametrize("who, code", [("stranger", CLOSE_NOT_FOUND), (None, CLOSE_ANONYMOUS)])
def test_strangers_and_anonymous_visitors_are_refused(fight, who, code):
    user = fight[who] if who else None

    async def run():
        comm = _communicator(user, fight["e"].pk)
        result = await comm.connect()
        await comm.disconnect()
        return result

    assert async_to_sync(run)() == (False, code)


def test_an_unknown_encounter_is_refused_like_a_strangers(fight):
    async def run():
        comm = _communicator(fight["gm"], fight["e"].pk + 1000)
        result = await comm.connect()
        await comm.disconnect()
        return result

    assert async_to_sync(run)() == (False, CLOSE_NOT_FOUND)
