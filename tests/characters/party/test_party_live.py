"""The party page follows the party live (characters/party/live.py): whatever changes a character of
the campaign (its player taking damage, an effect, an award, an advancement request made, withdrawn
or rejected) reaches the GM's sockets of the campaign as ``{"character", "version"}`` once it commits,
never a player's; the card the page then fetches shows the change. On the in-memory channel layer
and on Redis (REDIS_TEST_URL)."""

from __future__ import annotations

import copy
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from characters.advancement import services as advancement_services
from characters.models import Character
from characters.sheet import services as play
from rulesets.engine import registry
from tests.characters.conftest import parse_html
from tests.characters.party.helpers import first_pool_with_room, make_party, number_key, rollables
from tests.factories import api_client

pytestmark = pytest.mark.django_db(transaction=True)
RULESETS = registry.SYSTEMS
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


def _socket(user, campaign_id) -> WebsocketCommunicator:
    from config.asgi import application

    client = Client()
    client.force_login(user)
    headers = [
        (b"origin", b"http://testserver"),
        (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/campaigns/{campaign_id}/rolls/", headers=headers)


def _heard(table, campaign, change) -> tuple[list[dict], bool]:
    """Run ``change`` with the GM's and a player's campaign sockets open: (what the GM's heard,
    whether the player's heard anything)."""

    async def run():
        gm, player = _socket(table["gm"], campaign.pk), _socket(table["player"], campaign.pk)
        assert (await gm.connect())[0] and (await player.connect())[0]
        await database_sync_to_async(change)()
        got = [json.loads(await gm.receive_from(timeout=3))]
        while not await gm.receive_nothing(timeout=0.3):
            got.append(json.loads(await gm.receive_from(timeout=1)))
        player_quiet = await player.receive_nothing(timeout=0.3)
        await gm.disconnect()
        await player.disconnect()
        return got, not player_quiet

    return async_to_sync(run)()


def _card_text(table, campaign, character) -> str:
    client = Client()
    client.force_login(table["gm"])
    got = client.get(reverse("campaign_party_card", args=[campaign.pk, character.pk]), **HX)
    assert got.status_code == 200
    return parse_html(got.content).by_id(f"party-character-{character.pk}").text


@pytest.mark.parametrize("slug", RULESETS)
def test_a_player_s_damage_reaches_the_gm_s_party_page_and_its_card_shows_it(layer, table, slug):
    campaign, (ayla, bram) = make_party(table, slug, 2)
    pool = first_pool_with_room(ayla)
    if pool is None:
        pytest.skip(f"{registry.get(slug).name} has no pool with room")
    value = pool["value"] - 1

    def damage():
        play.character_state_action(
            character_id=ayla.pk,
            user=table["player"],
            action={"action": "set", "path": pool["path"], "value": value},
        )

    heard, player_heard = _heard(table, campaign, damage)
    ayla.refresh_from_db()
    bram.refresh_from_db()
    # With every character's version: a page that missed a message about Bram sees his card is behind.
    party = {str(ayla.pk): ayla.version, str(bram.pk): bram.version}
    assert heard == [{"character": ayla.pk, "version": ayla.version, "party": party}]
    assert not player_heard  # a player's socket never hears the party
    assert f"{value} / {pool['max']}" in " ".join(_card_text(table, campaign, ayla).split())


def test_an_effect_reaches_the_party_page(layer, table):
    slug = RULESETS[0]
    campaign, (ayla,) = make_party(table, slug, 1)
    key = number_key(registry.get(slug), rollables(table["gm"], ayla)[0]["request"])
    assert key is not None

    def bless():
        made = api_client(table["gm"]).post(
            f"/api/v1/characters/{ayla.pk}/effects/",
            {"name": "Blessed", "changes": [{"target": "all", key: 1}], "duration": {"until": "rest"}},
            format="json",
        )
        assert made.status_code == 201

    heard, player_heard = _heard(table, campaign, bless)
    ayla.refresh_from_db()
    party = {str(ayla.pk): ayla.version}
    assert heard == [{"character": ayla.pk, "version": ayla.version, "party": party}] and not player_heard
    assert "Blessed" in _card_text(table, campaign, ayla)


def test_an_award_and_requests_made_withdrawn_and_rejected_reach_the_party_page(layer, table):
    slug = RULESETS[0]
    campaign, (ayla,) = make_party(table, slug, 1)
    currency = registry.get(slug).awardable_currencies[0]

    def award():
        advancement_services.award_create(gm=table["gm"], character_id=ayla.pk, currency=currency, amount=3)

    heard, _ = _heard(table, campaign, award)
    assert [h["character"] for h in heard] == [ayla.pk]
    build = copy.deepcopy(ayla.build)
    build["notes"] = "Learned to swim."
    made = {}

    def request():
        made["advancement"] = advancement_services.advancement_request(
            character_id=ayla.pk, user=table["player"], build=build
        )

    heard, _ = _heard(table, campaign, request)
    assert [h["character"] for h in heard] == [ayla.pk]
    assert "Advancement request to review" in _card_text(table, campaign, ayla)

    def withdraw():
        advancement_services.advancement_withdraw(advancement_id=made["advancement"].pk, user=table["player"])

    heard, _ = _heard(table, campaign, withdraw)
    assert [h["character"] for h in heard] == [ayla.pk]
    assert "Advancement request to review" not in _card_text(table, campaign, ayla)
    request()

    def reject():
        advancement_services.advancement_reject(
            advancement_id=made["advancement"].pk, gm=table["gm"], comment="Not yet."
        )

    heard, _ = _heard(table, campaign, reject)
    assert [h["character"] for h in heard] == [ayla.pk]


def test_a_change_rolled_back_sends_nothing(layer, table):
    from django.db import transaction

    slug = RULESETS[0]
    campaign, (ayla,) = make_party(table, slug, 1)
    pool = first_pool_with_room(ayla)

    async def run():
        gm = _socket(table["gm"], campaign.pk)
        assert (await gm.connect())[0]

        def change_then_fail():
            try:
                with transaction.atomic():
                    play.character_state_action(
                        character_id=ayla.pk,
                        user=table["player"],
                        action={"action": "set", "path": pool["path"], "value": pool["value"] - 1},
                    )
                    raise RuntimeError("the table's power went out")
            except RuntimeError:
                pass

        await database_sync_to_async(change_then_fail)()
        quiet = await gm.receive_nothing(timeout=0.5)
        await gm.disconnect()
        return quiet

    assert async_to_sync(run)()
    assert Character.objects.get(pk=ayla.pk).state == ayla.state
