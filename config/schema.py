"""The OpenAPI schema says every answer the API can give (drf-spectacular hooks and field types).

Each view documents its own refusals (403, 409, 422 …). What every operation can answer whatever
the view — the door's answers — is added here once, in the one error shape of config/api.py:

- 400 for a body that is not JSON, too deep, or holds text that cannot be stored (SafeJSONParser);
- 413 for a body over MAX_REQUEST_BODY, 415 for one that is not ``application/json``;
- 401 for a missing or bad token on an operation that needs one (and 403 for a signed-in session
  without its CSRF token);
- 404 for an operation with path parameters (no such object, or not yours);
- 405 for a method the path does not take.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

ERROR_REF = {"$ref": "#/components/schemas/Error"}
ERROR_SCHEMA = {
    "type": "object",
    "description": 'Every error answer: {"detail": ..., "errors": [...]} (config.api).',
    "properties": {
        "detail": {"type": "string", "description": "One sentence for people."},
        "errors": {
            "type": "array",
            "description": "What and where: {field?, path?, code?, message} each.",
            "items": {"type": "object", "additionalProperties": True},
        },
    },
    "required": ["detail", "errors"],
}

_BODY = {
    "400": "The body is not JSON, is nested too deeply, or holds text that cannot be stored "
    "(NUL, unpaired surrogates); or the input is invalid: `errors` says what and why.",
    "413": "The body is over the size limit (256 KiB).",
    "415": "The body is not `application/json`.",
}
_AUTH = {
    "401": "Not signed in, or the token is not valid.",
    "403": "Signed in, but not allowed (or a session without its CSRF token).",
}
_PATH = {"404": "No such object, or it is not yours to see."}
_ANY = {"405": "This path does not take this method."}


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


#: Operations that read their body themselves (a schema, not a serializer): an empty one is a 400.
BODY_REQUIRED = {"rulesets_validate", "rulesets_odds"}


#: Request bodies whose view refuses any key it does not know (400), unlike DRF's default of ignoring
#: it, with the keys it requires even on a PATCH (spectacular makes every field of a PATCH optional).
CLOSED_BODIES = {"PatchedCharacterStateRequest": ["version", "state"]}


def error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the door's error answers to every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components["Error"] = ERROR_SCHEMA
    for name, required in CLOSED_BODIES.items():
        if name in components:
            components[name]["additionalProperties"] = False
            components[name]["required"] = required
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            body = operation.get("requestBody")
            if body is not None:
                refs = {
                    c.get("schema", {}).get("$ref", "").rpartition("/")[2]
                    for c in body.get("content", {}).values()
                }
                if operation.get("operationId") in BODY_REQUIRED or refs & set(CLOSED_BODIES):
                    body["required"] = True
            extra: dict[str, str] = dict(_ANY)
            if "requestBody" in operation or method in ("post", "put", "patch"):
                extra.update(_BODY)
            # Operations that need a token list a security requirement without the anonymous "{}".
            security = operation.get("security", [])
            if security and {} not in security:
                extra.update(_AUTH)
            if "{" in path:
                extra.update(_PATH)
            for code, description in extra.items():
                responses.setdefault(code, _error(description))
            operation["responses"] = dict(sorted(responses.items()))
    return result


# ------------------------------------------------------------------ JSON fields, typed

#: Any JSON value but null (OpenAPI 3.0 has no "not null" for an untyped schema).
ANY_BUT_NULL = {
    "anyOf": [
        {"type": "object", "additionalProperties": True},
        {"type": "array", "items": {}},
        {"type": "string"},
        {"type": "number"},
        {"type": "boolean"},
    ]
}


@extend_schema_field(ANY_BUT_NULL)
class AnyJSONField(serializers.JSONField):
    """A JSON value of any type but null: a build or a play state, which the rules report on
    whatever its shape (``build.malformed`` at the bad path), but which may not be missing."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class JSONObjectField(serializers.JSONField):
    """A JSON object (a build, settings, a state): documented as one. The serializer's
    ``validate_<field>`` or the service refuses anything else with a 400 in its own words."""


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "minLength": 1, "maxLength": 80},
            {"type": "object", "additionalProperties": True, "required": ["action"]},
        ]
    }
)
class ActionField(serializers.JSONField):
    """A combat action: its id ("move"), or an object {"action": id, ...params}."""


class StrictCharField(serializers.CharField):
    """A CharField that takes a JSON string only: DRF's own turns 0 or true into "0" or "True".

    One that may not be blank says so in the schema too (``pattern: \\S``): DRF trims the text
    first, so "\\r" is as blank as "" — which ``minLength: 1`` alone does not tell a client."""

    default_error_messages = {"not_string": "Must be a string."}

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        if not self.allow_blank and self.trim_whitespace:
            self.validators.append(RegexValidator(r"\S", message="This field may not be blank."))

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_string")
        return super().to_internal_value(data)


class ErrorSerializer(serializers.Serializer):
    """Every error answer: {"detail": ..., "errors": [...]} (config.api)."""

    detail = serializers.CharField()
    errors = serializers.ListField(child=serializers.DictField())  # type: ignore[assignment]  # the API field "errors" (CONTRACT.md) shadows Serializer.errors
