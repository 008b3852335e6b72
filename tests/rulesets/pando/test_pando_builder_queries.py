"""The builder page of a big Pando draft (30 items, 14 versions) stays within its query budget (moved
from tests/characters/builder/test_builder_queries.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.builder.services import character_create, character_save_draft
from tests.characters.conftest import make_table

pytestmark = pytest.mark.django_db


def test_the_builder_page_is_bounded_whatever_its_size(client, django_assert_max_num_queries):
    table = make_table("pando")
    c = character_create(campaign=table.campaign, owner=table.player, name="Big")
    items = [{"item": "dagger", "state": "carried"}] * 30
    skills = ["melee", "blades", "shields", "athletics", "dodge", "ranged", "bows", "lore", "history"]
    for version in range(1, 15):
        c = character_save_draft(
            character_id=c.id,
            user=table.player,
            version=version,
            build={**c.build, "skills": skills, "equipment": items},
        )
    client.force_login(table.player)
    with django_assert_max_num_queries(12):
        response = client.get(reverse("character_builder", args=[c.id]))
    assert response.status_code == 200
    assert response.content.count(b'name="/equipment/29/item"') == 1
    with django_assert_max_num_queries(12):
        assert client.get(reverse("character_history", args=[c.id])).status_code == 200
