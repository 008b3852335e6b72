"""ASGI entry points: websockets through Channels (encounter pages, the table's roll feed).

- ``application``: HTTP through Django and websockets, in one process: ``manage.py runserver``
  (``make run``) and the tests.
- ``websocket_application``: the production websocket server (``make serve``, compose ``ws``):
  the proxy sends it /ws/ only; over HTTP it answers /healthz for the health checks and 404 to
  anything else (gunicorn serves the pages, config/wsgi.py).

Started as a server's entry point (daphne, uvicorn), this module marks its process as the ASGI
side before the settings load (``SHEETFORGE_SERVER=asgi``): its database connections then come
from a bounded pool and persistent connections are refused (config/settings.py).
"""

import logging
import os

from django.conf import settings as _settings

if not _settings.configured:  # a server importing us first, not runserver or the tests
    os.environ["SHEETFORGE_SERVER"] = "asgi"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import re_path  # noqa: E402

from characters.routing import websocket_urlpatterns as table_urlpatterns  # noqa: E402
from combat.routing import websocket_urlpatterns  # noqa: E402
from config.health import PATHS as HEALTH_PATHS  # noqa: E402
from config.health import asgi_healthz  # noqa: E402
from config.outage import guard_websockets, let_daphne_close_with_retry_codes  # noqa: E402

logger = logging.getLogger(__name__)

#: The close code of a socket that may not be opened here (the consumers' "not found").
CLOSE_NOT_FOUND = 4404


async def _no_route(scope, receive, send):
    """A websocket path that matches no route (``/ws/nope/``, a missing slash, an id too long for
    the database): refused before the handshake completes, as a consumer refuses what its user may
    not see (the browser gets a 403). Channels' URLRouter would raise instead: a 500 and a
    traceback per knock, which anyone could use to fill the log; here one INFO line."""
    message = await receive()
    if message["type"] == "websocket.connect":
        logger.info("websocket refused: no route for %r", scope["path"][:200])
        await send({"type": "websocket.close", "code": CLOSE_NOT_FOUND})


# An outage (Redis away for the channel layer, the database for the session) closes a socket with
# 1013, "try again later", not a 500 handshake (config/outage.py); the pages reconnect by themselves.
let_daphne_close_with_retry_codes()
websockets = guard_websockets(
    AllowedHostsOriginValidator(
        AuthMiddlewareStack(
            URLRouter(websocket_urlpatterns + table_urlpatterns + [re_path(r"", _no_route)])  # last: the rest
        )
    )
)


async def _http(scope, receive, send):
    """HTTP in one process: /healthz answered first (config/health.py), the rest through Django."""
    if scope["path"] in HEALTH_PATHS:
        await asgi_healthz(scope, receive, send)
        return
    await django_asgi_app(scope, receive, send)


application = ProtocolTypeRouter({"http": _http, "websocket": websockets})


async def _health_only(scope, receive, send):
    """HTTP on the websocket server: /healthz, 404 for anything else."""
    if scope["path"] in HEALTH_PATHS:
        await asgi_healthz(scope, receive, send)
        return
    body = b"Not found: this server answers websockets (/ws/) and /healthz only.\n"
    await send(
        {
            "type": "http.response.start",
            "status": 404,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


websocket_application = ProtocolTypeRouter({"http": _health_only, "websocket": websockets})
