"""Paragon RPG (`paragon`, seed 001, RULES.md section 2): the Ruleset, wiring only.

``character/`` checks, prices and derives a build (its docstring has the build document and the codes)
and gives the builder its traits and blank build; ``dice.py`` the check's exact odds, rolls and roll
buttons; ``state.py`` the play state; ``combat/`` violence; ``content/`` the catalogues and house
defaults.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from rulesets.engine.activities import Downtime
from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import character as build_rules
from . import citadel, homebrew_forms, party, powers
from . import dice as dice_rules
from . import state as play_rules


class Paragon(Ruleset):
    slug = "paragon"
    name = "Paragon RPG"
    seed = "001_fe5bd79273a0e4bf.txt"
    currencies = ("force_points", "skill_points")
    awardable = ("skill_points",)
    known_keys = frozenset({"power_level", "forces", "path", "skills", "resources"})
    homebrew_kinds = ("skills", "powers")
    homebrew_forms = homebrew_forms.FORMS
    about = (
        "Paragon RPG is a game of five forces: Fire, Wind, Thunder, Light and Shadow. A check rolls a "
        "twelve-sided die that explodes on a 12, a six-sided die per rank of the force and twice the "
        "skill’s rank, against a target number or another’s roll."
    )
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py, content/effects.json): force dice, skill and TN shift; the table
    # sets the TN, or an opposed roll and the other side's force and skill.
    effect_keys_declared = dict(dice_rules.EFFECT_FLOORS)
    table_keys = ("tn", "against", "opponent_force", "opponent_skill")
    # The seed's one rest: "Stamina regenerates when a character sits down and regulates their breathing".
    rest_actions = ("catch_breath",)

    def success(self, answer: dict, need: int | None = None) -> float:
        """CONTRACT.md "Success": ``pass``, the chance to reach the TN (or to win the opposed roll)."""
        return float(answer.get("pass", 0.0))

    # ------------------------------------------------------------ build (character/)

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
        return build_rules.check_homebrew_entry(
            kind, entry, path, frozenset(self.catalogue.get("skills", {}))
        )

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(build_rules.check_settings(settings, self.house_defaults))
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

    dice = dice_rules
    play_state = play_rules

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
        """Dynama regeneration by the hour (state.py)."""
        return play_rules.time_passes(state, build, report, span=span, ctx=self.context_of(report, ctx))

    # ------------------------------------------------- effects (content/effects.json), party.py
    # Tired and incapacitated are native: state.py keeps them (``imposed``, Stamina 0, Health below
    # half; each effect ``held_by`` its ``/imposed/<condition>``, so lifting it ends the effect) and
    # applies their numbers (``state_effects``'s "changes", which dice.py and combat add).

    # ------------------------------------------------- the citadel phase (citadel.py, W9)

    def check_activities(
        self, picks: Any, build: dict, report: Report, *, ctx: Context | None = None
    ) -> list[Issue]:
        issues = super().check_activities(picks, build, report, ctx=ctx)
        if issues:
            return issues
        return citadel.check(picks, self.context_of(report, ctx))

    def apply_activities(
        self,
        state: dict,
        build: dict,
        report: Report,
        picks: list[str],
        roller: Roller | None = None,
        *,
        ctx: Context | None = None,
    ) -> Downtime:
        return citadel.apply(state, build, report, picks, roller or Roller(), self.context_of(report, ctx))

    def action_with_effects(
        self, action: dict, state: dict, build: dict, report: Report, *, ctx: Context | None = None
    ) -> dict:
        """A power's roll (powers.py) as the sheet rolls that skill: the character's effects and the
        numbers of the conditions the state holds (tired: a force die fewer). One a client sends is
        dropped."""
        action = {k: v for k, v in action.items() if k != powers.CHECK}
        if action.get("action") != "use_power":
            return action
        c = self.context_of(report, ctx)
        pid = action.get("power")
        entry = powers.catalogue(c).get(pid) if isinstance(pid, str) else None
        if entry is None:
            return action
        request = powers.check_request(entry, build, c)
        if request is None:
            return action
        rid = powers.rollable_id(entry)
        request = self.with_effects(request, state, rid)
        held = self.state_effects(build, report, state, ctx=c).get("changes") or []
        return {**action, powers.CHECK: dice_rules.shift(request, held, rid)}

    def labels(self) -> dict[str, str]:
        """``content/labels.json``, and each power's id in its name (the derived ``powers``)."""
        return self._labels

    @cached_property
    def _labels(self) -> dict[str, str]:
        return {
            **super().labels(),
            **{pid: p.get("name", pid) for pid, p in self.catalogue.get("powers", {}).items()},
        }

    def changed_rollable(self, rollable: dict[str, Any]) -> dict[str, Any]:
        """The roll an effect changed, spelled out anew in its label (dice.py ``changed_rollable``)."""
        return dice_rules.changed_rollable(rollable)

    def label(self, key: Any) -> str:
        """A roll's id in words, as an effect's change names it: "skill:melee" → "Melee",
        "force:fire" → "Fire check"; else the labels."""
        if isinstance(key, str) and ":" in key:
            group, _, rid = key.partition(":")
            found = self.catalogue.get("skills" if group == "skill" else "forces", {}).get(rid)
            if group in ("skill", "force") and isinstance(found, dict):
                name = str(found.get("name") or rid)
                return name if group == "skill" else f"{name} check"
        return super().label(key)

    def summary(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        return party.summary(self, build, report, state, self.context_of(report, ctx))

    def pools(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        return party.pools(self, build, report, state, self.context_of(report, ctx))

    # ------------------------------------------------------------ combat (combat/)

    def make_combat(self):
        """The combat hooks (combat/)."""
        from .combat import ParagonCombat

        return ParagonCombat(self)


RULESET = Paragon()
