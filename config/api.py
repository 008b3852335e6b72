"""Shared API plumbing: every error is {"detail": ..., "errors": [...]}, never a 500 page."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The object changed since you read it."
    default_code = "conflict"


class RuleRefused(APIException):
    """A rules refusal (422) carrying the rule's code and message."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "The rules refuse this."
    default_code = "rule_refused"

    def __init__(self, detail=None, *, errors=None, code=None):
        super().__init__(detail=detail, code=code)
        self.errors = errors or []


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
        detail = "; ".join(
            f"{e['field']}: {e['message']}" if e.get("field") else e["message"] for e in errors
        ) or "Invalid request."
    response.data = {"detail": detail, "errors": errors}
    return response


def error_response(detail: str, *, status_code: int, errors=None) -> Response:
    return Response({"detail": detail, "errors": errors or []}, status=status_code)
