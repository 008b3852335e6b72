"""The Ruleset base class: every hook a game system fills in, documented once.

A ruleset takes plain data (the build document, the campaign's house rules and
homebrew content) and returns plain data (a Report, an odds answer, a roll). It
never touches the ORM, the request or the clock, and it never raises on user
input: problems are ``Issue`` values in the report.

Adding a ruleset: a folder under ``rulesets/systems/<slug>/`` whose
``__init__.py`` defines a subclass and ``RULESET = MyRuleset()``, its content
in ``content/*.json``, its templates in ``templates/<slug>/``, and one word in
``rulesets.systems.ORDER`` (the registry finds the folder).

Content files: a JSON *list* of entries with an ``id`` is a catalogue (skills,
items, …) indexed by id and extensible by campaign homebrew; a JSON *object* is
a table kept as it is. ``content/house.json`` holds the house defaults
(RULES.md "HD"), which campaign house rules override key by key.
"""

from __future__ import annotations

import copy
import json
import logging
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar

from typing_extensions import TypeIs

from .dice import Roller
from .interfaces import Dice, PlayState
from .pointer import ptr
from .report import Issue, Report

logger = logging.getLogger(__name__)

FORMAT = "sheetforge.build/1"
COMMON_KEYS = frozenset({"format", "ruleset", "name", "budget", "notes"})
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_NAME_KEY_RE = re.compile(r"[^a-z0-9]+")


_NAME_KEYS: dict[str, str] = {}


def name_key(text: str) -> str:
    """Compare names typed by people: "Space Flight" == "spaceflight" (RULES.md)."""
    if type(text) is str:
        key = _NAME_KEYS.get(text)
        if key is None:
            key = _NAME_KEY_RE.sub("", text.lower())
            if len(_NAME_KEYS) > 4096:
                _NAME_KEYS.clear()
            _NAME_KEYS[text] = key
        return key
    return _NAME_KEY_RE.sub("", text.lower())


