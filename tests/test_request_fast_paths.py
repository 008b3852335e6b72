"""The shortcuts taken on every API request give the answers of the long ways they skip:
the body check on raw bytes (config.api.body_problem), the content negotiation
(config.negotiation) and the Content-Security-Policy kept per host (config.csp)."""

from __future__ import annotations

import json

import pytest
from csp.decorators import csp_update
from django.http import HttpResponse
from django.test import RequestFactory, override_settings
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request

from config import csp as config_csp
from config.api import MAX_BODY_DEPTH, body_problem
from config.csp import ContentSecurityPolicyMiddleware
from config.negotiation import ContentNegotiation
from rulesets.engine import registry

#: Every ruleset's typical build (``content/examples.json``), as the API receives it.
TYPICAL = {rs.slug: json.dumps(rs.contract_data()["typical"], indent=2) for rs in registry.all_rulesets()}


def _nested(depth: int, *, wide: bool = False) -> str:
    """A JSON text whose innermost list is ``depth`` containers down (0: the root itself); ``wide``
    puts 70 lists in it (more brackets than the limit, one level deeper)."""
    inner = "[" + ",".join(["[]"] * 70) + "]" if wide else "[]"
    return "[" * depth + inner + "]" * depth


BODIES = [
    *(text.encode() for text in TYPICAL.values()),
    b'{"name": "plain"}',
    b'"a bare string"',
    b"3",
    b"null",
    b'{"name": "caf\xc3\xa9 \xe2\x82\xac"}',  # UTF-8 text, no escape
    b'{"name": "\\u00e9t\\u00e9"}',  # escapes that are fine
    b'{"name": "o\\u0000k"}',  # NUL, escaped
    b'{"name": "x", "\\ud800": 1}',  # a lone surrogate key
    b'{"list": ["ok", "\\udfff"]}',  # a lone surrogate in a list
    b'{"pair": "\\ud83d\\ude00"}',  # a pair: one character, fine
    b'{"raw": "\xed\xa0\x80"}',  # a surrogate written as UTF-8 bytes (json decodes with surrogatepass)
    b'{"hangul": "\xed\x95\x9c"}',  # 0xED leading a real character: fine, the long way
    '{"utf16": "o\\u0000k"}'.encode("utf-16"),
    '{"utf16": "fine"}'.encode("utf-16"),
    *(
        _nested(d).encode()
        for d in (MAX_BODY_DEPTH - 2, MAX_BODY_DEPTH - 1, MAX_BODY_DEPTH, MAX_BODY_DEPTH + 3)
    ),
    *(
        _nested(d, wide=True).encode()
        for d in (MAX_BODY_DEPTH - 2, MAX_BODY_DEPTH - 1, MAX_BODY_DEPTH, MAX_BODY_DEPTH + 3)
    ),
    json.dumps({"a": [{"b": [{"c": "\ud800"}]}]}).encode(),  # json.dumps escapes it: \\ud800
]


def _answer(problem):
    return None if problem is None else (str(problem.detail), problem.errors)


@pytest.mark.parametrize("raw", BODIES, ids=range(len(BODIES)))
def test_the_check_on_raw_bytes_answers_as_the_full_walk(raw):
    data = json.loads(raw)
    assert _answer(body_problem(data, raw)) == _answer(body_problem(data))


def test_the_corpus_has_refusals_of_each_kind():
    """The test above would pass on a corpus of fine bodies: it holds each kind of refusal."""
    answers = [_answer(body_problem(json.loads(raw), raw)) for raw in BODIES]
    details = [a[0] for a in answers if a is not None]
    assert sum("NUL characters or unpaired surrogates" in d for d in details) == 6
    assert (
        sum(f"nested more than {MAX_BODY_DEPTH} levels" in d for d in details) == 5
    )  # 64, 67; wide 63, 64, 67
    assert answers[0] is None  # a typical build is fine
    deep = _answer(body_problem(json.loads(_nested(MAX_BODY_DEPTH)), _nested(MAX_BODY_DEPTH).encode()))
    assert deep is not None and deep[1][0]["path"] == "/0" * MAX_BODY_DEPTH


# ------------------------------------------------------------------ content negotiation


def _drf_request(accept: str | None, query: str = "") -> Request:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(
        RequestFactory().post(f"/api/v1/rulesets/{registry.slugs()[0]}/validate/" + query, **headers)
    )


ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "text/html",
    "text/html, */*;q=0.1",
    "application/*",
    "image/png",
    "",
]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
@pytest.mark.parametrize("renderers", [[JSONRenderer()], [JSONRenderer(), BrowsableAPIRenderer()]])
def test_the_negotiation_picks_what_drf_picks(accept, query, renderers):
    def pick(negotiator):
        try:
            renderer, media_type = negotiator.select_renderer(_drf_request(accept, query), renderers)
            return type(renderer), media_type
        except NotAcceptable:
            return "406"
        except Exception as exc:  # noqa: BLE001 (Http404 for an unknown format)
            return type(exc).__name__

    assert pick(ContentNegotiation()) == pick(DefaultContentNegotiation())


