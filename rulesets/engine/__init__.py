"""The rules service, and the one surface a ruleset is written against.

For the product, one entry point for every door (CLI, API, builder, combat)::

    from rulesets.engine import validate, odds
    report = validate(build_document, settings=campaign_house_rules, homebrew=campaign_homebrew)
    report.as_dict()  # the CONTRACT.md report

For a ruleset's author, everything a ruleset needs is importable from ``rulesets.engine`` itself;
the names below (``__all__``) are the stable list. A name may be added; one removed or renamed
keeps working, with a ``DeprecationWarning`` naming its replacement, for one release (today:
the module ``rulesets.engine.base``, gone in 0.1, kept until 0.2). The submodules behind these
names (``rulesets.engine.ruleset``, ``.context``, …) are the engine's own layout and may move.

The contract
    ``Ruleset`` (the base class: every hook documented on it, with a default or
    ``NotImplementedError``), ``FORMAT`` (``"sheetforge.build/1"``), ``NPC_PHASE``, ``ID_RE``
    (a well-formed content id), ``Context`` (the campaign's house rules and homebrew, passed to
    every hook), ``Report`` and ``Issue`` (what ``check`` fills in: errors are values),
    ``Dice`` and ``PlayState`` (the dice and play-state hooks, ``DICE_METHODS`` and
    ``PLAY_STATE_METHODS`` their names; see "Hooks" below; ``wiring_problems`` says what keeps the
    engine from a ruleset's hooks), ``Roller`` and ``FixedRoller``
    (where dice come from), ``OddsError``, ``RollInputError`` and ``StateError`` (refusals),
    ``Span`` and ``Passage`` (the campaign's clock: a stretch of time, and what it did to a
    character; the hook ``Ruleset.time_passes``).
    ``Downtime`` (what a character's activities between adventures did: activities.py).
Homebrew
    ``EntryForm`` and ``Field`` (a ruleset's ``homebrew_forms``: each homebrew kind's fields, with
    name, label, type, choices, min/max, required; see entries.py), ``check_entry`` (the engine's
    check of an entry against them, run on every campaign's homebrew), ``entry_from_form`` (a
    filled-in form read into an entry), ``entry_words`` (an entry as a sheet says it) and
    ``field_choices`` (what a choice field offers in a campaign).
Combat
    ``CombatRules`` (the base class of a ruleset's combat hooks), ``Fighter``, ``ActionSpec``,
    ``Outcome``, ``Event``, ``CombatRefused``, ``NOT_YOUR_TURN``.
Helpers for reading documents
    ``is_int``, ``whole_number``, ``whole_or``, ``get_as``, ``lookup``, ``action_amount``,
    ``name_key``, ``ptr`` (a JSON pointer from tokens), and the modules ``pointer`` (``escape``,
    ``join``, ``resolve``), ``words`` (``a``, ``few``, ``label``) and ``effects`` (the engine's
    effects on rolls).
Exact distributions
    ``die``, ``convolve``, ``sum_dice``, ``exploding``, ``keep_highest``, ``keep_lowest``;
    ``stack`` and ``Stacked`` (typed bonuses and penalties, the highest of each type).
The product's doors
    ``validate``, ``odds``, ``registry`` (the rulesets found, in order).

Hooks
-----
Each hook is written once, in one way: as a method of the ruleset's ``Ruleset`` subclass, or as a
plain module-level function of its folder's ``dice.py`` and ``state.py``, wired with
``dice = dice_module`` and ``play_state = state_module``. The engine calls every dice and
play-state function *by name* (``request=``, ``roller=``, ``build=``, ``report=``, ``state=``,
``action=``, ``ctx=``), so a function takes those arguments in any order it likes; no class is
needed to reorder them.

A minimal complete ruleset
--------------------------
One folder, ``rulesets/systems/toss/``, and its word in ``rulesets.systems.ORDER`` (the registry
finds the folder). The tests run it as it is written here (tests/minimal_ruleset/;
tests/rulesets/test_minimal_ruleset.py holds this text to those files). The contract tests and the
benches need only a valid ``build`` and an answerable ``odds`` request (engine/examples.py lists
what more a ruleset may give them), in ``content/examples.json``::

    {"build": {"ruleset": "toss", "name": "Penny", "budget": {"coins": 4}, "luck": 2}, "odds": {"coins": 2}}

``__init__.py``, wiring only (every hook of ``Ruleset`` has a default but ``check``)::

    from pathlib import Path

    from rulesets.engine import Context, Report, Ruleset, is_int

    from . import dice, state


    class Toss(Ruleset):
        slug = "toss"
        name = "Toss"
        currencies = ("coins",)
        known_keys = frozenset({"luck"})
        content_dir = Path(__file__).parent / "content"  # examples.json: a valid build, an odds request
        dice = dice  # the module: odds, roll, rollables
        play_state = state  # the module: initial_state, check_state, state_effects, …

        def check(self, build: dict, report: Report, ctx: Context) -> None:
            luck = build.get("luck", 1)
            if not is_int(luck) or not 1 <= luck <= 5:
                report.error("toss.luck_invalid", "/luck", "Luck is a whole number from 1 to 5.")
                return
            report.charge("coins", 2 * (luck - 1), path="/luck", label=f"Luck {luck}")
            report.derived["luck"] = luck


    RULESET = Toss()

``dice.py``, the ``Dice`` hooks as plain functions::

    from typing import Any

    from rulesets.engine import Context, OddsError, Report, Roller, is_int


    def odds(request: Any, *, ctx: Context) -> dict[str, float]:
        coins = request.get("coins") if isinstance(request, dict) else None
        if not is_int(coins) or not 1 <= coins <= 10:
            raise OddsError("Flip 1 to 10 coins.")
        return {"success": 1 - 0.5**coins, "failure": 0.5**coins}


    def roll(request: Any, roller: Roller, *, ctx: Context) -> dict[str, Any]:
        odds(request, ctx=ctx)
        faces = roller.roll(request["coins"], 2)  # a 2 is heads
        outcome = "success" if 2 in faces else "failure"
        return {"faces": faces, "total": faces.count(2), "outcome": outcome, "text": f"{faces}: {outcome}"}


    def rollables(build: dict, report: Report, state: dict | None, *, ctx: Context) -> list[dict[str, Any]]:
        luck = report.derived.get("luck", 1)
        return [{"id": "flip", "label": f"Flip {luck} coins", "request": {"coins": luck}}]

``state.py``, the ``PlayState`` hooks (without it the sheet shows no play state)::

    from typing import Any

    from rulesets.engine import Context, Issue, Report, Roller, StateError, is_int

    LIVES = 3


    def initial_state(build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
        return {"lives": LIVES}


    def check_state(state: Any, build: dict, report: Report, *, ctx: Context) -> list[Issue]:
        lives = state.get("lives") if isinstance(state, dict) else None
        if not is_int(lives) or not 0 <= lives <= LIVES:
            return [Issue("toss.lives_invalid", "/lives", f"Lives are 0 to {LIVES}.")]
        return []


    def state_effects(state: dict, build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
        return {}  # lives change no number


    def state_sections(state: dict, build: dict, report: Report, *, ctx: Context) -> list[dict[str, Any]]:
        lives = state.get("lives", LIVES)
        pool = {
            "id": "lives",
            "label": "Lives",
            "path": "/lives",
            "value": lives,
            "min": 0,
            "max": LIVES,
            "status": "",
        }
        lose = {"action": "lose_life", "label": "Lose a life", "fields": []}
        return [{"id": "lives", "label": "Lives", "kind": "pools", "items": [pool], "actions": [lose]}]


    def state_action(
        state: dict, action: dict, build: dict, report: Report, *, ctx: Context, roller: Roller | None = None
    ) -> tuple[dict, str]:
        lives = state.get("lives", LIVES)
        if action.get("action") != "lose_life":
            raise StateError("state.unknown_action", "Toss knows one action: lose a life.")
        if lives <= 0:
            raise StateError("toss.no_lives", "No lives left to lose.", "/lives")
        return {**state, "lives": lives - 1}, f"Lost a life ({lives - 1} left)."

Then, as a folder grows: ``make_combat`` (a ``CombatRules`` subclass), the words and pages of
presentation.py, the gear of equipment.py, templates/<slug>/. tests/plugin_ruleset/ ("Coin") is
such a ruleset grown whole, written with plain functions for its dice and play state.
"""

