"""Websocket paths that match no route are refused like a socket the user may not open (close 4404,
before the handshake completes: a 403 to the browser), with at most one log line and no traceback:
an anonymous client must not be able to fill the log. Ids too large for the database on a real
route are refused the same way, never a 500."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.factories import make_campaign, make_user

pytestmark = pytest.mark.django_db(transaction=True)

CLOSE_NOT_FOUND = 4404

UNROUTED = [
    "/ws/",
    "/ws/nope/",
    "/ws/encounters/abc/",
    "/ws/encounters/1",  # no trailing slash
    "/ws/campaigns/1/rolls",  # no trailing slash
    "/ws/encounters/9999999999999999999/",  # 19 digits: past a 64-bit id
    "/ws/campaigns/99999999999999999999/rolls/",
    "/ws/encounters/1/extra/",
    "/",
    "/healthz",
]


@pytest.fixture(autouse=True)
def _stray_connections_closed():
    """The consumers' database_sync_to_async threads keep their connections: end them, or the test
    database cannot be dropped at the end."""
    yield
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


def _knock(path: str, cookie: str | None = None, app: str = "application") -> tuple[bool, int | None]:
    from config import asgi

    application = getattr(asgi, app)

    headers = [(b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))

    async def run():
        socket = WebsocketCommunicator(application, path, headers=headers)
        connected, code = await socket.connect(timeout=3)
        if connected:
            await socket.disconnect()
        return connected, code

    return async_to_sync(run)()


def _assert_quiet(caplog) -> None:
    """No traceback, nothing at ERROR, and at most one line (asyncio's own debug chatter aside)."""
    records = [r for r in caplog.records if r.name != "asyncio"]
    tracebacks = [r for r in records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    assert len(records) <= 1, [r.getMessage() for r in records]


@pytest.mark.parametrize("app", ["application", "websocket_application"])
@pytest.mark.parametrize("path", UNROUTED)
def test_a_path_with_no_route_is_refused_4404_anonymously_without_a_traceback(path, app, caplog):
    caplog.set_level(logging.DEBUG)
    assert _knock(path, app=app) == (False, CLOSE_NOT_FOUND)
    _assert_quiet(caplog)


@pytest.mark.parametrize("path", UNROUTED)
def test_a_path_with_no_route_is_refused_4404_signed_in_too(path, caplog):
    client = Client()
    client.force_login(make_user("routeless"))
    caplog.set_level(logging.DEBUG)
    assert _knock(path, client.cookies["sessionid"].value) == (False, CLOSE_NOT_FOUND)
    _assert_quiet(caplog)


@pytest.mark.parametrize(
    "path",
    [
        "/ws/encounters/999999999999999999/",  # the longest id the route takes: no such encounter
        "/ws/campaigns/999999999999999999/rolls/",
        "/ws/encounters/0/",
    ],
)
def test_huge_and_missing_ids_on_a_real_route_are_4404_for_a_member(path, caplog):
    gm = make_user("huge-id-gm")
    make_campaign(gm=gm)
    client = Client()
    client.force_login(gm)
    caplog.set_level(logging.DEBUG)
    assert _knock(path, client.cookies["sessionid"].value) == (False, CLOSE_NOT_FOUND)
    _assert_quiet(caplog)
