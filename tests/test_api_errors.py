"""Errors under /api/ keep the API's shape, whatever went wrong."""

import json

import pytest

from tests.vehicles import SLUGS


@pytest.mark.django_db
def test_an_unknown_api_path_is_a_json_404(client):
    response = client.get("/api/v1/nope/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["errors"] == []
    assert "/api/v1/nope/" in body["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_a_lone_surrogate_in_a_build_sent_to_validate_is_a_400_not_a_500(client, slug):
    raw = '{"ruleset": ' + json.dumps(slug) + ', "name": "x", "\\ud800": 1}'
    response = client.post(f"/api/v1/rulesets/{slug}/validate/", raw, content_type="application/json")
    assert response.status_code == 400
    assert "surrogate" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_validate_still_reports_on_an_ordinary_broken_build(client, slug):
    response = client.post(
        f"/api/v1/rulesets/{slug}/validate/", json.dumps({"ruleset": slug}), content_type="application/json"
    )
    assert response.status_code == 200
    assert response.json()["valid"] is False
