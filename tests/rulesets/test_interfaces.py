"""The dice and play-state hooks go through typed interfaces (``rulesets/engine/interfaces.py``):
every ruleset's folder writes them as plain functions in its ``dice.py`` and ``state.py``, which its
``__init__.py`` wires as they are (``dice = dice_module``), so that the ``__init__.py`` is wiring only
and the product's calls (``ruleset.odds``, ``ruleset.state_action``…) reach the folder's functions by
name, the campaign's context resolved."""

from __future__ import annotations

import importlib
import inspect

import pytest
from django.core import checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from rulesets.engine import registry
from rulesets.engine.errors import StateError
from rulesets.engine.interfaces import (
    DICE_METHODS,
    PLAY_STATE_METHODS,
    Dice,
    PlayState,
    takes_by_name,
    wiring_problems,
)
from rulesets.engine.ruleset import Ruleset
from tests.plugin_ruleset import RULESET as COIN

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
def test_every_ruleset_wires_hooks_that_take_the_interfaces_arguments_by_name(
    ruleset, attribute, interface, methods
):
    """The engine calls each dice and play-state hook with keyword arguments only, so a hook takes
    them in any order: a module's plain functions are the hooks as they are."""
    wired = getattr(ruleset, attribute)
    assert isinstance(wired, interface)
    for name in methods:
        expected = _parameters(getattr(interface, name))
        assert all(kind is inspect.Parameter.KEYWORD_ONLY for _, kind, _ in expected)  # one order: none
        assert takes_by_name(getattr(wired, name), [n for n, _, _ in expected]), f"{attribute}.{name}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_the_hooks_are_the_folders_modules_with_no_class_between(ruleset):
    """Each hook is written once: the folder's dice.py and state.py functions are wired as they are,
    with no class whose methods only call them with the arguments reordered."""
    package = type(ruleset).__module__
    assert (inspect.ismodule(ruleset.dice), inspect.ismodule(ruleset.play_state)) == (True, True)
    assert (ruleset.dice.__name__, ruleset.play_state.__name__) == (f"{package}.dice", f"{package}.state")


def test_a_hook_that_cannot_take_the_arguments_by_name_is_told_apart():
    def odds(request, *, ctx):
        return {}

    def odds_positional_only(request, ctx, /):
        return {}

    def odds_other_names(req, *, context):
        return {}

    assert [takes_by_name(f, ["request", "ctx"]) for f in (odds, odds_positional_only, odds_other_names)] == [
        True,
        False,
        False,
    ]


def test_the_interfaces_list_every_method_of_the_protocols():
    def methods(proto: type) -> set[str]:
        return {name for name, value in vars(proto).items() if inspect.isfunction(value) and name[0] != "_"}

    assert (methods(Dice), methods(PlayState)) == (set(DICE_METHODS), set(PLAY_STATE_METHODS))


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


@pytest.mark.parametrize("ruleset", RULESETS, ids=IDS)
def test_every_ruleset_is_wired_without_a_problem(ruleset):
    assert wiring_problems(ruleset) == []


def _folder(tmp_path, monkeypatch, name: str, files: dict[str, str]):
    """A ruleset folder ``name`` (a package on the path) with these files; its ``RULESET``."""
    (tmp_path / name).mkdir()
    for filename, text in files.items():
        (tmp_path / name / filename).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    return importlib.import_module(name).RULESET


RULESET_HEAD = (
    "from rulesets.engine import Ruleset\n"
    "from . import dice as dice_rules\n"
    "class Toy(Ruleset):\n"
    "    slug, name = {slug!r}, 'Toy'\n"
    "    def check(self, build, report, ctx):\n"
    "        pass\n"
)


def test_a_dice_module_left_unwired_is_a_problem_not_silence(tmp_path, monkeypatch):
    """The sixth ruleset of the issue: its module functions were ignored, its odds a NotImplementedError."""
    toy = _folder(
        tmp_path,
        monkeypatch,
        "toy_unwired",
        {
            "__init__.py": RULESET_HEAD.format(slug="toy_unwired") + "RULESET = Toy()\n",
            "dice.py": "def odds(request, *, ctx):\n    return {'success': 1.0}\n",
        },
    )
    assert wiring_problems(toy) == [
        "its dice.py is not wired: the engine ignores it until the Ruleset says dice = <that module>."
    ]


def test_a_hook_missing_or_taking_other_names_is_a_problem(tmp_path, monkeypatch):
    toy = _folder(
        tmp_path,
        monkeypatch,
        "toy_misnamed",
        {
            "__init__.py": RULESET_HEAD.format(slug="toy_misnamed")
            + "    dice = dice_rules\nRULESET = Toy()\n",
            "dice.py": "def odds(request, *, ctx):\n    return {}\n"
            "def roll(req, roller, *, context):\n    return {}\n",
        },
    )
    assert wiring_problems(toy) == [
        "dice.roll does not take its arguments by name (request=, roller=, ctx=).",
        "dice has no rollables.",
    ]
    registry.register(toy)
    try:
        with pytest.raises(SystemCheckError) as failed:
            call_command("check")
        assert "(rulesets.E002) The ruleset 'toy_misnamed': dice has no rollables." in str(failed.value)
        assert [m.id for m in checks.run_checks() if m.id and m.id.startswith("rulesets.")] == [
            "rulesets.W002",
            "rulesets.W002",
        ]
    finally:
        registry.unregister(toy.slug)
