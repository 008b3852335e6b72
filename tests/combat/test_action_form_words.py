"""The encounter page's action forms in every ruleset: each choice has words to read, and each
odds chart shows every outcome (the bars add up to the whole), as the sheet's chart does."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from combat import services
from rulesets.engine import registry
from tests.characters.sheet.test_sheet_fixtures import character_at_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_every_action_choice_has_a_label_and_every_odds_chart_adds_up(client, table, slug):
    character = character_at_table(table, slug)
    encounter = services.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    services.encounter_add_combatant(encounter=encounter, user=table["gm"], character=character)
    services.encounter_start(encounter=encounter, user=table["gm"])
    client.force_login(table["player"])
    html = client.get(reverse("encounter_detail", args=[encounter.pk])).content.decode()
    forms = re.findall(r'<form[^>]*class="action[^"]*".*?</form>', html, re.S)
    assert forms, "the player has actions"
    for form in forms:
        for select in re.findall(r"<select.*?</select>", form, re.S):
            options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select)
            # Every option has words; one option at most without a value (the "—" of none).
            assert [t for _, t in options if not t.strip()] == [], select
            assert len([v for v, _ in options if not v]) <= 1, select
        for chart in re.findall(r'class="odds" role="img" aria-label="Odds: ([^"]*)"', form):
            total = sum(int(p) for p in re.findall(r"(\d+)%", chart))
            assert 97 <= total <= 103, chart  # each bar rounded to a whole percent
