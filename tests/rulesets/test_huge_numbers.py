"""The rules service answers any number (issue #32; RULES.md's common rules: prices in closed
form): ``validate`` gives a report and ``odds`` an answer or its refusal (``OddsError``) for numbers
far past any game's — 10**400, 2**63, −10**30, 1e308, inf — quickly, never raising or hanging. The
product bounds what it stores (config/bounds.py); the service itself needs no bound."""

from __future__ import annotations

import copy
import json
import time

import pytest

from rulesets.engine import registry
from rulesets.engine.errors import OddsError
from rulesets.engine.pointer import set_at
from tests import vehicles

HUGE = [10**400, -(10**400), 2**63, -(10**30), 1e308, float("inf")]
#: Seconds for one ruleset's every trait at every huge value (each is milliseconds today).
BUDGET_S = 10.0


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_validate_reports_on_any_number(slug):
    ruleset = registry.get(slug)
    base = vehicles.sheet_build(ruleset)
    began = time.monotonic()
    for pointer, _ in vehicles.number_traits(ruleset):
        for value in HUGE:
            build = copy.deepcopy(base)
            set_at(build, pointer, value)
            report = ruleset.validate(build).as_dict()
            json.dumps(report)  # plain data all through
            assert report["valid"] is False or report["errors"] == [], (pointer, value)
    assert time.monotonic() - began < BUDGET_S


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_odds_answer_or_refuse_any_number(slug):
    ruleset = registry.get(slug)
    request = ruleset.contract_data().get("odds")
    if not isinstance(request, dict):
        pytest.skip(f"{slug} names no odds request")
    began = time.monotonic()
    answered = refused = 0
    for key, value in request.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        for huge in HUGE:
            try:
                answer = ruleset.odds({**request, key: huge})
            except OddsError:
                refused += 1
            else:
                json.dumps(answer)
                answered += 1
    assert answered + refused > 0
    assert time.monotonic() - began < BUDGET_S


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_the_cli_answers_a_line_for_each_huge_request_and_build(slug, tmp_path):
    from tests.rulesets.test_cli import rules

    ruleset = registry.get(slug)
    request = ruleset.contract_data().get("odds")
    if isinstance(request, dict):
        keys = [k for k, v in request.items() if isinstance(v, int) and not isinstance(v, bool)]
        asked = [json.dumps({**request, k: 10**400}) for k in keys]
        code, lines = rules("odds", slug, *asked)
        assert code in (0, 2) and len(lines) == len(asked)
        assert all(set(line) == {"error"} or "error" not in line for line in lines)
    build = vehicles.sheet_build(ruleset)
    pointer = vehicles.number_traits(ruleset)[0][0]
    set_at(build, pointer, 10**400)
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(build))
    code, [report] = rules("validate", str(path))
    assert code in (0, 1) and report["ruleset"] == slug and "valid" in report
