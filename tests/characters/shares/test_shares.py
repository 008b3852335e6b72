"""Share a sheet by link: made, listed and revoked by the owner and the GM (API and the sheet's
panel); the shared sheet read-only for anyone, without GM-private rolls, forms or members' links;
revoked → 404 at once and its socket closed; live through its socket; the wrong users."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from characters.campaigns.services import campaign_remove_player
from characters.models import RollLog, ShareLink
from characters.shares.consumers import CLOSE_NOT_FOUND
from characters.sheet import services as play
from rulesets.engine import registry
from tests.characters.conftest import parse_html
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.characters.sheet.test_sheet_live import HP, SLUG, _stray_connections_closed  # noqa: F401
from tests.factories import api_client

HX = {"HTTP_HX_REQUEST": "true"}


def _words(html) -> str:
    return " ".join(parse_html(html).text.split())


def _share(user, character) -> dict:
    r = api_client(user).post(f"/api/v1/characters/{character.pk}/shares/")
    assert r.status_code == 201, r.json()
    return r.json()


def _roll(character, *, label: str, private: bool) -> RollLog:
    return RollLog.objects.create(
        campaign=character.campaign,
        character=character,
        user=character.campaign.gm,
        label=label,
        request={},
        result={"text": f"{label} rolled"},
        private=private,
    )


@pytest.mark.django_db
def test_the_owner_and_the_gm_make_list_and_revoke_links(table):
    character = character_at_table(table, SLUG)
    mine = _share(table["player"], character)
    assert len(mine["token"]) == 32 and mine["url"] == f"http://testserver/s/{mine['token']}/"
    assert set(mine) == {"token", "url", "created", "created_by"} and mine["created_by"] == "player"
    gms = _share(table["gm"], character)
    listed = api_client(table["gm"]).get(f"/api/v1/characters/{character.pk}/shares/").json()
    assert [x["token"] for x in listed] == [gms["token"], mine["token"]]
    assert api_client().get(f"/s/{mine['token']}/").status_code == 200

    r = api_client(table["gm"]).delete(f"/api/v1/characters/{character.pk}/shares/{mine['token']}/")
    assert r.status_code == 204
    assert api_client().get(f"/s/{mine['token']}/").status_code == 404  # at once
    assert api_client().get(f"/s/{mine['token']}/live/", **HX).status_code == 404
    assert api_client().get(f"/s/{gms['token']}/").status_code == 200
    again = api_client(table["player"]).delete(f"/api/v1/characters/{character.pk}/shares/{mine['token']}/")
    assert again.status_code == 404
    listed = api_client(table["player"]).get(f"/api/v1/characters/{character.pk}/shares/").json()
    assert [x["token"] for x in listed] == [gms["token"]]
    assert ShareLink.objects.get(token=mine["token"]).revoked is not None  # kept, revoked


@pytest.mark.django_db
def test_the_wrong_users(table):
    character = character_at_table(table, SLUG)
    link = _share(table["player"], character)
    base = f"/api/v1/characters/{character.pk}/shares/"
    for user in (table["stranger"], table["other"]):
        client = api_client(user)
        assert client.get(base).status_code == 404
        assert client.post(base).status_code == 404
        assert client.delete(f"{base}{link['token']}/").status_code == 404
        assert api_client(user).get(f"/characters/{character.pk}/shares/").status_code == 404
    anonymous = api_client()
    assert anonymous.get(base).status_code in (401, 403) and anonymous.post(base).status_code in (401, 403)
    assert api_client().get("/s/not-a-token-at-all-here-no/").status_code == 404
    assert api_client().get("/s/x/").status_code == 404
    # A removed member manages no links any more, and the links they made stop with their access.
    gm_link = _share(table["gm"], character)
    campaign_remove_player(gm=table["gm"], campaign=character.campaign, user=table["player"])
    assert api_client(table["player"]).get(base).status_code == 404
    assert api_client(table["player"]).delete(f"{base}{gm_link['token']}/").status_code == 404
    assert api_client().get(f"/s/{link['token']}/").status_code == 404
    assert api_client().get(f"/s/{gm_link['token']}/").status_code == 200
    assert ShareLink.objects.filter(revoked__isnull=True).count() == 2


@pytest.mark.django_db
def test_the_shared_sheet_is_read_only_and_shows_nothing_only_the_gm_sees(table, client):
    character = character_at_table(table, SLUG)
    _roll(character, label="Open check", private=False)
    _roll(character, label="Secret check", private=True)
    link = _share(table["gm"], character)
    for viewer in (None, table["gm"], table["stranger"]):  # whoever opens it sees the same
        if viewer is None:
            client.logout()
        else:
            client.force_login(viewer)
        page = client.get(f"/s/{link['token']}/")
        assert page.status_code == 200 and page["X-Robots-Tag"] == "noindex"
        html = page.content.decode()
        root = parse_html(html)
        sheet = root.by_id("sheet")
        text = " ".join(sheet.text.split())
        assert character.name in text and "shared, read-only" in text
        assert "Open check rolled" in text and "Secret check" not in text
        assert "player player" not in text  # the owner's account is not named
        assert sheet.find_all("form") == []  # nothing to press
        hrefs = [n.attrs.get("href", "") for n in sheet.iter() if n.attrs.get("href")]
        assert not [h for h in hrefs if h.startswith("/characters/") or h.startswith("/campaigns/")], hrefs
        live = root.by_id("sheet-live")
        assert live.attrs["ws-connect"] == f"/ws/s/{link['token']}/"
        assert live.attrs["data-live-url"] == f"/s/{link['token']}/live/"
        assert "Share by link" not in text
    # The members' sheet offers the links panel; the panel lists the link with its Revoke.
    client.force_login(table["player"])
    assert "Share by link" in _words(client.get(f"/characters/{character.pk}/").content)
    panel = client.get(f"/characters/{character.pk}/shares/", **HX).content.decode()
    assert f"http://testserver/s/{link['token']}/" in panel and "Revoke" in panel
    r = client.post(f"/characters/{character.pk}/shares/{link['token']}/revoke/", **HX)
    assert r.status_code == 200 and "No link shares this sheet." in _words(r.content)
    assert client.get(f"/s/{link['token']}/").status_code == 404
    r = client.post(f"/characters/{character.pk}/shares/", **HX)
    assert ShareLink.objects.filter(revoked__isnull=True).count() == 1 and "Revoke" in r.content.decode()


@pytest.mark.django_db
def test_the_shared_live_blocks_and_rolls_are_public_ones_only(table, client):
    character = character_at_table(table, SLUG)
    public, private = (
        _roll(character, label="Open", private=False),
        _roll(character, label="Hidden", private=True),
    )
    link = _share(table["player"], character)
    live = client.get(f"/s/{link['token']}/live/", **HX)
    assert live.status_code == 200 and parse_html(live.content).by_id("sheet-state") is not None
    assert parse_html(live.content).find_all("form") == []
    assert (
        client.get(f"/s/{link['token']}/rolls/{public.pk}/", **HX).content.decode().count("Open rolled") == 1
    )
    assert "Hidden" not in client.get(f"/s/{link['token']}/rolls/{private.pk}/", **HX).content.decode()
    assert "Hidden rolled" not in client.get(f"/s/{link['token']}/?roll={private.pk}").content.decode()


def _socket(token: str) -> WebsocketCommunicator:
    from config.asgi import application

    return WebsocketCommunicator(application, f"/ws/s/{token}/", headers=[(b"origin", b"http://testserver")])


@pytest.mark.django_db(transaction=True)
def test_the_shared_socket_follows_the_character_and_a_revocation_closes_it(table):
    character = character_at_table(table, SLUG)
    link = _share(table["player"], character)

    async def run():
        from channels.db import database_sync_to_async

        sock = _socket(link["token"])
        connected, _ = await sock.connect()
        assert connected
        await database_sync_to_async(play.character_state_action)(
            character_id=character.pk,
            user=table["player"],
            action={"action": "step", "path": HP, "delta": -1},
        )
        heard = json.loads(await sock.receive_from(timeout=5))
        await database_sync_to_async(
            lambda: api_client(table["gm"]).delete(
                f"/api/v1/characters/{character.pk}/shares/{link['token']}/"
            )
        )()
        closed = await sock.receive_output(timeout=5)
        await sock.disconnect()
        again = _socket(link["token"])
        refused = await again.connect()
        return heard, closed, refused

    heard, closed, refused = async_to_sync(run)()
    character.refresh_from_db()
    assert heard == {
        "character": character.pk,
        "version": character.version,
        "stamp": character.live_stamp,
        "build": False,
    }
    assert closed == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}
    assert refused == (False, CLOSE_NOT_FOUND)
    assert registry.get(SLUG) is not None
