"""Ascendant's homebrew feats through the editor: a prerequisite is a row of real controls (a feat;
an attribute and its least modifier; a skill and its rank), checked at the field and said in words."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.engine import registry
from tests.characters.conftest import form_fields, make_table, parse_html

pytestmark = pytest.mark.django_db


def _fields(client, url) -> dict[str, list[str]]:
    page = client.get(url)
    form = next(f for f in parse_html(page.content).find_all("form") if f.attrs.get("hx-post"))
    data: dict[str, list[str]] = {}
    for name, value in form_fields(form):
        data.setdefault(name, []).append(value)
    return data


def _index(select_id, words, page) -> str:
    options = parse_html(page.content).by_id(select_id).find_all("option")
    return next(o.attrs["value"] for o in options if o.text == words)


def test_a_feat_with_prerequisites_is_added_through_rows_of_controls(client):
    table = make_table("ascendant")
    client.force_login(table.gm)
    url = reverse("homebrew_new", args=[table.campaign.id, "feats"])
    page = client.get(url)
    data = _fields(client, url)
    data["name"] = ["Iron Grip"]
    data["prerequisites.0.feat"] = [_index("hb-f-prerequisites-0-feat", "Toughness", page)]
    # Half a row (an attribute without its least modifier): refused at the field, in words.
    data["prerequisites.0.attribute"] = [_index("hb-f-prerequisites-0-attribute", "Strength", page)]
    refused = client.post(url, data)
    assert refused.status_code == 422
    assert parse_html(refused.content).by_id("hb-f-prerequisites-err").text.strip() == (
        "Prerequisites, 1: Each prerequisite is a feat; or an attribute and its least modifier; "
        "or a skill and its rank."
    )
    data["prerequisites.0.attribute"] = [""]
    assert client.post(url, data).status_code == 302
    table.campaign.refresh_from_db()
    [feat] = table.campaign.homebrew["feats"]
    assert feat["prerequisites"] == [{"feat": "toughness"}]
    # Edit: a second row (the blank one) with an attribute and its least modifier.
    edit = reverse("homebrew_edit", args=[table.campaign.id, "feats", "iron_grip"])
    page = client.get(edit)
    data = _fields(client, edit)
    data["prerequisites.1.attribute"] = [_index("hb-f-prerequisites-1-attribute", "Strength", page)]
    data["prerequisites.1.min"] = ["2"]
    assert client.post(edit, data).status_code == 302
    table.campaign.refresh_from_db()
    assert table.campaign.homebrew["feats"][0]["prerequisites"] == [
        {"feat": "toughness"},
        {"attribute": "str", "min": 2},
    ]
    overview = parse_html(client.get(reverse("campaign_homebrew", args=[table.campaign.id])).content)
    assert "Toughness; Strength 2" in overview.find_all("main")[0].text
    assert registry.get("ascendant").context(None, table.campaign.homebrew).issues == []
