"""Paragon's small things at the table (issue #12, moved from tests/characters/sheet/test_table_bugs.py): the Lower Health by 1 stepper lowers health,
the corruption stepper sets corruption."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.characters.sheet.test_table_bugs import HX

pytestmark = pytest.mark.django_db


def test_paragon_s_lower_health_by_1_stepper_lowers_health(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    pool = re.search(r'<li class="state-pool[^"]*" id="pool-pools-health".*?</li>', page, re.S).group(0)
    assert 'aria-label="Lower Health by 1"' in pool
    lower = re.search(
        r'name="action" value="(step)"><input type="hidden" name="path" value="(/pools/health)">\s*'
        r'<input type="hidden" name="delta" value="(-1)">',
        pool,
    )
    health = character.state["pools"]["health"]
    response = client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": lower.group(1), "path": lower.group(2), "delta": lower.group(3)},
        **HX,
    )
    html = response.content.decode()
    assert "Name the pool" not in html
    character.refresh_from_db()
    assert character.state["pools"]["health"] == health - 1
    assert f"health {health} → {health - 1}" in html


def test_paragon_s_corruption_stepper_sets_corruption(client, table):
    character = character_at_table(table, "paragon")
    client.force_login(table["player"])
    client.post(
        reverse("character_state_action", args=[character.pk]),
        {"action": "set", "path": "/corruption", "value": "1"},
        **HX,
    )
    character.refresh_from_db()
    assert character.state["corruption"] == 1
