"""Ascendant's house rules on the campaign's settings page (moved from
tests/characters/campaigns/test_house_rules_form.py): yes/no, choice and list fields store their JSON
types, and the rest of a nested default is kept."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.campaigns.test_house_rules_form import _base_post
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_yes_no_choice_and_list_fields_store_their_json_types(client):
    campaign = make_campaign(ruleset="ascendant")
    ruleset = registry.get("ascendant")
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    response = client.post(
        url,
        {
            **_base_post(campaign, ruleset),
            "hr:/trade_down": "no",
            "hr:/class_proficiency_levels": "1, 5, 9",
            "hr:/trade_downs_max": "2",
            "hr:/rank_bonus/master": "7",
        },
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.house_rules == {
        "trade_down": False,
        "class_proficiency_levels": [1, 5, 9],
        "trade_downs_max": 2,
        "rank_bonus": {"master": 7},
    }
    assert ruleset.context(campaign.house_rules).settings["rank_bonus"]["trained"] == 2  # the rest kept
    bad = client.post(url, {**_base_post(campaign, ruleset), "hr:/class_proficiency_levels": "1, five"})
    assert bad.status_code == 400
    assert "Write whole numbers separated by commas" in bad.content.decode()
    campaign.refresh_from_db()
    assert campaign.house_rules["class_proficiency_levels"] == [1, 5, 9]
