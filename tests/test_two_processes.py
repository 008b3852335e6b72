"""Two processes sharing Redis: a real daphne server (the app as deployed, REDIS_URL set) and this
test process. What one process learns, the other enforces:

- a socket served by daphne closes within a second when this process removes the player, and
  daphne refuses the reconnect;
- failed sign-ins counted by daphne lock the account out here too (the login page), and the
  cooling-off period ends it in both.

Skipped when Redis does not answer at REDIS_TEST_URL; that Redis database is flushed before and after
each test (both processes use it with default key prefixes). The server listens on SF_TEST_PORT, else
on a free loopback port (parallel runs on one machine must not meet).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from config.layers import redis_channel_layer
from tests.factories import PASSWORD, database_url_for_servers, make_campaign, make_user
from tests.waiting import poll

ROOT = Path(__file__).resolve().parent.parent
REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT = int(os.environ.get("SF_TEST_PORT") or _free_port())
BASE = f"http://127.0.0.1:{PORT}"
COOLOFF = 4  # seconds, in both processes: every failure of the lock-out must fall within it

pytestmark = pytest.mark.django_db(transaction=True)


def _redis():
    import redis

    try:
        client = redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1)
        client.ping()
        return client
    except Exception:
        return None


@pytest.fixture(scope="module")
def daphne(django_db_setup, django_db_blocker):
    """daphne serving config.asgi on the test database, cache and channel layer in Redis."""
    if _redis() is None:
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the two-process run needs Postgres (a database both processes can open)")
    url = database_url_for_servers()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)},
        "DATABASE_URL": url,
        "REDIS_URL": REDIS_TEST_URL,
        "DEBUG": "true",
        "SECRET_KEY": settings.SECRET_KEY,
        "LOGIN_COOLOFF_SECONDS": str(COOLOFF),
        "LOGIN_FAILURE_LIMIT": str(settings.LOGIN_FAILURE_LIMIT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(PORT), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:

        def listens() -> bool:
            if process.poll() is not None:
                pytest.fail(f"daphne stopped: {process.stderr.read().decode()[-3000:]}")
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", PORT)) == 0

        if not poll(listens, timeout=30, every=0.2):
            pytest.fail("daphne did not start within 30 s")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def shared_redis(settings, daphne):
    """This process uses the same Redis as daphne (cache, sessions' cache, channel layer) and the same
    database, where both count failed sign-ins (settings: AXES_HANDLER)."""
    _redis().flushdb()
    settings.CACHES = {
        alias: {"BACKEND": "config.cache.ForgivingRedisCache", "LOCATION": REDIS_TEST_URL}
        for alias in ("default", "sessions")
    }
    settings.CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_TEST_URL)}
    settings.AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
    settings.LOGIN_COOLOFF_SECONDS = COOLOFF
    from datetime import timedelta

    settings.AXES_COOLOFF_TIME = timedelta(seconds=COOLOFF)
    yield
    _redis().flushdb()


def test_a_socket_on_daphne_closes_when_this_process_removes_the_player(shared_redis):
    import websocket
    from django.test import Client

    from characters.campaigns.services import campaign_remove_player
    from combat import services

    gm, player = make_user("gm2p"), make_user("player2p")
    campaign = make_campaign(gm=gm, players=[player])  # the registry's first ruleset
    encounter = services.encounter_create(campaign=campaign, user=gm, name="Across")
    client = Client()
    client.force_login(player)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    ws_url = f"ws://127.0.0.1:{PORT}/ws/encounters/{encounter.pk}/"

    ws = websocket.create_connection(ws_url, cookie=cookie, origin=BASE, timeout=5)
    try:
        campaign_remove_player(gm=gm, campaign=campaign, user=player)  # this process, Redis in between
        ws.settimeout(5.0)
        # The frame itself (recv_frame): recv_data_frame answers a close frame with its own, which
        # raises when daphne has dropped the connection by then (a loaded machine: the test, not the
        # product, failed on "connection reset" after the close it asserts had arrived).
        frame = ws.recv_frame()
        assert frame.opcode == websocket.ABNF.OPCODE_CLOSE
        assert int.from_bytes(frame.data[:2], "big") == 4001
    finally:
        ws.close()
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(ws_url, cookie=cookie, origin=BASE, timeout=5)
    assert refused.value.status_code == 403  # the handshake is refused: no longer at the table


def test_failed_sign_ins_on_daphne_lock_the_account_here_until_the_cooling_off_ends(shared_redis, settings):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.test import Client

    # daphne knows the production hashers only (the tests' fast MD5 is not among them).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user = make_user("bram2p")
    # A production hash at few iterations (Django checks a password at its hash's own count): the
    # failures are counted over the last COOLOFF seconds, and five full-cost checks on a loaded machine
    # took 16 s, so the first ones had left the window when the lock was looked up here.
    user.password = PBKDF2PasswordHasher().encode(PASSWORD, "twoprocesses", iterations=1000)
    user.save(update_fields=["password"])
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        answer = requests.post(
            f"{BASE}/api/v1/auth/token/", json={"username": "bram2p", "password": "wrong"}, timeout=10
        )
        assert answer.status_code in (400, 429)
    assert answer.status_code == 429  # the last failure locks out, on daphne

    here = Client(REMOTE_ADDR="10.9.9.9")  # another client address: the account's count locks it
    response = here.post("/accounts/login/", {"username": "bram2p", "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in here.session

    time.sleep(COOLOFF + 0.5)  # deliberate wait: the cooling-off period ends, in both processes
    response = here.post("/accounts/login/", {"username": "bram2p", "password": PASSWORD})
    assert response.status_code == 302
    again = requests.post(
        f"{BASE}/api/v1/auth/token/", json={"username": "bram2p", "password": PASSWORD}, timeout=10
    )
    assert again.status_code == 200 and len(again.json()["token"]) == 64
