"""The rules service's HTTP door: /api/v1/rulesets/… (CONTRACT.md "Doors")."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient

from rulesets.engine import registry
from tests import fuzz, vehicles

pytestmark = pytest.mark.django_db

SLUGS = list(registry.SYSTEMS)
#: The registry's first ruleset: the one the door's own checks (JSON, sizes, rights) talk to.
FIRST = SLUGS[0]
VALIDATE, ODDS = f"/api/v1/rulesets/{FIRST}/validate/", f"/api/v1/rulesets/{FIRST}/odds/"
#: Its example build (content/examples.json ``build``) and odds request.
BUILD = registry.get(FIRST).contract_data()["build"]
REQUEST = registry.get(FIRST).contract_data()["odds"]


def _valid(slug: str):
    """The ruleset's first valid example build (its folder's examples/, rulesets/engine/examples.py)."""
    return next(e for e in registry.get(slug).example_builds() if e.expect.get("valid"))


@pytest.fixture
def api() -> APIClient:
    # enforce_csrf_checks: an anonymous script has no CSRF token, and must still be able to POST.
    return APIClient(enforce_csrf_checks=True)


def post_json(api: APIClient, url: str, body, **extra):
    return api.post(url, data=json.dumps(body), content_type="application/json", **extra)


def test_the_list_names_every_ruleset(api):
    response = api.get("/api/v1/rulesets/")
    assert response.status_code == 200
    data = response.json()
    assert [r["slug"] for r in data] == list(registry.SYSTEMS)
    first = data[0]
    ruleset = registry.get(FIRST)
    assert first == {
        "slug": FIRST,
        "name": ruleset.name,
        "seed": first["seed"],
        "currencies": list(ruleset.currencies),
    }
    assert all(r["name"] and r["currencies"] for r in data)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_detail_describes_the_ruleset(api, slug):
    response = api.get(f"/api/v1/rulesets/{slug}/")
    assert response.status_code == 200
    data = response.json()
    assert data["slug"] == slug
    assert data["currencies"] == list(registry.get(slug).currencies)
    assert {"traits", "catalogue", "house_defaults"} <= set(data)
    assert set(data["catalogue"]) == set(registry.get(slug).catalogue)  # a catalogue is optional
    assert all(isinstance(entries, list) for entries in data["catalogue"].values())


@pytest.mark.parametrize("slug", SLUGS)
def test_a_valid_build_gets_its_report(api, slug):
    example = _valid(slug)
    response = post_json(api, f"/api/v1/rulesets/{slug}/validate/", example.build)
    assert response.status_code == 200
    report = response.json()
    expected = registry.get(slug).validate(example.build)
    assert report["valid"] is True and report["errors"] == []
    assert report["spent"] == example.expect.get("spent", dict(expected.spent))
    assert report["remaining"] == example.expect.get("remaining", dict(expected.remaining))
    assert report["ruleset"] == slug


@pytest.mark.parametrize("slug", SLUGS)
def test_an_invalid_build_is_still_a_200_with_its_errors(api, slug):
    broken = vehicles.broken(registry.get(slug))
    response = post_json(api, f"/api/v1/rulesets/{slug}/validate/", broken)
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    expected = [(i.code, i.path) for i in registry.get(slug).validate(broken).errors]
    assert expected and [(e["code"], e["path"]) for e in report["errors"]] == expected


@pytest.mark.parametrize("slug", SLUGS)
def test_a_document_without_ruleset_is_validated_as_the_urls_ruleset(api, slug):
    build = {k: v for k, v in _valid(slug).build.items() if k != "ruleset"}
    report = post_json(api, f"/api/v1/rulesets/{slug}/validate/", build).json()
    assert report["ruleset"] == slug and report["valid"] is True


@pytest.mark.parametrize("slug", SLUGS)
def test_the_odds_are_the_rules_own(api, slug):
    request = registry.get(slug).contract_data()["odds"]
    response = post_json(api, f"/api/v1/rulesets/{slug}/odds/", request)
    assert response.status_code == 200
    assert response.json() == json.loads(json.dumps(registry.get(slug).odds(request)))


@pytest.mark.parametrize("slug", SLUGS)
def test_a_build_sent_to_another_rulesets_url_is_ruleset_unknown(api, slug):
    response = post_json(api, f"/api/v1/rulesets/{vehicles.other_than(slug)}/validate/", _valid(slug).build)
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("ruleset.unknown", "/ruleset")]


@pytest.mark.parametrize("body", [[1, 2], "a string", 42, None])
def test_json_that_is_not_an_object_is_a_malformed_report(api, body):
    response = post_json(api, VALIDATE, body)
    assert response.status_code == 200
    assert [(e["code"], e["path"]) for e in response.json()["errors"]] == [("build.malformed", "")]


def test_a_build_posted_without_a_json_content_type_is_still_read(api):
    # `curl -d @build.json URL` sends application/x-www-form-urlencoded.
    response = api.post(
        VALIDATE,
        data=json.dumps(BUILD),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200 and response.json()["valid"] is True


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("get", "/api/v1/rulesets/gurps/"),
        ("post", "/api/v1/rulesets/gurps/validate/"),
        ("post", "/api/v1/rulesets/gurps/odds/"),
        ("get", f"/api/v1/rulesets/{FIRST.upper()}/"),
    ],
)
def test_an_unknown_slug_is_a_404(api, method, url):
    response = api.get(url) if method == "get" else post_json(api, url, {})
    assert response.status_code == 404
    data = response.json()
    assert set(data) == {"detail", "errors"}
    assert "No ruleset" in data["detail"]


@pytest.mark.parametrize("url", [VALIDATE, ODDS])
@pytest.mark.parametrize("body", [b"{not json", b"", b"NaN", b'{"name": Infinity}', b"[" * 100_000])
def test_a_body_that_is_not_json_is_a_400_that_says_so(api, url, body):
    response = api.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    data = response.json()
    assert set(data) == {"detail", "errors"}
    assert "JSON" in data["detail"] or "nested" in data["detail"]


@pytest.mark.parametrize("url", [VALIDATE, ODDS])
def test_a_body_over_256_kib_is_a_413(api, url):
    big = {"ruleset": FIRST, "name": "Big", "notes": "x" * (256 * 1024)}
    response = post_json(api, url, big)
    assert response.status_code == 413
    assert set(response.json()) == {"detail", "errors"}


def test_a_body_just_under_the_limit_is_read(api):
    build = dict(BUILD, notes="x" * (250 * 1024))
    response = post_json(api, VALIDATE, build)
    assert response.status_code == 200 and response.json()["valid"] is True


def test_anonymous_callers_need_no_session_token_or_csrf(api):
    assert api.get("/api/v1/rulesets/").status_code == 200
    assert post_json(api, VALIDATE, BUILD).status_code == 200
    assert post_json(api, ODDS, REQUEST).status_code == 200


def test_a_signed_in_browser_may_post_without_a_csrf_token_too(api, django_user_model):
    # No session authentication on these endpoints, so no CSRF check either: they read no user data.
    user = django_user_model.objects.create_user("player", password="pw-long-enough-1")
    api.force_login(user)
    assert post_json(api, VALIDATE, BUILD).status_code == 200


def test_the_openapi_schema_documents_the_rules_service(api):
    response = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    paths = schema["paths"]
    validate = paths["/api/v1/rulesets/{slug}/validate/"]["post"]
    assert set(validate["responses"]) >= {"200", "400", "404", "413"}
    assert validate.get("security", [{}]) == [{}]  # anonymous callers welcome
    report = schema["components"]["schemas"]["Report"]
    assert set(report["required"]) >= {
        "ruleset",
        "valid",
        "errors",
        "warnings",
        "spent",
        "budget",
        "remaining",
        "derived",
    }
    slug = next(p for p in validate["parameters"] if p["name"] == "slug")
    assert sorted(slug["schema"]["enum"]) == sorted(registry.SYSTEMS)
    assert set(paths["/api/v1/rulesets/{slug}/odds/"]["post"]["responses"]) >= {"200", "400", "404", "413"}


# ------------------------------------------------------------------ schemathesis over the schema


def _rules_service_schema():
    """The rules service's part of /api/schema/, as schemathesis sees it, against the WSGI app."""
    import schemathesis
    from django.core.wsgi import get_wsgi_application
    from schemathesis.config import SchemathesisConfig

    # Fuzzing and the schema's examples only: the coverage phase's hundreds of boundary cases
    # per operation take minutes, and its negative bodies (a list where the schema says object)
    # are answered with a report on purpose (CONTRACT.md: every document gets one).
    config = SchemathesisConfig.from_dict({"phases": {"coverage": {"enabled": False}}})
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application(), config=config)
    return schema.include(path_regex="^/api/v1/rulesets/")


schema = _rules_service_schema()


@schema.parametrize()
@settings(
    max_examples=fuzz.examples(full=30, smoke=10), deadline=None, suppress_health_check=list(HealthCheck)
)
def test_the_rules_service_api_keeps_to_its_schema_and_never_answers_500(case):
    from schemathesis.checks import (
        content_type_conformance,
        not_a_server_error,
        response_schema_conformance,
        status_code_conformance,
    )

    case.call_and_validate(
        checks=[
            not_a_server_error,
            status_code_conformance,
            content_type_conformance,
            response_schema_conformance,
        ]
    )
