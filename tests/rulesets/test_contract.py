"""Contract checks run on every ruleset in the registry (CONTRACT.md "The report", "Doors").

A sixth ruleset added to ``registry.SYSTEMS`` gets every check here for free. The example
builds of tests/rulesets/examples/ go through the HTTP door, as a cross-check of the API: the
per-ruleset tests run the same files in-process.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from rulesets.engine import Ruleset, registry, validate

EXAMPLES = sorted((Path(__file__).parent / "examples").glob("*/*.json"))
REPORT_KEYS = {"ruleset", "valid", "errors", "warnings", "spent", "budget", "remaining", "derived"}
CODE_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$")


def assert_contract_report(report: dict, slug: str | None = None) -> None:
    """Everything CONTRACT.md says of every report, whatever the build."""
    assert REPORT_KEYS <= set(report)
    if slug is not None:
        assert report["ruleset"] == slug
    assert report["valid"] is (report["errors"] == [])
    assert set(report["spent"]) == set(report["budget"]) == set(report["remaining"])
    for currency, remaining in report["remaining"].items():
        assert remaining == report["budget"][currency] - report["spent"][currency], currency
    if slug is not None and report["ruleset"] == slug:
        assert set(registry.get(slug).currencies) <= set(report["spent"])
    for issue in report["errors"] + report["warnings"]:
        assert set(issue) == {"code", "path", "message"}
        assert CODE_RE.match(issue["code"]), issue
        assert isinstance(issue["path"], str), issue
        assert issue["path"] == "" or issue["path"].startswith("/"), issue
        assert isinstance(issue["message"], str) and issue["message"].strip(), issue
    json.dumps(report, allow_nan=False)  # plain JSON, no NaN


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_ruleset_declares_its_slug_name_and_currencies(slug):
    ruleset = registry.get(slug)
    assert isinstance(ruleset, Ruleset)
    assert ruleset.slug == slug
    assert ruleset.name.strip()
    assert ruleset.currencies and all(isinstance(c, str) and c for c in ruleset.currencies)
    assert set(ruleset.awardable_currencies) <= set(ruleset.currencies)


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_describe_is_plain_json(slug):
    description = registry.get(slug).describe()
    assert json.loads(json.dumps(description, allow_nan=False)) == description
    assert description["slug"] == slug
    assert description["currencies"] == list(registry.get(slug).currencies)
    for kind, entries in description["catalogue"].items():
        assert all(isinstance(e, dict) and isinstance(e.get("id"), str) for e in entries), kind


@pytest.mark.parametrize("slug", registry.SYSTEMS)
@pytest.mark.parametrize(
    "doc", [{}, {"ruleset": "{slug}"}, {"ruleset": "{slug}", "name": ""}], ids=["empty", "bare", "unnamed"]
)
def test_a_near_empty_document_gets_a_contract_report(slug, doc):
    doc = {k: (v.format(slug=slug) if isinstance(v, str) else v) for k, v in doc.items()}
    report = validate(doc, slug=slug).as_dict()
    assert_contract_report(report, slug)
    assert report["valid"] is False
    assert any(e["code"] == "build.malformed" and e["path"] == "/name" for e in report["errors"])


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_without_a_url_slug_a_document_without_ruleset_is_unknown(slug):
    report = validate({"name": "X"}).as_dict()
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("ruleset.unknown", "/ruleset")]


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_blank_build_gets_a_contract_report(slug):
    ruleset = registry.get(slug)
    blank = ruleset.blank_build("Tester")
    assert blank["ruleset"] == slug and blank["name"] == "Tester"
    report = validate(blank).as_dict()
    assert_contract_report(report, slug)
    assert not any("could not read this build" in e["message"] for e in report["errors"])


@pytest.mark.parametrize(("slug", "other"), list(itertools.permutations(registry.SYSTEMS, 2)))
def test_a_build_for_another_ruleset_is_unknown_at_its_url(slug, other):
    report = validate(registry.get(other).blank_build("Wanderer"), slug=slug).as_dict()
    assert report["valid"] is False
    assert [(e["code"], e["path"]) for e in report["errors"]] == [("ruleset.unknown", "/ruleset")]
    assert report["ruleset"] == slug


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_every_ruleset_has_example_builds(slug):
    assert any(p.parent.name == slug for p in EXAMPLES)


@pytest.mark.django_db
@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.stem}" for p in EXAMPLES])
def test_an_example_through_the_api_gets_the_expected_report(path):
    example = json.loads(path.read_text())
    build, expect = example["build"], example["expect"]
    slug = path.parent.name
    response = APIClient().post(
        f"/api/v1/rulesets/{slug}/validate/", data=json.dumps(build), content_type="application/json"
    )
    assert response.status_code == 200
    report = response.json()
    assert_contract_report(report, slug)
    got_errors = [(e["code"], e["path"]) for e in report["errors"]]
    assert report["valid"] is expect["valid"], got_errors
    for key in ("spent", "remaining"):
        if key in expect:
            assert {c: report[key][c] for c in expect[key]} == expect[key], key
    for key, value in expect.get("derived", {}).items():
        assert key in report["derived"], key
        assert report["derived"][key] == value, key
    for error in expect.get("errors", []):
        assert (error["code"], error["path"]) in got_errors
