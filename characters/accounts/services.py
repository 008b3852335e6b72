"""Accounts: sign-up, and the API tokens of an account: issue, revoke one, revoke all
(characters/accounts/auth.py says why knox)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Field

from characters.models import ApiToken

if TYPE_CHECKING:
    from django.contrib.auth.models import User as AuthUser  # settings.AUTH_USER_MODEL (the default)

User = get_user_model()

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


def account_register(*, username: str, password: str) -> AuthUser:
    """Create a user after Django's username rules and password validators; ValidationError says why."""
    username = (username or "").strip()
    errors: dict[str, list[str]] = {}
    # The username is a concrete field; get_field may also name a reverse relation, stubs cannot tell.
    field = cast(Field, User._meta.get_field(User.USERNAME_FIELD))
    try:
        field.clean(username, None)
    except ValidationError as exc:
        errors["username"] = list(exc.messages)
    if "username" not in errors and User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["A user with that username already exists."]
    try:
        password_validation.validate_password(password, User(username=username))
    except ValidationError as exc:
        errors["password"] = list(exc.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        try:
            user = User.objects.create_user(username=username, password=password)
        except IntegrityError:  # a racing sign-up took the name between the check and the insert
            raise ValidationError({"username": ["A user with that username already exists."]}) from None
    return user
