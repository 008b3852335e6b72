"""Outages are 503s in words (issue #32, config/outage.py), tried by really stopping things:

- the database refusing connections (a server whose DATABASE_URL is a closed port): pages answer
  503 with ``Retry-After`` and a page in words, htmx the sentence for #messages, the API
  ``{"detail", "errors": []}``; a websocket closes with 1013 ("try again later"). Before: 500s.
- Redis stopped (a redis-server of this test's own, on its own port, stopped and started again):
  a websocket handshake is accepted and closed with 1013, and sockets open again once Redis is
  back. Before: every handshake was a 500.
- a connection dropped under a read (``pg_terminate_backend`` of the server's backends on this
  test's database): the read is tried once more on a fresh connection and answers 200. Before: 500.

The servers are real processes (gunicorn for pages and the API, as ``make serve`` runs them;
daphne for websockets), on free loopback ports.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import websocket
from django.conf import settings
from django.db import connection, transaction
from django.test import Client

from characters.accounts.services import account_token_create
from characters.models import Campaign
from combat import services as combat
from tests.factories import database_url_for_servers, make_campaign, make_user
from tests.waiting import poll

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 120
#: The name the servers' database connections carry, to terminate exactly theirs.
APP_NAME = "sheetforge-outage-test"

pytestmark = pytest.mark.django_db(transaction=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(url: str, *, method: str = "GET", headers: dict | None = None, body: bytes | None = None):
    """(status, headers, body) of one request, whatever its status."""
    request = urllib.request.Request(url, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def _env(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.pop("REDIS_URL", None)
    env.update(
        {
            "DEBUG": "false",
            "SECRET_KEY": settings.SECRET_KEY,
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "LOG_LEVEL": "WARNING",
        }
    )
    env.update(more)
    return env


class Server:
    """A server process on a free port, answered /healthz (any status) before the test goes on."""

    def __init__(self, argv: list[str], env: dict[str, str], port: int):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )

        def answers() -> bool:
            if self.proc.poll() is not None:
                pytest.fail(f"{argv[2]} exited ({self.proc.returncode}):\n{self.proc.stdout.read()}")
            try:
                _request(f"{self.base}/healthz")
            except OSError:
                return False
            return True

        if poll(answers, timeout=START_TIMEOUT_S, every=0.3):
            return
        self.stop()
        pytest.fail(f"{argv[2]} did not answer within {START_TIMEOUT_S} s")

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        try:
            out, _ = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        return out or ""


def gunicorn(env: dict[str, str]) -> Server:
    port = _free_port()
    argv = [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1"]
    return Server([*argv, "--timeout", "60", "config.wsgi"], env, port)


def daphne(env: dict[str, str]) -> Server:
    port = _free_port()
    argv = [sys.executable, "-m", "daphne", "--bind", "127.0.0.1", "--port", str(port)]
    return Server([*argv, "config.asgi:websocket_application"], env, port)


def _closed_database_url() -> str:
    return f"postgres://postgres@127.0.0.1:{_free_port()}/sheetforge_nowhere"


def _table():
    """A GM with a session and a token, their campaign and an encounter in it."""
    gm = make_user("gm")
    campaign = make_campaign(gm=gm)
    encounter = combat.encounter_create(campaign=campaign, user=gm, name="Bridge")
    client = Client()
    client.force_login(gm)
    _, token = account_token_create(user=gm, name="outage test")
    return {
        "session": client.cookies["sessionid"].value,
        "token": token,
        "encounter": encounter,
        "campaign": campaign,
    }


def _close_code(url: str, session: str, origin: str) -> int:
    """The close code a websocket at ``url`` gets: the handshake must succeed (a refused one raises)."""
    ws = websocket.create_connection(url, origin=origin, header=[f"Cookie: sessionid={session}"], timeout=30)
    try:
        while True:
            opcode, data = ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return int.from_bytes(data[:2], "big")
            assert opcode in (websocket.ABNF.OPCODE_PING, websocket.ABNF.OPCODE_PONG), (opcode, data)
    finally:
        ws.close()


def _opens(url: str, session: str, origin: str) -> bool:
    """Whether a websocket at ``url`` opens and stays open for half a second."""
    ws = websocket.create_connection(url, origin=origin, header=[f"Cookie: sessionid={session}"], timeout=30)
    try:
        ws.settimeout(0.5)
        while True:
            try:
                opcode, _ = ws.recv_data(control_frame=True)
            except websocket.WebSocketTimeoutException:
                return True
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return False
    finally:
        ws.close()


# ------------------------------------------------------------------ the database refusing connections


@pytest.fixture
def no_database(transactional_db):
    table = _table()  # made in the test database; the server reads none of it
    server = gunicorn(_env(DATABASE_URL=_closed_database_url()))
    yield server, table
    server.stop()


def test_pages_and_the_api_answer_503_in_words_when_the_database_refuses(no_database):
    server, table = no_database
    page = f"{server.base}/campaigns/"
    cookie = {"Cookie": f"sessionid={table['session']}"}

    status, headers, body = _request(page, headers=cookie)
    assert status == 503, body[:300]
    assert headers["Retry-After"] == "5"
    text = body.decode()
    assert "<h1>Back in a moment</h1>" in text
    assert "Sheetforge cannot reach its database or its live-update service just now." in text
    assert '<meta http-equiv="refresh" content="5">' in text  # a read reloads itself

    status, headers, body = _request(page, headers={**cookie, "HX-Request": "true"})
    assert status == 503 and headers["HX-Retarget"] == "#messages" and headers["Retry-After"] == "5"
    assert body.decode().lstrip().startswith('<div id="messages"')

    token = {"Authorization": f"Token {table['token']}"}
    for method, body_sent in (("GET", None), ("POST", b'{"name": "New", "ruleset": "x"}')):
        status, headers, body = _request(
            f"{server.base}/api/v1/campaigns/",
            method=method,
            headers={**token, "Content-Type": "application/json"},
            body=body_sent,
        )
        assert status == 503, (method, body[:300])
        assert headers["Retry-After"] == "5"
        assert json.loads(body) == {
            "detail": "Sheetforge cannot reach its database or its live-update service just now. "
            "Nothing is lost: try again in a few seconds.",
            "errors": [],
        }
    log = server.stop()
    assert "Traceback" not in log, log[-3000:]
    assert "outage at /campaigns/" in log


def test_a_websocket_closes_with_1013_when_the_database_refuses(transactional_db):
    table = _table()
    server = daphne(_env(DATABASE_URL=_closed_database_url(), ASGI_DB_POOL_MAX="0"))
    try:
        url = f"ws://127.0.0.1:{server.port}/ws/encounters/{table['encounter'].pk}/"
        assert _close_code(url, table["session"], server.base) == 1013
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-3000:]


# ------------------------------------------------------------------ Redis stopped


@pytest.fixture
def own_redis():
    """A redis-server of this test's own on a free port (never the shared one): (url, start, stop)."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    procs: list[subprocess.Popen] = []

    def start() -> None:
        proc = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(proc)
        import redis

        def answers() -> bool:
            try:
                return redis.Redis(port=port, socket_connect_timeout=0.5).ping()
            except redis.exceptions.ConnectionError:
                return False

        if not poll(answers, timeout=20, every=0.1):
            pytest.fail("redis-server did not answer")

    def stop() -> None:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=10)

    start()
    yield f"redis://127.0.0.1:{port}/0", start, stop
    stop()