def is_int(value: Any) -> TypeIs[int]:
    """A JSON whole number (bools are not numbers here)."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


#: A whole number as people type it: an optional sign, then ASCII digits (at most 15: past that it is
#: not a game number, and ``int()`` of thousands of digits is slow or refused). Nothing else —
#: "-+1", "²", "1e3", "1_000", "٣" and "" are not whole numbers.
WHOLE_NUMBER_RE = re.compile(r"[+-]?[0-9]{1,15}")


def parse_whole_number(text: str) -> int | None:
    """The whole number ``text`` spells (spaces around it allowed), else None. Never raises."""
    stripped = text.strip(" \t\r\n")
    if WHOLE_NUMBER_RE.fullmatch(stripped):
        return int(stripped)
    return None


def whole_number(value: Any) -> int | None:
    """A whole number from JSON (``is_int``) or a form field ("3", " -2 "), else None."""
    if is_int(value):
        return value
    if isinstance(value, str):
        return parse_whole_number(value)
    return None


def action_amount(action: dict, key: str = "amount", low: int = 0) -> int:
    """The whole number ``action[key]`` (≥ ``low``) of a play-state action, else ``StateError``
    ("state.malformed" at ``/key``): the amounts of harm, healing, pools and condition values."""
    value = action.get(key)
    if not is_int(value) or value < low:
        raise StateError("state.malformed", f'"{key}" must be a whole number ≥ {low}.', ptr(key))
    return value


class OddsError(ValueError):
    """An odds or roll request the ruleset cannot answer; the message says why."""


class RollInputError(OddsError):
    """A value of the sheet's roll picker the rules refuse: ``field`` is the input's name (without
    the form's prefix), the message says why in the game's words."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


class StateError(ValueError):
    """A play-state change the rules refuse; carries a rule code and a message."""

    def __init__(self, code: str, message: str, path: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path


@dataclass(slots=True)
class Context:
    """What a check needs besides the build: house rules and the merged catalogue.

    ``settings`` are the ruleset's house defaults with the campaign's overrides
    on top. ``catalogue[kind][id]`` is an entry of the content merged with the
    campaign's homebrew. ``issues`` are problems found in the homebrew itself.
    ``phase`` is "draft" while a player builds and "approval" when a GM approves
    (some rules are warnings in one and errors in the other).
    """

    settings: dict[str, Any]
    catalogue: dict[str, dict[str, dict[str, Any]]]
    tables: dict[str, Any]
    issues: list[Issue] = field(default_factory=list)
    phase: str = "draft"
    #: Values worked out from ``settings``/``catalogue`` once per campaign (indexes, tables):
    #: see ``memo``. Shared by the phase variants of one context; never phase-dependent.
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` the first time ``key`` is asked for on this context, the same value after.

        A context is built once per campaign's house rules and homebrew (``Ruleset.context``
        caches it), so this replaces module caches keyed by ``id()`` of the settings or a catalogue.
        The value is shared: treat it as read-only."""
        try:
            return self.cache[key]
        except KeyError:
            value = self.cache[key] = make()
            return value

    def with_phase(self, phase: str) -> Context:
        """The same campaign in another phase (same settings, catalogue and memo)."""
        if phase == self.phase:
            return self
        return Context(
            settings=self.settings,
            catalogue=self.catalogue,
            tables=self.tables,
            issues=self.issues,
            phase=phase,
            cache=self.cache,
        )


#: The phase of a GM's NPC: not held to a player's budget (see ``Ruleset.validate``).
NPC_PHASE = "npc"


def _deep_merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


class Ruleset:
    """Base class of the five game systems. Subclasses set the class attributes
    and override the hooks marked "override"; the rest have working defaults."""

    slug: ClassVar[str] = ""
    name: ClassVar[str] = ""
    seed: ClassVar[str] = ""  # the rulebook file in shared/seeds/
    #: Currencies of this ruleset's budget, in display order.
    currencies: ClassVar[tuple[str, ...]] = ()
    #: Currencies that the GM awards and the ledger tracks (Paragon's force points come
    #: from the power level table, not from awards). Defaults to ``currencies``.
    awardable: ClassVar[tuple[str, ...] | None] = None
    #: Ruleset-specific top-level keys of the build document. Others are warnings.
    known_keys: ClassVar[frozenset[str]] = frozenset()
    #: Catalogue kinds that campaign homebrew may extend, e.g. ("skills", "items").
    homebrew_kinds: ClassVar[tuple[str, ...]] = ()
    #: Folder of content/*.json; subclasses set ``content_dir = Path(__file__).parent / "content"``.
    content_dir: ClassVar[Path | None] = None

    def __init__(self) -> None:
        self.catalogue: dict[str, dict[str, dict[str, Any]]] = {}
        self.tables: dict[str, Any] = {}
        if self.content_dir and self.content_dir.is_dir():
            for path in sorted(self.content_dir.glob("*.json")):
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, list):
                    self.catalogue[path.stem] = {entry["id"]: entry for entry in data}
                else:
                    self.tables[path.stem] = data
        self.house_defaults: dict[str, Any] = self.tables.get("house", {})
        self._default_context = Context(
            settings=copy.deepcopy(self.house_defaults), catalogue=self.catalogue, tables=self.tables
        )
        self._context_cache: dict[str, Context] = {}

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
                        f"As a player character this build would spend {spent} {self.currency_label(currency)} "
                        f"of a budget of {limit} ({spent - limit} over); an NPC is not held to it.",
                    )
                elif spent > limit:
                    report.error(
                        "budget.exceeded",
                        ptr("budget", currency),
                        f"This build spends {spent} {self.currency_label(currency)} but has only "
                        f"{limit}: remove {spent - limit} {self.currency_label(currency)} of choices "
                        "or get more awarded.",
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

    # ------------------------------------------------------------- context

    def context(
        self, settings: dict | None = None, homebrew: dict | None = None, *, phase: str = "draft"
    ) -> Context:
        """House defaults merged with ``settings``, catalogue merged with ``homebrew`` (cached)."""
        if not settings and not homebrew:
            if phase == "draft":
                return self._default_context
            key = phase
        else:
            key = json.dumps([settings, homebrew, phase], sort_keys=True, default=str)
        ctx = self._context_cache.get(key)
        if ctx is None:
            # One context per campaign's house rules and homebrew; its phases share its memo.
            if not settings and not homebrew:
                ctx = self._default_context.with_phase(phase)
            elif phase == "draft":
                ctx = self._build_context(settings or {}, homebrew or {}, "draft")
            else:
                ctx = self.context(settings, homebrew).with_phase(phase)
            if len(self._context_cache) > 256:
                self._context_cache.clear()
            self._context_cache[key] = ctx
        return ctx

    def context_of(self, report: Report | None = None, ctx: Context | None = None) -> Context:
        """The context a play, dice or combat hook works under: ``ctx`` when the caller passed the
        campaign's, else the one ``report`` was checked under, else the house defaults."""
        if ctx is not None:
            return ctx
        found = getattr(report, "context", None)
        return found if isinstance(found, Context) else self._default_context

    def _build_context(self, settings: dict, homebrew: dict, phase: str) -> Context:
        issues: list[Issue] = []
        merged_settings = copy.deepcopy(self.house_defaults)
        if isinstance(settings, dict):
            issues.extend(self.check_settings(settings))
            # Only overrides of the default's JSON type: a hook reading a house rule never meets text
            # where a number belongs (the wrong ones are the warnings above).
            good = {
                k: v
                for k, v in settings.items()
                if k in self.house_defaults
                and (
                    self.house_defaults[k] is None
                    or v is None
                    or _json_type(v) == _json_type(self.house_defaults[k])
                )
            }
            merged_settings = _deep_merge(merged_settings, good)
        catalogue = dict(self.catalogue)
        entries_ok, hb_issues = self.split_homebrew(homebrew)
        issues.extend(hb_issues)
        for kind, entries in entries_ok.items():
            merged = dict(catalogue.get(kind, {}))
            for entry in entries:
                merged[entry["id"]] = {**entry, "homebrew": True}
            catalogue[kind] = merged
        return Context(
            settings=merged_settings, catalogue=catalogue, tables=self.tables, issues=issues, phase=phase
        )

    def check_settings(self, settings: Any) -> list[Issue]:
        """House-rule overrides: only keys of ``house_defaults``, each of the default's JSON type."""
        if not isinstance(settings, dict):
            return [Issue("settings.malformed", "", "House rules must be a JSON object.")]
        issues = []
        for key, value in settings.items():
            if key not in self.house_defaults:
                known = ", ".join(sorted(self.house_defaults)) or "none"
                issues.append(
                    Issue(
                        "settings.unknown",
                        ptr(key),
                        f"{self.name} has no house rule {key!r} (known: {known}).",
                    )
                )
                continue
            default = self.house_defaults[key]
            if default is not None and value is not None and _json_type(value) != _json_type(default):
                issues.append(
                    Issue(
                        "settings.malformed",
                        ptr(key),
                        f"House rule {key!r} must be {_json_type(default)}, like its default {default!r}.",
                    )
                )
        return issues

    def split_homebrew(self, homebrew: Any) -> tuple[dict[str, list[dict]], list[Issue]]:
        """Sort homebrew into usable entries and issues; a malformed entry is reported, not raised."""
        good: dict[str, list[dict]] = {}
        issues: list[Issue] = []
        if not homebrew:
            return good, issues
        if not isinstance(homebrew, dict):
            return good, [Issue("homebrew.malformed", "", "Homebrew must be an object of {kind: [entries]}.")]
        for kind, entries in homebrew.items():
            if kind not in self.homebrew_kinds:
                kinds = ", ".join(self.homebrew_kinds) or "none"
                issues.append(
                    Issue(
                        "homebrew.unknown_kind",
                        ptr(kind),
                        f"{self.name} homebrew can add: {kinds}; not {kind!r}.",
                    )
                )
                continue
            if not isinstance(entries, list):
                issues.append(
                    Issue("homebrew.malformed", ptr(kind), f"Homebrew {kind} must be a list of entries.")
                )
                continue
            seen: set[str] = set()
            for i, entry in enumerate(entries):
                path = ptr(kind, i)
                if not isinstance(entry, dict):
                    issues.append(Issue("homebrew.malformed", path, "Each homebrew entry must be an object."))
                    continue
                entry_id = entry.get("id")
                if not isinstance(entry_id, str) or not ID_RE.match(entry_id):
                    issues.append(
                        Issue(
                            "homebrew.malformed",
                            path + "/id",
                            'Give the entry an id: a lowercase letter, then lowercase letters, digits or "_" '
                            "(no spaces).",
                        )
                    )
                    continue
                if entry_id in seen:
                    issues.append(
                        Issue("homebrew.duplicate", path + "/id", f"The id {entry_id!r} is used twice.")
                    )
                    continue
                problems = self.check_homebrew_entry(kind, entry, path)
                if problems:
                    issues.extend(problems)
                    continue
                seen.add(entry_id)
                good.setdefault(kind, []).append(entry)
        return good, issues

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
            report.error("build.malformed", "/budget", 'The budget must be an object such as {"cp": 40}.')
            raw = {}
        for currency, amount in raw.items():
            if currency not in self.currencies:
                report.warn(
                    "build.unknown_key",
                    ptr("budget", currency),
                    f"{self.name} has no currency {currency!r} (it uses {', '.join(self.currencies)}).",
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

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        """Override: field checks for one homebrew entry of ``kind`` (id already checked)."""
        return []

    def currency_label(self, currency: str) -> str:
        return {"cp": "CP", "xp": "XP"}.get(currency, currency.replace("_", " "))

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
            "traits": self.traits(ctx),
            "catalogue": {kind: list(entries.values()) for kind, entries in ctx.catalogue.items()},
            "house_defaults": self.house_defaults,
            "homebrew_kinds": list(self.homebrew_kinds),
        }

    @cached_property
    def awardable_currencies(self) -> tuple[str, ...]:
        return self.awardable if self.awardable is not None else self.currencies

    # ------------------------------------------------ dice and play state (interfaces.py)
    # A ruleset's folder implements them: its ``dice.py`` a ``Dice``, its ``state.py`` a
    # ``PlayState``, wired by its ``__init__.py`` (``dice = MyDice()``, ``play_state = MyPlayState()``).
    # Without them, the hooks below answer "none" (no buttons, an empty state) or refuse.

    #: The folder's core roll (its ``dice.py``): odds, rolls and the sheet's roll buttons.
    dice: Dice | None = None
    #: The folder's play state (its ``state.py``): pools, harm, conditions and their actions.
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
        """The sheet's roll buttons: [{"id", "label", "request"}] where ``request`` goes to ``odds``
        and ``roll`` unchanged (state such as wound penalties applied, house defaults such as the
        default difficulty from ``ctx``, homebrew entries of ``ctx.catalogue``).
        A rollable marked ``"picker": True`` is one the ruleset's roll picker composes (below): the
        sheet shows the picker instead of its button.
        Default: ``self.dice.rollables``; no dice, none."""
        if self.dice is None:
            return []
        return self.dice.rollables(build=build, report=report, state=state, ctx=self.context_of(report, ctx))

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
        return self.play_state.check_state(
            state=state, build=build, report=report, ctx=self.context_of(report, ctx)
        )

    def state_effects(
        self, build: dict, report: Report, state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        """What the state does to the numbers, for the sheet
        (e.g. {"speed_cost": {"right_arm": 1}, "wound_penalty": -2, "labels": [...]}).
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
        "status", "max"}; "track" items are boxes {"label", "penalty", "damage" (None|"bashing"|…)};
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
        Default: ``self.play_state.state_action``; no play state, ``state.unknown_action``."""
        if self.play_state is None:
            raise StateError("state.unknown_action", f"{self.name} has no play-state actions yet.")
        return self.play_state.state_action(
            state=state,
            action=action,
            build=build,
            report=report,
            ctx=self.context_of(report, ctx),
            roller=roller,
        )

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

    # ------------------------------------------------- what the product shows
    # A ruleset folder owns its whole game: besides the rules above, the words, starting
    # points and page pieces the product shows for it. Every hook has a generic default,
    # so a new ruleset works through the whole product before it fills any of them in.
    # The data defaults read JSON *objects* of ``content/`` (tables, not catalogues), the
    # page pieces are templates in ``<folder>/templates/<slug>/`` found by the project's
    # template loader, with a generic fallback each:
    #
    #   <slug>/sheet_derived.html          the sheet's "Numbers" block (else the generic list)
    #   <slug>/builder/<widget>.html       a ``"kind": "custom"`` builder section's widget

    @cached_property
    def package_dir(self) -> Path:
        """The ruleset's folder (where its module lives)."""
        module = sys.modules[type(self).__module__]
        return Path(module.__file__ or ".").resolve().parent

    @cached_property
    def templates_dir(self) -> Path:
        """Where the ruleset's templates live (``<folder>/templates``); may not exist."""
        return self.package_dir / "templates"

    def labels(self) -> dict[str, str]:
        """Words the sheet shows for keys that a plain "max_speed" → "Max speed" gets wrong
        (``{"max_hp": "Max HP"}``). Default: ``content/labels.json``, else none."""
        return self.tables.get("labels") or {}

    def quick_awards(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The GM's one-click awards: [{id, label, currency, amount, who ("all"|"each"), scope?, help?}].
        Default: ``content/quick_awards.json`` ``{"awards": [...]}``, else none."""
        return [dict(a) for a in (self.tables.get("quick_awards") or {}).get("awards", [])]

    def awards_help(self) -> str:
        """A sentence the awards page adds for this ruleset (``quick_awards.json`` ``help``). Default: ""."""
        return (self.tables.get("quick_awards") or {}).get("help", "")

    def quick_npc(self, budget: dict[str, int] | None = None, ctx: Context | None = None) -> dict[str, Any]:
        """The starting build of the GM's quick NPC form: ``content/npc.json`` (a small valid build),
        else ``blank_build("Bandit")`` (which the rules may refuse until it is filled in)."""
        npc = self.tables.get("npc")
        if isinstance(npc, dict):
            return copy.deepcopy(npc)
        try:
            return self.blank_build("Bandit", budget or None, ctx)
        except Exception:  # a blank build the ruleset cannot make is a starting point still
            logger.exception("ruleset %s blank_build failed", self.slug)
            return {"ruleset": self.slug, "name": "Bandit"}

    def npc_archetypes(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The ready NPCs the GM's library starts from: [{"id", "name", "build"}]
        (``content/npc_archetypes.json`` ``{"archetypes": [...]}``; checked as NPCs, phase
        ``NPC_PHASE``: a build may be over a player's budget). Default: the quick NPC alone."""
        found = (self.tables.get("npc_archetypes") or {}).get("archetypes")
        if isinstance(found, list) and found:
            return [
                copy.deepcopy(a) for a in found if isinstance(a, dict) and isinstance(a.get("build"), dict)
            ]
        npc = self.quick_npc(None, ctx)
        return [{"id": "quick", "name": npc.get("name") or "NPC", "build": npc}]

    def house_labels(self) -> dict[str, Any]:
        """The rulebook's words for each house default, for the GM's house-rules form:
        ``{key: {"label", "help"?, "choices"?: [[value, label]], "type"?: "number"|"text"|"yes/no"
        (a default of null), "min"?, "max"?, "fields"?: {subkey: {...}}}}`` (``content/house_labels.json``).
        Default: none (the form words the keys itself)."""
        labels = self.tables.get("house_labels")
        return labels if isinstance(labels, dict) else {}

    def odds_form(self) -> list[dict[str, Any]] | None:
        """The odds calculator's inputs: [{name, label, default, min, max} | {name, label, default,
        choices}] (``content/odds_form.json`` ``{"fields": [...]}``). Default: None, a JSON text box instead."""
        form = (self.tables.get("odds_form") or {}).get("fields")
        return list(form) if isinstance(form, list) else None

    # A field of the odds form marked ``"table": true`` is a number the table sets for a roll (a
    # target, a difficulty, a mode): the sheet's roll form offers it for every roll whose request
    # carries it, defaulting to the running encounter's value of the same name, else the roll's.

    def odds_chart(self, answer: dict[str, Any]) -> list[tuple[str, float]] | None:
        """The odds chart's bars for an odds answer whose keys overlap (a "success" that includes
        the "critical"): [(label, p)], each outcome a roll lands on once, labelled as ``roll``'s
        outcome. Default: None, the chart reads the answer's keys (rulesets/charts.py)."""
        return None

    def api_examples(self) -> dict[str, Any]:
        """Examples for the API documentation: {"build": a build, "odds": an odds request}
        (``content/examples.json``). Default: none."""
        examples = self.tables.get("examples")
        return examples if isinstance(examples, dict) else {}

    def body_diagram(self) -> dict[str, dict[str, Any]]:
        """How a "body" state section draws each part: {part id: {"shape": "circle", "cx", "cy", "r"} |
        {"shape": "rect", "x", "y", "width", "height", "rx"}} (``content/body_diagram.json``).
        Parts without a shape are listed in the table only. Default: none."""
        return self.tables.get("body_diagram") or {}

    def point_price_key(
        self, section: dict[str, Any], entry: dict[str, Any] | None, value: int
    ) -> tuple | None:
        """The builder shows what one more point of each stepper costs, priced by validating the
        build with that point added. Steppers whose next point costs the same share one price:
        return the key they share (default: the section, the entry's ``group`` and the current
        value, the way a point-buy priced by value and attribute group works), or None to price
        this stepper alone."""
        group = (entry or {}).get("group", "") if section.get("kind") == "numbers" else ""
        return (section.get("id"), group, value)

    def builder_widget(
        self, widget: str, section: dict[str, Any], build: dict, report: dict, ui: Any
    ) -> dict[str, Any]:
        """What a ``"kind": "custom"`` builder section's template gets besides the section: a dict
        merged into it. ``ui`` offers ``control(pointer, value, **extra)`` (a form control with its
        issues), ``html_id(pointer, prefix)``, ``label(id)`` and ``sections`` (every traits section).
        Default: the function ``WIDGETS[widget]`` of the ruleset's ``widgets.py``, if it has one."""
        fn = self._widgets.get(widget)
        return fn(section, build, report, ui) if fn is not None else {}

    @cached_property
    def _widgets(self) -> dict[str, Any]:
        try:
            module = import_module(f"{type(self).__module__}.widgets")
        except ModuleNotFoundError:
            return {}
        return dict(getattr(module, "WIDGETS", {}))

    def demo_builds(self) -> list[dict[str, Any]]:
        """Finished characters for ``manage.py seed_demo``: the documents of ``<folder>/demo/*.json``."""
        out = []
        for path in sorted((self.package_dir / "demo").glob("*.json")):
            try:
                out.append({"file": path.name, "document": json.loads(path.read_text(encoding="utf-8"))})
            except (OSError, ValueError) as exc:
                out.append({"file": path.name, "error": str(exc)})
        return out

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


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null"
