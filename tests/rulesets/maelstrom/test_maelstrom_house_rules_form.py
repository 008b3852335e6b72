"""Maelstrom's house rules on the campaign pages (moved from tests/characters/campaigns/): the ruleset's
own check of its health chart lands on the field, on the settings page and the new-campaign page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from characters.models import Campaign
from rulesets.engine import registry
from tests.characters.campaigns.test_campaign_create_form import URL, gm  # noqa: F401
from tests.characters.campaigns.test_house_rules_form import _base_post
from tests.factories import make_campaign

pytestmark = pytest.mark.django_db


def test_the_rulesets_own_check_lands_on_the_field(client):
    campaign = make_campaign(ruleset="maelstrom")
    ruleset = registry.get("maelstrom")
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    response = client.post(url, {**_base_post(campaign, ruleset), "hr:/health_chart": '{"bruised": 0}'})
    assert response.status_code == 400
    errors = response.context["form"].errors["hr:/health_chart"]
    assert len(errors) == 1 and "The house rule “Health levels” must be" in errors[0]
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_the_rulesets_own_check_lands_on_its_field(gm):  # noqa: F811
    response = gm.post(
        URL,
        {
            "name": "Storm",
            "ruleset": "maelstrom",
            "_fields_for": "maelstrom",
            "hr:/health_chart": '{"bruised": 0}',
        },
    )
    assert response.status_code == 400
    errors = response.context["form"].errors["hr:/health_chart"]
    assert len(errors) == 1 and "The house rule “Health levels” must be" in errors[0]
    assert not Campaign.objects.exists()
