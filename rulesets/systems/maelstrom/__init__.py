"""Maelstrom (seed 004): d10 pools, attributes + abilities + specialties bought with XP.

The rules are in ``build.py`` (house rules, build checks, pricing, creation, advancement,
builder traits, blank build), ``state.py`` (health track, willpower), ``dice.py`` (odds,
rolls, the sheet's roll buttons), ``combat.py`` (encounters), ``importer.py`` (the Maelstrom
project's own JSON character sheets, for ``import_sheet``) and ``content/``; this class only
declares the ruleset and wires those modules to the ``Ruleset`` hooks.

Odds and roll request (CONTRACT.md's shape, extended compatibly)::

    {"pool": N, "difficulty": D, "threshold": K}            as CONTRACT.md has it
    + "required": ["Swords", ...]      advanced specialties the storyteller requires: each one
                                       not among "specialties" adds 1 to the threshold
    + "specialties": ["Swords", ...]   the specialties this roll uses, at most "ability_dots"
    + "ability_dots": A                the rolled ability's dots (needed with "specialties")
    + "unskilled": true                a skill with no dots, the attribute alone: difficulty +1

The sheet composes these requests with ``picker.py`` (``roll_picker``/``picked_roll``): two traits,
specialties and a willpower dot against the wound penalty, instead of a button per pair.

The answer keeps CONTRACT.md's shape; a roll also says the threshold it used and the
required specialties it lacked (``threshold``, ``required_missing``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import build as build_rules
from . import importer, picker, state
from .dice import MaelstromDice
from .state import MaelstromPlayState


class MaelstromRuleset(Ruleset):
    slug = "maelstrom"
    name = "Maelstrom"
    seed = "004_9fd047e5a2b53674.txt"
    currencies = ("xp",)
    known_keys = frozenset({"attributes", "abilities", "willpower", "specialties", "creation"})
    # What a storyteller adds: specialties not in the book's suggestions ("work with the
    # storyteller", says the seed) and whole new abilities for a setting.
    homebrew_kinds = ("specialties", "abilities")
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): the pool (at least 1 die) and the difficulty shift; the table sets
    # the difficulty (and the successes needed: the party roll's ``need``).
    effect_keys_declared = {"pool": 1, "difficulty": 2, "threshold": 0}
    table_keys = ("difficulty", "threshold")
    success_needs = True

    def success(self, answer: dict, need: int | None = None) -> float:
        """P(successes >= ``need``, default 1)."""
        need = 1 if need is None else need
        return float(sum(p for n, p in (answer.get("successes") or {}).items() if int(n) >= need))

    # ---------------------------------------------------------------- build

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        build_rules.check(build, report, ctx, self.house_defaults)

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        build_rules.check_advancement(old, new, report, ctx)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(build_rules.check_settings(settings, self.house_defaults))
        return issues

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return build_rules.check_homebrew_entry(kind, entry, path)

    def split_homebrew(self, homebrew: Any) -> tuple[dict[str, list[dict]], list[Issue]]:
        good, issues = super().split_homebrew(homebrew)
        issues.extend(
            build_rules.drop_orphan_specialties(good, homebrew, self.catalogue.get("abilities", {}))
        )
        return good, issues

    def traits(self, ctx: Context) -> dict[str, Any]:
        return build_rules.traits(ctx, self.house_defaults)

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        return build_rules.blank_build(name, budget, ctx or self._default_context, self.house_defaults)

    # ------------------------------------------------ dice (dice.py), play state (state.py)
    # The base class's odds, roll, rollables and play-state hooks call these (engine/interfaces.py).

    dice = MaelstromDice()
    play_state = MaelstromPlayState()

    # ------------------------------------------------------------ the roll picker (picker.py)

    def roll_picker(
        self,
        build: dict,
        report: Report,
        state_: dict | None = None,
        inputs: dict[str, list[str]] | None = None,
        *,
        ctx: Context | None = None,
    ) -> dict[str, Any] | None:
        """Two traits, specialties and willpower instead of a button per pair (picker.py)."""
        ctx = self.context_of(report, ctx)
        h = self._house(ctx)
        return picker.picker(
            build, report, state_, inputs, ctx, state.chart_of(report, h.health_chart), h.willpower_start
        )

    def picked_roll(
        self,
        build: dict,
        report: Report,
        state_: dict | None,
        inputs: dict[str, list[str]],
        *,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        ctx = self.context_of(report, ctx)
        h = self._house(ctx)
        return picker.picked(
            build,
            report,
            state_,
            inputs,
            ctx,
            state.chart_of(report, h.health_chart),
            h.willpower_start,
            h.default_difficulty,
        )

    # -------------------------------------------------------------- helpers

    def _house(self, ctx: Context) -> build_rules.House:
        """The campaign's house rules, read once per context."""
        return build_rules.house(ctx, self.house_defaults)

    # ---------------------------------------------------------------- combat

    def make_combat(self):
        """Maelstrom's combat turns (combat.py)."""
        from .combat import MaelstromCombat

        return MaelstromCombat(self)

    # ------------------------------------------------- what the product shows

    def quick_awards(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The seed's awards (content/awards.json), each one click: chapter, story and personal XP."""
        return [
            {
                "id": e["id"],
                "label": f"{e.get('name', e['id'])} ({e.get('scope', '')})",
                "currency": "xp",
                "amount": e.get("xp", 1),
                "who": e.get("who", "each"),
                "scope": e.get("scope", ""),
                "help": e.get("description", ""),
            }
            for e in (self.catalogue.get("awards") or {}).values()
        ]

    # ---------------------------------------------------------------- import

    def import_sheet(self, data: Any, *, ctx: Context | None = None) -> tuple[dict | None, list[Issue]]:
        """The Maelstrom project's own JSON character sheets (importer.py)."""
        return importer.import_sheet(data, ctx=self.context_of(None, ctx))


RULESET = MaelstromRuleset()
