"""The API's edges: the catch-all 404 for every method, and bodies sent without a Content-Length.

Issue 14: unknown /api/v1/ paths answered a POST or PATCH with Django's HTML CSRF page, and a
chunked body was read as empty (DRF takes a missing length for no body) and never met the 413.
"""

from __future__ import annotations

import io
import json

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.test import Client

from rulesets.engine import registry
from tests.factories import api_client, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
UNKNOWN = ["/api/v1/nope/", "/api/v1/campaigns/1/nope/", "/api/v1/nope", "/api/nope/", "/api/"]


def _clients():
    user = make_user()
    session = Client(enforce_csrf_checks=True)  # a browser's session cookie, no CSRF token
    session.force_login(user)
    return {
        "anonymous": Client(enforce_csrf_checks=True),
        "token": api_client(user, token=True),
        "session": session,
    }


@pytest.mark.parametrize("method", METHODS)
def test_the_catch_all_answers_every_method_with_the_json_404(method):
    for who, client in _clients().items():
        for path in UNKNOWN:
            response = client.generic(method, path, json.dumps({"a": 1}), content_type="application/json")
            assert response.status_code == 404, (who, path, response.content[:300])
            assert response["Content-Type"] == "application/json", (who, path)
            assert response.json() == {"detail": f"No API endpoint at {path}; see /api/docs/.", "errors": []}


def test_known_endpoints_still_check_csrf_on_a_session():
    """The exemption is the catch-all's alone: a session POST to a real endpoint still needs its token."""
    session = _clients()["session"]
    response = session.post(
        "/api/v1/campaigns/", {"name": "x", "ruleset": SLUGS[0]}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")


#: The registry's first ruleset's example build: the body every chunked request sends.
SLUG = SLUGS[0]
VALIDATE = f"/api/v1/rulesets/{SLUG}/validate/"
BODY = json.dumps(registry.get(SLUG).contract_data()["build"]).encode()


def _validate(client_kwargs: dict):
    return Client().generic("POST", VALIDATE, content_type="application/json", **client_kwargs)


def test_a_chunked_body_is_read_as_sent_under_wsgi():
    expected = _validate({"data": BODY})
    assert expected.status_code == 200
    # What a WSGI server hands on for "Transfer-Encoding: chunked": no CONTENT_LENGTH, the dechunked stream.
    response = _validate(
        {
            "data": BODY,
            "CONTENT_LENGTH": "",
            "HTTP_TRANSFER_ENCODING": "chunked",
            "wsgi.input": io.BytesIO(BODY),
        }
    )
    assert response.status_code == 200
    assert response.json() == expected.json()
    assert response.json()["budget"] == {"cp": 40}


def test_a_chunked_body_over_the_limit_is_a_413_under_wsgi(settings):
    settings.MAX_REQUEST_BODY = 1024
    response = _validate(
        {
            "data": b"",
            "CONTENT_LENGTH": "",
            "HTTP_TRANSFER_ENCODING": "chunked",
            "wsgi.input": io.BytesIO(b" " * 2000 + BODY),
        }
    )
    assert response.status_code == 413
    assert response.json() == {"detail": "Request body is over 1024 bytes; the limit is 1024.", "errors": []}


def _asgi_post(path: str, chunks: list[bytes]) -> tuple[int, bytes]:
    """POST ``chunks`` through Django's ASGI handler as daphne delivers a chunked request: several
    body messages and no content-length header."""

    async def run():
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"testserver"),
                (b"content-type", b"application/json"),
                (b"transfer-encoding", b"chunked"),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
        }
        app = ApplicationCommunicator(ASGIHandler(), scope)
        for i, chunk in enumerate(chunks):
            await app.send_input({"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1})
        start = await app.receive_output(10)
        body = b""
        while True:
            message = await app.receive_output(10)
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        return start["status"], body

    return async_to_sync(run)()


def test_a_chunked_body_is_read_as_sent_under_asgi():
    status, body = _asgi_post(VALIDATE, [BODY[:10], BODY[10:30], BODY[30:]])
    assert status == 200, body
    assert json.loads(body) == _validate({"data": BODY}).json()


def test_a_chunked_body_over_the_limit_is_a_413_under_asgi(settings):
    settings.MAX_REQUEST_BODY = 1024
    status, body = _asgi_post(VALIDATE, [b" " * 700, b" " * 700, BODY])
    assert status == 413
    assert json.loads(body) == {"detail": "Request body is over 1024 bytes; the limit is 1024.", "errors": []}


def test_a_declared_length_over_the_limit_is_still_a_413(settings):
    settings.MAX_REQUEST_BODY = 1024
    response = _validate({"data": b" " * 2000 + BODY})
    assert response.status_code == 413
    assert response.json()["detail"] == f"Request body is {2000 + len(BODY)} bytes; the limit is 1024."
