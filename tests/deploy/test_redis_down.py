"""With Redis away (REDIS_URL at a closed port) the site degrades instead of answering 500: a player
signs in, opens home and a sheet, gets an API token; sign-in lock-outs still hold (in the database);
/healthz says Redis is down; a dead Redis costs milliseconds per page; the cache's failures are
logged once, not per request. In-process with the settings REDIS_URL gives, and as a real gunicorn.
The cache backend itself (config/cache.py): misses while away, back by itself, stale sessions dropped."""

from __future__ import annotations

import http.cookiejar
import importlib.util
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client

from config import cache as forgiving
from config import health
from tests.characters.sheet.test_sheet_fixtures import make_character
from tests.factories import PASSWORD, database_url_for_servers, make_user
from tests.vehicles import SLUGS
from tests.waiting import poll

# alone: pages within a second while Redis is away (tests/scheduling.py runs these with no other worker busy)
pytestmark = pytest.mark.alone

ROOT = Path(__file__).resolve().parents[2]
REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
PAGE_LIMIT_S = 1.0
RULESET = SLUGS[0]  # the registry's first ruleset: its sheet character


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _settings_with(env: dict[str, str]):
    """config/settings.py evaluated afresh with ``env``: what a process started with it would use."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        spec = importlib.util.spec_from_file_location(
            "_sheetforge_settings_probe", ROOT / "config" / "settings.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture
def redis_down(settings):
    """The project's settings for REDIS_URL at a closed port, in this process."""
    from axes.handlers.proxy import AxesProxyHandler

    url = f"redis://127.0.0.1:{_closed_port()}/0"
    probe = _settings_with({"REDIS_URL": url})
    settings.REDIS_URL = url
    settings.CACHES = probe.CACHES
    settings.SESSION_CACHE_ALIAS = getattr(probe, "SESSION_CACHE_ALIAS", "default")
    settings.AXES_HANDLER = probe.AXES_HANDLER
    AxesProxyHandler.implementation = None  # axes keeps the handler it made first
    health._redis_clients.clear()
    yield url
    AxesProxyHandler.implementation = None
    health._redis_clients.clear()


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


