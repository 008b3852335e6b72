"""Our D&D (`ourdnd`, seed 003, RULES.md §4): the Ruleset, wiring only. The rules are in
``build.py`` (checks, pricing, derived numbers, builder traits), ``dice.py`` (odds, rolls and
the sheet's roll buttons), ``state.py`` (play state), ``combat.py`` (turns) with
``distance.py`` (the bands between combatants), and the content in ``content/*.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import build as build_rules
from . import dice, distance
from .dice import OurDnDDice
from .state import OurDnDPlayState


class OurDnD(Ruleset):
    slug = "ourdnd"
    name = "Our D&D"
    seed = "003_7d3043291c4cf459.txt"
    currencies = ("points",)
    known_keys = frozenset({"stats", "hearts", "gear"})
    item_summary_keys = ("die", "effort", "defense")
    homebrew_kinds = ("gear",)
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): the stat and TD shift, easy/hard set the mode; the table sets the
    # TD and the mode (help from an ally makes a check easy).
    effect_keys_declared = {"stat": None, "td": 1}
    effect_modes = ("normal", "easy", "hard")
    table_keys = ("td", "mode")

    def success(self, answer: dict, need: int | None = None) -> float:
        return float(answer.get("success", 0.0))

    # ------------------------------------------------------------ the build (build.py)

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        build_rules.check(build, report, ctx)

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return build_rules.check_homebrew_entry(kind, entry, path)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(distance.check_house_rules(settings))
        return issues

    def traits(self, ctx: Context) -> dict[str, Any]:
        return build_rules.traits(ctx)

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        return build_rules.blank_build(self.slug, name, budget, ctx or self.context())

    # ------------------------------------------------ dice (dice.py), play state (state.py)
    # The base class's odds, roll, rollables and play-state hooks call these (engine/interfaces.py).

    dice = OurDnDDice()
    play_state = OurDnDPlayState()

    def odds_chart(self, answer: dict[str, Any]) -> list[tuple[str, float]] | None:
        """A check's answer overlaps (success includes critical, failure is left out): the chart
        shows the four outcomes a roll lands on, each once."""
        return dice.check_outcomes(answer)

    # ------------------------------------------------------------ combat (combat.py)

    def make_combat(self):
        """The combat hooks (combat.py)."""
        from .combat import OurDnDCombat

        return OurDnDCombat(self)


RULESET = OurDnD()
