"""Test data builders shared by every test module: plain functions, no factory library."""

from __future__ import annotations

import itertools

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from rulesets.engine import registry

User = get_user_model()
PASSWORD = "a-long-table-password-42"
_seq = itertools.count(1)


def database_url_for_servers() -> str:
    """The URL of the test database this process uses (pytest-django's ``test_...``), for a server
    process a test starts on it: the rows the test commits are the ones the server reads."""
    from django.db import connection

    db = connection.settings_dict
    assert db["NAME"].startswith("test_"), db["NAME"]
    auth = (db["USER"] or "postgres") + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def make_user(username: str | None = None, *, password: str = PASSWORD):
    username = username or f"user{next(_seq)}"
    return User.objects.create_user(username=username, password=password)


def make_campaign(
    *, gm=None, name: str = "The Long Road", ruleset: str | None = None, settings=None, players=()
):
    """A campaign through the real service (GM membership, validated settings), with ``players`` joined."""
    from characters.campaigns.services import campaign_create, campaign_join

    gm = gm or make_user()
    campaign = campaign_create(gm=gm, name=name, ruleset=ruleset or registry.SYSTEMS[0], settings=settings)
    for player in players:
        campaign_join(user=player, join_code=campaign.join_code)
    return campaign


def api_client(user=None, *, token: bool = False) -> APIClient:
    """An API client signed in as ``user`` (session, or ``Authorization: Token`` when token=True)."""
    client = APIClient()
    if user is not None:
        if token:
            from characters.accounts.services import account_token_create

            _, key = account_token_create(user=user, name="tests")
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        else:
            client.force_login(user)
    return client
