"""The Ruleset base class: every hook a game system fills in, documented once.

A ruleset takes plain data (the build document, the campaign's house rules and
homebrew content) and returns plain data (a Report, an odds answer, a roll). It
never touches the ORM, the request or the clock, and it never raises on user
input: problems are ``Issue`` values in the report.

Adding a ruleset: a folder under ``rulesets/systems/<slug>/`` whose
``__init__.py`` defines a subclass and ``RULESET = MyRuleset()``, its content
in ``content/*.json``, its templates in ``templates/<slug>/``, and one word in
``rulesets.systems.ORDER`` (the registry finds the folder). Its tests and
benches need only ``content/examples.json`` with a valid ``build`` and an
answerable ``odds`` request (required); the optional data that adds cases
(example builds with expectations in ``examples/*.json``, a typical build,
odds ranges, house rules worth testing…) is documented in ``examples.py``,
whose ``contract_data`` and ``example_builds`` the central tests and the
benchmarks read for every ruleset of the registry.

Content files: a JSON *list* of entries with an ``id`` is a catalogue (skills,
items, …) indexed by id and extensible by campaign homebrew; a JSON *object* is
a table kept as it is. ``content/house.json`` holds the house defaults
(RULES.md "HD"), which campaign house rules override key by key.

The class is written in six modules by job: this one holds the rules contract (validate, check,
price and derive a build; the dice, play-state and combat hooks), ``context.py`` the content and
the campaign's context (house rules, homebrew), ``presentation.py`` what the product shows (words,
starting points, page pieces), ``equipment.py`` the build's gear and its loadout (what is held,
worn or carried), ``examples.py`` the data its tests and benches read, ``activities.py`` what a
character does between adventures. ``Ruleset`` is all six; a
subclass overrides any hook of any part.
The dice and play-state rules themselves are the folder's ``dice.py`` and ``state.py`` functions
(interfaces.py ``Dice`` and ``PlayState``), wired as they are.
"""

from __future__ import annotations

import logging
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from . import effects as fx
from .activities import ActivitiesMixin
from .clock import Passage, Span
from .context import NPC_PHASE, Context, ContextMixin
from .dice import Roller
from .entries import EntryForm
from .equipment import EquipmentMixin
from .errors import StateError
from .examples import ExamplesMixin
from .fields import is_int
from .interfaces import Dice, PlayState
from .lists import entry_key, pointer_matches
from .pointer import ptr
from .presentation import PresentationMixin
from .report import Issue, Report

logger = logging.getLogger(__name__)

FORMAT = "sheetforge.build/1"
COMMON_KEYS = frozenset({"format", "ruleset", "name", "budget", "notes"})


