"""Paragon's play state through the typed interfaces (moved from tests/rulesets/test_interfaces.py): the
default state action passes the report's context and does not mutate the state."""

from __future__ import annotations

import json

import pytest

from rulesets.engine import validate
from rulesets.engine.errors import StateError
from rulesets.systems import paragon
from rulesets.systems.paragon import state as paragon_state
from tests.rulesets.report_helpers import typical


def test_the_default_state_action_passes_the_report_context_and_does_not_mutate():
    rs = paragon.RULESET
    build = typical("paragon")
    report = validate(build)
    state = rs.initial_state(build, report)
    before = json.dumps(state, sort_keys=True)
    issues = rs.check_state(state, build, report)
    assert issues == paragon_state.check_state(state, build, report, report.context) == []
    sections = rs.state_sections(build, report, state)
    action = next(a for s in sections for a in s.get("actions", []))
    try:
        mine = rs.state_action(state, {"action": action["action"]}, build, report)
    except StateError as exc:
        with pytest.raises(StateError) as theirs:
            paragon_state.state_action(state, {"action": action["action"]}, build, report, report.context)
        assert (exc.code, exc.message) == (theirs.value.code, theirs.value.message)
    else:
        assert mine == paragon_state.state_action(
            state, {"action": action["action"]}, build, report, report.context
        )
    assert json.dumps(state, sort_keys=True) == before
