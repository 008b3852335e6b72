"""Outages are 503s in words: the database refusing connections, a connection dropped under a
request, Redis away where something needs it (the websockets' channel layer).

- Pages answer 503 with ``Retry-After`` and a page in words (templates/outage.html, drawn
  without the database: no session, no user, no context processor); htmx gets the sentence as
  the page's #messages block. The API answers 503 ``{"detail", "errors": []}`` with
  ``Retry-After`` (``config.api.exception_handler``).
- A read (GET, HEAD, OPTIONS) whose connection dropped under it (``pg_terminate_backend``, a
  restarted Postgres, a failover) is tried once more on a fresh connection
  (``OutageMiddleware``): the second try usually finds the database back. A write is not tried
  again: it may have been done; the person sees the 503 and decides.
- Errors out of a middleware (the session saved after the view) reach Django's 500 handler,
  ``server_error`` here, which answers the same 503 for an outage and Django's page otherwise.
- Websockets (``guard_websockets``, config/asgi.py): a consumer that cannot reach Redis or the
  database closes with 1013 ("try again later") instead of failing the handshake with a 500; the
  pages' sockets reconnect by themselves and say meanwhile that live updates are paused
  (static/js/app.js).

Each outage is logged as one WARNING line (logger ``config.outage``), no traceback: the cause is
the database's or Redis's, and /healthz says which.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views import defaults
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: What an outage raises: the database refusing or dropping a connection (Django's
#: OperationalError and InterfaceError: refused, terminated, closed, too many clients), Redis
#: unreachable or timing out, and the socket errors beneath them.
OUTAGE: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
    TimeoutError,
)
#: Seconds a client is asked to wait (``Retry-After``); a page reloads itself after as long.
RETRY_AFTER_S = 5
#: Methods that only read: tried once more on a fresh connection.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: The sentence every door says.
MESSAGE = (
    "Sheetforge cannot reach its database or its live-update service just now. "
    "Nothing is lost: try again in a few seconds."
)
#: The close code of a websocket an outage ends: 1013, "try again later" (RFC 6455, IANA registry).
CLOSE_TRY_AGAIN = 1013


def is_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) is an outage rather than a bug."""
    seen = 0
    while exc is not None and seen < 5:
        if isinstance(exc, OUTAGE) and not _is_query_error(exc):
            return True
        if _is_redis_reconnect_race(exc):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _is_query_error(exc: BaseException) -> bool:
    """An OperationalError a query earns by itself (a bad statement is a ProgrammingError, but a
    lock wait or statement timeout is operational and is no outage of the server): those keep
    their 500. Connection-level ones have no SQLSTATE or one of class 08 (connection exception),
    57P (operator intervention: terminated, shutting down) or 53 (insufficient resources)."""
    if not isinstance(exc, DatabaseError):
        return False
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if not state:
        return False
    return not str(state).startswith(("08", "57P", "53"))


#: The module of Redis's asyncio client that reads its socket.
_REDIS_ASYNC_CONNECTION = "redis.asyncio.connection"


def _is_redis_reconnect_race(exc: BaseException) -> bool:
    """Redis's asyncio client reading one socket from two coroutines: asyncio's "readuntil() called
    while another coroutine is already waiting for incoming data" (a RuntimeError) out of the
    client's connection. Seen when Redis comes back: the channel layer's receiver and a new socket's
    subscribe reconnect the one pub/sub connection at once (redis-py #2540), and the handshake
    failed with a 500 where a moment later it opens. It is the live-update service not answering
    yet, as a refused connection is; a RuntimeError of any other origin stays a bug."""
    if not isinstance(exc, RuntimeError):
        return False
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("__name__") == _REDIS_ASYNC_CONNECTION:
            return True
        tb = tb.tb_next
    return False


def log_outage(where: str, exc: BaseException) -> None:
    logger.warning("outage at %s: %s: %s", where, type(exc).__name__, str(exc).strip().splitlines()[:1])