def test_the_api_uses_it_and_still_refuses_what_it_cannot_render(client):
    slug, body = next(iter(TYPICAL.items()))
    url = f"/api/v1/rulesets/{slug}/validate/"
    ok = client.post(url, body, content_type="application/json", HTTP_ACCEPT="*/*")
    assert ok.status_code == 200 and ok["Content-Type"] == "application/json"
    assert ok.json()["valid"] is True
    refused = client.post(url, body, content_type="application/json", HTTP_ACCEPT="text/html")
    assert refused.status_code == 406


# ------------------------------------------------------------------ CSP kept per host


def _policy_of(response) -> str:
    return response.headers.get("Content-Security-Policy", "")


def _through_middleware(view, host: str = "testserver"):
    request = RequestFactory().get("/", HTTP_HOST=host)
    middleware = ContentSecurityPolicyMiddleware(view)
    return middleware(request)


def _plain(request):
    return HttpResponse("ok")


@override_settings(ALLOWED_HOSTS=["testserver", "table.example"])
def test_each_host_gets_its_own_websocket_source():
    config_csp._built.clear()
    first = _policy_of(_through_middleware(_plain))
    other = _policy_of(_through_middleware(_plain, host="table.example"))
    again = _policy_of(_through_middleware(_plain))
    assert "ws://testserver wss://testserver" in first and "table.example" not in first
    assert "ws://table.example wss://table.example" in other and "testserver" not in other
    assert again == first
    assert set(config_csp._built) == {"testserver", "table.example"}


def test_a_host_that_is_not_allowed_gets_the_policy_without_a_websocket_source():
    config_csp._built.clear()
    policy = _policy_of(_through_middleware(_plain, host="evil.example"))
    assert "script-src 'self'" in policy and "ws://" not in policy


def test_a_view_that_customises_the_policy_is_not_given_the_kept_one():
    config_csp._built.clear()
    _through_middleware(_plain)  # keeps the plain policy for testserver

    @csp_update({"img-src": ["https://maps.example"]})
    def custom(request):
        return HttpResponse("ok")

    policy = _policy_of(_through_middleware(custom))
    assert "https://maps.example" in policy and "ws://testserver" in policy
    assert "https://maps.example" not in _policy_of(_through_middleware(_plain))


def test_a_changed_setting_is_not_answered_from_what_was_kept():
    _through_middleware(_plain)
    policy = {"DIRECTIVES": {"default-src": ["'none'"], "connect-src": ["'self'"]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        changed = _policy_of(_through_middleware(_plain))
    assert changed.startswith("default-src 'none'") or "default-src 'none'" in changed
    assert "script-src" not in changed
    assert "script-src 'self'" in _policy_of(_through_middleware(_plain))


def test_asking_for_a_nonce_after_the_header_is_written_still_fails():
    from csp.exceptions import CSPNonceError

    request = RequestFactory().get("/")
    ContentSecurityPolicyMiddleware(_plain)(request)
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)


# ------------------------------------------------------------------ messages storage made on first use


def _with_session(request):
    from django.contrib.sessions.middleware import SessionMiddleware

    SessionMiddleware(lambda r: HttpResponse()).process_request(request)
    return request


def test_a_request_that_uses_no_message_makes_no_storage_and_stores_nothing():
    from django.utils.functional import empty

    from config.middleware import MessageMiddleware

    request = _with_session(RequestFactory().get("/"))
    response = MessageMiddleware(_plain)(request)
    assert request._messages._wrapped is empty
    assert "messages" not in response.cookies


def test_a_message_added_is_stored_and_shown_on_the_next_request():
    from django.contrib import messages

    from config.middleware import MessageMiddleware

    def add(request):
        messages.success(request, "The sheet is saved.")
        return HttpResponse("ok")

    def show(request):
        return HttpResponse(" | ".join(str(m) for m in messages.get_messages(request)))

    first = _with_session(RequestFactory().get("/"))
    stored = MessageMiddleware(add)(first)
    assert "messages" in stored.cookies  # the cookie storage, FallbackStorage's first
    second = _with_session(
        RequestFactory().get("/", HTTP_COOKIE=f"messages={stored.cookies['messages'].value}")
    )
    shown = MessageMiddleware(show)(second)
    assert shown.content.decode() == "The sheet is saved."
    assert shown.cookies["messages"].value == ""  # read once: the cookie is cleared
