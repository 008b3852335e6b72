"""The minimal complete ruleset of the engine's docs (rulesets/engine/__init__.py), run as it is
written there: tests/minimal_ruleset/ ("Toss"), plain functions and the engine's names only. The
text and the files are held together, and the ruleset works through every door: the engine, the
API's validate and odds (the odds a ruleset written with module functions once answered with a
400) and the play state."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from rest_framework.test import APIClient

import rulesets.engine as engine
from rulesets.engine import FixedRoller, StateError, registry
from tests.minimal_ruleset import RULESET as TOSS

FOLDER = Path(__file__).resolve().parents[1] / "minimal_ruleset"


def _documented() -> dict[str, str]:
    """Each file of the docs' example: ``name``, a line ending in ``::``, then its indented code."""
    doc = engine.__doc__ or ""
    part = doc[doc.index("A minimal complete ruleset\n") :]
    found = {}
    for match in re.finditer(r"``([\w/.]+\.(?:py|json))``[^\n]*::\n\n((?:    [^\n]*\n|\n)+)", part):
        found[match.group(1)] = textwrap.dedent(match.group(2)).strip("\n") + "\n"
    return found


def test_the_engine_docs_show_the_minimal_ruleset_file_for_file():
    documented = _documented()
    assert sorted(documented) == ["__init__.py", "content/examples.json", "dice.py", "state.py"]
    for name, text in documented.items():
        assert text == (FOLDER / name).read_text(encoding="utf-8"), name


@pytest.fixture
def toss():
    registry.register(TOSS)
    yield TOSS
    registry.unregister(TOSS.slug)


def test_it_validates_prices_and_answers_odds_and_rolls_through_the_engine(toss):
    example = toss.contract_data()
    report = engine.validate(example["build"])
    assert (report.valid, report.spent, report.derived) == (True, {"coins": 2}, {"luck": 2})
    assert (
        engine.validate({**example["build"], "luck": 9}).as_dict()["errors"][0]["code"] == "toss.luck_invalid"
    )
    assert engine.odds("toss", example["odds"]) == {"success": 0.75, "failure": 0.25}
    assert toss.rollables(example["build"], report) == [
        {"id": "flip", "label": "Flip 2 coins", "request": {"coins": 2}}
    ]
    rolled = toss.roll({"coins": 2}, FixedRoller([1, 2]))
    assert (rolled["faces"], rolled["outcome"]) == ([1, 2], "success")
    with pytest.raises(engine.OddsError):
        toss.odds({"coins": 11})


def test_its_play_state_goes_through_the_engines_hooks(toss):
    build = toss.contract_data()["build"]
    report = toss.validate(build)
    state = toss.initial_state(build, report)
    assert (state, toss.check_state(state, build, report)) == ({"lives": 3}, [])
    assert [i.code for i in toss.check_state({"lives": 7}, build, report)] == ["toss.lives_invalid"]
    assert toss.state_action(state, {"action": "lose_life"}, build, report) == (
        {"lives": 2},
        "Lost a life (2 left).",
    )
    assert toss.pools(build, report, {"lives": 2}) == [
        {"id": "lives", "label": "Lives", "current": 2, "max": 3}
    ]
    with pytest.raises(StateError) as refused:
        toss.state_action({"lives": 0}, {"action": "lose_life"}, build, report)
    assert refused.value.code == "toss.no_lives"


@pytest.mark.django_db
def test_the_api_validates_its_build_and_answers_its_odds(toss):
    api = APIClient()
    example = toss.contract_data()
    checked = api.post("/api/v1/rulesets/toss/validate/", example["build"], format="json")
    assert (checked.status_code, checked.json()["valid"]) == (200, True)
    answered = api.post("/api/v1/rulesets/toss/odds/", example["odds"], format="json")
    assert answered.status_code == 200
    assert answered.json()["success"] == 0.75
