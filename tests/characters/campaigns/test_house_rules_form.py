"""House rules as a form: typed fields generated from each ruleset's house defaults (every ruleset)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from characters.campaigns.house_rules import house_fields
from characters.models import Campaign
from rulesets.engine import registry
from rulesets.engine.pointer import split
from tests import vehicles
from tests.factories import api_client, make_campaign, make_user
from tests.vehicles import SLUGS

pytestmark = pytest.mark.django_db


def _nested(pointer: str, value) -> dict:
    out: dict = {}
    doc = out
    tokens = split(pointer)
    for token in tokens[:-1]:
        doc = doc.setdefault(token, {})
    doc[tokens[-1]] = value
    return out


def _base_post(campaign: Campaign, ruleset) -> dict:
    data = {"name": campaign.name}
    for currency in ruleset.currencies:
        data[f"budget_{currency}"] = campaign.starting_budget.get(currency, 0)
    return data


def _number_field(ruleset):
    spec = next(f for f in house_fields(ruleset) if f.kind == "int" and f.default is not None)
    value = spec.default + 1
    if spec.maximum is not None and value > spec.maximum:
        value = spec.default - 1
    return spec, value


@pytest.mark.parametrize("slug", SLUGS)
def test_every_house_default_has_a_label_in_the_rulesets_content(slug):
    ruleset = registry.get(slug)
    labels = ruleset.house_labels()
    if not labels:  # optional content (engine/presentation.py): the form then words the keys itself
        assert all(spec.label for spec in house_fields(ruleset))
        pytest.skip(f"{ruleset.name} ships no house_labels.json")
    assert set(ruleset.house_defaults) <= set(labels)
    assert all(spec.label and "Rulebook:" in spec.help for spec in house_fields(ruleset))


@pytest.mark.parametrize("slug", SLUGS)
def test_house_rules_form_round_trip(slug, client, django_assert_max_num_queries):
    ruleset = registry.get(slug)
    campaign = make_campaign(ruleset=slug)
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    with django_assert_max_num_queries(8):
        page = client.get(url)
    text = page.content.decode()
    spec, value = _number_field(ruleset)
    assert html.escape(spec.label) in text
    assert f"Rulebook: {spec.default}." in text  # the default shown
    response = client.post(url, {**_base_post(campaign, ruleset), spec.name: str(value)})
    assert response.status_code == 302, response.content.decode()[:2000]
    campaign.refresh_from_db()
    assert campaign.house_rules == _nested(spec.pointer, value)
    # The page shows the override, and saving it unchanged keeps exactly the same house rules.
    again = client.get(url).content.decode()
    assert f'name="{spec.name}" value="{value}"' in again
    client.post(url, {**_base_post(campaign, ruleset), spec.name: str(value)})
    campaign.refresh_from_db()
    assert campaign.house_rules == _nested(spec.pointer, value)
    # The rules see it, and the API still reads and writes the JSON.
    ctx = ruleset.context(campaign.house_rules)
    found = ctx.settings
    for token in split(spec.pointer):
        found = found[token]
    assert found == value
    api = api_client(campaign.gm).get(f"/api/v1/campaigns/{campaign.pk}/").json()
    assert api["settings"]["house_rules"] == _nested(spec.pointer, value)
    # Blank again: as the rulebook.
    client.post(url, _base_post(campaign, ruleset))
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_nonsense_house_rule_is_a_field_error_and_changes_nothing(slug, client):
    ruleset = registry.get(slug)
    campaign = make_campaign(ruleset=slug, settings={"approve_new_characters": True})
    before = dict(campaign.settings)
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    spec, _ = _number_field(ruleset)
    response = client.post(url, {**_base_post(campaign, ruleset), "name": "Renamed", spec.name: "lots"})
    assert response.status_code == 400
    assert "Enter a whole number, such as 3." in response.content.decode()
    assert response.context["form"].errors[spec.name] == ["Enter a whole number, such as 3."]
    campaign.refresh_from_db()
    assert campaign.settings == before and campaign.name != "Renamed"


def _bounded(ruleset):
    return next((f for f in house_fields(ruleset) if f.kind == "int" and f.maximum is not None), None)


def test_a_bounded_house_rule_refuses_a_value_out_of_bounds(client):
    slug = vehicles.first(_bounded, "a ruleset with a house rule bounded above")
    campaign = make_campaign(ruleset=slug)
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    ruleset = registry.get(slug)
    spec = _bounded(ruleset)
    response = client.post(url, {**_base_post(campaign, ruleset), spec.name: str(spec.maximum + 1)})
    assert response.status_code == 400
    assert response.context["form"].errors[spec.name] == [
        f"Ensure this value is less than or equal to {spec.maximum}."
    ]


def test_approval_setting_on_the_settings_page(client):
    campaign = make_campaign(ruleset=SLUGS[0])
    ruleset = registry.get(SLUGS[0])
    client.force_login(campaign.gm)
    url = reverse("campaign_settings", args=[campaign.pk])
    client.post(url, {**_base_post(campaign, ruleset), "approve_new_characters": "on"})
    campaign.refresh_from_db()
    assert campaign.settings["approve_new_characters"] is True
    client.post(url, _base_post(campaign, ruleset))
    campaign.refresh_from_db()
    assert campaign.settings["approve_new_characters"] is False


def test_the_new_campaign_page_ticks_approval_by_default(client):
    client.force_login(make_user())
    page = client.get(reverse("campaign_create")).content.decode()
    tag = re.search(r'<input[^>]*name="approve_new_characters"[^>]*>', page).group(0)
    assert " checked" in tag
    client.post(
        reverse("campaign_create"), {"name": "Ticked", "ruleset": SLUGS[0], "approve_new_characters": "on"}
    )
    assert Campaign.objects.get(name="Ticked").settings["approve_new_characters"] is True


def test_a_player_cannot_open_the_house_rules_form(client):
    player = make_user()
    campaign = make_campaign(ruleset=SLUGS[0], players=[player])
    client.force_login(player)
    assert client.post(reverse("campaign_settings", args=[campaign.pk]), {"name": "X"}).status_code == 403
    client.force_login(make_user())
    assert client.get(reverse("campaign_settings", args=[campaign.pk])).status_code == 404
