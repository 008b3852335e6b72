"""Combat hooks: the plain-Python half of an encounter.

The combat app (``combat/services.py``) loads an encounter and its combatants,
locks the encounter row, turns each combatant into a ``Fighter`` and calls the
ruleset's ``CombatRules``. The hooks never touch the ORM: they take plain data
and return an ``Outcome`` (what changed, what to log). The service applies the
outcome and broadcasts it. A refused action raises ``CombatRefused`` and the
service changes nothing (HTTP 422 with the rule's code and message).

Shapes
------
``Fighter.state`` is the combatant's play state in the ruleset's own shape (the
same object the character sheet edits: harm, pools, health chart…). For a
player character it *is* the character's live state, so damage taken in a fight
shows on the sheet. ``Fighter.combat`` holds the per-encounter numbers the
ruleset needs (Pando speed and Momentum, Ascendant actions left and reaction,
Paragon footing, initiative results, uses of each action this round…).

``encounter_state`` is the ruleset's encounter-wide state (Our D&D's scene TD and
how far it was lowered, Paragon's surprise round, the current exchange…).

An action request is a dict: ``{"action": "<id>", "target": <fighter id>?, ...params}``.
``ActionSpec`` describes one to the page: its id, label, cost text, whether it
is allowed now (and if not, why), what it targets, its parameters, the odds
request of its roll (so the page shows the odds), and whether only the GM may
take it (``gm``: damage, conditions, TD).

GM actions are performed with ``actor`` = the fighter they change (apply harm to
*this* fighter); the service refuses them (403) to anyone but the GM before
``perform`` is called, using ``ActionSpec.gm`` from ``actions``.

Additions by the combat work (additive, defaults keep older hooks working):

- ``Fighter.report``: the rules ``Report`` of the fighter's build (campaign house
  rules and homebrew applied), so hooks can reuse the play-state hooks
  (``ruleset.state_action(state, action, build, report, roller, ctx=ctx)``,
  ``state_effects``) without validating again. Treat it as read-only.
- ``CombatRules.join``: a combatant added to a running encounter (the service appends it to the
  end of the order). Default, with ``turn_start``'s: built on four small hooks, ``fresh_turn``
  (a turn's opening numbers), ``roll_initiative`` / ``initiative_text`` (a latecomer's roll and how
  it reads) and ``cannot_act`` (why a fighter is out of the fight); a ruleset that leaves them
  alone gets no numbers and no log.
- ``CombatRules.turn_span``: how many consecutive entries of the order act in one
  turn (default 1; Pando: an NPC group sharing Momentum acts together).
- ``CombatRules.refusal``: helper raising ``CombatRefused`` for a spec that is not
  allowed, with the code kept on ``ActionSpec.code``.

Every hook takes the campaign's ``ctx`` (keyword, a ``Context``: house rules and the merged
homebrew catalogue): the service builds it once per encounter from the campaign. A hook reads it
through ``ctx_of(fighter, ctx)`` (the ``ctx`` passed, else the one the fighter's report was
checked under, else the house defaults), so a house default reaches every rule of the fight.

Helpers the rulesets' hooks share (on ``CombatRules``, not hooks: nothing overrides them):
``spec_for`` (the spec an action request names, or ``combat.unknown_action``),
``report_of`` (a fighter's rules report), ``ctx_of`` (the campaign's context),
``play_state_action`` (a play-state action, its ``StateError`` turned into ``CombatRefused``),
``effects_of`` (``Ruleset.state_effects`` of a fighter), ``with_effects`` (an action's request with the
fighter's effects, rulesets/engine/effects.py),
``combat_numbers`` (a fighter's per-encounter numbers, copied, with this turn's fresh values),
``target_of`` (the fighter an action's ``target`` names), ``allowed_spec`` (``perform``'s opening:
the spec named, refused when not allowed) and ``not_your_turn`` (the one refusal,
``combat.not_your_turn``, of an action out of turn); ``ActionSpec.deny`` marks a spec not
allowed with the first rule that stops it.

Who may take a GM action (``ActionSpec.gm``) is the service's check alone: ``perform`` is only
called with a GM spec for the GM, so the hooks do not check it again.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Literal, overload

from .context import Context
from .dice import Roller
from .errors import StateError
from .fields import whole_number
from .report import Report

#: The refusal of an action taken out of turn, the same in every ruleset.
NOT_YOUR_TURN = "combat.not_your_turn"


class CombatRefused(Exception):
    """The rules refuse an action: not enough speed, not this combatant's turn, an unusable body part."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Fighter:
    id: int
    name: str
    is_npc: bool
    group: str
    build: dict[str, Any]
    derived: dict[str, Any]
    state: dict[str, Any]
    combat: dict[str, Any]
    controller_ids: tuple[int, ...] = ()  # user ids that may act for this fighter (owner); GM always may
    report: Any = None  # the rules Report of ``build`` (read-only); None when unknown


