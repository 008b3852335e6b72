"""/healthz: can this process serve? For the proxy, compose's health checks and load balancers.

200 ``{"db": "ok", "redis": "ok"}`` when the database answers ``SELECT 1`` and Redis answers PING;
503 with the part that failed marked ``"down"`` otherwise. Without ``REDIS_URL`` this process uses
the in-process cache and channel layer, and Redis is reported ``"not configured"`` (not a failure).

The middleware answers before every other one (first in ``MIDDLEWARE``): no session is read or
saved, no https redirect, no host check (a container health check calls by address, whatever
``ALLOWED_HOSTS`` says), and nothing is written. It never raises: a failing check is logged and
reported as ``"down"``.

It answers within a second whatever is down (``DEADLINE_S``): each check runs in a thread of this
module's own, and a check that has not answered by the deadline is reported ``"down"`` while it
goes on in the background (a later probe waits for that same check rather than starting another, so
a hung database costs one thread, not one per probe). Without it, the websocket server's check
waited for its connection pool's 10 s timeout when Postgres refused connections, queued behind the
consumers' database calls in the one thread Django gives sync code under ASGI. The ASGI servers
answer /healthz before Django's handler (``asgi_healthz``, config/asgi.py) for the same reason.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

PATHS = ("/healthz", "/healthz/")
#: Every check together answers within this many seconds (a health check's own timeout is often 1 s).
DEADLINE_S = 0.6
REDIS_TIMEOUT_S = 0.4

_redis_clients: dict = {}


class _DaemonThreads:
    """Runs each check in a daemon thread of its own. Not a ThreadPoolExecutor: its threads are
    joined when the process exits, so a check stuck on a database that refuses connections (the
    ASGI side's pool waits 10 s for one) held a stopping server that long: daphne took ~9 s to stop
    on SIGTERM with Postgres away (a container's stop, a deploy). ``_started`` runs at most one
    check per part at a time, so this is at most two threads."""

    def submit(self, check: Callable[[], str]) -> Future:
        future: Future = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(check())
            except BaseException as exc:  # the checks catch their own; never lose one silently
                future.set_exception(exc)

        threading.Thread(target=run, name="healthz", daemon=True).start()
        return future


_executor = _DaemonThreads()
_running: dict[str, Future] = {}
_running_lock = threading.Lock()


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception as exc:
        logger.warning("healthz: the database does not answer: %s", exc)
        return "down"
    finally:
        # This thread is not a request's: give the connection back (to the ASGI side's pool) or
        # close it, rather than hold one beside the worker's own until the process ends.
        try:
            connection.close()
        except Exception:
            pass


def _redis() -> str:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return "not configured"
    try:
        client = _redis_clients.get(url)
        if client is None:
            import redis

            client = redis.Redis.from_url(
                url, socket_connect_timeout=REDIS_TIMEOUT_S, socket_timeout=REDIS_TIMEOUT_S
            )
            _redis_clients[url] = client
        client.ping()
        return "ok"
    except Exception as exc:
        logger.warning("healthz: Redis does not answer at %s: %s", url, exc)
        return "down"


def _started(name: str, check: Callable[[], str]) -> Future:
    """The running ``check`` of ``name``, or a new one when none is running."""
    with _running_lock:
        future = _running.get(name)
        if future is None or future.done():
            future = _running[name] = _executor.submit(check)
        return future


def health() -> tuple[int, dict[str, str]]:
    """(HTTP status, report): 503 when a configured part is down; within ``DEADLINE_S``."""
    deadline = time.monotonic() + DEADLINE_S
    futures = {name: _started(name, check) for name, check in (("db", _database), ("redis", _redis))}
    report = {}
    for name, future in futures.items():
        try:
            report[name] = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            logger.warning("healthz: %s did not answer within %.1f s", name, DEADLINE_S)
            report[name] = "down"
    status = 503 if "down" in report.values() else 200
    return status, report


def _answer(method: str) -> tuple[int, dict[str, object], dict[str, str]]:
    """(status, JSON body, extra headers) of /healthz for ``method``."""
    if method not in ("GET", "HEAD"):
        return 405, {"detail": "Use GET.", "errors": []}, {"Allow": "GET, HEAD"}
    try:
        status, checked = health()
        report: dict[str, object] = dict(checked)
    except Exception:  # belt and braces: the checks catch their own errors
        logger.exception("healthz failed")
        status, report = 503, {"db": "unknown", "redis": "unknown"}
    return status, report, {"Cache-Control": "no-store"}


def healthz(request: HttpRequest) -> HttpResponse:
    status, body, headers = _answer(request.method or "GET")
    response = JsonResponse(body, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


async def asgi_healthz(scope, receive, send) -> None:
    """/healthz for the ASGI servers, before Django's handler: the checks run in this module's
    threads, not in the one thread where Django runs sync code under ASGI, which the websocket
    consumers' database calls may be holding (config/asgi.py)."""
    status, body, headers = await sync_to_async(_answer, thread_sensitive=False)(scope["method"])
    payload = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
                *((name.lower().encode(), value.encode()) for name, value in headers.items()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else payload})


class HealthCheckMiddleware:
    """Answers /healthz itself, before the rest of the middleware runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info in PATHS:
            return healthz(request)
        return self.get_response(request)
