"""/healthz (config/health.py): 200 when the database and Redis answer, 503 naming the part that is
down, never an exception; no session, no writes, no host check or https redirect in the way."""

from __future__ import annotations

import os
import socket
from concurrent.futures import Future

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext

from config import health

REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


def _closed_port() -> int:
    """A loopback port that nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


@pytest.fixture(autouse=True)
def _fresh_clients():
    health._redis_clients.clear()
    health._running.clear()
    yield
    health._redis_clients.clear()
    health._running.clear()


@pytest.mark.django_db
def test_both_answer_200(client, settings):
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    settings.REDIS_URL = REDIS_TEST_URL
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "redis": "ok"}
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_redis_at_a_closed_port_is_503_naming_redis(client, settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"db": "ok", "redis": "down"}


@pytest.mark.django_db
def test_without_redis_url_redis_is_not_configured_and_that_is_healthy(client, settings):
    settings.REDIS_URL = ""
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "redis": "not configured"}


class _BrokenConnection:
    def cursor(self):
        raise OperationalError("connection refused")


@pytest.mark.django_db
def test_a_database_that_does_not_answer_is_503_naming_the_db(client, settings, monkeypatch):
    settings.REDIS_URL = f"redis://127.0.0.1:{_closed_port()}/0"
    monkeypatch.setattr(health, "connection", _BrokenConnection())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"db": "down", "redis": "down"}


class _InlineExecutor:
    """Runs a check in the calling thread, where CaptureQueriesContext sees its queries (the checks
    run in health threads otherwise: tests/deploy/test_health_deadline.py)."""

    def submit(self, fn):
        future: Future = Future()
        future.set_result(fn())
        return future


@pytest.mark.django_db
def test_one_read_query_no_session_no_cookie(client, settings, monkeypatch):
    settings.REDIS_URL = ""
    monkeypatch.setattr(health, "_executor", _InlineExecutor())
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/healthz")
    assert response.status_code == 200
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]
    assert response.cookies == {}
    assert not response.has_header("Vary")  # the session middleware never ran


@pytest.mark.django_db
def test_no_host_check_and_no_https_redirect(client, settings):
    """A container health check calls by address; production redirects other http to https."""
    settings.REDIS_URL = ""
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/", HTTP_HOST="10.1.2.3:8000").status_code == 400  # the site itself checks hosts
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200
    assert response.json() == {"db": "ok", "redis": "not configured"}


@pytest.mark.django_db
def test_other_methods_are_405(client, settings):
    settings.REDIS_URL = ""
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json() == {"detail": "Use GET.", "errors": []}
