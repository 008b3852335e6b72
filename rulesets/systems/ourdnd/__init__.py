"""Our D&D (`ourdnd`, seed 003, RULES.md §4): the Ruleset, wiring only. The rules are in
``character/`` (checks, pricing, derived numbers, builder traits), ``dice.py`` (odds, rolls and
the sheet's roll buttons), ``state.py`` (play state), ``combat/`` (turns) with
``distance.py`` (the bands between combatants), and the content in ``content/*.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import character as build_rules
from . import dice, distance, homebrew_forms
from . import state as state_rules


class OurDnD(Ruleset):
    slug = "ourdnd"
    name = "Our D&D"
    seed = "003_7d3043291c4cf459.txt"
    currencies = ("points",)
    known_keys = frozenset({"stats", "hearts", "gear"})
    item_summary_keys = ("die", "effort", "defense")
    homebrew_kinds = ("gear",)
    homebrew_forms = homebrew_forms.FORMS
    about = "Our D&D keeps to six core stats: no skills, feats or talents. Checks and attempts roll a d20 with a stat against the Target Difficulty; an attempt also rolls an effort die to finish a task or a foe."
    #: Two of one item are two items (two daggers): two tabs that each add one keep both.
    duplicate_lists = ("/gear",)
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py, content/effects.json): the stat and TD shift; easy and hard are
    # circumstances that combine (``combine_modes``: they cancel), so an effect adds one of the two
    # ("normal" is no circumstance: it changes nothing, so no effect sets it). The table sets the
    # TD and the mode (help from an ally makes a check easy: ``roll_aids``).
    effect_keys_declared = {"stat": None, "td": 1}
    effect_modes = ("easy", "hard")
    table_keys = ("td", "mode")

    def success(self, answer: dict, need: int | None = None) -> float:
        """CONTRACT.md "Success": ``success`` (it includes ``critical``); an opposed roll's ``win``."""
        if "win" in answer:
            return float(answer["win"])
        return float(answer.get("success", 0.0))

    # ------------------------------------------------------------ effects (the GM's screen)

    def combine_modes(self, request: dict[str, Any], modes: list[Any]) -> Any:
        """Seed "EASY AND HARD": the request's own mode and every effect's are circumstances; never
        more than one extra d20 (easy twice is easy), and easy with hard cancel (a single d20). An
        effort roll has no mode: it keeps none."""
        if "effort" in request:
            return None
        found = {m for m in [request.get("mode"), *modes] if m in ("easy", "hard")}
        return found.pop() if len(found) == 1 else "normal"

    def effect_base(self, key: str, request: dict[str, Any]) -> Any:
        """A stat or TD change reaches checks only: an effort roll has neither (None: left alone)."""
        return None if "effort" in request else 0

    def roll_aids(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """Seed "EASY AND HARD": "If another character is helping you" the roll is EASY."""
        return [
            {
                "id": "help",
                "label": "Another character helps",
                "text": (
                    "The check is EASY: roll 2d20 and keep the higher. A check that was HARD is "
                    "neither (easy and hard cancel: a single d20); one already easy stays easy "
                    "(never more than one extra d20)."
                ),
                "changes": [{"target": "all", "mode": "easy"}],
            }
        ]

    def summary(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The party page's headline numbers: Defense (enemies roll against it + 10), the six stats
        every check adds (gear bonuses included) and whether Heroic Inspiration is held. HP is a pool."""
        c = self.context_of(report, ctx)
        derived = report.derived if report is not None else {}
        stats = derived.get("stats")
        if not isinstance(stats, dict):
            stats = get_as(build, "stats", dict, {})
        names = c.catalogue.get("stats", {})
        out: list[dict[str, Any]] = []
        if is_int(derived.get("defense")):
            out.append({"label": self.label("defense"), "value": derived["defense"]})
        for stat in build_rules.STATS:
            if is_int(stats.get(stat)):
                out.append({"label": names.get(stat, {}).get("name", stat.upper()), "value": stats[stat]})
        held = bool(isinstance(state, dict) and state.get("inspiration") is True)
        out.append({"label": self.label("inspiration"), "value": "Yes" if held else "No"})
        return out

    def action_with_effects(
        self, action: dict, state: dict, build: dict, report: Report, *, ctx: Context | None = None
    ) -> dict:
        """Recover rolls d20 + CON vs the TD with the character's effects (``state.CHECK``, made
        here from the state's effects; one a client sends is dropped)."""
        action = {k: v for k, v in action.items() if k != state_rules.CHECK}
        if action.get("action") != "recover":
            return action
        check = state_rules.recover_check(action, build, report, self.context_of(report, ctx))
        if check is None:
            return action
        return {**action, state_rules.CHECK: self.with_effects(check, state, dice.check_id("con"))}

    # ------------------------------------------------------------ the build (character/)

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
    # The base class's odds, roll, rollables and play-state hooks call these modules' functions by
    # name (engine/interfaces.py).

    dice = dice
    play_state = state_rules

    def time_passes(
        self,
        state: dict,
        build: dict,
        report: Report,
        *,
        span: Span,
        roller: Roller | None = None,
        ctx: Context | None = None,
    ) -> Passage:
        """One rest per 24 hours (state.py): a new day on the clock allows the next."""
        return state_rules.time_passes(state, build, report, span=span, ctx=self.context_of(report, ctx))

    def odds_chart(self, answer: dict[str, Any]) -> list[tuple[str, float]] | None:
        """A check's answer overlaps (success includes critical, failure is left out): the chart
        shows the four outcomes a roll lands on, each once."""
        return dice.check_outcomes(answer)

    # ------------------------------------------------------------ combat (combat/)

    def make_combat(self):
        """The combat hooks (combat/)."""
        from .combat import OurDnDCombat

        return OurDnDCombat(self)


RULESET = OurDnD()
