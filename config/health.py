"""/healthz: can this process serve? For the proxy, compose's health checks and load balancers.

200 ``{"db": "ok", "redis": "ok"}`` when the database answers ``SELECT 1`` and Redis answers PING;
503 with the part that failed marked ``"down"`` otherwise. Without ``REDIS_URL`` this process uses
the in-process cache and channel layer, and Redis is reported ``"not configured"`` (not a failure).

The middleware answers before every other one (first in ``MIDDLEWARE``): no session is read or
saved, no https redirect, no host check (a container health check calls by address, whatever
``ALLOWED_HOSTS`` says), and nothing is written. It never raises: a failing check is logged and
reported as ``"down"``.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

PATHS = ("/healthz", "/healthz/")
REDIS_TIMEOUT_S = 2.0

_redis_clients: dict = {}


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return "ok"
    except Exception:
        logger.warning("healthz: the database does not answer", exc_info=True)
        return "down"


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
    except Exception:
        logger.warning("healthz: Redis does not answer at %s", url, exc_info=True)
        return "down"


def health() -> tuple[int, dict[str, str]]:
    """(HTTP status, report): 503 when a configured part is down."""
    report = {"db": _database(), "redis": _redis()}
    status = 503 if "down" in report.values() else 200
    return status, report


def healthz(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        response = JsonResponse({"detail": "Use GET.", "errors": []}, status=405)
        response["Allow"] = "GET, HEAD"
        return response
    try:
        status, report = health()
    except Exception:  # belt and braces: the checks catch their own errors
        logger.exception("healthz failed")
        status, report = 503, {"db": "unknown", "redis": "unknown"}
    response = JsonResponse(report, status=status)
    response["Cache-Control"] = "no-store"
    return response


class HealthCheckMiddleware:
    """Answers /healthz itself, before the rest of the middleware runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info in PATHS:
            return healthz(request)
        return self.get_response(request)