def outage_response(request: HttpRequest) -> HttpResponse:
    """The 503 for ``request``: JSON under /api/, the #messages block for htmx, a page otherwise."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": MESSAGE, "errors": []}, status=503)
    elif request.headers.get("HX-Request") == "true":
        html = render_to_string("outage.html#outage-message", {"message": MESSAGE})
        response = HttpResponse(html, status=503)
        response["HX-Retarget"] = "#messages"
        response["HX-Reswap"] = "outerHTML"
    else:
        html = render_to_string(
            "outage.html",
            {"message": MESSAGE, "retry_after": RETRY_AFTER_S, "reload": request.method in SAFE_METHODS},
        )
        response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


def drop_broken_connections() -> None:
    """Close every database connection an error left unusable (outside a transaction: one inside
    belongs to its atomic block), so that the next query opens a fresh one."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        try:
            conn.close_if_unusable_or_obsolete()
        except Exception:  # closing a dead connection may fail too: it is gone either way
            conn.connection = None


class OutageMiddleware:
    """A view's outage: a read is tried once more on a fresh connection, then (or for a write)
    the 503 in words. Last in ``MIDDLEWARE``, so its ``process_exception`` is asked first; the
    API's views answer their own (``config.api.exception_handler``), after leaving a read's
    first failure to this retry."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_outage(exception):
            return None
        log_outage(request.path, exception)
        match = request.resolver_match
        if request.method in SAFE_METHODS and not getattr(request, "outage_retried", False) and match:
            request.outage_retried = True  # type: ignore[attr-defined]
            drop_broken_connections()
            try:
                response = match.func(request, *match.args, **match.kwargs)
            except Exception as again:
                if not is_outage(again):
                    raise
                log_outage(request.path, again)
            else:
                if hasattr(response, "render") and callable(response.render):
                    response = response.render()
                return response
        return outage_response(request)


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Django's 500 handler (``handler500``): an outage out of a middleware (a session saved after
    the view, the user read by one) is the 503 in words; anything else Django's own 500 page."""
    exc = sys.exc_info()[1]
    if is_outage(exc):
        assert exc is not None
        log_outage(request.path, exc)
        return outage_response(request)
    return defaults.server_error(request)


ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]


def guard_websockets(app: ASGIApp) -> ASGIApp:
    """``app`` (the websocket router) whose outages close the socket with 1013 ("try again later"):
    the handshake is accepted first when it was not yet, so that the browser hears the code (a
    refused handshake reaches a page as 1006, a 500 in the server's log), then closed. The pages'
    sockets reconnect by themselves on 1013 (htmx's ws extension, with back-off)."""

    async def guarded(scope: dict, receive, send) -> None:
        state = {"accepted": False, "closed": False}

        async def watched_send(message: dict) -> None:
            kind = message.get("type")
            if kind == "websocket.accept":
                state["accepted"] = True
            elif kind == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await app(scope, receive, watched_send)
        except Exception as exc:
            if not is_outage(exc):
                raise
            log_outage(scope.get("path", "websocket"), exc)
            if state["closed"]:
                return
            try:
                if not state["accepted"]:
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})
            except Exception:  # the client went away meanwhile
                logger.info("websocket gone before its 1013 close")

    return guarded


#: Close codes of the IANA registry a server sends when it will be back (RFC 6455 7.4.2): service
#: restart, try again later.
SERVER_RETRY_CODES = (1012, 1013)


def let_daphne_close_with_retry_codes() -> None:
    """daphne closes a socket through autobahn's ``sendClose``, which takes only 1000 and 3000–4999
    from an application (it raises on 1013, and the socket then stays open with no word). Its
    ``serverClose`` sends the registry's server codes (``SERVER_RETRY_CODES``) as the close frame
    itself, the way daphne's own 1011 for a crashed application is sent; every other code as before.
    Idempotent; nothing to do when daphne is not installed (another ASGI server sends any code)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:  # pragma: no cover - daphne is a dependency
        return
    original = WebSocketProtocol.serverClose
    if getattr(original, "retry_codes", False):
        return

    def server_close(self, code=None):
        if code in SERVER_RETRY_CODES:
            self.sendCloseFrame(code=code, isReply=False)
            return
        original(self, code=code)

    server_close.retry_codes = True  # type: ignore[attr-defined]
    WebSocketProtocol.serverClose = server_close
