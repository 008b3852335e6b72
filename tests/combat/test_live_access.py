"""Encounter sockets follow their user's rights after connect (characters/table/live.py): removal, leaving,
logging out and a password change each end the stream within a second (close code 4001), and the
page's reconnect is let in only while the user may still see the encounter. On the in-memory
channel layer and on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from characters.campaigns import services as campaign_services
from characters.table.live import CLOSE_RECHECK, close_user_sockets
from combat.consumers import CLOSE_ANONYMOUS, CLOSE_NOT_FOUND
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "copper-kettle-319-lantern"


@pytest.fixture(autouse=True)
def _stray_connections_closed(stray_connections_closed):
    """The consumer's database_sync_to_async threads keep their connections (CONN_MAX_AGE)."""


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _socket(client: Client | None, encounter_id: int) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver")]
    if client is not None and "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/encounters/{encounter_id}/", headers=headers)


def _stream_ends(client: Client, encounter_id: int, take_access_away, *, bystander: Client | None = None):
    """Connect, run ``take_access_away`` (sync), and return (close message within 1 s, what the
    bystander's socket received meanwhile, (connected, code) of a reconnect with the same cookie)."""

    async def run():
        watcher = _socket(client, encounter_id)
        connected, _ = await watcher.connect()
        assert connected
        other = None
        if bystander is not None:
            other = _socket(bystander, encounter_id)
            assert (await other.connect())[0]
        await database_sync_to_async(take_access_away)()
        closed = await watcher.receive_output(timeout=1)
        bystander_got = None
        if other is not None:
            bystander_got = await other.receive_nothing(timeout=0.3)
            await other.disconnect()
        again = _socket(client, encounter_id)
        reconnect = await again.connect(timeout=2)
        if reconnect[0]:
            await again.disconnect()
        return closed, bystander_got, reconnect

    return async_to_sync(run)()


def test_a_removed_player_s_stream_ends_and_they_cannot_reconnect(layer, fight):
    player = _signed_in(fight["player"])
    gm = _signed_in(fight["gm"])
    closed, gm_quiet, reconnect = _stream_ends(
        player,
        fight["e"].pk,
        lambda: campaign_services.campaign_remove_player(
            gm=fight["gm"], campaign=fight["campaign"], user=fight["player"]
        ),
        bystander=gm,
    )
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert gm_quiet is True  # the GM's socket is not touched
    assert reconnect == (False, CLOSE_NOT_FOUND)


def test_a_leaver_s_stream_ends(layer, fight):
    player = _signed_in(fight["player"])
    closed, _, reconnect = _stream_ends(
        player,
        fight["e"].pk,
        lambda: campaign_services.campaign_leave(user=fight["player"], campaign=fight["campaign"]),
    )
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, CLOSE_NOT_FOUND)


def test_logging_out_ends_the_stream_of_that_session_and_lets_other_sessions_back_in(layer, fight):
    laptop, phone = _signed_in(fight["player"]), _signed_in(fight["player"])

    async def run():
        on_laptop, on_phone = _socket(laptop, fight["e"].pk), _socket(phone, fight["e"].pk)
        assert (await on_laptop.connect())[0] and (await on_phone.connect())[0]
        response = await database_sync_to_async(laptop.post)("/accounts/logout/")
        assert response.status_code == 302
        # Every socket of the user closes; each page reconnects and the server decides.
        closed = [await on_laptop.receive_output(timeout=1), await on_phone.receive_output(timeout=1)]
        laptop_again, phone_again = _socket(laptop, fight["e"].pk), _socket(phone, fight["e"].pk)
        laptop_reconnect = await laptop_again.connect(timeout=2)
        phone_reconnect = await phone_again.connect(timeout=2)
        await phone_again.disconnect()
        return closed, laptop_reconnect, phone_reconnect

    closed, laptop_reconnect, phone_reconnect = async_to_sync(run)()
    assert closed == [{"type": "websocket.close", "code": CLOSE_RECHECK}] * 2
    assert laptop_reconnect == (False, CLOSE_ANONYMOUS)  # that session is gone
    assert phone_reconnect == (True, None)  # still signed in on the phone