def test_a_websocket_closes_with_1013_while_redis_is_stopped_and_opens_once_it_is_back(
    transactional_db, own_redis
):
    url_redis, start, stop = own_redis
    table = _table()
    server = daphne(_env(DATABASE_URL=database_url_for_servers(), REDIS_URL=url_redis, ASGI_DB_POOL_MAX="2"))
    try:
        url = f"ws://127.0.0.1:{server.port}/ws/encounters/{table['encounter'].pk}/"
        assert _opens(url, table["session"], server.base)
        stop()
        assert _close_code(url, table["session"], server.base) == 1013
        assert _close_code(url, table["session"], server.base) == 1013
        start()
        try:
            opens = poll(lambda: _opens(url, table["session"], server.base), timeout=10, every=0.5)
        except websocket.WebSocketException as refused:  # what the server said of it goes with it
            opens, failure = False, f"{refused}"
        else:
            failure = "" if opens else "the socket did not open again with Redis back"
    finally:
        log = server.stop()
    assert opens, f"{failure}; the server logged:\n{log[-3000:]}"
    # daphne's 500 was "Exception inside application" with a traceback per handshake; channels_redis
    # still logs its own cleanup's failure to unsubscribe from the stopped Redis (its traceback).
    assert "Exception inside application" not in log, log[-3000:]
    assert log.count("outage at /ws/encounters/") == 2


