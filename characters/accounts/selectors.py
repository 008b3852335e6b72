"""Reads of an account: its API tokens (name, created, last used, expires)."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from characters.models import ApiToken


def account_tokens(*, user) -> list[ApiToken]:
    """``user``'s live tokens, newest first (expired ones are not listed: they no longer work)."""
    now = timezone.now()
    return list(
        ApiToken.objects.filter(Q(expiry__isnull=True) | Q(expiry__gt=now), user=user).only(
            "id", "name", "created", "last_used", "expiry"
        )
    )