@pytest.mark.django_db
def test_a_player_signs_in_and_plays_while_redis_is_away(client, redis_down, caplog):
    player = make_user("away-player")
    character = make_character(ruleset=RULESET, owner=player)
    caplog.set_level(logging.INFO)
    # Each page once before the clock runs: a first render compiles its templates (seconds on a busy
    # machine), which is not what is measured here.
    assert client.get("/accounts/login/").status_code == 200
    assert Client().get(f"/characters/{character.pk}/").status_code == 302  # to the login page
    warm = Client()
    warm.force_login(player)
    assert [warm.get(p).status_code for p in ("/", f"/characters/{character.pk}/")] == [200, 200]

    response, took = _timed(
        lambda: client.post("/accounts/login/", {"username": "away-player", "password": PASSWORD})
    )
    assert response.status_code == 302, response.content[:500]
    assert response["Location"] == "/"
    assert took < PAGE_LIMIT_S, f"sign-in {took:.2f} s"

    for path in ("/", f"/characters/{character.pk}/", "/", f"/characters/{character.pk}/"):
        response, took = _timed(lambda path=path: client.get(path))
        assert response.status_code == 200, (path, response.status_code)
        assert response.context["user"] == player  # signed in: the session came from the database
        assert took < PAGE_LIMIT_S, f"{path}: {took:.2f} s"

    response, took = _timed(
        lambda: client.post(
            "/api/v1/auth/token/",
            {"username": "away-player", "password": PASSWORD},
            content_type="application/json",
        )
    )
    assert response.status_code == 200, response.content
    assert set(response.json()) == {"token"}
    assert took < PAGE_LIMIT_S

    response = client.get("/api/v1/characters/", HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert response.status_code == 200

    response, took = _timed(lambda: client.get("/healthz"))
    assert response.status_code == 503
    assert response.json() == {"db": "ok", "redis": "down"}
    assert took < PAGE_LIMIT_S

    cache_lines = [r for r in caplog.records if r.name == "config.cache"]
    assert len(cache_lines) == 1, [r.getMessage() for r in cache_lines]  # once per interval, not per request
    assert (
        cache_lines[0].levelno == logging.WARNING and "Redis does not answer" in cache_lines[0].getMessage()
    )
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert not [
        r
        for r in caplog.records
        if r.levelno >= logging.ERROR and r.getMessage() != "Service Unavailable: /healthz"
    ]


@pytest.mark.django_db
def test_sign_in_lock_outs_hold_while_redis_is_away(client, redis_down, settings):
    make_user("guessed")
    wrong = {"username": "guessed", "password": "wrong-wrong-wrong"}
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert client.post("/accounts/login/", wrong).status_code == 200  # the form again, with its error
    assert client.post("/accounts/login/", wrong).status_code == 429  # the failure that reaches the limit
    response = client.post("/accounts/login/", {"username": "guessed", "password": PASSWORD})
    assert response.status_code == 429  # locked out, the right password included
    response = client.post(
        "/api/v1/auth/token/", {"username": "guessed", "password": PASSWORD}, content_type="application/json"
    )
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many failed sign-ins.")


@pytest.mark.django_db
def test_the_token_endpoint_keeps_its_rate_while_redis_is_away(client, redis_down, settings):
    settings.AUTH_TOKEN_RATE = "3/minute"
    make_user("rated")
    body = {"username": "rated", "password": PASSWORD}
    codes = [
        client.post("/api/v1/auth/token/", body, content_type="application/json").status_code
        for _ in range(4)
    ]
    assert codes == [200, 200, 200, 429]


# ---- the backend itself, on a Redis that answers (REDIS_TEST_URL) and then does not


def _redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def test_operations_miss_quickly_while_away_and_resume_by_themselves(monkeypatch, caplog):
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    from django.core.cache.backends.redis import RedisCacheClient
    from redis.exceptions import ConnectionError as RedisConnectionError

    forgiving._outages.pop(REDIS_TEST_URL, None)
    cache = forgiving.ForgivingRedisCache(
        REDIS_TEST_URL,
        {
            "KEY_PREFIX": "forgiving-test",
            "OPTIONS": {"STALE_ON_RETURN": ["django.contrib.sessions.cached_db"]},
        },
    )
    cache.set("django.contrib.sessions.cached_dbsigned-out", {"user": 1})
    cache.set("kept", "value")
    caplog.set_level(logging.INFO, logger="config.cache")

    def refused(*args, **kwargs):
        raise RedisConnectionError("Connection refused.")

    with monkeypatch.context() as away:
        for name in ("get", "set", "delete", "add", "incr", "get_many"):
            away.setattr(RedisCacheClient, name, refused)
        assert cache.get("kept", "missed") == "missed"
        cache.delete("django.contrib.sessions.cached_dbsigned-out")  # a sign-out Redis never hears of
        assert cache.add("new", 1) is False
        with pytest.raises(ValueError):
            cache.incr("kept")
        assert cache.get_many(["kept"]) == {}
        assert cache._available() is False  # left alone for RETRY_AFTER_S
    assert cache.get("kept", "missed") == "missed"  # still within RETRY_AFTER_S: not even tried
    monkeypatch.setattr(cache._outage, "retry_at", 0.0)  # RETRY_AFTER_S later

    assert cache.get("kept") == "value"  # back by itself
    assert cache.get("django.contrib.sessions.cached_dbsigned-out") is None  # the stale session dropped
    messages = [(r.levelno, r.getMessage()) for r in caplog.records]
    assert len(messages) == 2, messages
    assert messages[0][0] == logging.WARNING
    assert messages[0][1].startswith(
        "cache: Redis does not answer (Connection refused.); 1 cache operation(s)"
    )
    assert messages[1] == (logging.INFO, "cache: Redis answers again")
    cache.clear()


def test_one_redis_client_serves_every_read_and_every_write():
    """Django's backend made a ``redis.Redis`` per operation (~0.1 ms of CPU each: every signed-in
    page reads its session through the cache); now one for reads and one for writes."""
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    forgiving._outages.pop(REDIS_TEST_URL, None)  # what another test left of an outage
    cache = forgiving.ForgivingRedisCache(REDIS_TEST_URL, {"KEY_PREFIX": "one-client-test"})
    made = []
    client_class = cache._cache._client

    def counted(**kwargs):
        made.append(kwargs)
        return client_class(**kwargs)

    cache._cache._client = counted
    for n in range(20):
        cache.set(f"k{n}", n)
        assert cache.get(f"k{n}") == n
    assert len(made) == 2
    cache.clear()


def test_the_fallback_alias_counts_in_memory_while_away():
    cache = forgiving.ForgivingRedisCache(
        f"redis://127.0.0.1:{_closed_port()}/0",
        {"OPTIONS": {"FALLBACK": "memory", "socket_connect_timeout": 0.25}},
    )
    started = time.monotonic()
    cache.set("throttle_x", [1, 2, 3], 60)
    assert cache.get("throttle_x") == [1, 2, 3]
    for _ in range(200):
        cache.get("throttle_x")
    assert time.monotonic() - started < 0.5  # refused once, then not tried for RETRY_AFTER_S


# ---- a real web server (gunicorn) with REDIS_URL at a closed port


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_real_server_with_redis_away_signs_a_player_in_and_shows_their_sheet(settings):
    if connection.vendor != "postgresql":
        pytest.skip("the server process needs the test database on Postgres")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the server's own
    character = make_character(ruleset=RULESET, owner=make_user("served-owner"))
    port = _closed_port()
    env = {k: v for k, v in os.environ.items() if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        {
            "DATABASE_URL": database_url_for_servers(),
            "REDIS_URL": f"redis://127.0.0.1:{_closed_port()}/0",
            "DEBUG": "false",
            "SECRET_KEY": django_settings.SECRET_KEY,
            "SECURE_SSL_REDIRECT": "false",
            "SESSION_COOKIE_SECURE": "false",
            "CSRF_COOKIE_SECURE": "false",
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "1", "config.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def fetch(path: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, str, float]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(base + path, data=body, headers=headers or {})
        started = time.monotonic()
        try:
            with opener.open(request, timeout=10) as r:
                return r.status, r.read().decode(), time.monotonic() - started
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode(), time.monotonic() - started

    try:

        def answers() -> bool:
            if proc.poll() is not None:
                pytest.fail(f"gunicorn exited ({proc.returncode}):\n{proc.stdout.read()}")
            try:
                fetch("/healthz")
            except OSError:
                return False
            return True

        if not poll(answers, timeout=90, every=0.3):
            pytest.fail("gunicorn did not answer within 90 s")
        status, body, took = fetch("/healthz")
        assert (status, json.loads(body)) == (503, {"db": "ok", "redis": "down"})
        assert took < PAGE_LIMIT_S

        status, page, _ = fetch("/accounts/login/")
        assert status == 200
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, page, _ = fetch(
            "/accounts/login/",
            {"csrfmiddlewaretoken": token, "username": "served-owner", "password": PASSWORD},
            {"Referer": base + "/accounts/login/"},
        )
        assert status == 200, page[:2000]  # followed the redirect home
        assert "Welcome back, served-owner" in page
        # Twice each: the first render compiles the page's templates; the second is what a dead
        # Redis would slow down.
        timings = {}
        for path in ("/", f"/characters/{character.pk}/") * 2:
            status, page, timings[path] = fetch(path)
            assert status == 200, (path, status, page[:2000])
            assert character.name in page  # signed in: home lists it, the sheet shows it
        assert max(timings.values()) < PAGE_LIMIT_S, timings
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log = proc.stdout.read()
    assert "Traceback" not in log, log[-3000:]
