"""Pando (seed 000, RULES.md section 1): attributes bought with CP, a skill tree grown from
Capability, resistances tied to personality attributes, equipment on a body of parts.

Wiring only: ``character/`` checks, prices and derives a build (and the homebrew, the builder's
traits and blank build), ``dice.py`` the efficiency roll and the sheet's roll buttons, ``state.py``
<<<<<<< HEAD
the play state (its shape is documented there), ``loadout.py`` what is wielded, worn
or carried on the sheet, ``money.py`` the money a campaign's starting money leaves to spend in play
(W5), ``combat/`` the action rounds, ``content/`` the catalogues and house defaults.
=======
the play state (its shape is documented there), ``leisure.py`` actions at leisure and chanced
(W4), ``loadout.py`` what is wielded, worn or carried on the sheet, ``combat/`` the action rounds,
``content/`` the catalogues and house defaults.
>>>>>>> w4

Effects (engine/effects.py; ``content/effects.json``): Bleeding is native, exhaustion (Bleeding) in
the play state's exhaustion list, so a bandage that removes it ends the effect too
(``effects_in_step``); Stunned takes a die off every roll (a house default). A change's target is a
roll button's id or a prefix of them: ``skill:<skill id>`` (``skill:`` every skill roll) and
``item:<equipment index>:<action>`` (``item:`` every item's roll, ``item:0:`` every roll of the first
item). The encounter's actions roll with the matching ids (combat/specs.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.clock import Passage, Span
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import Ruleset

from . import character as build_rules
from . import dice as dice_rules
from . import healing, homebrew_forms, leisure, loadout
from . import outcomes as outcome_rules
from . import state as play_rules


class PandoRuleset(Ruleset):
    slug = "pando"
    name = "Pando"
    seed = "000_1b23bdfbced6bd10.txt"
    currencies = ("cp",)
    #: Money (W5): the campaign's starting money buys the equipment at creation (priced, never awarded
    #: or booked: what is left is the sheet's money pool in play, money.py). A build has money only
    #: when the campaign gives some (``starting_money``) or its budget names it.
    optional_currencies = ("money",)
    known_keys = frozenset({"species", "attributes", "resistances", "skills", "equipment"})
    homebrew_kinds = ("skills", "items", "species", "outcomes")
    homebrew_forms = homebrew_forms.FORMS
    about = (
        "Pando is a game of immersion and extensibility: characters spend Character Points on seven "
        "attributes, a tree of skills growing from Capability, and gear held and worn on the body. A "
        "roll’s Efficiency buys the outcomes of an action."
    )
    #: Two of one item are two items (a sword in each hand): two tabs that each add one keep both.
    duplicate_lists = ("/equipment",)
    content_dir = Path(__file__).parent / "content"
    # Effects (engine/effects.py): a change shifts the dice (at least 1) or the skill level; the
    # table sets nothing of a Pando roll (effect points needed are the party roll's ``need``).
    effect_keys_declared = {"dice": 1, "skill": 0}
    # The odds take at most 30 dice and a skill level of 6 (every die gives EP).
    effect_keys_max = {"dice": 30, "skill": 6}
    success_needs = True

    def success(self, answer: dict, need: int | None = None) -> float:
        """P(effect points >= ``need``, default 1)."""
        need = 1 if need is None else need
        return float(sum(p for ep, p in (answer.get("ep") or {}).items() if int(ep) >= need))

    def __init__(self) -> None:
        super().__init__()
        # Every action and item lists its outcomes in full (outcomes.py), in the catalogue the API,
        # the builder, the sheet and the encounter read.
        self.catalogue = outcome_rules.expanded(self.catalogue)
        self._default_context.catalogue = self.catalogue

    def _build_context(self, settings: dict, homebrew: dict, phase: str) -> Context:
        """The campaign's context, its actions and items listing their outcomes, homebrew included."""
        ctx = super()._build_context(settings, homebrew, phase)
        ctx.catalogue = outcome_rules.expanded(ctx.catalogue)
        return ctx

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        build_rules.check_build(build, report, ctx)

    def budget_of(self, build: dict, ctx: Context, report: Report) -> dict[str, int]:
        """CP from the document (else the starting budget); money from the document, else the house
        rule ``starting_money`` when the campaign gives some (W5; HD 0: none, no money budget)."""
        out = super().budget_of(build, ctx, report)
        money = build_rules.starting_money(ctx)
        if build_rules.MONEY not in out and money:
            out[build_rules.MONEY] = money
        return out

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        build_rules.check_advancement(old, new, report)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(build_rules.check_settings(settings))
        return issues

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        if kind == outcome_rules.KIND:
            return outcome_rules.outcome_problems(entry, path)
        return build_rules.homebrew_problems(kind, entry, path)

    def split_homebrew(self, homebrew: Any) -> tuple[dict[str, list[dict]], list[Issue]]:
        """Field checks per entry (base class), then the skill tree across the whole homebrew (a parent
        may be another homebrew skill) and items with every field filled in (``character/``)."""
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
        """Healing per day and per week of rest on the campaign's clock (healing.py); any move of the
        clock lets the actions chanced since it last moved be taken again (leisure.py, W4)."""
        passage = healing.time_passes(state, build, report, span=span, ctx=self.context_of(report, ctx))
        _, names = leisure.learned(build, report)
        return leisure.time_passes(passage, names, get_as(build, "name", str, "The character"))

    def chance_roll(
        self, state: dict[str, Any], rollable: dict[str, Any], build: dict, *, ctx: Context | None = None
    ) -> tuple[dict[str, Any], str]:
        """A skill's roll chanced at leisure: marked until the clock moves on (leisure.py, W4)."""
        return leisure.chance_roll(state, rollable, get_as(build, "name", str, "The character"))

    def roll_to_spend(
        self, rollable: dict[str, Any], result: dict[str, Any], *, ctx: Context | None = None
    ) -> dict[str, Any] | None:
        """A sheet roll's EP and the outcomes it may buy (outcomes.py), to spend after it (W1)."""
        return outcome_rules.to_spend(rollable, result)

    def spend_roll(
        self, pending: dict[str, Any] | None, request: dict[str, Any], *, ctx: Context | None = None
    ) -> dict[str, Any]:
        return outcome_rules.sheet_spend(pending, request)

    def changed_rollable(self, rollable: dict[str, Any]) -> dict[str, Any]:
        """An effect changed the roll: its label says the dice it rolls now and names the effect, its
        chances to afford each outcome follow (dice.py)."""
        return dice_rules.with_chances(dice_rules.relabelled(rollable))

    def effects_in_step(self, state: dict[str, Any], *, ctx: Context) -> dict[str, Any]:
        """Bleeding effects end with the last Bleeding source of the exhaustion list (a bandage, a
        source removed by hand): the list is the one truth."""
        sources = state.get("exhaustion")
        if isinstance(sources, list) and any(
            isinstance(e, dict) and e.get("type") == "bleeding" for e in sources
        ):
            return state
        gone = [
            e["id"] for e in fx.active_entries(state) if e.get("effect") == "bleeding" and e.get("native")
        ]
        return fx.without(state, gone) if gone else state

    # ------------------------------------------------------------ the GM's screen

    def summary(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """Momentum, the speed a round starts with now (max speed, less once stamina runs below it
        after the round's exhaustion loss), the resistances (less their harm) and total exhaustion."""
        derived = report.derived if report is not None else {}
        effects = self.state_effects(build, report, state, ctx=ctx) if state else {}
        out: list[dict[str, Any]] = []
        if is_int(derived.get("momentum")):
            out.append({"label": self.label("momentum"), "value": derived["momentum"]})
        max_speed = derived.get("max_speed")
        if is_int(max_speed):
            speed = max_speed
            stamina = state.get("stamina") if state else None
            if is_int(stamina):
                speed = min(max_speed, max(0, stamina - effects.get("stamina_loss_per_round", 0)))
            out.append({"label": self.label("speed"), "value": speed})
        resistances = effects.get("resistances") or derived.get("resistances") or {}
        for key in ("awareness", "insight", "willpower"):
            if is_int(resistances.get(key)):
                out.append({"label": self.label(key), "value": resistances[key]})
        if state:
            total = (effects.get("exhaustion") or {}).get("total", 0)
            out.append({"label": self.label("exhaustion"), "value": total})
        return out

    def pools(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """Stamina (of max stamina): the resistances' section lists harm, not a pool."""
        return [p for p in super().pools(build, report, state, ctx=ctx) if p["id"] == "stamina"]

    # --------------------------------------------------------------- combat

    def make_combat(self):
        """Pando's action rounds (combat/)."""
        from .combat import PandoCombat

        return PandoCombat(self)


RULESET = PandoRuleset()