class Ruleset(ContextMixin, PresentationMixin, EquipmentMixin, ExamplesMixin, ActivitiesMixin):
    """Base class of the five game systems. Subclasses set the class attributes
    and override the hooks marked "override"; the rest have working defaults."""

    slug: ClassVar[str] = ""
    name: ClassVar[str] = ""
    seed: ClassVar[str] = ""  # the rulebook file in shared/seeds/
    #: What the game is, in a sentence or three, for its reference page (``/rulesets/<slug>/``).
    about: ClassVar[str] = ""
    #: Currencies of this ruleset's budget, in display order.
    currencies: ClassVar[tuple[str, ...]] = ()
    #: Currencies that the GM awards and the ledger tracks (Paragon's force points come
    #: from the power level table, not from awards). Defaults to ``currencies``.
    awardable: ClassVar[tuple[str, ...] | None] = None
    #: Currencies besides ``currencies`` that a build has only when its budget gives some (Pando's
    #: money, from a campaign's starting money or the document's ``budget``): then the report carries
    #: them in ``spent``/``budget``/``remaining`` like any currency; a build without leaves them out
    #: (every report has every one of ``currencies``). Never awarded.
    optional_currencies: ClassVar[tuple[str, ...]] = ()
    #: Ruleset-specific top-level keys of the build document. Others are warnings.
    known_keys: ClassVar[frozenset[str]] = frozenset()
    #: Catalogue kinds that campaign homebrew may extend, e.g. ("skills", "items").
    homebrew_kinds: ClassVar[tuple[str, ...]] = ()
    #: Each homebrew kind's fields (entries.py ``EntryForm``): the editor is drawn from them and the
    #: engine checks every entry against them.
    homebrew_forms: ClassVar[dict[str, EntryForm]] = {}
    #: Folder of content/*.json; subclasses set ``content_dir = Path(__file__).parent / "content"``.
    content_dir: ClassVar[Path | None] = None

    # ------------------------------------------------------------------ the door

    def validate(
        self,
        doc: Any,
        *,
        settings: dict | None = None,
        homebrew: dict | None = None,
        phase: str = "draft",
        previous: dict | None = None,
    ) -> Report:
        """Check, price and derive a build. Never raises on input.

        ``settings`` are the campaign's house-rule overrides, ``homebrew`` its extra
        content ({kind: [entries]}), ``previous`` the approved build when this is an
        advancement (then ``check_advancement`` runs too). ``phase`` is "draft",
        "approval" (stricter where a ruleset says so) or ``NPC_PHASE`` ("npc": checked as a
        draft, but a budget overspend is a ``budget.exceeded`` *warning*: the GM's NPCs are
        not held to the players' budget, and the report still says what they would cost).
        """
        report = Report(self.slug)
        try:
            ctx = self.context(settings, homebrew, phase=phase)
            report.context = ctx
            report.warnings.extend(ctx.issues)
            if not isinstance(doc, dict):
                report.error("build.malformed", "", "A build document must be a JSON object.")
                return report
            self._check_common(doc, report)
            report.budget = self.budget_of(doc, ctx, report)
            self.check(doc, report, ctx)
            if isinstance(previous, dict):
                self.check_advancement(previous, doc, report, ctx)
            for currency, limit in report.budget.items():
                spent = report.spent.get(currency, 0)
                if spent > limit and phase == NPC_PHASE:
                    # An NPC is not held to a player's budget: what it would cost is information.
                    report.warn(
                        "budget.exceeded",
                        ptr("budget", currency),
                        f"As a player character this build would spend {spent} {self.currency_label(currency, spent)} "
                        f"of a budget of {limit} ({spent - limit} over); an NPC is not held to it.",
                    )
                elif spent > limit:
                    report.error(
                        "budget.exceeded", ptr("budget", currency), self.overspent(currency, spent, limit)
                    )
            for currency in self.currencies:
                report.spent.setdefault(currency, 0)
                report.budget.setdefault(currency, 0)
        except Exception:  # the safety net: a bug in a ruleset must not become a 500
            logger.exception("ruleset %s raised on a document", self.slug)
            report.error(
                "build.malformed",
                "",
                "The rules service could not read this build; check that every value has the type "
                "the ruleset expects.",
            )
        return report

    def _check_common(self, doc: dict, report: Report) -> None:
        fmt = doc.get("format", FORMAT)
        if fmt != FORMAT:
            report.error(
                "build.malformed", "/format", f'Unknown format {fmt!r}: this service reads "{FORMAT}".'
            )
        name = doc.get("name")
        if name is None:
            report.error("build.malformed", "/name", "Give the character a name (1–120 characters).")
        elif not isinstance(name, str) or not 1 <= len(name.strip()) <= 120:
            report.error("build.malformed", "/name", "The name must be text of 1 to 120 characters.")
        notes = doc.get("notes")
        if notes is not None and not isinstance(notes, str):
            report.error("build.malformed", "/notes", "Notes must be text.")
        if self._document_keys.issuperset(doc):
            return  # the common case: every key known
        for key in doc:
            if key not in COMMON_KEYS and key not in self.known_keys:
                report.warn(
                    "build.unknown_key",
                    ptr(key),
                    f"{self.name} does not know the key {key!r}; it is kept but ignored.",
                )

    @cached_property
    def _document_keys(self) -> frozenset[str]:
        """The top-level keys of a build document this ruleset knows (the common ones and its own)."""
        return COMMON_KEYS | self.known_keys

    # ---------------------------------------------------------- override these

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        """Override: validate, price (``report.charge``) and derive (``report.derived``).

        Called after the common keys were checked and ``report.budget`` set. Errors
        go in with ``report.error(code, path, message)``; ``budget.exceeded`` is
        added afterwards by ``validate`` from ``spent`` and ``budget``.
        """
        raise NotImplementedError

    def budget_of(self, build: dict, ctx: Context, report: Report) -> dict[str, int]:
        """What the build has to spend, per currency. Default: the document's ``budget``,
        falling back to the house default starting budget for a currency it omits."""
        starting = ctx.settings.get("starting_budget", {}) if isinstance(ctx.settings, dict) else {}
        raw = build.get("budget", {})
        out: dict[str, int] = {}
        if not isinstance(raw, dict):
            example = self.currencies[0] if self.currencies else "points"
            report.error(
                "build.malformed", "/budget", f'The budget must be an object such as {{"{example}": 40}}.'
            )
            raw = {}
        for currency, amount in raw.items():
            if currency not in self.currencies and currency not in self.optional_currencies:
                known = ", ".join((*self.currencies, *self.optional_currencies))
                report.warn(
                    "build.unknown_key",
                    ptr("budget", currency),
                    f"{self.name} has no currency {currency!r} (it uses {known}).",
                )
                continue
            if not is_int(amount) or amount < 0:
                report.error(
                    "build.malformed",
                    ptr("budget", currency),
                    f"The {currency} budget must be a whole number ≥ 0.",
                )
                continue
            out[currency] = amount
        for currency in self.currencies:
            if currency not in out and is_int(starting.get(currency)):
                out[currency] = starting[currency]
        return out

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        """Override: rules that compare a proposed build with the approved one
        (Pando's fixed resistance mapping, Maelstrom's nothing-decreases)."""

    def traits(self, ctx: Context) -> dict[str, Any]:
        """Override: what a build is made of, for the builder and ``GET /rulesets/<slug>/``
        (attributes with ranges and costs, skill groups, slots, …)."""
        return {}

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        """Override: the starting point of a new character in the builder."""
        return {"format": FORMAT, "ruleset": self.slug, "name": name, "budget": dict(budget or {})}

    def describe(self, ctx: Context | None = None) -> dict[str, Any]:
        """The ruleset as the API and the builder see it."""
        ctx = ctx or self._default_context
        return {
            "slug": self.slug,
            "name": self.name,
            "seed": self.seed,
            "currencies": list(self.currencies),
            "awardable": list(self.awardable_currencies),
            "optional_currencies": list(self.optional_currencies),
            "traits": self.traits(ctx),
            "catalogue": {kind: list(entries.values()) for kind, entries in ctx.catalogue.items()},
            "house_defaults": self.house_defaults,
            "homebrew_kinds": list(self.homebrew_kinds),
        }

    @cached_property
    def awardable_currencies(self) -> tuple[str, ...]:
        return self.awardable if self.awardable is not None else self.currencies

    # ------------------------------------------------ dice and play state (interfaces.py)
    # A ruleset's folder implements them as plain functions, its ``dice.py`` the ``Dice`` ones and its
    # ``state.py`` the ``PlayState`` ones, wired by its ``__init__.py`` as they are (``dice = dice``,
    # ``play_state = state``); the hooks below call them by name. Without them, the hooks below
    # answer "none" (no buttons, an empty state) or refuse.

    #: The folder's core roll (its ``dice.py`` module): odds, rolls and the sheet's roll buttons.
    dice: Dice | None = None
    #: The folder's play state (its ``state.py`` module): pools, harm, conditions and their actions.
    play_state: PlayState | None = None

    # Every dice, play-state and combat hook takes the campaign's ``ctx`` (keyword): its house rules
    # and merged homebrew catalogue. Callers build it once per campaign
    # (``ruleset.context(settings=campaign house rules, homebrew=campaign homebrew)``) and pass it;
    # a hook resolves ``self.context_of(report, ctx)`` (ctx, else the report's, else the defaults)
    # and hands the interfaces a ``Context``, never None.

    def odds(self, request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
        """The exact distribution of the core roll (CONTRACT.md "Odds"), house rules of ``ctx`` applied
        to what the request leaves out. Raise ``OddsError`` for a request it cannot answer.
        Default: ``self.dice.odds``; no dice, ``NotImplementedError``."""
        if self.dice is None:
            raise NotImplementedError(f"{self.slug} has no odds")
        return self.dice.odds(request=request, ctx=self.context_of(None, ctx))

    def roll(self, request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
        """Roll the core roll for real with ``roller`` (same request as ``odds``).
        Returns {"faces": [...], "total": n, "outcome": "success"|…, "text": "…"}.
        Default: ``self.dice.roll``; no dice, ``NotImplementedError``."""
        if self.dice is None:
            raise NotImplementedError(f"{self.slug} has no rolls")
        return self.dice.roll(request=request, roller=roller, ctx=self.context_of(None, ctx))

    def rollables(
        self, build: dict, report: Report, state: dict | None = None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The sheet's roll buttons: [{"id", "label", "request", "group"?, "cost"? (what the roll costs in
        words, shown beside it: "2 speed"), "reason"?, "usable"?}] where ``request`` goes to ``odds``
        and ``roll`` unchanged (state such as wound penalties applied, house defaults such as the
        default difficulty from ``ctx``, homebrew entries of ``ctx.catalogue``).
        A rollable marked ``"picker": True`` is one the ruleset's roll picker composes (below): the
        sheet shows the picker instead of its button.
        Default: ``self.dice.rollables``; no dice, none."""
        if self.dice is None:
            return []
        found = self.dice.rollables(build=build, report=report, state=state, ctx=self.context_of(report, ctx))
        return [
            self.changed_rollable(r) if r.get("effects") else r
            for r in fx.apply_to_rollables(self, found, state)
        ]

    def changed_rollable(self, rollable: dict[str, Any]) -> dict[str, Any]:
        """Override: a rollable whose request effects changed (it names them, ``"effects"``), as the
        sheet shows it: a label that spells out the roll's numbers redrawn from the new request, a
        number an effect pushed past what ``odds`` takes brought back to it. Default: as it is."""
        return rollable

    #: The rollable id of the roll the picker composes (``picked_roll``'s answer carries it).
    PICKED: ClassVar[str] = "picked"

    def roll_picker(
        self,
        build: dict,
        report: Report,
        state: dict | None = None,
        inputs: dict[str, list[str]] | None = None,
        *,
        ctx: Context | None = None,
    ) -> dict[str, Any] | None:
        """Override: a roll the player composes on the sheet instead of choosing one of many buttons
        (Maelstrom: attribute + ability, specialties, willpower): what the ruleset's template
        ``"template"`` (in its folder) needs to draw the picker, the choices preselected from
        ``inputs`` (the picker's form values, {name: [values]}: the player's, or the last composed
        roll's), else sensible defaults. ``"refresh"``: the templates of the parts of the picker that
        ``inputs`` show stale (the specialties of another ability, wounds taken since), each re-drawn
        out of band beside the odds (its root keeps its id and takes ``hx-swap-oob`` when ``oob``).
        Default: None, no picker."""
        return None

    def picked_roll(
        self,
        build: dict,
        report: Report,
        state: dict | None,
        inputs: dict[str, list[str]],
        *,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """Override: the rollable the picker's ``inputs`` compose: {"id": ``PICKED``, "label",
        "request" (for ``odds`` and ``roll``, the table's numbers still to set), "inputs" (the picks
        to start from next time), "state_actions"? and "after_actions"? (``state_action`` requests
        applied with the roll, before and after it: a willpower dot spent)}. A value the rules
        refuse raises ``RollInputError(field, why)``."""
        raise NotImplementedError

    # ----------------------------------------------------------- play state

    def initial_state(self, build: dict, report: Report, *, ctx: Context | None = None) -> dict[str, Any]:
        """A fresh play state for a valid build (full pools, no harm).
        Default: ``self.play_state.initial_state``; no play state, ``{}``."""
        if self.play_state is None:
            return {}
        return self.play_state.initial_state(build=build, report=report, ctx=self.context_of(report, ctx))

    def check_state(
        self, state: Any, build: dict, report: Report, *, ctx: Context | None = None
    ) -> list[Issue]:
        """Problems with a play state (a pool above its maximum, an unknown body part). Paths point
        into the state object. Default: ``self.play_state.check_state``; no play state, none."""
        if self.play_state is None:
            return []
        issues = fx.check_entries(state)
        if isinstance(state, dict) and fx.STATE_KEY in state:
            state = {k: v for k, v in state.items() if k != fx.STATE_KEY}
        return issues + self.play_state.check_state(
            state=state, build=build, report=report, ctx=self.context_of(report, ctx)
        )

    def state_effects(
        self, build: dict, report: Report, state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        """What the state does to the numbers, for the sheet
        (e.g. {"wound_penalty": -2, "labels": [...]}).
        Default: ``self.play_state.state_effects``; no play state, ``{}``."""
        if self.play_state is None:
            return {}
        return self.play_state.state_effects(
            state=state, build=build, report=report, ctx=self.context_of(report, ctx)
        )

    def state_sections(
        self, build: dict, report: Report, state: dict, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """How the sheet shows and edits the play state, one section per block:

        {"id", "label", "kind": "pools"|"body"|"track"|"list"|"flags", "items": [...]} where, for
        "pools", each item is {"id", "label", "path" (JSON pointer into state), "value", "min", "max",
        "status" (text such as "wounded" or "")}; "body" items are body parts {"id", "label", "harm",
        "status", "max"}; "track" items are boxes {"label", "penalty", "damage" (None or the kind of damage held),
        "mark"? (how the box shows that damage: "/", "X"; else a filled box), "severity"? (how serious
        that damage is, 1 for the least: the sheet shades the box by it)};
        "list" items are entries of a list in the state; "flags" items are {"id","label","on"}.
        Each section may list "actions": [{"action", "label", "fields": [...]}] that ``state_action``
        understands. Default: ``self.play_state.state_sections``; no play state, none.
        """
        if self.play_state is None:
            return []
        return self.play_state.state_sections(
            state=state, build=build, report=report, ctx=self.context_of(report, ctx)
        )

    def state_action(
        self,
        state: dict,
        action: dict,
        build: dict,
        report: Report,
        roller: Roller | None = None,
        *,
        ctx: Context | None = None,
    ) -> tuple[dict, str]:
        """Apply one play-state action (take harm, heal, spend willpower, rest, set a pool) and return
        (new_state, a sentence for the log). Never mutates ``state``. A refused action raises
        ``StateError(code, message, path)``. Combat reuses these actions.
        The folder's hook sees the state without its effects: ``action_with_effects`` puts what they
        change into an action that rolls first; afterwards a native effect whose ``held_by`` value
        the action cleared ends (effects.py ``released``), and a rest ends the "until rest" ones.
        Default: ``self.play_state.state_action``; no play state, ``state.unknown_action``."""
        if self.play_state is None:
            raise StateError("state.unknown_action", f"{self.name} has no play-state actions yet.")
        if isinstance(action, dict) and isinstance(state, dict):
            action = self.action_with_effects(action, state, build, report, ctx=ctx)
        entries = fx.active_entries(state) if isinstance(state, dict) else []
        if isinstance(state, dict) and fx.STATE_KEY in state:
            state = {k: v for k, v in state.items() if k != fx.STATE_KEY}
        new, text = self.play_state.state_action(
            state=state,
            action=action,
            build=build,
            report=report,
            ctx=self.context_of(report, ctx),
            roller=roller,
        )
        if entries:
            new = self.effects_in_step({**new, fx.STATE_KEY: entries}, ctx=self.context_of(report, ctx))
            released = fx.released(new)
            if released:  # a native effect whose state value the action cleared (healing wakes)
                new = fx.without(new, [e["id"] for e in released])
                text = f"{text} {fx.ended_text(released)}".strip()
        if isinstance(action, dict) and action.get("action") in self.rest_actions and entries:
            ending = fx.ending_on_rest(new)
            if ending:
                new = fx.without(new, [e["id"] for e in ending])
                text = f"{text} {fx.ended_text(ending)}".strip()
        return new, text

    # ------------------------------------------------------------ the campaign's clock (clock.py)

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
        """What ``span`` of the campaign's clock (RULES.md C1: the GM's "Time passes" and "A new
        day") does to a character in play: rest, recovery, regeneration, healing that the rulebook
        ties to time. Returns a ``Passage`` (the new state, one sentence per change, the rolls the
        server made); never mutates ``state``; nothing to do is ``Passage(state)``. An encounter's
        rounds are not on this clock. The hook sees the state without its effects (``clock_passes``
        keeps them). Override. Default: time changes nothing."""
        return Passage(state)

    def clock_passes(
        self,
        state: dict,
        build: dict,
        report: Report,
        *,
        span: Span,
        roller: Roller | None = None,
        ctx: Context | None = None,
    ) -> Passage:
        """``time_passes`` as the product calls it: the state's effects are kept as they are (the
        hook never sees them) and a change comes back as a new dict."""
        entries = state.get(fx.STATE_KEY) if isinstance(state, dict) else None
        bare = {k: v for k, v in state.items() if k != fx.STATE_KEY} if isinstance(state, dict) else {}
        passage = self.time_passes(
            bare, build, report, span=span, roller=roller, ctx=self.context_of(report, ctx)
        )
        if passage.state == bare:
            return Passage(state, passage.messages, passage.rolls)
        new = dict(passage.state)
        if entries is not None:
            new[fx.STATE_KEY] = entries
        return Passage(new, passage.messages, passage.rolls)

    #: Play-state actions one character takes *for another* of the campaign: the actor's action →
    #: the action it applies to the character its ``target`` names (Maelstrom: ``rally`` spends the
    #: actor's dot, ``rallied`` restores the target to one). The service locks both rows, applies the
    #: target's action (``by``: the actor's name) and the actor's (``target_name``), and refuses both
    #: when either is refused. A field ``{"kind": "character"}`` of such an action is a choice of the
    #: campaign's other characters in play. Default: none.
    ally_actions: ClassVar[dict[str, str]] = {}

    # ------------------------------------------------------------ effects (effects.py)

    #: The play-state actions that are a rest (effects lasting "until rest" end with them).
    rest_actions: ClassVar[tuple[str, ...]] = ("rest",)
    #: Number keys of the odds request an effect may shift, with the lowest value each may reach
    #: (None: no floor). Default: every whole-number key of ``content/examples.json``'s ``odds``, at 0.
    effect_keys_declared: ClassVar[dict[str, int | None] | None] = None
    #: The highest value an effect may shift a key to, where the ruleset's odds refuse more (a d6 skill
    #: level of 6, a difficulty of 10). Default: none.
    effect_keys_max: ClassVar[dict[str, int]] = {}
    #: Values ``mode`` may be set to by an effect (none: the request has no mode).
    effect_modes: ClassVar[tuple[str, ...]] = ()
    #: Whether the request carries typed ``modifiers`` [{"type", "value"}] stacked by type.
    typed_modifiers: ClassVar[bool] = False
    modifier_types: ClassVar[tuple[str, ...]] = ()
    #: Keys of the odds request that are the table's, not the character's: the GM sets them for every
    #: character of a party roll (a target number, a difficulty, a mode).
    table_keys: ClassVar[tuple[str, ...]] = ()
    #: Whether the ruleset's "success" (CONTRACT.md "Odds") takes a ``need`` (successes or effect
    #: points needed).
    success_needs: ClassVar[bool] = False

    @cached_property
    def effect_keys(self) -> dict[str, int | None]:
        if self.effect_keys_declared is not None:
            return dict(self.effect_keys_declared)
        try:
            odds = self.contract_data().get("odds") or {}
        except Exception:  # a folder without examples still answers
            odds = {}
        return {k: 0 for k, v in odds.items() if is_int(v)}

    def effect_base(self, key: str, request: dict[str, Any]) -> Any:
        """The value of ``key`` an effect shifts when the request leaves it out. Override where the
        request's default is not 0. Default: 0."""
        return 0

    def combine_modes(self, request: dict[str, Any], modes: list[Any]) -> Any:
        """The ``mode`` of ``request`` once effects (and a party roll's aids) set ``modes`` on it, in
        the order they come (effects.py "Changes"): every mode change that reaches one request is
        passed here at once, so rules where modes combine (easy and hard cancel) see them together
        with the request's own mode. None leaves the request's mode as it is (a roll without one).
        Default: the last of ``modes`` (an effect sets the mode)."""
        return modes[-1] if modes else None

    def action_with_effects(
        self, action: dict, state: dict, build: dict, report: Report, *, ctx: Context | None = None
    ) -> dict:
        """The play-state ``action`` as the folder's ``state_action`` takes it, with what the
        character's effects change in the dice it rolls: ``state_action`` calls this with the state
        and its effects (the folder's hook never sees them) before the hook. Override where a
        play-state action rolls the character's own dice (Our D&D's Recover: d20 + CON vs the TD,
        its request passed with ``with_effects`` applied). Default: the action unchanged."""
        return action

    def effect_catalogue(self, ctx: Context | None = None) -> dict[str, fx.EffectKind]:
        """The ruleset's named effects (effects.py "The catalogue"), campaign homebrew included.
        Default: ``content/effects.json`` merged with the campaign's homebrew ``effects``."""
        return fx.default_catalogue(self.context_of(None, ctx))

    def success(self, answer: dict[str, Any], need: int | None = None) -> float:
        """The one number a client needs from an odds answer (CONTRACT.md "Odds", "Success"): the
        chance the roll succeeds, ``need`` where the ruleset counts successes. Override.
        Default: ``success`` (+ ``critical_success``), else ``pass``."""
        if "success" in answer:
            return float(answer["success"]) + float(answer.get("critical_success", 0.0))
        return float(answer.get("pass", 0.0))

    def summary(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The headline numbers the GM's party page shows for a character: [{"label", "value"}].
        Override with the ruleset's own. Default: the first four derived numbers."""
        derived = report.derived if report is not None else {}
        return [{"label": self.label(k), "value": v} for k, v in list(derived.items())[:4] if is_int(v)]

    def pools(
        self, build: dict, report: Report, state: dict | None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        """The character's current pools with their maxima: [{"id", "label", "current", "max"}].
        Default: the "pools" sections of ``state_sections``."""
        if not state:
            return []
        out = []
        for section in self.state_sections(build, report, state, ctx=ctx):
            if section.get("kind") != "pools":
                continue
            for item in section.get("items", []):
                if is_int(item.get("value")):
                    out.append(
                        {
                            "id": str(item.get("id", "")),
                            "label": str(item.get("label", "")),
                            "current": item["value"],
                            "max": item.get("max"),
                        }
                    )
        return out

    def roll_aids(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """Help the table may give a roll (the party's odds offer each as an option): [{"id", "label",
        "text" (what it changes, in the game's words), "changes": [change, ...]}], each change as an
        effect's (effects.py "Changes"), applied to every character's request of the party roll.
        Override (Our D&D: an ally's help makes the check easy). Default: none."""
        return []

    def effects_in_step(self, state: dict[str, Any], *, ctx: Context) -> dict[str, Any]:
        """``state`` after one of the ruleset's play-state actions, with its *native* effects kept in
        step with the ruleset's own state (effects.py "The catalogue"): an action that took away or
        changed what a native effect put there (a rest that ends a condition, the sheet's "remove")
        ends or changes that effect. Never mutates ``state``. Override where the ruleset's own
        actions can do so. Default: ``state`` as it is."""
        return state

    def join_modifiers(self, request: dict[str, Any], added: list[dict[str, Any]]) -> None:
        """Typed bonuses and penalties of effects (``typed_modifiers``: [{"type", "value", "source"}])
        joining ``request``, a copy the caller owns: change it in place. Override where the request's
        number already counts its ``modifiers`` and must be restacked with the new ones.
        Default: they are appended to the request's ``modifiers``."""
        mods = request.get("modifiers")
        request["modifiers"] = [*(mods if isinstance(mods, list) else []), *added]

    # ------------------------------------------------------------- spending a roll
    #: The play-state key that holds a sheet roll's result still to spend (``roll_to_spend``): put
    #: there by the sheet's roll, taken by its spend; the ruleset's own state actions drop it (a roll
    #: not spent when the character acts again is lost).
    TO_SPEND: ClassVar[str] = "roll_to_spend"

    def roll_to_spend(
        self, rollable: dict[str, Any], result: dict[str, Any], *, ctx: Context | None = None
    ) -> dict[str, Any] | None:
        """Override: what a sheet roll of ``rollable`` leaves to spend after it (Pando: its EP and the
        outcomes they may buy), kept in the play state under ``TO_SPEND``; None: nothing to spend.
        Default: None."""
        return None

    def spend_roll(
        self, pending: dict[str, Any] | None, request: dict[str, Any], *, ctx: Context | None = None
    ) -> dict[str, Any]:
        """Override: spend the ``pending`` roll (``roll_to_spend``'s) as ``request`` asks (Pando:
        ``{"outcomes": [{"id", "times"?, "body_part"?, "target"?}]}``). Returns the plan the product
        carries out: ``{"text": words for the log and the feed, "left": what stays to spend (a new
        pending, or None), "targets": [{"target": a character id or None (the roller),
        "actions": [state actions], "effects": [{"effect", "value"?}]}]}``. Refuses with
        ``StateError(code, message)``; nothing changes then. Default: nothing to spend."""
        raise StateError("roll.nothing_to_spend", f"{self.name} has no outcomes to spend a roll on.")

    def chance_roll(
        self, state: dict[str, Any], rollable: dict[str, Any], build: dict, *, ctx: Context | None = None
    ) -> tuple[dict[str, Any], str]:
        """Override: a sheet roll of ``rollable`` (one of ``build``'s) *chanced* (Pando, RULES.md W4: an action that could
        be taken at leisure, rolled as under pressure instead), before it is rolled: the play state
        with what chancing leaves in it (Pando: the action marked, not to be repeated until the
        campaign's clock moves on) and a sentence for the log. A rollable that may be chanced says
        so with ``"chance"`` (``{"text", "refused"?}``: its words for the sheet). Refuses with
        ``StateError(code, message)``; nothing is rolled or changed then. Default: no roll of this
        ruleset is chanced (``roll.not_chanceable``)."""
        raise StateError(
            "roll.not_chanceable",
            f"{self.name} has no chanced rolls (an action taken at leisure, rolled instead): roll it as it is.",
        )

    def with_effects(self, request: Any, state: Any, rollable_id: str | None = None) -> Any:
        """``request`` with the play state's effects applied (a roll that is not one of ``rollables``:
        the roll picker's, an encounter action's; ``rollable_id`` None: only effects on every roll)."""
        changes = fx.active_changes(state)
        return fx.apply_changes(self, request, changes, rollable_id) if changes else request

    # ------------------------------------------------------------- combat
    # Filled in by the combat work (rulesets/engine/combat.py documents the shapes).

    def combat(self):
        """This ruleset's combat rules object (see engine/combat.py): ``make_combat()`` once, cached."""
        rules = self.__dict__.get("_combat")
        if rules is None:
            rules = self.__dict__["_combat"] = self.make_combat()
        return rules

    def make_combat(self):
        """Override: a new ``CombatRules`` of this ruleset (import its combat module here, lazily)."""
        raise NotImplementedError(f"{self.slug} has no combat rules yet")

    # ------------------------------------------------- two tabs' saves merged (lists.py)

    #: The build's lists where one entry may be held twice (two daggers), as JSON pointers ("*" for
    #: any one key or index): two tabs of one draft that each add such an entry keep both. In every
    #: other list an entry is held once, and two tabs adding it hold it once. Default: none.
    duplicate_lists: ClassVar[tuple[str, ...]] = ()

    def list_entry_key(self, path: str, entry: Any) -> Any:
        """What makes ``entry`` of the build's list at ``path`` (a JSON pointer) the same entry as
        another, for the builder's merge of two tabs' saves (a hashable value). Override where an
        entry's identity is not its catalogue id or its name. Default: ``lists.entry_key``."""
        return entry_key(entry)

    def list_allows_duplicates(self, path: str) -> bool:
        """Whether the build's list at ``path`` may hold one entry twice. Default: ``path`` is one of
        ``duplicate_lists``."""
        return any(pointer_matches(pattern, path) for pattern in self.duplicate_lists)

    # ------------------------------------------------------------- import

    def import_sheet(self, data: Any, *, ctx: Context | None = None) -> tuple[dict | None, list[Issue]]:
        """Override: read a character sheet in the game's own format (not a build document), as the
        import page, the API's create and ``manage.py rules import SLUG PATH`` accept it.

        Returns ``(build, issues)``: a ``sheetforge.build/1`` document of this ruleset (validated like
        any other afterwards) and what the conversion could not carry over as it was (paths point into
        the sheet), or ``(None, [why])`` when ``data`` is not such a sheet. Never raises on ``data``.
        Default: this ruleset reads no other format."""
        return None, [
            Issue(
                "import.unsupported",
                "",
                f"{self.name} reads no other character sheet format; import a sheetforge.build/1 document.",
            )
        ]
