"""The session's user comes with the navigation's review badge in the same query
(characters/accounts/backends.py): a GM's page shows the pending requests of the campaigns they run,
counted when the page is asked for, with no query of its own; a session signed in through Django's
ModelBackend still works and still shows it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import Advancement
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db

BADGE = 'data-testid="review-badge" aria-label="{n} pending request{s}"'


def _pending(character, player, n: int) -> None:
    for _ in range(n):
        Advancement.objects.create(
            character=character, requested_by=player, base_version=1, build={}, status="pending"
        )


def _badge_queries(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if "characters_advancement" in q["sql"] and "auth_user" not in q["sql"]
    ]


def test_a_gm_s_page_shows_the_pending_requests_with_the_user_s_own_query(client, table):
    character = character_at_table(table, SLUGS[0])
    _pending(character, table["player"], 2)
    client.force_login(table["gm"])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("home")).content.decode()
    assert BADGE.format(n=2, s="s") in page
    assert _badge_queries(queries) == []
    user_queries = [q["sql"] for q in queries.captured_queries if 'FROM "auth_user"' in q["sql"]]
    assert len(user_queries) == 1 and "characters_advancement" in user_queries[0]
    # Counted when the page is asked for: a third request shows on the next page.
    _pending(character, table["player"], 1)
    assert BADGE.format(n=3, s="s") in client.get(reverse("home")).content.decode()
    # A player who runs no campaign has no Review link.
    client.force_login(table["player"])
    assert 'id="nav-review"' not in client.get(reverse("home")).content.decode()


def test_a_session_signed_in_through_django_s_model_backend_still_works_and_shows_the_badge(client, table):
    character = character_at_table(table, SLUGS[0])
    _pending(character, table["player"], 1)
    client.force_login(table["gm"], backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("home"))
    assert page.status_code == 200
    assert BADGE.format(n=1, s="") in page.content.decode()


def test_an_inactive_user_s_session_is_signed_out(client, table):
    client.force_login(table["gm"])
    table["gm"].is_active = False
    table["gm"].save(update_fields=["is_active"])
    response = client.get(reverse("account"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
