"""What a ruleset's folder gives its contract tests and the benchmarks, read through the registry.

A ruleset's tests and benches are in its folder as much as its rules are: the central tests
(tests/rulesets/test_contract.py, test_properties.py, the sheet, builder and encounter pages, the
form fuzzer) and the benchmarks (bench/) take every ruleset from the registry and read its data
here, so a sixth folder is tested and measured with no line written outside it.

``content/examples.json`` (a JSON object). **Required**:

- ``build``: a valid build of the ruleset (also the API documentation's example).
- ``odds``: an odds request the ruleset answers.

Optional: each adds cases, and each has a default derived from the required two.

- ``odds_label``, ``odds_answer``: words for the API documentation's odds example.
- ``typical``: the benches' typical build (validations per second, the CLI's documents, the
  property tests' seeds, the play and combat contract checks). Default: ``build``.
- ``sheet``: the character the sheet, builder, encounter and browser tests make (a realistic valid
  build, with gear where the ruleset has any). Default: ``typical``.
- ``odds_ranges``: ``{key: {"min", "max"} | {"choices": [...]}}``, the requests inside the contract's
  ranges that the property tests draw from. Default: each key of ``odds`` over its field of the
  odds form (``odds_form``) when there is one, else fixed at its value in ``odds``.
- ``odds_count_key``: a key that counts dice (or ranks) and must refuse -1 and 1000. Default: none.
- ``odds_required_key``: a key without which there is no roll to price. Default: none.
- ``odds_largest``: ``[request]``, the largest requests, timed by the benchmark. Default: one
  request with every range at its maximum.
- ``odds_shape``: what an answer holds: ``{"keys": [...], "exact_keys": bool, "distribution":
  [key | "key.*"]}``; the distribution's probabilities sum to 1 (one listed probability: it and its
  complement), ``"key.*"`` is every value of an object keyed by whole numbers. Default: the
  answer's top-level numbers are the distribution.
- ``house_overrides``: ``{house key: [value]}``, values to override a house default with when its
  type alone gives no meaningful other value (the contract tries each default overridden).
- ``house_play``: ``[settings]``, campaign house rules that change play, dice or combat (not only
  the build); each must change what the hooks return, with the campaign's context passed or
  taken from the report alike.
- ``homebrew_rolls``: ``[{"homebrew", "build", "rollable", "label"?}]``: a build using campaign
  homebrew, and the roll button it must get.
- ``play_actions``: ``[action, action?]``, a play-state action the rules accept on a fresh sheet
  character and the one undoing it (the sheet benchmark alternates them, the browser test takes
  the first). Default: the first action the play-state sections list, with sample values.
- ``roll_previews``: ``[query, query]``, two odds-preview queries of the sheet's roll form
  (``preview`` null: the first roll button), and ``roll_state``, play state to set first (a
  condition). Default: the first roll button that asks for a number, at two values.

- ``combat_actions``: ``{"player": action, "gm": action}``, the encounter actions the combat
  benchmarks time (the sheet character's on its turn, its ``target`` an enemy filled in when left
  out; a GM action on an enemy). Default: the first allowed action of each kind (bench/fight.py).
- ``advance``: ``{"set": {pointer: value}}``, an advancement of the sheet character the product's
  advancement tests request (the values set at those JSON pointers), paid for by an award of one
  awardable currency; its cost is the rules' own price. Default: the first of the builder's numbers
  that, raised by one, is a legal advancement paid in one awardable currency (tests/vehicles.py).

``examples/*.json`` in the folder (optional): example builds with what their report must hold,
``{"build", "expect": {"valid", "spent"?, "remaining"?, "budget"?, "derived"?, "errors"?:
[{"code", "path"}]}}``. Default: ``build`` and ``typical``, expected valid.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar


@dataclass(frozen=True)
class Example:
    """An example build of a ruleset and what its report must hold (see the module's docstring)."""

    name: str
    build: dict[str, Any]
    expect: dict[str, Any]


class ExamplesMixin:
    """The ``Ruleset``'s test and bench data (see the module's docstring)."""

    # Declared on ``Ruleset`` (and its mixins), read here.
    slug: ClassVar[str]
    tables: dict[str, Any]

    if TYPE_CHECKING:

        @property
        def package_dir(self) -> Path: ...

        def odds_form(self) -> list[dict[str, Any]] | None: ...

    def contract_data(self) -> dict[str, Any]:
        """``content/examples.json`` with every optional key filled in by its default (a copy the
        caller may change). Raises ``KeyError`` naming the key when a required one (``build``,
        ``odds``) is missing."""
        return copy.deepcopy(self._contract_data)

    @cached_property
    def _contract_data(self) -> dict[str, Any]:
        raw = self.tables.get("examples")
        raw = raw if isinstance(raw, dict) else {}
        for key in ("build", "odds"):
            if not isinstance(raw.get(key), dict):
                raise KeyError(
                    f"{self.slug}: content/examples.json needs {key!r} (rulesets/engine/examples.py)"
                )
        data = copy.deepcopy(raw)
        data.setdefault("typical", data["build"])
        data.setdefault("sheet", data["typical"])
        data.setdefault("odds_ranges", self._default_odds_ranges(data["odds"]))
        data.setdefault("odds_count_key", None)
        data.setdefault("odds_required_key", None)
        data.setdefault(
            "odds_largest",
            [{k: (r["choices"][-1] if "choices" in r else r["max"]) for k, r in data["odds_ranges"].items()}],
        )
        data.setdefault("odds_shape", {})
        for key in ("house_play", "homebrew_rolls", "roll_previews"):
            data.setdefault(key, [])
        if not data.get("play_actions"):
            data["play_actions"] = self._default_play_actions(data["sheet"])
        data.setdefault("house_overrides", {})
        data.setdefault("roll_state", {})
        return data

    def _default_odds_ranges(self, odds: dict[str, Any]) -> dict[str, dict[str, Any]]:
        fields = {f.get("name"): f for f in self.odds_form() or [] if isinstance(f, dict)}
        out: dict[str, dict[str, Any]] = {}
        for key, value in odds.items():
            field = fields.get(key, {})
            if "choices" in field:
                out[key] = {"choices": [c[0] if isinstance(c, list | tuple) else c for c in field["choices"]]}
            elif "min" in field and "max" in field:
                out[key] = {"min": field["min"], "max": field["max"]}
            else:
                out[key] = {"min": value, "max": value} if isinstance(value, int) else {"choices": [value]}
        return out

    def _default_play_actions(self, build: dict[str, Any]) -> list[dict[str, Any]]:
        """The first action the play-state sections list for ``build``, each field at a sample value."""
        ruleset: Any = self
        report = ruleset.validate(build)
        state = ruleset.initial_state(build, report)
        for section in ruleset.state_sections(build, report, state):
            for spec in section.get("actions", []):
                return [{"action": spec["action"], **{f["id"]: _sample(f) for f in spec.get("fields", [])}}]
        return []

    def example_builds(self) -> list[Example]:
        """The folder's ``examples/*.json``, else ``build`` and ``typical`` expected valid."""
        folder = self.package_dir / "examples"
        found = [
            Example(
                path.stem, (data := json.loads(path.read_text(encoding="utf-8")))["build"], data["expect"]
            )
            for path in sorted(folder.glob("*.json"))
        ]
        if found:
            return found
        data = self._contract_data
        out = [Example("example", data["build"], {"valid": True})]
        if data["typical"] != data["build"]:
            out.append(Example("typical", data["typical"], {"valid": True}))
        return out

    def playable_builds(self) -> list[Example]:
        """Valid builds to play and fight with: the valid examples, then the typical build."""
        out = [e for e in self.example_builds() if e.expect.get("valid")]
        typical = self._contract_data["typical"]
        if all(e.build != typical for e in out):
            out.append(Example("typical", typical, {"valid": True}))
        return out


def _sample(field: dict[str, Any]) -> Any:
    """A value a person could put in a play-state form field: its default, first option, or least number."""
    if field.get("default") not in (None, ""):
        return field["default"]
    options = field.get("options") or []
    if options:
        first = options[0]
        return first.get("id") if isinstance(first, dict) else first
    if field.get("kind") == "number":
        return max(1, field.get("min") or 1)
    return "x"
