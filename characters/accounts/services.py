"""API tokens of an account: issue, revoke one, revoke all (characters/accounts/auth.py says why knox)."""

from __future__ import annotations

from django.db import transaction

from characters.models import ApiToken

DEFAULT_TOKEN_NAME = "API token"


def _clean_name(name: str | None) -> str:
    name = " ".join((name or "").split())[: ApiToken._meta.get_field("name").max_length]
    return name or DEFAULT_TOKEN_NAME


def account_token_create(*, user, name: str | None = None) -> tuple[ApiToken, str]:
    """A new token for one device or client: (the stored token, its key). The key is shown
    once: only its digest is kept. Its expiry is ``API_TOKEN_TTL_DAYS`` from now (none if unset)."""
    with transaction.atomic():
        return ApiToken.objects.create(user=user, name=_clean_name(name))


def account_token_revoke(*, user, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False when they have no such token."""
    with transaction.atomic():
        deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def account_tokens_revoke_all(*, user) -> int:
    """Delete every token of ``user`` (a password change does); how many there were."""
    with transaction.atomic():
        deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted
