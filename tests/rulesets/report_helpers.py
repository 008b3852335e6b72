"""Reading rules reports in the ruleset tests: the example builds of a ruleset's folder
(``<folder>/examples/*.json``, see rulesets/engine/examples.py), its typical build, and the (code,
path) pairs of a report."""

from __future__ import annotations

import json
from pathlib import Path

from rulesets.engine import registry, validate


def example_paths(slug: str) -> list[Path]:
    """The ruleset's example files, sorted, for ``pytest.mark.parametrize``."""
    return sorted((registry.get(slug).package_dir / "examples").glob("*.json"))


def typical(slug: str) -> dict:
    """A fresh copy of the ruleset's typical build (``content/examples.json``, the benches' too)."""
    return registry.get(slug).contract_data()["typical"]


def check_example(path: Path) -> None:
    """Validate the example's ``build`` and assert its report matches ``expect``: validity, every
    currency listed under spent/remaining/budget, every derived key listed, every error listed
    (a valid example has none)."""
    example = json.loads(path.read_text())
    expect = example["expect"]
    report = validate(example["build"]).as_dict()
    assert report["valid"] is expect["valid"]
    for key in ("spent", "remaining", "budget"):
        for currency, value in expect.get(key, {}).items():
            assert report[key][currency] == value, (key, currency)
    for key, value in expect.get("derived", {}).items():
        assert report["derived"][key] == value, key
    found = {(e["code"], e["path"]) for e in report["errors"]}
    for error in expect.get("errors", []):
        assert (error["code"], error["path"]) in found
    if expect["valid"]:
        assert report["errors"] == []


def codes(report) -> list[tuple[str, str]]:
    """The report's errors as (code, path), in order."""
    return [(i.code, i.path) for i in report.errors]


def warnings(report) -> list[tuple[str, str]]:
    """The report's warnings as (code, path), in order."""
    return [(i.code, i.path) for i in report.warnings]
