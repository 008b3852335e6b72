"""The dice and play-state hooks' default: the functions of the same name in the ruleset folder's
``dice.py`` and ``state.py`` (``Ruleset.folder_function``), so that a folder's ``__init__.py`` is
wiring only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine import validate
from rulesets.engine.base import Ruleset, StateError
from rulesets.engine.dice import FixedRoller
from rulesets.systems import ourdnd, paragon
from rulesets.systems.ourdnd import dice as ourdnd_dice
from rulesets.systems.ourdnd import state as ourdnd_state
from rulesets.systems.paragon import state as paragon_state

BUILDS = Path(__file__).resolve().parents[2] / "bench" / "builds"
HOOKS = ("odds", "roll", "rollables", "initial_state", "check_state", "state_effects", "state_sections")


def typical(slug: str) -> dict:
    return json.loads((BUILDS / f"{slug}_typical.json").read_text())


@pytest.mark.parametrize("cls", [type(ourdnd.RULESET), type(paragon.RULESET)])
def test_a_wiring_only_ruleset_defines_none_of_the_dice_and_play_hooks(cls):
    assert [hook for hook in (*HOOKS, "state_action") if hook in vars(cls)] == []


def test_the_default_hooks_call_the_folder_modules_with_the_campaign():
    rs = ourdnd.RULESET
    ctx = rs.context({"default_td": 15, "instant_death_hp": -5})
    build = typical("ourdnd")
    report = validate(build, settings={"default_td": 15, "instant_death_hp": -5})
    assert report.valid
    state = rs.initial_state(build, report, ctx=ctx)
    assert state == ourdnd_state.initial_state(build, report, ctx)
    assert rs.state_sections(build, report, state, ctx=ctx) == ourdnd_state.state_sections(
        build, report, ctx, state
    )
    rolls = rs.rollables(build, report, state, ctx=ctx)
    assert rolls == ourdnd_dice.rollables(build, report, ctx, state)
    checks = [r["request"] for r in rolls if "td" in r["request"]]
    assert checks and {c["td"] for c in checks} == {15}  # the house default reached the sheet
    assert rs.odds(checks[0]) == ourdnd_dice.odds(checks[0])
    roll = rs.roll(checks[0], FixedRoller([6, 6, 6, 6]))
    assert roll == ourdnd_dice.roll(checks[0], FixedRoller([6, 6, 6, 6]))


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


def test_a_subclass_defined_elsewhere_still_finds_its_parents_folder():
    class HouseOurDnD(type(ourdnd.RULESET)):  # type: ignore[misc]
        pass

    rs = HouseOurDnD()
    assert rs.folder_function("state", "initial_state") is ourdnd_state.initial_state
    assert rs.folder_function("dice", "odds") is ourdnd_dice.odds


def test_a_ruleset_without_the_modules_gets_the_generic_defaults():
    class Bare(Ruleset):  # defined in a test module: no folder, no dice.py or state.py
        slug = "bare"
        name = "Bare"

        def check(self, build, report, ctx):
            return None

    rs = Bare()
    report = rs.validate({"name": "Nobody"})
    assert rs.folder_function("state", "initial_state") is None
    assert rs.initial_state({}, report) == {}
    assert rs.check_state({}, {}, report) == []
    assert rs.state_effects({}, report, {}) == {}
    assert rs.state_sections({}, report, {}) == []
    assert rs.rollables({}, report) == []
    with pytest.raises(StateError) as refused:
        rs.state_action({}, {"action": "heal"}, {}, report)
    assert refused.value.code == "state.unknown_action"
    with pytest.raises(NotImplementedError):
        rs.odds({})


def test_a_folder_module_that_fails_to_import_is_not_taken_for_a_missing_one(monkeypatch):
    import importlib

    rs = paragon.RULESET
    real = importlib.import_module

    def broken(name, *args, **kwargs):
        if name == "rulesets.systems.paragon.nothing_here":
            raise ModuleNotFoundError("No module named 'somewhere_else'", name="somewhere_else")
        return real(name, *args, **kwargs)

    monkeypatch.setattr("rulesets.engine.base.import_module", broken)
    with pytest.raises(ModuleNotFoundError):
        rs.folder_function("nothing_here", "odds")
    monkeypatch.setattr("rulesets.engine.base.import_module", real)
    assert rs.folder_function("nothing_here_either", "odds") is None