@dataclass
class ActionSpec:
    id: str
    label: str
    cost: str = ""  # "2 speed", "1 action", "1 stamina"
    allowed: bool = True
    reason: str = ""  # why not, when not allowed
    target: str | None = None  # None | "enemy" | "ally" | "any" | "self"
    params: list[dict[str, Any]] = field(default_factory=list)  # [{"id","label","kind","options"?}]
    odds: dict[str, Any] | None = None  # an odds request of the ruleset
    gm: bool = False  # only the GM may take it
    reaction: bool = False  # may be taken outside the actor's turn
    code: str = ""  # the rule code of the refusal when not allowed ("<slug>.not_enough_speed")
    #: What the roll's result may buy, each with the chance to afford it before rolling, in the
    #: game's words: [{"id", "name", "cost", "chance", "pct", "afford"}] (Pando's outcomes).
    outcomes: list[dict[str, Any]] = field(default_factory=list)
    #: A "by N" change of a counter (harm, damage, a pool's −/+, a condition raised or lowered by N):
    #: it neither uses nor ends a turn, and each tap is its own change, applied to what the fighter
    #: has then. The page sends each tap as its own request (static/js/taps.js), without the
    #: version it was drawn from: two taps are two changes, never a stale repeat of one (#31).
    #: An action that takes or ends the turn is never relative: a double click there is one intent.
    relative: bool = False

    def deny(self, reason: str, code: str) -> None:
        """Not allowed now, because ``reason`` (rule ``code``). The first rule that stops an action
        is the one the page shows, so a spec already denied keeps its reason; no reason, no change."""
        if reason and self.allowed:
            self.allowed, self.reason, self.code = False, reason, code

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label,
            "cost": self.cost,
            "allowed": self.allowed,
            "reason": self.reason,
            "target": self.target,
            "params": self.params,
            "odds": self.odds,
            "gm": self.gm,
            "reaction": self.reaction,
            "code": self.code,
            "outcomes": self.outcomes,
            "relative": self.relative,
        }