def test_a_password_change_ends_the_streams_of_other_sessions(layer, fight):
    stolen = _signed_in(fight["player"])  # say, a session somebody else got hold of
    own = _signed_in(fight["player"])

    def change_password():
        response = own.post(
            "/accounts/password/",
            {
                "old_password": PASSWORD,
                "new_password1": NEW_PASSWORD,
                "new_password2": NEW_PASSWORD,
            },
        )
        assert response.status_code == 302

    closed, _, reconnect = _stream_ends(stolen, fight["e"].pk, change_password)
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, CLOSE_ANONYMOUS)  # Django voided the other session

    # The session that changed the password stays signed in: its page gets back in.
    async def own_reconnects():
        again = _socket(own, fight["e"].pk)
        result = await again.connect(timeout=2)
        await again.disconnect()
        return result

    assert async_to_sync(own_reconnects)() == (True, None)


def test_an_outsider_and_an_anonymous_visitor_never_connect(layer, fight):
    async def run():
        return [
            await _socket(c, fight["e"].pk).connect(timeout=2) for c in (_signed_in(fight["stranger"]), None)
        ]

    assert async_to_sync(run)() == [(False, CLOSE_NOT_FOUND), (False, CLOSE_ANONYMOUS)]


def test_a_close_for_another_campaign_leaves_the_socket_open(layer, fight):
    """The message names the campaign: leaving table B does not touch the socket on table A."""
    player = _signed_in(fight["player"])

    async def run():
        watcher = _socket(player, fight["e"].pk)
        assert (await watcher.connect())[0]
        await database_sync_to_async(close_user_sockets)(
            user_id=fight["player"].pk, campaign_id=fight["campaign"].pk + 1000
        )
        quiet = await watcher.receive_nothing(timeout=0.3)
        await database_sync_to_async(close_user_sockets)(
            user_id=fight["player"].pk, campaign_id=fight["campaign"].pk
        )
        closed = await watcher.receive_output(timeout=1)
        return quiet, closed

    quiet, closed = async_to_sync(run)()
    assert quiet is True
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}


def test_a_removal_that_rolls_back_closes_nothing(layer, fight):
    from django.db import transaction

    player = _signed_in(fight["player"])

    def removal_rolled_back():
        try:
            with transaction.atomic():
                campaign_services.campaign_remove_player(
                    gm=fight["gm"], campaign=fight["campaign"], user=fight["player"]
                )
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass

    async def run():
        watcher = _socket(player, fight["e"].pk)
        assert (await watcher.connect())[0]
        await database_sync_to_async(removal_rolled_back)()
        quiet = await watcher.receive_nothing(timeout=0.3)
        await watcher.disconnect()
        return quiet

    assert async_to_sync(run)() is True


def test_a_deactivated_account_s_stream_ends(layer, fight):
    player = _signed_in(fight["player"])

    def deactivate():
        fight["player"].is_active = False
        fight["player"].save(update_fields=["is_active"])

    closed, _, reconnect = _stream_ends(player, fight["e"].pk, deactivate)
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, CLOSE_ANONYMOUS)


def test_any_campaign_channel_follows_the_same_rule(layer, fight):
    """The mixin is the whole mechanism: a campaign-wide channel (the table's roll feed, say)
    that joins with ``follow_access`` closes on leaving as the encounter socket does."""
    from channels.auth import AuthMiddlewareStack
    from channels.generic.websocket import AsyncWebsocketConsumer
    from django.urls import re_path

    from characters.models import Membership
    from characters.table.live import AccessFollowingMixin

    class CampaignFeed(AccessFollowingMixin, AsyncWebsocketConsumer):
        async def connect(self):
            user, campaign_id = self.scope["user"], int(self.scope["url_route"]["kwargs"]["campaign_id"])
            member = await database_sync_to_async(
                Membership.objects.filter(user_id=getattr(user, "pk", None), campaign_id=campaign_id).exists
            )()
            if not member:
                await self.close(code=4404)
                return
            await self.follow_access(user, campaign_id)
            await self.accept()

        async def disconnect(self, code):
            await self.unfollow_access()

    app = AuthMiddlewareStack(
        URLRouter([re_path(r"^ws/campaigns/(?P<campaign_id>[0-9]+)/$", CampaignFeed.as_asgi())])
    )
    player = _signed_in(fight["player"])
    path = f"/ws/campaigns/{fight['campaign'].pk}/"
    cookie = [(b"cookie", f"sessionid={player.cookies['sessionid'].value}".encode())]

    async def run():
        feed = WebsocketCommunicator(app, path, headers=cookie)
        assert (await feed.connect())[0]
        await database_sync_to_async(campaign_services.campaign_leave)(
            user=fight["player"], campaign=fight["campaign"]
        )
        closed = await feed.receive_output(timeout=1)
        return closed, await WebsocketCommunicator(app, path, headers=cookie).connect(timeout=2)

    closed, reconnect = async_to_sync(run)()
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, 4404)
