"""A ruleset is written against ``rulesets.engine`` alone (rulesets/engine/__init__.py): one
documented list of names, ``__all__``, kept stable. A name may be added; one removed or renamed keeps
working for a release with a ``DeprecationWarning`` (the module ``rulesets.engine.base``, removed
last month, is back until 0.2)."""

from __future__ import annotations

import ast
import importlib
import re
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import rulesets.engine as engine

ROOT = Path(__file__).resolve().parents[2]

#: The list as it stood when it was first written down. Adding to ``__all__`` is welcome; taking a
#: name out of it (or out of this list) is a removal, which needs a deprecation first.
STABLE = {
    "DICE_METHODS", "FORMAT", "ID_RE", "NOT_YOUR_TURN", "NPC_PHASE", "PLAY_STATE_METHODS",
    "ActionSpec", "CombatRefused", "CombatRules", "Context", "Dice", "Event", "Fighter",
    "FixedRoller", "Issue", "OddsError", "Outcome", "PlayState", "Report", "RollInputError",
    "Roller", "Ruleset", "Stacked", "StateError", "action_amount", "convolve", "die", "effects",
    "exploding", "get_as", "is_int", "keep_highest", "keep_lowest", "lookup", "name_key", "odds",
    "pointer", "ptr", "registry", "stack", "sum_dice", "validate", "whole_number", "whole_or", "words",
}  # fmt: skip


def test_the_stable_names_are_all_still_listed():
    assert STABLE - set(engine.__all__) == set()


def test_every_listed_name_exists_once_and_is_documented_in_the_engines_docstring():
    documented = set(re.findall(r"``([A-Za-z_][A-Za-z0-9_]*)``", engine.__doc__ or ""))
    assert len(engine.__all__) == len(set(engine.__all__))
    assert [name for name in engine.__all__ if not hasattr(engine, name)] == []
    assert sorted(set(engine.__all__) - documented) == []


def _engine_imports(folder: Path) -> set[tuple[str, str]]:
    """(module, name) of every ``from rulesets.engine… import name`` under ``folder`` (relative
    imports resolved)."""
    found = set()
    for path in folder.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        package = parts[:-1]  # a module's package; an __init__.py's is its folder too
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if module.startswith("rulesets.engine"):
                found |= {(module, alias.name) for alias in node.names}
    return found


def test_what_the_rulesets_import_from_the_engine_is_reachable_from_rulesets_engine():
    """Every engine name the six rulesets use is in ``__all__``, or in a helper module listed
    there (``effects``, ``pointer``, ``words``): the list is complete for what a ruleset needs."""
    used = _engine_imports(ROOT / "rulesets" / "systems") | _engine_imports(ROOT / "tests" / "plugin_ruleset")
    assert len(used) > 30  # the scan read the folders
    listed = set(engine.__all__)
    helper_modules = [getattr(engine, n) for n in listed if isinstance(getattr(engine, n), ModuleType)]
    unreachable = sorted(
        f"{module}.{name}"
        for module, name in used
        if name not in listed and not any(hasattr(m, name) for m in helper_modules)
    )
    assert unreachable == []


def test_the_removed_base_module_still_works_and_says_where_its_names_went(monkeypatch):
    monkeypatch.delitem(sys.modules, "rulesets.engine.base", raising=False)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        base = importlib.import_module("rulesets.engine.base")
    deprecations = [str(w.message) for w in heard if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1
    assert "import its names from rulesets.engine" in deprecations[0]
    assert (base.Ruleset, base.Context, base.StateError, base.is_int) == (
        engine.Ruleset,
        engine.Context,
        engine.StateError,
        engine.is_int,
    )


def test_a_toy_ruleset_written_against_last_months_engine_loads(monkeypatch, tmp_path):
    """The sixth ruleset of the issue: ``from rulesets.engine.base import …`` took the site down."""
    folder = tmp_path / "toy_last_month"
    folder.mkdir()
    (folder / "__init__.py").write_text(
        "from rulesets.engine.base import Context, Ruleset\n"
        "class Toy(Ruleset):\n"
        "    slug, name = 'toy_last_month', 'Toy'\n"
        "    def check(self, build, report, ctx: Context):\n"
        "        report.derived['ok'] = True\n"
        "RULESET = Toy()\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "rulesets.engine.base", raising=False)
    with pytest.warns(DeprecationWarning, match="rulesets.engine.base is deprecated"):
        toy = importlib.import_module("toy_last_month").RULESET
    report = toy.validate({"name": "Tess"})
    assert (report.valid, report.derived) == (True, {"ok": True})
