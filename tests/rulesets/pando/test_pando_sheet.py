"""Pando's sheet: speed, stamina, Momentum and protection; many skills and items within the query budget
(moved from tests/characters/sheet/test_sheet.py, which keeps the product's sheet on every ruleset)."""

from __future__ import annotations

import re

import pytest

from tests.characters.sheet.test_sheet import sheet, stat
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


def test_pando_sheet_shows_speed_stamina_momentum_and_protection(client, table):
    character = character_at_table(table, "pando")
    client.force_login(table["player"])
    html = sheet(client, character)
    assert stat(html, "max_speed") == "5"  # 3 + acrobatics 2
    assert stat(html, "max_stamina") == "11"  # 10 + endurance 1
    assert stat(html, "momentum") == "3"  # acrobatics 2 + presence 1
    # Protection per body part: the leather cap on the head, the shield on the left arm.
    row = re.search(r'<tr data-part="head">.*?</tr>', html, re.S).group(0)
    assert "Harm: 1" in row
    assert 'id="state-body"' in html and "body-diagram" in html
    # Build summary and costs.
    assert "Longsword" in html and "wielded" in html
    costs = re.search(r'<tr data-currency="cp">(.*?)</tr>', html, re.S).group(1)
    spent, budget, remaining = re.findall(r"<td[^>]*>(-?\d+)</td>", costs)
    assert (
        int(budget) == 40
        and int(spent) + int(remaining) == 40
        and int(spent) == character.report["spent"]["cp"]
    )


def test_sheet_query_count_does_not_grow_with_skills_and_items(client, table, django_assert_max_num_queries):
    build = {
        "ruleset": "pando",
        "name": "Many",
        "budget": {"cp": 400},
        "species": "humanoid",
        "attributes": {
            "strength": 3,
            "endurance": 2,
            "acrobatics": 2,
            "coordination": 3,
            "rationality": 2,
            "perspective": 1,
            "presence": 1,
        },
        "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
        "skills": [
            "melee",
            "blades",
            "shields",
            "athletics",
            "dodge",
            "climbing",
            "stealth",
            "lockpicking",
            "healing",
            "medicine",
            "lore",
            "history",
            "ranged",
            "bows",
            "fencing",
            "longswords",
        ],
        "equipment": [
            {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
            {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
            {"item": "leather_cap", "state": "worn"},
        ]
        + [{"item": "bandage", "state": "carried"}] * 20,
    }
    character = character_at_table(table, "pando", build=build)
    assert character.report["valid"], character.report["errors"]
    client.force_login(table["player"])
    with django_assert_max_num_queries(12):
        html = sheet(client, character)
    assert len(re.findall(r'id="equipment-\d+"', html)) == 23
