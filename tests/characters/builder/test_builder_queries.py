"""Query budgets: an htmx validation update ≤ 6 queries; the builder page ≤ 12 whatever its size."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create
from rulesets.engine import registry
from tests.characters.conftest import BuilderSession, make_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_an_htmx_update_costs_at_most_six_queries(client, django_assert_max_num_queries, slug):
    table = make_table(slug)
    c = character_create(campaign=table.campaign, owner=table.player, name="Q")
    client.force_login(table.player)
    s = BuilderSession(client, reverse("character_builder", args=[c.id]))
    with django_assert_max_num_queries(6):
        s.change(("_check", "1"))
