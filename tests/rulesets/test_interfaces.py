"""The dice and play-state hooks go through typed interfaces (``rulesets/engine/interfaces.py``):
every ruleset's folder implements a ``Dice`` in its ``dice.py`` and a ``PlayState`` in its
``state.py``, wired by its ``__init__.py``, so that the ``__init__.py`` is wiring only and the
product's calls (``ruleset.odds``, ``ruleset.state_action``…) reach the folder with one argument
order, the campaign's context resolved."""

from __future__ import annotations

import inspect
import json

import pytest

from rulesets.engine import registry, validate
from rulesets.engine.base import OddsError, Ruleset, StateError
from rulesets.engine.dice import FixedRoller
from rulesets.engine.interfaces import DICE_METHODS, PLAY_STATE_METHODS, Dice, PlayState
from rulesets.systems import ourdnd, paragon
from rulesets.systems.ourdnd import dice as ourdnd_dice
from rulesets.systems.ourdnd import state as ourdnd_state
from rulesets.systems.paragon import state as paragon_state
from tests.plugin_ruleset import RULESET as COIN
from tests.rulesets.report_helpers import typical

HOOKS = ("odds", "roll", "rollables", "initial_state", "check_state", "state_effects", "state_sections")


#: Every ruleset of the registry, and the tests' plugin (a ruleset shipped outside ``systems/``).
RULESETS = [registry.get(slug) for slug in registry.SYSTEMS] + (
    [COIN] if registry.get(COIN.slug) is None else []
)
IDS = [rs.slug for rs in RULESETS]


@pytest.mark.parametrize("cls", [type(rs) for rs in RULESETS], ids=IDS)
def test_a_wiring_only_ruleset_defines_none_of_the_dice_and_play_hooks(cls):
    assert [hook for hook in (*HOOKS, "state_action") if hook in vars(cls)] == []


def _parameters(fn) -> list[tuple[str, object, object]]:
    """(name, kind, default) of each parameter of a bound method or a protocol's function (no self)."""
    params = list(inspect.signature(fn).parameters.values())
    if params and params[0].name == "self":
        params = params[1:]
    return [(p.name, p.kind, p.default) for p in params]


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
@pytest.mark.parametrize(
    ("attribute", "interface", "methods"),
    [("dice", Dice, DICE_METHODS), ("play_state", PlayState, PLAY_STATE_METHODS)],
    ids=["dice", "play_state"],
)
def test_every_ruleset_wires_objects_that_implement_the_interfaces(ruleset, attribute, interface, methods):
    wired = getattr(ruleset, attribute)
    assert isinstance(wired, interface)
    for name in methods:
        expected = _parameters(getattr(interface, name))
        assert all(kind is inspect.Parameter.KEYWORD_ONLY for _, kind, _ in expected)  # one order: none
        assert _parameters(getattr(wired, name)) == expected, f"{type(wired).__name__}.{name}"


def test_the_interfaces_list_every_method_of_the_protocols():
    def methods(proto: type) -> set[str]:
        return {name for name, value in vars(proto).items() if inspect.isfunction(value) and name[0] != "_"}

    assert (methods(Dice), methods(PlayState)) == (set(DICE_METHODS), set(PLAY_STATE_METHODS))


def test_a_refused_action_and_an_unknown_request_raise_through_the_interfaces():
    rs = ourdnd.RULESET
    build = typical("ourdnd")
    report = validate(build)
    with pytest.raises(StateError) as refused:
        rs.state_action(rs.initial_state(build, report), {"action": "fly"}, build, report)
    assert refused.value.code == "state.unknown_action"
    with pytest.raises(OddsError):
        rs.odds({"stat": "ten"})


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
    assert rs.play_state is ourdnd.RULESET.play_state
    assert rs.dice is ourdnd.RULESET.dice
    build = typical("ourdnd")
    report = validate(build)
    assert rs.initial_state(build, report) == ourdnd_state.initial_state(build, report, report.context)
    request = {"stat": 2, "td": 12, "mode": "easy"}
    assert rs.odds(request) == ourdnd_dice.odds(request)


def test_a_ruleset_without_the_modules_gets_the_generic_defaults():
    class Bare(Ruleset):  # defined in a test module: no folder, no dice.py or state.py
        slug = "bare"
        name = "Bare"

        def check(self, build, report, ctx):
            return None

    rs = Bare()
    report = rs.validate({"name": "Nobody"})
    assert (rs.dice, rs.play_state) == (None, None)
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