@dataclass
class Event:
    """One line of the encounter's log. An event that rolled dice says so with ``data["faces"]``
    (the dice as they fell, a non-empty list): the combat service sends it to the table's roll
    feed too, in the same words (combat/step.py). ``data["odds"]``, when given, is the odds
    request of that roll (the ruleset's ``odds`` shape): the feed then shows its chance, and
    ``outcome`` / ``total`` / ``ep`` / ``successes`` in ``data`` say which outcome it landed on.
    ``data["feed"]`` true on an event that rolled nothing sends its words to the feed as a table
    note (what a spend of a roll bought)."""

    kind: str
    text: str  # "Pablo strikes with the warhammer: 3 EP, −2 speed"
    actor: int | None = None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What an action or a phase did. Only the fighters listed in ``state``/``combat`` changed."""

    state: dict[int, dict[str, Any]] = field(default_factory=dict)  # fighter id → new play state
    combat: dict[int, dict[str, Any]] = field(default_factory=dict)  # fighter id → new combat numbers
    encounter_state: dict[str, Any] | None = None
    order: list[int] | None = None  # a new turn order (ids), when it changes
    events: list[Event] = field(default_factory=list)
    end_turn: bool = False  # the action ends the actor's turn (Our D&D "move far", …)
    #: Named effects to put on fighters, after ``state``: (fighter id, ``{"effect", "value"?}``), each
    #: applied by the service as the GM's effects are (checked, a native one through its ``apply``
    #: actions), until removed; a refusal there refuses the whole action (Pando's Knock prone).
    effects: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    #: EP put into an obstacle of the campaign: ``{"id", "ep", "refusal": [code, message]}`` (the
    #: service adds them under the obstacle's row lock and refuses with ``refusal`` when it was
    #: overcome meanwhile). The ruleset saw the obstacles in ``encounter_state["obstacles"]``.
    obstacle: dict[str, Any] | None = None

    def log(self, kind: str, text: str, actor: int | None = None, **data: Any) -> None:
        self.events.append(Event(kind, text, actor, data))


class CombatRules:
    """Base class of a ruleset's combat hooks. One instance per ruleset (``Ruleset.combat()``).

    The service calls, in an encounter's life:
    ``start`` once (initiative, order, opening numbers) → for each round ``round_start``
    → for each turn ``turn_start`` → any number of ``perform`` (the current actor's
    actions, other fighters' reactions, GM actions) → ``next turn`` … → ``round_start`` again.
    ``actions`` lists what a fighter can do right now, for the page.
    """

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        """Override: roll initiative (or Momentum order…), set each fighter's opening combat numbers,
        return ``Outcome(order=[ids…])``. Called when the GM starts the encounter."""
        raise NotImplementedError

    def round_start(
        self,
        fighters: list[Fighter],
        encounter_state: dict,
        round_no: int,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        """Override: what happens at the top of each round (Pando: stamina loss, then speed;
        order changes from Momentum). Default: nothing."""
        return Outcome()

    def turn_start(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        """Override: the start of ``actor``'s turn. Default: the turn's numbers start afresh
        (``fresh_turn``: three actions and the reaction, or the one action of a turn), what the turn's
        opening does to the fighter's play state (``turn_opening``), and a fighter who cannot act
        (``cannot_act``) has it said in the log. Without them: nothing."""
        out = Outcome()
        fresh = self.fresh_turn()
        if fresh:
            out.combat[actor.id] = self.combat_numbers(actor, **fresh)
        opened, text = self.turn_opening(actor, ctx=ctx)
        if opened is not None:
            out.state[actor.id] = opened
            out.log("turn_opening", text, actor.id)
            actor = replace(actor, state=opened)
        reason, _ = self.cannot_act(actor, ctx=ctx)
        if reason:
            out.log("down", reason, actor.id)
        return out

    def join(
        self,
        fighter: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        """Override: a fighter added to a running encounter (its opening numbers). ``fighters``
        includes it. The service appends it to the end of the order unless ``Outcome.order`` says
        otherwise. Default: the newcomer rolls initiative (``roll_initiative``), gets a fresh turn's
        numbers (``fresh_turn``) and the log says so (``initiative_text``); a ruleset without an
        initiative roll: nothing."""
        out = Outcome()
        rolled = self.roll_initiative(fighter, roller, ctx=ctx)
        if rolled is None:
            return out
        out.combat[fighter.id] = {**self.fresh_turn(), **rolled}
        out.log(
            "initiative",
            f"{fighter.name} joins: initiative {rolled['initiative']} "
            f"({self.initiative_text(rolled)}); they act last this round.",
            fighter.id,
            faces=list(rolled.get("faces") or [rolled[k] for k in ("initiative_roll",) if k in rolled]),
        )
        return out

    # ------------------------------------------------- what the default join and turn_start use

    def fresh_turn(self) -> dict[str, Any]:
        """Override: the combat numbers every turn of a fighter starts with (actions left, "acted",
        the reaction…). Default: none."""
        return {}

    def roll_initiative(
        self, fighter: Fighter, roller: Roller, *, ctx: Context | None = None
    ) -> dict[str, Any] | None:
        """Override: ``fighter``'s initiative, rolled: {"initiative": total, ...the parts, kept in its
        combat numbers}. Default None: this ruleset orders a fight another way."""
        return None

    def initiative_text(self, rolled: dict[str, Any]) -> str:
        """Override: how an initiative roll of ``roll_initiative`` reads in the log ("d20 7 +3")."""
        return str(rolled.get("initiative", ""))

    def cannot_act(self, fighter: Fighter, *, ctx: Context | None = None) -> tuple[str, str]:
        """Override: (reason, rule code) when ``fighter`` cannot act at all (dead, incapacitated),
        else ("", ""). Default: every fighter can act."""
        return "", ""

    def turn_opening(self, fighter: Fighter, *, ctx: Context | None = None) -> tuple[dict | None, str]:
        """Override: what the start of ``fighter``'s turn does to their play state, before
        ``cannot_act`` is asked (Maelstrom: a whole turn out of the fight lets a character at 0
        willpower act again): (the new state, the log sentence), or (None, "") for nothing.
        Default: nothing."""
        return None, ""

    def turn_span(self, order: list[int], turn: int, fighters: dict[int, Fighter]) -> int:
        """Override: how many consecutive entries of ``order`` from index ``turn`` act in this one
        turn (they are all "current"; next turn skips past them). Default 1."""
        return 1

    # ---------------------------------------------------------------- helpers for the hooks

    def report_of(self, fighter: Fighter) -> Report:
        """The rules report of ``fighter``'s build: the one the service made (campaign house rules
        applied), else one holding just the fighter's derived numbers (read-only either way)."""
        if fighter.report is not None:
            return fighter.report
        report = Report(self.ruleset.slug)
        report.derived = dict(fighter.derived or {})
        return report

    def ctx_of(self, fighter: Fighter | None = None, ctx: Context | None = None) -> Context:
        """The campaign's context: ``ctx`` when the service passed it, else the one ``fighter``'s
        report was checked under, else the ruleset's house defaults."""
        return self.ruleset.context_of(fighter.report if fighter is not None else None, ctx)

    def play_state_action(
        self,
        fighter: Fighter,
        state: dict | None,
        action: dict,
        roller: Roller | None = None,
        *,
        report: Report | None = None,
        ctx: Context | None = None,
    ) -> tuple[dict, str]:
        """Apply one of the ruleset's play-state actions (``Ruleset.state_action``: take harm, heal,
        spend a pool…) to ``state`` (``fighter``'s when None, or one this outcome already changed) and
        return (new_state, the log sentence). The sheet and the fight share these rules; a refusal
        there (``StateError``) is a refusal here, ``CombatRefused`` with the same code and message."""
        report = report if report is not None else self.report_of(fighter)
        try:
            return self.ruleset.state_action(
                fighter.state if state is None else state,
                action,
                fighter.build,
                report,
                roller,
                ctx=self.ctx_of(fighter, ctx),
            )
        except StateError as exc:
            raise CombatRefused(exc.code, exc.message) from None

    def effects_of(self, fighter: Fighter, state: dict | None = None, *, ctx: Context | None = None) -> dict:
        """``Ruleset.state_effects`` of ``fighter`` (of ``state`` when given: one this outcome changed)."""
        return self.ruleset.state_effects(
            fighter.build,
            self.report_of(fighter),
            fighter.state if state is None else state,
            ctx=self.ctx_of(fighter, ctx),
        )

    def with_effects(self, fighter: Fighter, request: Any, rollable_id: str | None = None) -> Any:
        """``request`` (an action's odds request, the one ``perform`` rolls) with ``fighter``'s effects
        applied (``Ruleset.with_effects``: a PC's from its sheet, an NPC's the GM put on it in the
        encounter). Call it for the spec's ``odds`` and for the roll alike, so the form's odds are
        the odds of what is rolled."""
        return self.ruleset.with_effects(request, fighter.state, rollable_id)

    @staticmethod
    def not_your_turn(actor: Fighter) -> tuple[str, str]:
        """(reason, code) of an action ``actor`` may only take on their own turn."""
        return f"It is not {actor.name}'s turn.", NOT_YOUR_TURN

    @staticmethod
    def spec_for(action: dict[str, Any], actor: Fighter, specs: list[ActionSpec]) -> ActionSpec:
        """The spec of the action ``action["action"]`` names, among ``specs`` (what ``actor`` may take
        now, allowed or not). Any other id is refused (``combat.unknown_action``, naming those there are)."""
        aid = action.get("action")
        by_id = {s.id: s for s in specs}
        spec = by_id.get(aid) if isinstance(aid, str) else None
        if spec is None:
            raise CombatRefused(
                "combat.unknown_action",
                f"{actor.name} has no action {aid!r} now (they have {', '.join(by_id)}).",
            )
        return spec

    @staticmethod
    def combat_numbers(fighter: Fighter, **changes: Any) -> dict[str, Any]:
        """A deep copy of ``fighter.combat`` with ``changes`` set (a new turn's fresh actions,
        reaction, move…): hooks return new dicts and never mutate the fighter."""
        return {**copy.deepcopy(fighter.combat or {}), **changes}

    @overload
    @staticmethod
    def target_of(
        action: dict[str, Any], fighters: list[Fighter], *, required: Literal[True] = True
    ) -> Fighter: ...

    @overload
    @staticmethod
    def target_of(action: dict[str, Any], fighters: list[Fighter], *, required: bool) -> Fighter | None: ...

    @staticmethod
    def target_of(
        action: dict[str, Any], fighters: list[Fighter], *, required: bool = True
    ) -> Fighter | None:
        """The fighter ``action["target"]`` names (its id, or the id as text from a form). No target
        is None, or refused when ``required``; an id that is not one of ``fighters`` is refused
        (``combat.invalid_target``)."""
        raw = action.get("target")
        if raw in (None, ""):
            if required:
                raise CombatRefused("combat.invalid_target", "Choose a target.")
            return None
        not_here = "The target must be a combatant of this encounter."
        tid = whole_number(raw)  # strictly: not "²", 1e400 or True
        if tid is None:
            raise CombatRefused("combat.invalid_target", not_here)
        target = next((f for f in fighters if f.id == tid), None)
        if target is None:
            raise CombatRefused("combat.invalid_target", not_here)
        return target

    def allowed_spec(self, action: dict[str, Any], actor: Fighter, specs: list[ActionSpec]) -> ActionSpec:
        """The opening step of ``perform``: the spec ``action`` names among ``specs`` (``spec_for``),
        refused with its rule (``refusal``) when it is not allowed now."""
        spec = self.spec_for(action, actor, specs)
        if not spec.allowed:
            raise self.refusal(spec)
        return spec

    @staticmethod
    def refusal(spec: ActionSpec) -> CombatRefused:
        """The ``CombatRefused`` for a spec that is not allowed (its code and reason)."""
        return CombatRefused(
            spec.code or "combat.not_allowed", spec.reason or f"{spec.label} is not allowed now."
        )

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        """Override: the actions ``actor`` could take now (``current`` is the id whose turn it is),
        each with its cost, whether it is allowed and why not, and the odds request of its roll."""
        return []

    def perform(
        self,
        action: dict[str, Any],
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        current: int | None,
        by_gm: bool,
        ctx: Context | None = None,
    ) -> Outcome:
        """Override: carry out ``action`` for ``actor``. Raise ``CombatRefused(code, message)`` when the
        rules refuse it (then nothing changes). Must not mutate its arguments: return new dicts."""
        raise CombatRefused("combat.unknown_action", "This ruleset has no such action.")

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        """Override: the key numbers shown on the fighter's row (speed 4/6, HP 12/20, wound −1…):
        {"stats": [{"label","value"}], "status": ["wounded arm", …]}."""
        return {"stats": [], "status": []}
