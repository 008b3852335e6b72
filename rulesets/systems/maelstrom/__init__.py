"""Maelstrom (seed 004): d10 pools, attributes + abilities + specialties bought with XP.

The rules are in ``character/`` (house rules, build checks, pricing, creation, advancement,
builder traits, blank build), ``state.py`` (health track, willpower), ``dice.py`` (odds,
rolls, the sheet's roll buttons), ``combat/`` (encounters), ``importer.py`` (the Maelstrom
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

Effects (engine/effects.py, this folder's ``effects.py``): Wounds (native: bashing levels on the
health track, whose wound penalty the pools already carry) and Prone (a house default). A change's
target is ``"all"`` or one roll id (``strength``, ``strength__athletics``, ``willpower``): the ids
have no prefix that groups them. The roll picker's roll and the encounter's rolls take the effects
of the sheet's roll of the same traits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import is_int
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import character as build_rules
from . import dice as dice_rules
from . import effects as named
from . import homebrew_forms, importer, picker, recovery, state, weapons


class MaelstromRuleset(Ruleset):
    slug = "maelstrom"
    name = "Maelstrom"
    seed = "004_9fd047e5a2b53674.txt"
    currencies = ("xp",)
    known_keys = frozenset({"attributes", "abilities", "willpower", "specialties", "creation"})
    # What a storyteller adds: specialties not in the book's suggestions ("work with the
    # storyteller", says the seed) and whole new abilities for a setting.
    homebrew_kinds = ("specialties", "abilities")
    homebrew_forms = homebrew_forms.FORMS
    about = "Maelstrom builds characters from attributes, abilities and their specialties. A roll is a pool of ten-sided dice: each die at or above the difficulty is a success, each 1 a botch that cancels one, and a threshold takes away that many successes first."
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): the pool (at least 1 die) and the difficulty shift; the table sets
    # the difficulty (and the successes needed: the party roll's ``need``).
    effect_keys_declared = {"pool": 1, "difficulty": 2, "threshold": 0}
    # The odds take at most 30 dice and a difficulty of 10 (seed: "between two and ten").
    effect_keys_max = {"pool": 30, "difficulty": 10}
    table_keys = ("difficulty", "threshold")
    success_needs = True

    def effect_base(self, key: str, request: dict[str, Any]) -> Any:
        """A request without a difficulty rolls at the default difficulty (house rule, default 6)."""
        if key == "difficulty":
            return self.house_defaults.get("default_difficulty", 6)
        return 0

    def effects_in_step(self, state_: dict[str, Any], *, ctx: Context) -> dict[str, Any]:
        """Wounds effects end once the health track holds no bashing damage (healed on the sheet or
        in a fight): the track is the one truth."""
        health = state_.get("health")
        if isinstance(health, list) and "bashing" in health:
            return state_
        gone = [
            e["id"] for e in fx.active_entries(state_) if e.get("effect") == named.WOUNDS and e.get("native")
        ]
        return fx.without(state_, gone) if gone else state_

    def effect_catalogue(self, ctx: Context | None = None) -> dict[str, fx.EffectKind]:
        """``content/effects.json`` (and the campaign's homebrew effects), Wounds read from the
        campaign's health chart (effects.py)."""
        ctx = self.context_of(None, ctx)
        return named.catalogue(super().effect_catalogue(ctx), self._house(ctx).health_chart)

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
            # The fight's numbers say what is wrong in the game's words: the base class's type check
            # of the same key (which quotes the whole default) is left out.
            fight = weapons.check_settings(settings, self.catalogue)
            said = {i.path for i in fight}
            issues = [*(i for i in issues if i.path not in said), *fight]
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

    dice = dice_rules
    play_state = state
    # Seed "Zero Willpower": an ally spends a dot to restore a character at 0 to one dot (state.py).
    ally_actions = {"rally": "rallied"}

    def time_passes(
        self,
        state_: dict,
        build: dict,
        report: Report,
        *,
        span: Span,
        roller: Roller | None = None,
        ctx: Context | None = None,
    ) -> Passage:
        """A willpower dot every 12 safe hours, and the resting roll (recovery.py)."""
        return recovery.time_passes(
            state_, build, report, span=span, roller=roller, ctx=self.context_of(report, ctx)
        )

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
        rollable = picker.picked(
            build,
            report,
            state_,
            inputs,
            ctx,
            state.chart_of(report, h.health_chart),
            h.willpower_start,
            h.default_difficulty,
        )
        # The effects reach the composed roll as they reach the sheet's roll of the same traits.
        inputs_ = rollable.get("inputs") or {}
        rid = named.roll_id(
            (inputs_.get("attribute") or [""])[0],
            (inputs_.get("ability") or [""])[0],
            ctx.catalogue["abilities"],
        )
        names = named.names_reaching(state_, rid or self.PICKED)
        if names:
            rollable["request"] = self.with_effects(rollable["request"], state_, rid or self.PICKED)
            rollable["effects"] = names
            rollable["note"] = "; ".join(n for n in (rollable.get("note"), ", ".join(names)) if n)
        return rollable

    # ------------------------------------------------------------ the GM's screen

    def summary(
        self, build: dict, report: Report, state_: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The health level (the lowest damaged box of the track), its wound penalty and the
        permanent willpower."""
        out: list[dict[str, Any]] = []
        if state_:
            eff = self.state_effects(build, report, state_, ctx=ctx)
            level = "Dead" if eff["dead"] else eff["wound_level"] or "Unhurt"
            out.append({"label": self.label("health_levels"), "value": level})
            penalty = self._track_penalty(build, report, state_, ctx)
            out.append({"label": self.label("wound_penalty"), "value": penalty})
        willpower = (report.derived if report is not None else {}).get("willpower", build.get("willpower"))
        if is_int(willpower):
            out.append({"label": self.label("willpower"), "value": willpower})
        return out

    def _track_penalty(self, build: dict, report: Report, state_: dict, ctx: Context | None) -> int:
        """The wound penalty of the track (what a willpower dot would ignore for one action)."""
        h = self._house(self.context_of(report, ctx))
        chart = state.chart_of(report, h.health_chart)
        filled = sum(1 for box in state_.get("health") or [] if box is not None)
        return named.penalty_at(chart, filled)

    def pools(
        self, build: dict, report: Report, state_: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The health track (empty boxes of boxes) and willpower (current of permanent)."""
        if not state_:
            return []
        h = self._house(self.context_of(report, ctx))
        boxes = len(state.chart_of(report, h.health_chart))
        health = state_.get("health")
        damaged = sum(1 for box in health if box is not None) if isinstance(health, list) else 0
        track = {
            "id": "health",
            "label": self.label("health_levels"),
            "current": max(0, boxes - damaged),
            "max": boxes,
        }
        return [track, *super().pools(build, report, state_, ctx=ctx)]

    # -------------------------------------------------------------- helpers

    def _house(self, ctx: Context) -> build_rules.House:
        """The campaign's house rules, read once per context."""
        return build_rules.house(ctx, self.house_defaults)

    # ---------------------------------------------------------------- combat

    def make_combat(self):
        """Maelstrom's combat turns (combat/)."""
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