# ------------------------------------------------------------------ a connection dropped under a read


@pytest.fixture
def probe(transactional_db):
    """A second connection to the test database (plain psycopg, outside the test's lock), to watch
    the server's backends and terminate one."""
    import psycopg

    with psycopg.connect(database_url_for_servers(), autocommit=True) as conn:
        yield conn


def _backend_waiting(probe, pids_before=frozenset(), timeout: float = 30) -> int:
    """The pid of the server's backend waiting for the lock this test holds (a new one when
    ``pids_before`` are excluded)."""

    def waiting() -> set[int]:
        rows = probe.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND wait_event_type = 'Lock'",
            [APP_NAME],
        ).fetchall()
        return {row[0] for row in rows} - set(pids_before)

    found = poll(waiting, timeout=timeout)
    assert found, "the server's request never waited for the lock"
    return found.pop()


def _under_a_dropped_connection(probe, url: str, *, method: str = "GET", headers=None, body=None):
    """``url`` requested while this test holds an exclusive lock on the campaigns table: the
    server's query waits for it, its backend is terminated under it (pg_terminate_backend), and
    the lock is let go. (status, headers, body, whether the server waited a second time)."""
    result: dict = {}
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {Campaign._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        thread = threading.Thread(
            target=lambda: result.update(answer=_request(url, method=method, headers=headers, body=body))
        )
        thread.start()
        first = _backend_waiting(probe)
        assert probe.execute("SELECT pg_terminate_backend(%s)", [first]).fetchone()[0] is True
        try:
            _backend_waiting(probe, {first}, timeout=3)
            again = True
        except AssertionError:
            again = False
    thread.join(timeout=60)
    return (*result["answer"], again)


def test_a_read_whose_connection_was_terminated_is_tried_once_more(transactional_db, probe):
    if connection.vendor != "postgresql":
        pytest.skip("pg_terminate_backend needs Postgres")
    table = _table()
    server = gunicorn(_env(DATABASE_URL=f"{database_url_for_servers()}?application_name={APP_NAME}"))
    try:
        token = {"Authorization": f"Token {table['token']}"}
        reads = [
            (f"{server.base}/api/v1/campaigns/", token, b'"name":"The Long Road"'),
            (
                f"{server.base}/campaigns/{table['campaign'].pk}/",
                {"Cookie": f"sessionid={table['session']}"},
                b"<h1>The Long Road",
            ),
        ]
        for url, headers, expected in reads:
            status, _, body, again = _under_a_dropped_connection(probe, url, headers=headers)
            assert (status, again) == (200, True), (url, body[:500])
            assert expected in body
        # A write is not tried again (it may have been done): its dropped connection is a 503.
        status, headers, body, again = _under_a_dropped_connection(
            probe,
            f"{server.base}/api/v1/campaigns/",
            method="POST",
            headers={**token, "Content-Type": "application/json"},
            body=json.dumps({"name": "Again", "ruleset": table["campaign"].ruleset}).encode(),
        )
        assert (status, again) == (503, False), body[:300]
        assert headers["Retry-After"] == "5"
        assert Campaign.objects.filter(name="Again").count() == 0
    finally:
        log = server.stop()
    assert "Traceback" not in log, log[-3000:]
