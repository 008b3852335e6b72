"""The table's roll feed (characters/table/feed.py, characters/table/consumers.py): every roll of a campaign
reaches the sockets of its members, a private GM roll only the GM's; outsiders are refused; a
removed member stops receiving. On the in-memory channel layer and on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from characters.campaigns import services as campaign_services
from characters.models import RollLog
from characters.sheet import services as play
from characters.table.consumers import CLOSE_ANONYMOUS, CLOSE_NOT_FOUND
from characters.table.live import CLOSE_RECHECK
from characters.templatetags.sheet_tags import chart_data
from rulesets.engine import registry
from rulesets.engine.dice import Roller
from tests import vehicles
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _stray_connections_closed(stray_connections_closed):
    """The consumer's database_sync_to_async threads keep their connections."""


@pytest.fixture
def stray_connections_closed():
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _socket(user, campaign_id) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"origin", b"http://testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, f"/ws/campaigns/{campaign_id}/rolls/", headers=headers)


#: The registry's first ruleset with a roll button: its sheet character rolls it.
SLUG = vehicles.first(vehicles.rollable, "a ruleset with a roll button")


def _roll(character, user, *, private=False, seed=1):
    return play.character_roll(
        character_id=character.pk,
        user=user,
        rollable_id=vehicles.rollable(registry.get(SLUG)),
        roller=Roller(random.Random(seed)),
        private=private,
    )


def test_every_member_receives_a_player_s_roll_with_who_what_outcome_and_odds(layer, table):
    character = character_at_table(table, SLUG)
    campaign = character.campaign

    async def run():
        gm, other = _socket(table["gm"], campaign.pk), _socket(table["other"], campaign.pk)
        assert (await gm.connect())[0] and (await other.connect())[0]
        log = await database_sync_to_async(_roll)(character, table["player"])
        got = [await gm.receive_from(timeout=2), await other.receive_from(timeout=2)]
        await gm.disconnect()
        await other.disconnect()
        return log, got

    log, (to_gm, to_other) = async_to_sync(run)()
    assert to_gm == to_other
    assert f'id="table-roll-{log.pk}"' in to_gm and 'hx-swap-oob="afterbegin"' in to_gm
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", to_gm))
    # The roll, its outcome and that outcome's chance, and the whole odds, as the sheet's chart has them.
    chart = chart_data(SLUG, log.result["odds"], log.result)
    rolled = next(b for b in chart["bars"] if b["rolled"])
    odds = "; ".join(f"{b['label']} {b['percent_text']}" for b in chart["bars"])
    assert f"player for {character.name}" in text
    assert escape(log.label) in text and escape(rolled["label"]) in text
    assert f"({rolled['percent_text']} chance)" in text and f"Odds: {escape(odds)}" in text


def test_an_outsider_and_an_anonymous_visitor_are_refused(layer, table):
    character = character_at_table(table, SLUG)

    async def run():
        return [await _socket(u, character.campaign_id).connect(timeout=2) for u in (table["stranger"], None)]

    assert async_to_sync(run)() == [(False, CLOSE_NOT_FOUND), (False, CLOSE_ANONYMOUS)]


def test_a_private_gm_roll_reaches_the_gm_and_never_a_player(layer, table):
    character = character_at_table(table, SLUG)
    campaign = character.campaign

    async def run():
        gm, player = _socket(table["gm"], campaign.pk), _socket(table["player"], campaign.pk)
        assert (await gm.connect())[0] and (await player.connect())[0]
        log = await database_sync_to_async(_roll)(character, table["gm"], private=True)
        to_gm = await gm.receive_from(timeout=2)
        player_quiet = await player.receive_nothing(timeout=0.5)
        await gm.disconnect()
        await player.disconnect()
        return log, to_gm, player_quiet

    log, to_gm, player_quiet = async_to_sync(run)()
    assert log.private is True and f'id="table-roll-{log.pk}"' in to_gm and "Private" in to_gm
    assert player_quiet is True


def test_a_removed_member_s_feed_closes_and_stays_closed(layer, table):
    character = character_at_table(table, SLUG)
    campaign = character.campaign

    async def run():
        other = _socket(table["other"], campaign.pk)
        assert (await other.connect())[0]
        await database_sync_to_async(campaign_services.campaign_remove_player)(
            gm=table["gm"], campaign=campaign, user=table["other"]
        )
        closed = await other.receive_output(timeout=1)
        again = _socket(table["other"], campaign.pk)
        reconnect = await again.connect(timeout=2)
        return closed, reconnect

    closed, reconnect = async_to_sync(run)()
    assert closed == {"type": "websocket.close", "code": CLOSE_RECHECK}
    assert reconnect == (False, CLOSE_NOT_FOUND)


def test_a_player_cannot_roll_privately_and_nothing_is_logged(table):
    character = character_at_table(table, SLUG)
    with pytest.raises(PermissionDenied):
        _roll(character, table["player"], private=True)
    assert RollLog.objects.count() == 0


def test_the_pages_show_the_last_rolls_and_a_private_one_to_the_gm_only(table):
    character = character_at_table(table, SLUG)
    public = _roll(character, table["player"])
    secret = _roll(character, table["gm"], private=True)
    assert public.campaign_id == secret.campaign_id == character.campaign_id
    gm, player = Client(), Client()
    gm.force_login(table["gm"])
    player.force_login(table["player"])
    url = reverse("campaign_detail", args=[character.campaign_id])
    gm_page, player_page = gm.get(url).content.decode(), player.get(url).content.decode()
    assert f'id="table-roll-{public.pk}"' in gm_page and f'id="table-roll-{secret.pk}"' in gm_page
    assert f'id="table-roll-{public.pk}"' in player_page and f'id="table-roll-{secret.pk}"' not in player_page
    assert f'ws-connect="/ws/campaigns/{character.campaign_id}/rolls/"' in player_page
    # The sheet's roll log and the roll's own page hide it from the player too.
    sheet = player.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert f'id="roll-{public.pk}"' in sheet and f'id="roll-{secret.pk}"' not in sheet
    detail = player.get(
        reverse("character_roll_detail", args=[character.pk, secret.pk]), **HX
    ).content.decode()
    assert escape(secret.label) not in detail
    # The feed's catch-up list (after a reconnect) follows the same rule.
    feed = player.get(reverse("campaign_feed", args=[character.campaign_id]), **HX).content.decode()
    assert f'id="table-roll-{public.pk}"' in feed and f'id="table-roll-{secret.pk}"' not in feed
    assert Client().get(reverse("campaign_feed", args=[character.campaign_id])).status_code == 302
    stranger = Client()
    stranger.force_login(table["stranger"])
    assert stranger.get(reverse("campaign_feed", args=[character.campaign_id]), **HX).status_code == 404


def test_the_running_encounter_page_shows_the_table_s_rolls_too(table):
    from combat.models import Encounter

    character = character_at_table(table, SLUG)
    public = _roll(character, table["player"])
    secret = _roll(character, table["gm"], private=True)
    encounter = Encounter.objects.create(
        campaign=character.campaign, name="Ford", status=Encounter.Status.ACTIVE
    )
    player = Client()
    player.force_login(table["player"])
    page = player.get(reverse("encounter_detail", args=[encounter.pk])).content.decode()
    assert f'ws-connect="/ws/campaigns/{character.campaign_id}/rolls/"' in page
    assert f'id="table-roll-{public.pk}"' in page and f'id="table-roll-{secret.pk}"' not in page
    # Outside the encounter's own live element: the two sockets' events do not mix.
    assert page.index('id="table-feed"') > page.index('id="encounter-log"')