from __future__ import annotations

from typing import Any

from . import effects, pointer, registry, words
from .activities import Downtime
from .clock import Passage, Span
from .combat import NOT_YOUR_TURN, ActionSpec, CombatRefused, CombatRules, Event, Fighter, Outcome
from .context import ID_RE, NPC_PHASE, Context
from .dice import FixedRoller, Roller, convolve, die, exploding, keep_highest, keep_lowest, sum_dice
from .entries import EntryForm, Field, check_entry, entry_from_form, entry_words, field_choices
from .errors import OddsError, RollInputError, StateError
from .fields import action_amount, get_as, is_int, lookup, name_key, whole_number, whole_or
from .interfaces import DICE_METHODS, PLAY_STATE_METHODS, Dice, PlayState, wiring_problems
from .modifiers import Stacked, stack
from .pointer import ptr
from .report import Issue, Report
from .ruleset import FORMAT, Ruleset

#: The stable list (see the docstring): add freely; never remove or rename without a deprecation.
__all__ = [
    "DICE_METHODS",
    "EntryForm",
    "Field",
    "FORMAT",
    "ID_RE",
    "NOT_YOUR_TURN",
    "NPC_PHASE",
    "PLAY_STATE_METHODS",
    "ActionSpec",
    "CombatRefused",
    "CombatRules",
    "Context",
    "Dice",
    "Downtime",
    "Event",
    "Fighter",
    "FixedRoller",
    "Issue",
    "OddsError",
    "Outcome",
    "Passage",
    "PlayState",
    "Report",
    "RollInputError",
    "Roller",
    "Ruleset",
    "Span",
    "Stacked",
    "StateError",
    "action_amount",
    "check_entry",
    "convolve",
    "die",
    "effects",
    "entry_from_form",
    "entry_words",
    "exploding",
    "field_choices",
    "get_as",
    "is_int",
    "keep_highest",
    "keep_lowest",
    "lookup",
    "name_key",
    "odds",
    "pointer",
    "ptr",
    "registry",
    "stack",
    "sum_dice",
    "validate",
    "whole_number",
    "whole_or",
    "wiring_problems",
    "words",
]


