"""Two ASGI server processes (daphne) on one Redis: a change made through one reaches a websocket
client of the other. Process A runs the production websocket server (config.asgi:websocket_application),
process B the whole app over ASGI (config.asgi:application), which takes the HTTP POST of the action.
Real processes on free loopback ports, real sockets; generous timeouts for a loaded machine."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import websocket
from django.conf import settings
from django.test import Client
from django.utils.html import escape

from combat.models import Encounter, EncounterEvent
from rulesets.engine import registry
from tests import vehicles
from tests.factories import database_url_for_servers, make_user
from tests.waiting import poll

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres_only(
        "two server processes share the test database (SQLite's is in this process's memory)"
    ),
]

ROOT = Path(__file__).resolve().parents[2]
REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
START_TIMEOUT_S = 120
RECEIVE_TIMEOUT_S = 30
CSRF = "k" * 32  # a CSRF secret of the right length: the cookie and the header carry the same


def _redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def _start(app: str, port: int) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        {
            "DATABASE_URL": database_url_for_servers(),
            "REDIS_URL": REDIS_TEST_URL,
            "DEBUG": "false",
            "SECRET_KEY": settings.SECRET_KEY,
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "SECURE_HSTS_SECONDS": "0",
            "ASGI_DB_POOL_MAX": "2",
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    return subprocess.Popen(
        [sys.executable, "-m", "daphne", "--bind", "127.0.0.1", "--port", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _wait_healthy(proc: subprocess.Popen, port: int) -> None:
    def look() -> object:
        if proc.poll() is not None:
            pytest.fail(f"daphne on {port} exited ({proc.returncode}):\n{proc.stdout.read()}")
        try:
            return _get(f"http://127.0.0.1:{port}/healthz", timeout=20)
        except OSError as exc:
            return exc

    last = poll(
        look, until=lambda got: isinstance(got, tuple) and got[0] == 200, timeout=START_TIMEOUT_S, every=0.3
    )
    if isinstance(last, tuple) and last[0] == 200:
        return
    proc.kill()
    pytest.fail(
        f"daphne on {port} was not healthy within {START_TIMEOUT_S} s (last: {last}):\n{proc.stdout.read()}"
    )


@pytest.fixture
def two_servers(transactional_db):
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    a_port, b_port = _free_port(), _free_port()
    a = _start("config.asgi:websocket_application", a_port)
    b = _start("config.asgi:application", b_port)
    try:
        _wait_healthy(a, a_port)
        _wait_healthy(b, b_port)
        yield a_port, b_port
    finally:
        for proc in (a, b):
            proc.send_signal(signal.SIGTERM)
        for proc in (a, b):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture
def fight(transactional_db):
    """A started encounter of the first folder ruleset (the servers know no test's ruleset) whose GM
    has an action on an enemy, and that action."""
    gm, player = make_user("gm"), make_user("player")
    systems = Path(__file__).resolve().parents[2] / "rulesets" / "systems"
    for ruleset in registry.all_rulesets():
        if ruleset.package_dir.parent != systems:
            continue
        table = vehicles.start_fight(slug=ruleset.slug, gm=gm, owners=[player])
        goblin = table["foes"][0]
        action = vehicles.fight_action(table["e"], goblin, gm=True, target=goblin)
        if action:
            break
    else:
        raise LookupError("no folder ruleset gives its GM an action on an enemy")
    client = Client()
    client.force_login(gm)
    return {"e": table["e"], "goblin": goblin, "action": action, "session": client.cookies["sessionid"].value}


def test_the_websocket_server_answers_health_and_nothing_else_over_http(two_servers):
    a_port, _ = two_servers
    assert _get(f"http://127.0.0.1:{a_port}/healthz") == (200, b'{"db": "ok", "redis": "ok"}')
    status, body = _get(f"http://127.0.0.1:{a_port}/")
    assert status == 404
    assert body == b"Not found: this server answers websockets (/ws/) and /healthz only.\n"


def test_a_change_through_one_process_reaches_a_client_of_the_other(two_servers, fight):
    a_port, b_port = two_servers
    e, goblin, session = fight["e"], fight["goblin"], fight["session"]
    version_before = Encounter.objects.get(pk=e.pk).version

    def post_action() -> int:
        body = urllib.parse.urlencode({"combatant": goblin.pk, **fight["action"]}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{b_port}/encounters/{e.pk}/act/",
            data=body,
            method="POST",
            headers={
                "Cookie": f"sessionid={session}; csrftoken={CSRF}",
                "X-CSRFToken": CSRF,
                "Content-Type": "application/x-www-form-urlencoded",
                "HX-Request": "true",
            },
        )
        with urllib.request.urlopen(request, timeout=RECEIVE_TIMEOUT_S) as r:
            return r.status

    def connect(port: int):
        return websocket.create_connection(
            f"ws://127.0.0.1:{port}/ws/encounters/{e.pk}/",
            origin=f"http://127.0.0.1:{port}",
            header=[f"Cookie: sessionid={session}"],
            timeout=RECEIVE_TIMEOUT_S,
        )

    on_a, on_b = connect(a_port), connect(b_port)
    try:
        assert post_action() == 204  # htmx: the websocket tells the pages the new version
        from_a, from_b = on_a.recv(), on_b.recv()
    finally:
        on_a.close()
        on_b.close()
    version = Encounter.objects.get(pk=e.pk).version
    assert version == version_before + 1
    assert from_a == from_b  # the one notice, sent once by process B, through Redis
    assert json.loads(from_a) == {"encounter": e.pk, "version": version}
    # What each page then fetches (from either process): the board since the version it showed.
    board = urllib.request.Request(
        f"http://127.0.0.1:{b_port}/encounters/{e.pk}/board/?since={version_before}",
        headers={"Cookie": f"sessionid={session}", "HX-Request": "true"},
    )
    with urllib.request.urlopen(board, timeout=RECEIVE_TIMEOUT_S) as r:
        html = r.read().decode()
    assert re.search(rf'id="encounter-status"[^>]*data-version="{version}"', html)
    said = EncounterEvent.objects.filter(encounter=e).latest("seq").text  # the action's line, in words
    assert said and escape(said) in html


def test_an_anonymous_websocket_is_refused_by_the_production_server(two_servers, fight):
    a_port, _ = two_servers
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(
            f"ws://127.0.0.1:{a_port}/ws/encounters/{fight['e'].pk}/",
            origin=f"http://127.0.0.1:{a_port}",
            timeout=RECEIVE_TIMEOUT_S,
        )
    assert refused.value.status_code == 403
