"""Live updates over the websocket (channels' WebsocketCommunicator, driven through async_to_sync):
members receive the new board after a change; strangers and anonymous visitors are refused.
Once on the in-memory channel layer and once on Redis (db 15) when Redis answers."""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils.html import escape

from combat import services
from combat.consumers import CLOSE_ANONYMOUS, CLOSE_NOT_FOUND
from combat.models import Encounter, EncounterEvent
from combat.selectors import encounter_fight
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


def test_a_member_receives_the_new_log_line(layer, fight):
    e, pablo, player = fight["e"], fight["c_pablo"], fight["player"]
    action = pc_action(fight)

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

    html = async_to_sync(run)()
    # Only the new log line, added on top of the page's log.
    log = re.search(r'<ol id="encounter-log-list" hx-swap-oob="afterbegin">(.*?)</ol>', html, re.S)
    assert log and log.group(1).count("<li") == 1
    said = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first().text
    assert "Pablo" in said and escape(said) in log.group(1)  # the action's line, in words
    assert 'id="encounter-log"' not in html  # not the whole log again
    current = (
        " is-current"
        if encounter_fight(encounter=Encounter.objects.get(pk=e.pk)).current_id == pablo.pk
        else ""
    )
    assert f'<li id="combatant-{pablo.pk}" class="combatant{current}" hx-swap-oob="true"' in html
    assert 'id="encounter-combatants"' not in html  # nobody came or went: rows only
    assert (
        f'data-version="{Encounter.objects.get(pk=e.pk).version}"' in html
    )  # the page checks it follows its own
    assert html.count('hx-trigger="load"') == 1  # each page then fetches its own actions panel, once
    assert "csrfmiddlewaretoken" not in html  # nothing per person in the broadcast


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


def test_only_the_rows_that_changed_are_sent(fight, settings):
    """Pablo moves (an action at no one): his row and nothing of the goblin's; when combatants come,
    the whole order."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    e, pablo, goblin = fight["e"], fight["c_pablo"], fight["goblin"]
    move = pc_action(fight, target=False)
    html = _one_message(
        fight["gm"],
        e.pk,
        lambda: services.encounter_act(encounter=e, user=fight["player"], combatant_id=pablo.pk, action=move),
    )
    assert f'id="combatant-{pablo.pk}"' in html and f'id="combatant-{goblin.pk}"' not in html
    assert 'id="encounter-combatants"' not in html
    assert html.count("<li") == 2  # Pablo's row and the one new log line

    # The GM ends the turn: the rows whose "acting" mark moves are sent, both of them.
    html = _one_message(
        fight["gm"], e.pk, lambda: services.encounter_next_turn(encounter=e, user=fight["gm"])
    )
    assert f'id="combatant-{pablo.pk}"' in html and f'id="combatant-{goblin.pk}"' in html

    # Somebody joins: the whole turn order (rows cannot be swapped into a list that lacks them).
    html = _one_message(
        fight["gm"],
        e.pk,
        lambda: services.encounter_add_combatant(encounter=e, user=fight["gm"], name="Wolf", build=GOBLIN),
    )
    assert 'id="encounter-combatants" class="card" hx-swap-oob="true"' in html and "Wolf" in html


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