def validate(
    doc: Any,
    *,
    settings: dict | None = None,
    homebrew: dict | None = None,
    phase: str = "draft",
    previous: dict | None = None,
    slug: str | None = None,
) -> Report:
    """Validate any document. Never raises: a non-object or an unknown ruleset is a report too.

    ``slug``, when given, is the ruleset the caller expects (the API's URL, a campaign's
    ruleset); a document naming another ruleset is then ``ruleset.unknown``.
    """
    if not isinstance(doc, dict):
        report = Report(slug)
        report.error("build.malformed", "", "A build document must be a JSON object.")
        return report
    named = doc.get("ruleset")
    if named is None and slug is not None:
        named = slug
    ruleset = registry.get(named)
    if ruleset is None or (slug is not None and named != slug):
        report = Report(slug if registry.get(slug) else None)
        known = ", ".join(registry.SYSTEMS)
        if named is None:
            msg = f'Say which ruleset this build is for: add "ruleset" with one of {known}.'
        elif slug is not None and named != slug:
            msg = f"This build is for {named!r}, but it was sent to {slug!r}."
        else:
            msg = f"{named!r} is not a ruleset here; use one of {known}."
        report.error("ruleset.unknown", "/ruleset", msg)
        return report
    return ruleset.validate(doc, settings=settings, homebrew=homebrew, phase=phase, previous=previous)


def odds(
    slug: str, request: Any, *, settings: dict | None = None, homebrew: dict | None = None
) -> dict[str, Any]:
    """The exact odds of ``slug``'s core roll under ``settings`` (house rules; the defaults when
    None) and ``homebrew``; raises OddsError for a request it cannot answer."""
    ruleset = registry.get(slug)
    if ruleset is None:
        raise OddsError(f"{slug!r} is not a ruleset; use one of {', '.join(registry.SYSTEMS)}.")
    if not isinstance(request, dict):
        raise OddsError("An odds request must be a JSON object.")
    return ruleset.odds(request, ctx=ruleset.context(settings, homebrew))
