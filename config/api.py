"""Shared API plumbing: every error is {"detail": ..., "errors": [...]}, never a 500 page."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.views.decorators.csrf import csrf_exempt
from rest_framework import serializers
from rest_framework.decorators import api_view as drf_api_view
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.errors import ApplicationError, Conflict, RuleRefused
from config.outage import MESSAGE, RETRY_AFTER_S, SAFE_METHODS, is_outage, log_outage
from config.text import UNSTORABLE_KEY_MESSAGE, UNSTORABLE_MESSAGE, is_storable
from rulesets.engine.words import a

__all__ = [
    "Conflict",
    "RuleRefused",
    "api_view",
    "error_response",
    "exception_handler",
    "service_errors",
    "validated",
]

#: How deep a request body may nest. Build documents, play state and actions are a few levels
#: deep; far deeper bodies would hit Python's recursion limit somewhere in the services (a 500).
MAX_BODY_DEPTH = 64
#: Ids in query strings: digits only, within a bigint.
_ID = re.compile(r"[0-9]{1,19}")
MAX_ID = 2**63 - 1


class BadBody(ParseError):
    """A JSON body the API will not take (400), with where and why in ``errors``."""

    def __init__(self, detail: str, *, path: str | None = None):
        super().__init__(detail)
        field = path.split("/")[1].replace("~1", "/").replace("~0", "~") if path and path.count("/") else None
        self.errors = [{"field": field, "path": path, "message": detail}] if path is not None else []


def _pointer_token(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _plain_json_text(raw: bytes) -> bool:
    """True when no string that ``json.loads(raw)`` gives can hold NUL or a surrogate: the body is
    UTF-8 (UTF-16 and UTF-32 JSON always has zero bytes), has no ``\\u`` escape (the only way
    to write NUL, as raw control characters are refused, or a lone surrogate in JSON) and no byte
    0xED (the lead byte of U+D000–U+DFFF in UTF-8; json decodes with "surrogatepass")."""
    return b"\x00" not in raw and b"\\u" not in raw and b"\xed" not in raw


def _within_depth(data: Any) -> bool:
    """True when no dict or list in ``data`` is MAX_BODY_DEPTH or more levels down."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth >= MAX_BODY_DEPTH:
            return False
        items = value.values() if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))
    return True


def body_problem(data: Any, raw: bytes | None = None) -> BadBody | None:
    """Why a parsed JSON body is refused: nested deeper than MAX_BODY_DEPTH, or a key or string
    holding NUL or an unpaired surrogate (the JSON Pointer says where; the bad text is not echoed).

    With ``raw``, the bytes ``data`` was parsed from, a body without any way to spell such text
    (``_plain_json_text``) only has its depth checked, without building every value's pointer;
    the pointer is looked for only when something is wrong. The answer is the same either way."""
    if raw is not None and _plain_json_text(raw):
        if not isinstance(data, (dict, list)):
            return None
        # A body with at most MAX_BODY_DEPTH brackets cannot nest that deep.
        if raw.count(b"[") + raw.count(b"{") <= MAX_BODY_DEPTH or _within_depth(data):
            return None
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            if not is_storable(value):
                return BadBody(UNSTORABLE_MESSAGE, path=path)
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth >= MAX_BODY_DEPTH:
            return BadBody(f"The body is nested more than {MAX_BODY_DEPTH} levels deep.", path=path)
        if isinstance(value, dict):
            for key, item in value.items():
                if not is_storable(key):
                    return BadBody(UNSTORABLE_KEY_MESSAGE, path=path)
                stack.append((item, f"{path}/{_pointer_token(key)}", depth + 1))
        else:
            stack.extend((item, f"{path}/{i}", depth + 1) for i, item in enumerate(value))
    return None


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, refusing with 400 what would be a 500 further in: a body nested too deeply
    (for Python's json or for the services), or text Postgres cannot store."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise BadBody("The body is nested too deeply to read.") from None
        problem = body_problem(data)
        if problem is not None:
            raise problem
        return data


def api_view(http_method_names):
    """``rest_framework.decorators.api_view`` with the SafeJSONParser: the resource API's views."""

    def decorator(func):
        func.parser_classes = [SafeJSONParser]
        return drf_api_view(http_method_names)(func)

    return decorator


def validated(serializer_class, request) -> Any:
    """The request body as ``serializer_class`` validates it; invalid input raises
    ``ValidationError``, a 400 whose ``errors`` say what and why."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _flatten(data, prefix=""):
    """DRF validation errors → a flat list of {field, message}."""
    out = []
    if isinstance(data, dict):
        for key, value in data.items():
            out.extend(_flatten(value, f"{prefix}{key}." if key != "non_field_errors" else prefix))
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, (dict, list)):
                out.extend(_flatten(item, prefix))
            else:
                out.append({"field": prefix.rstrip(".") or None, "message": str(item)})
    else:
        out.append({"field": prefix.rstrip(".") or None, "message": str(data)})
    return out


def exception_handler(exc, context):
    """Every API error as {"detail", "errors"}: the services' own errors by their status (the one
    place they become HTTP in the API), DRF's and Django's as DRF answers them."""
    if isinstance(exc, ApplicationError):
        return Response({"detail": exc.message, "errors": exc.errors}, status=exc.status_code)
    if is_outage(exc):
        request = context.get("request")
        if (
            request is not None
            and request.method in SAFE_METHODS
            and not getattr(request, "outage_retried", False)
        ):
            return None  # raised on: config.outage.OutageMiddleware tries a read once more
        log_outage(request.path if request is not None else "api", exc)
        return Response(
            {"detail": MESSAGE, "errors": []}, status=503, headers={"Retry-After": str(RETRY_AFTER_S)}
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    errors = getattr(exc, "errors", None)
    if isinstance(data, dict) and "detail" in data and len(data) == 1:
        detail = str(data["detail"])
        errors = errors if errors is not None else []
    else:
        errors = errors if errors is not None else _flatten(data)
        detail = (
            "; ".join(f"{e['field']}: {e['message']}" if e.get("field") else e["message"] for e in errors)
            or "Invalid request."
        )
    response.data = {"detail": detail, "errors": errors}
    return response


def query_id(request, name: str) -> int | None:
    """The id in query parameter ``name`` (``?campaign=3``): None when absent; anything but a
    whole number from 1 to 2**63 − 1 (blank, "٣", "1_0", " 3", 40 digits) is a 400 naming it."""
    from rest_framework import serializers

    raw = request.query_params.get(name)
    if raw is None:
        return None
    if _ID.fullmatch(raw) and 1 <= int(raw) <= MAX_ID:
        return int(raw)
    raise serializers.ValidationError(
        {name: [f"{a(name).capitalize()} id is a whole number from 1 to {MAX_ID}."]}
    )


def error_response(detail: str, *, status_code: int, errors=None) -> Response:
    return Response({"detail": detail, "errors": errors or []}, status=status_code)


@csrf_exempt
def api_not_found(request, *args, **kwargs):
    """Unknown paths under /api/ answer in the API's own shape, not with an HTML page: every method,
    signed in or not, and no CSRF check (there is nothing here to protect, and a browser's
    session cookie must not turn a 404 into Django's HTML CSRF page)."""
    from django.http import JsonResponse

    return JsonResponse(
        {"detail": f"No API endpoint at {request.path}; see /api/docs/.", "errors": []}, status=404
    )


@contextmanager
def service_errors():
    """A service's Django ValidationError becomes the API's 400 with the same reasons."""
    try:
        yield
    except DjangoValidationError as exc:
        raise serializers.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        ) from exc
