"""Pando (seed 000, RULES.md section 1): attributes bought with CP, a skill tree grown from
Capability, resistances tied to personality attributes, equipment on a body of parts.

Wiring only: ``build.py`` checks, prices and derives a build (and the homebrew, the builder's
traits and blank build), ``dice.py`` the efficiency roll and the sheet's roll buttons, ``state.py``
the play state (its shape is documented there), ``loadout.py`` what is wielded, worn
or carried on the sheet, ``combat.py`` the action rounds, ``content/`` the
catalogues and house defaults.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import build as build_rules
from . import loadout
from .dice import PandoDice
from .state import PandoPlayState


class PandoRuleset(Ruleset):
    slug = "pando"
    name = "Pando"
    seed = "000_1b23bdfbced6bd10.txt"
    currencies = ("cp",)
    known_keys = frozenset({"species", "attributes", "resistances", "skills", "equipment"})
    homebrew_kinds = ("skills", "items", "species")
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): a change shifts the dice (at least 1) or the skill level; the
    # table sets nothing of a Pando roll (effect points needed are the party roll's ``need``).
    effect_keys_declared = {"dice": 1, "skill": 0}
    success_needs = True

    def success(self, answer: dict, need: int | None = None) -> float:
        """P(effect points >= ``need``, default 1)."""
        need = 1 if need is None else need
        return float(sum(p for ep, p in (answer.get("ep") or {}).items() if int(ep) >= need))

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        build_rules.check_build(build, report, ctx)

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        build_rules.check_advancement(old, new, report)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(build_rules.check_settings(settings))
        return issues

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return build_rules.homebrew_problems(kind, entry, path)

    def split_homebrew(self, homebrew: Any) -> tuple[dict[str, list[dict]], list[Issue]]:
        """Field checks per entry (base class), then the skill tree across the whole homebrew (a parent
        may be another homebrew skill) and items with every field filled in (``build.py``)."""
        good, issues = super().split_homebrew(homebrew)
        return build_rules.finish_homebrew(good, issues, homebrew, self.catalogue)

    def traits(self, ctx: Context) -> dict[str, Any]:
        return build_rules.traits(ctx)

    # ------------------------------------------------ the loadout on the sheet (loadout.py)

    def equipment(self, build: dict, *, ctx: Context | None = None) -> dict[str, Any] | None:
        return loadout.equipment(self, build, self.context_of(None, ctx))

    def equipment_change(
        self, build: dict, index: int, change: Any, *, ctx: Context | None = None
    ) -> tuple[dict, str]:
        return loadout.equipment_change(self, build, index, change, self.context_of(None, ctx))

    def item_summary(self, option: dict[str, Any]) -> str:
        return loadout.item_summary(option)

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        return build_rules.blank_build(name, budget, ctx or self._default_context)

    # ------------------------------------------------ dice (dice.py), play state (state.py)
    # The base class's odds, roll, rollables and play-state hooks call these (engine/interfaces.py).

    dice = PandoDice()
    play_state = PandoPlayState()

    # --------------------------------------------------------------- combat

    def make_combat(self):
        """Pando's action rounds (combat.py)."""
        from .combat import PandoCombat

        return PandoCombat(self)


RULESET = PandoRuleset()
