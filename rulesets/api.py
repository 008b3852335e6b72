"""The rules service's HTTP door (CONTRACT.md "Doors"): list, describe, validate, odds.

Validation and odds are pure (no user data), so these endpoints are open to anonymous callers;
the body size limit (config.middleware) is their guard. Without authentication classes there is
no session, hence no CSRF check: an anonymous script can POST a build.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import body_problem, error_response
from rulesets.engine import OddsError, registry
from rulesets.engine import odds as engine_odds
from rulesets.engine import validate as engine_validate

from .serializers import (
    BUILD_EXAMPLES,
    BUILD_SCHEMA,
    ODDS_ANSWER_SCHEMA,
    ODDS_EXAMPLES,
    ODDS_REQUEST_SCHEMA,
    ApiErrorSerializer,
    ReportSerializer,
    RulesetDetailSerializer,
    RulesetSummarySerializer,
)

logger = logging.getLogger(__name__)

SLUG_PARAMETER = OpenApiParameter(
    "slug", str, OpenApiParameter.PATH, enum=list(registry.SYSTEMS), description="A ruleset slug."
)
NOT_FOUND = OpenApiResponse(ApiErrorSerializer, description="No ruleset has this slug.")
BAD_BODY = OpenApiResponse(ApiErrorSerializer, description="The body is not a JSON document.")
TOO_BIG = OpenApiResponse(ApiErrorSerializer, description="The body is over 256 KiB.")


class _BadBody(Exception):
    def __init__(self, response: Response):
        self.response = response


def _reject_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _json_body(request: Request) -> Any:
    """The request body as JSON, whatever its Content-Type (so `curl -d @build.json` works).

    We read the bytes ourselves rather than through DRF's parsers: a form-encoded content type
    would otherwise be a 415, and the contract promises a report for any JSON document.
    """
    try:
        raw = request._request.body
    except RequestDataTooBig:
        raw = None
    if raw is None or len(raw) > settings.MAX_REQUEST_BODY:
        raise _BadBody(
            error_response(
                f"The body is over the limit of {settings.MAX_REQUEST_BODY} bytes.",
                status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            )
        )
    if not raw.strip():
        raise _BadBody(error_response("The body is empty: send a JSON document.", status_code=400))
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        detail = (
            f"The body is not a JSON document: {exc}."
            if isinstance(exc, ValueError)
            else ("The body is nested too deeply to read.")
        )
        raise _BadBody(error_response(detail, status_code=400)) from None
    # Text that cannot be written back out as UTF-8 (a lone surrogate) or absurd nesting is refused
    # here, the same way the resource API refuses it, rather than failing while rendering the report.
    problem = body_problem(data, raw)
    if problem is not None:
        raise _BadBody(error_response(str(problem.detail), status_code=400, errors=problem.errors))
    return data


def _ruleset_or_404(slug: str):
    ruleset = registry.get(slug)
    if ruleset is None:
        raise NotFound(f"No ruleset {slug!r}; the rulesets are {', '.join(registry.SYSTEMS)}.")
    return ruleset


class _OpenView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [JSONParser]  # for the schema; the body is read by _json_body


class RulesetListView(_OpenView):
    @extend_schema(
        operation_id="rulesets_list",
        summary="The rulesets",
        responses={200: RulesetSummarySerializer(many=True)},
        tags=["rules service"],
    )
    def get(self, request: Request) -> Response:
        return Response(
            [
                {"slug": rs.slug, "name": rs.name, "seed": rs.seed, "currencies": list(rs.currencies)}
                for rs in registry.all_rulesets()
            ]
        )


class RulesetDetailView(_OpenView):
    @extend_schema(
        operation_id="rulesets_retrieve",
        summary="A ruleset: its traits, currencies, content catalogue and house defaults",
        parameters=[SLUG_PARAMETER],
        responses={200: RulesetDetailSerializer, 404: NOT_FOUND},
        tags=["rules service"],
    )
    def get(self, request: Request, slug: str) -> Response:
        return Response(_ruleset_or_404(slug).describe())


#: What validate takes: a build document is an object, but any JSON value gets a report
#: (``build.malformed``), 200 like any other; only a missing body or one that is not JSON is a 400.
ANY_DOCUMENT_SCHEMA = {
    "description": str(BUILD_SCHEMA["description"]) + " Any other JSON value (an array, null…) is answered "
    "with a report too: `build.malformed`.",
    "nullable": True,
}


class ValidateView(_OpenView):
    @extend_schema(
        operation_id="rulesets_validate",
        summary="Validate a build document",
        description="The body is the build document. The answer is the report, 200 even when the build "
        "is invalid. A document for another ruleset than the URL's is `ruleset.unknown`; a document "
        'without "ruleset" is validated as the URL\'s ruleset.',
        parameters=[SLUG_PARAMETER],
        request={"application/json": ANY_DOCUMENT_SCHEMA},
        examples=BUILD_EXAMPLES,
        responses={200: ReportSerializer, 400: BAD_BODY, 404: NOT_FOUND, 413: TOO_BIG},
        tags=["rules service"],
    )
    def post(self, request: Request, slug: str) -> Response:
        _ruleset_or_404(slug)
        try:
            doc = _json_body(request)
        except _BadBody as bad:
            return bad.response
        return Response(engine_validate(doc, slug=slug).as_dict())


class OddsView(_OpenView):
    @extend_schema(
        operation_id="rulesets_odds",
        summary="The exact odds of the ruleset's core roll",
        parameters=[SLUG_PARAMETER],
        request={"application/json": ODDS_REQUEST_SCHEMA},
        examples=ODDS_EXAMPLES,
        responses={
            200: OpenApiResponse(ODDS_ANSWER_SCHEMA, description='The odds answer (CONTRACT.md "Odds").'),
            400: OpenApiResponse(
                ApiErrorSerializer, description="Not JSON, or a request the ruleset cannot answer."
            ),
            404: NOT_FOUND,
            413: TOO_BIG,
        },
        tags=["rules service"],
    )
    def post(self, request: Request, slug: str) -> Response:
        _ruleset_or_404(slug)
        try:
            body = _json_body(request)
        except _BadBody as bad:
            return bad.response
        try:
            return Response(engine_odds(slug, body))
        except OddsError as exc:
            return error_response(
                f"This odds request cannot be answered: {exc}",
                status_code=400,
                errors=[{"field": None, "message": str(exc)}],
            )
        except Exception:  # a ruleset bug must not become a 500; the log keeps it
            logger.exception("odds of %s raised on %r", slug, body)
            return error_response("This odds request cannot be answered.", status_code=400)
