"""API tokens: one per device or client, revocable, hashed at rest (django-rest-knox).

Why knox rather than DRF's ``authtoken`` or a model of our own: DRF's authtoken is one plain-text
key per user that never expires; knox is the well-kept library for the rest — a token per
client, only a SHA-512 digest stored (a leaked database yields no usable key), an optional
expiry (``REST_KNOX["TOKEN_TTL"]``, from ``API_TOKEN_TTL_DAYS``), expired tokens deleted when
met. Its documented extension point, a swappable token model (``KNOX_TOKEN_MODEL``), gives us
``characters.models.ApiToken`` with a name and a last-used time; this class adds those two and
refuses malformed headers with 401 (knox would answer a 500 to a non-UTF-8 or NUL-bearing key).

The header stays ``Authorization: Token <key>`` (CONTRACT.md). Keys of the old DRF authtoken are
no longer accepted (README "API tokens"): clients ask ``POST /api/v1/auth/token/`` for a new one.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication
from rest_framework import exceptions

#: knox's keys: AUTH_TOKEN_CHARACTER_LENGTH (64) hex digits, no prefix.
_KEY = re.compile(rb"[0-9a-f]{64}")
#: ``last_used`` is written at most this often per token (not a write per request).
LAST_USED_EVERY = timedelta(minutes=1)


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, token: bytes):
        if not _KEY.fullmatch(token):
            raise exceptions.AuthenticationFailed("Invalid token.")
        user, auth_token = super().authenticate_credentials(token)
        now = timezone.now()
        if auth_token.last_used is None or now - auth_token.last_used >= LAST_USED_EVERY:
            type(auth_token).objects.filter(pk=auth_token.pk).update(last_used=now)
            auth_token.last_used = now
        return user, auth_token


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """OpenAPI: the same ``tokenAuth`` scheme the schema named with DRF's TokenAuthentication."""

    target_class = "characters.accounts.auth.ApiTokenAuthentication"
    name = "tokenAuth"
    priority = 1

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>`: a key from `POST /api/v1/auth/token/`, revoked by "
            "`DELETE /api/v1/auth/token/` or a password change.",
        }
