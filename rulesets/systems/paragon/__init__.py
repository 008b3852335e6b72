"""Paragon RPG (`paragon`, seed 001, RULES.md section 2): the Ruleset, wiring only.

``build.py`` checks, prices and derives a build (its docstring has the build document and the codes)
and gives the builder its traits and blank build; ``dice.py`` the check's exact odds, rolls and roll
buttons; ``state.py`` the play state; ``combat.py`` violence; ``content/`` the catalogues and house
defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import build as build_rules
from .dice import ParagonDice
from .state import ParagonPlayState


class Paragon(Ruleset):
    slug = "paragon"
    name = "Paragon RPG"
    seed = "001_fe5bd79273a0e4bf.txt"
    currencies = ("force_points", "skill_points")
    awardable = ("skill_points",)
    known_keys = frozenset({"power_level", "forces", "path", "skills", "resources"})
    homebrew_kinds = ("skills",)
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): force dice, skill and TN shift; the table sets the TN.
    effect_keys_declared = {"force": 0, "skill": 0, "tn": 1}
    table_keys = ("tn",)

    def success(self, answer: dict, need: int | None = None) -> float:
        return float(answer.get("pass", 0.0))

    # ------------------------------------------------------------ build (build.py)

    def budget_of(self, build: dict, ctx: Context, report: Report) -> dict[str, int]:
        """``skill_points`` from the document (or the house default); ``force_points`` always
        from the power level table (a document's own force budget is ignored, with a warning)."""
        build = build_rules.without_force_budget(build, report)
        out = super().budget_of(build, ctx, report)
        out.pop("force_points", None)
        total = build_rules.force_budget(build, ctx)
        return out if total is None else {"force_points": total, **out}

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        build_rules.check(build, report, ctx)

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        build_rules.check_advancement(old, new, report, ctx)

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return build_rules.check_homebrew_entry(kind, entry, path)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(build_rules.check_settings(settings))
        return issues

    def traits(self, ctx: Context) -> dict[str, Any]:
        return build_rules.traits(ctx)

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        return build_rules.blank_build(self.slug, name, budget, ctx or self.context())

    # ------------------------------------------------ dice (dice.py), play state (state.py)
    # The base class's odds, roll, rollables and play-state hooks call these (engine/interfaces.py).

    dice = ParagonDice()
    play_state = ParagonPlayState()

    # ------------------------------------------------------------ combat (combat.py)

    def make_combat(self):
        """The combat hooks (combat.py)."""
        from .combat import ParagonCombat

        return ParagonCombat(self)


RULESET = Paragon()
