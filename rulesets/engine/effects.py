"""Effects: named conditions and custom ones that change the numbers of a character's rolls.

An effect lives in the character's play state (``state["effects"]``, a list) and reaches every
roll at once: ``Ruleset.rollables`` (the sheet's buttons, the API's rollables, the party's odds),
the roll picker's composed roll and the encounter's action forms (``CombatRules.with_effects``).

The catalogue
-------------
A ruleset's named effects come from ``content/effects.json`` in its folder (a JSON list, so campaign
homebrew may add to it when the ruleset lists ``"effects"`` in ``homebrew_kinds``)::

    {"id": "stunned", "name": "Stunned", "text": "What it does, in the game's words.",
     "valued": false, "max"?: 4,
     "changes": [{"target": "all", "dice": -1}],      # per point of value when valued
     "apply"?: [state action, ...], "remove"?: [state action, ...], "held_by"?: "/unconscious",
     "ends_on_rest"?: true, "house_default"?: true}

- ``changes``: what the effect does to the requests it matches (below). For a valued effect each
  number is multiplied by the value (frightened 2: twice the change).
- ``apply`` / ``remove``: play-state actions (``Ruleset.state_action``) that put the effect into the
  ruleset's own play state and take it out again, where the ruleset already keeps it there (a
  condition list, a flag): ``"$value"`` in an action stands for the effect's value. An effect with
  ``apply`` actions is *native*: the ruleset's own hooks apply its numbers, so its ``changes`` only
  describe them and are not applied a second time here. The ruleset keeps them in step with its own
  state (``Ruleset.effects_in_step``: a rest that ends the condition ends the effect).
- ``held_by``: for a native effect, the JSON pointer of the play-state value that holds it (a flag,
  a condition's entry). A play-state action that leaves that value missing or false (healing wakes
  an unconscious character) ends the effect with it (``Ruleset.state_action``, ``released``), so the
  effect and the ruleset's own state never disagree.
- ``house_default``: the rulebook names the state without numbers; the numbers are the house's
  (the page says so).

A ruleset may override ``Ruleset.effect_catalogue`` instead (Ascendant builds it from its conditions).

Changes
-------
A change is ``{"target": <rollable id> | <id prefix ending in ":" or "."> | "all", <key>: <number>}``
(one key per change; several keys may share a target, each applied):

- a number key of the ruleset's odds request (``Ruleset.effect_keys``: ``dice``, ``skill``, ``tn``,
  ``difficulty``…) is shifted by the number (and kept within the key's minimum and, where the
  ruleset's odds have one, its maximum, ``Ruleset.effect_keys_max``: ``shifted``);
- ``mode`` (``Ruleset.effect_modes``) sets the request's mode: the modes of every change that
  reaches the request go together to ``Ruleset.combine_modes`` (default: the last one is the
  request's mode; a ruleset whose rules combine them overrides it: Our D&D's easy and hard cancel);
- with typed modifiers (``Ruleset.typed_modifiers``), ``"type"`` and ``"value"`` join the request's
  ``modifiers`` (stacked by type by the ruleset's odds), through ``Ruleset.join_modifiers`` (a ruleset
  whose request's number already counts its ``modifiers`` restacks it there).

Durations
---------
``None`` (until removed), ``{"rounds": N, "encounter": id, "start_round": r}`` (ends when that
encounter's round has advanced N times since round r), ``{"until": "end_of_turn", "combatant": id, "encounter": id}`` (ends when that
combatant's turn ends), ``{"until": "rest"}`` (ends when the character rests). The product keeps the
clock; here are the plain functions that say which entries end.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .fields import is_int
from .pointer import resolve as resolve_pointer
from .report import Issue

if TYPE_CHECKING:
    from .context import Context

#: The play state's key holding the active effects.
STATE_KEY = "effects"
#: The largest value of a valued effect, and the largest shift of one change.
MAX_VALUE = 20
MAX_SHIFT = 50
#: Keys of a change that are not what it changes.
CHANGE_META = frozenset({"target", "text"})
#: How many effects one character may carry at once.
MAX_EFFECTS = 40


class EffectError(ValueError):
    """An effect the rules refuse: ``code`` (``effect.*``), a message in the game's words, and the
    JSON path of the offending value in the request (``/changes/0/target``)."""

    def __init__(self, code: str, message: str, path: str = ""):
        super().__init__(message)
        self.code, self.message, self.path = code, message, path


@dataclass(frozen=True)
class EffectKind:
    """One named effect of a ruleset's catalogue."""

    id: str
    name: str
    text: str = ""
    valued: bool = False
    max: int = MAX_VALUE
    changes: tuple[dict[str, Any], ...] = ()
    apply: tuple[dict[str, Any], ...] = ()
    remove: tuple[dict[str, Any], ...] = ()
    ends_on_rest: bool = False
    house_default: bool = False
    held_by: str = ""

    @property
    def native(self) -> bool:
        return bool(self.apply)

    @classmethod
    def from_entry(cls, entry: dict[str, Any]) -> EffectKind:
        return cls(
            id=str(entry["id"]),
            name=str(entry.get("name") or entry["id"]),
            text=str(entry.get("text") or ""),
            valued=bool(entry.get("valued")),
            max=int(entry.get("max") or MAX_VALUE),
            changes=tuple(dict(c) for c in entry.get("changes") or ()),
            apply=tuple(dict(a) for a in entry.get("apply") or ()),
            remove=tuple(dict(a) for a in entry.get("remove") or ()),
            ends_on_rest=bool(entry.get("ends_on_rest")),
            house_default=bool(entry.get("house_default")),
            held_by=str(entry.get("held_by") or ""),
        )

    def changes_at(self, value: int) -> list[dict[str, Any]]:
        """The changes at ``value`` (a valued effect's numbers times the value)."""
        factor = value if self.valued else 1
        out = []
        for change in self.changes:
            scaled = {}
            for key, v in change.items():
                scaled[key] = v * factor if key not in CHANGE_META and key != "type" and is_int(v) else v
            out.append(scaled)
        return out

    def actions(self, which: str, value: int) -> list[dict[str, Any]]:
        """The ``apply`` or ``remove`` state actions, ``"$value"`` replaced by ``value``."""
        return [
            {k: (value if v == "$value" else v) for k, v in action.items()}
            for action in (self.apply if which == "apply" else self.remove)
        ]

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "text": self.text,
            "valued": self.valued,
            "max": self.max if self.valued else None,
            "changes": [dict(c) for c in self.changes],
            "ends_on_rest": self.ends_on_rest,
            "house_default": self.house_default,
        }


class EffectRules(Protocol):
    """What the effects ask of a ruleset (``Ruleset``, ruleset.py, has all of it and calls in with
    itself): its name and words, the numbers of its odds requests an effect may shift and their
    bounds, its modes and typed modifiers and how they join a request, its named effects."""

    @property
    def name(self) -> str: ...
    @property
    def effect_keys(self) -> dict[str, int | None]: ...
    @property
    def effect_keys_max(self) -> dict[str, int]: ...
    @property
    def effect_modes(self) -> tuple[str, ...]: ...
    @property
    def typed_modifiers(self) -> bool: ...
    @property
    def modifier_types(self) -> tuple[str, ...]: ...
    def label(self, key: Any) -> str: ...
    def effect_base(self, key: str, request: dict[str, Any]) -> Any: ...
    def combine_modes(self, request: dict[str, Any], modes: list[Any]) -> Any: ...
    def join_modifiers(self, request: dict[str, Any], added: list[dict[str, Any]]) -> None: ...
    def effect_catalogue(self, ctx: Context | None = None) -> dict[str, EffectKind]: ...


# ---------------------------------------------------------------- targets and changes


def matches(target: Any, rollable_id: str | None) -> bool:
    """Whether a change's ``target`` reaches the roll ``rollable_id`` (None: a roll that is none of
    the sheet's rollables, such as an encounter action's: only ``"all"`` reaches it)."""
    if target == "all":
        return True
    if not isinstance(target, str) or rollable_id is None:
        return False
    if target.endswith((":", ".")):
        return rollable_id.startswith(target)
    return rollable_id == target


def change_keys(change: dict[str, Any]) -> list[str]:
    """The keys of a change that change something."""
    return [k for k in change if k not in CHANGE_META]


def shifted(base: int, by: int, low: int | None, high: int | None = None) -> int:
    """``base`` shifted by ``by``, kept within the key's bounds (``low``: ``Ruleset.effect_keys``,
    ``high``: ``Ruleset.effect_keys_max``; None: no bound). A bound never moves a value the wrong way:
    a penalty never raises a value already below the floor (a pool of 0 dice stays 0), a bonus never
    lowers one already above the ceiling."""
    value = base + by
    if low is not None and by < 0:
        value = max(min(low, base), value)
    if high is not None and by > 0:
        value = min(max(high, base), value)
    return value


def apply_changes(
    ruleset: EffectRules, request: Any, changes: Iterable[dict[str, Any]], rollable_id: str | None
):
    """``request`` with every change whose target matches ``rollable_id`` applied (a new dict; the
    request is left alone). A request that is not a dict is returned as it is."""
    if not isinstance(request, dict):
        return request
    out = None
    mins = ruleset.effect_keys
    maxes = ruleset.effect_keys_max
    typed: list[dict[str, Any]] = []
    modes: list[Any] = []
    for change in changes:
        if not matches(change.get("target"), rollable_id):
            continue
        if out is None:
            out = copy.deepcopy(request)
        if ruleset.typed_modifiers and "type" in change:
            typed.append(
                {"type": change["type"], "value": change.get("value", 0), "source": change.get("text", "")}
            )
            continue
        for key in change_keys(change):
            value = change[key]
            if key == "mode":
                modes.append(value)
            elif key in mins and is_int(value):
                base = out.get(key, ruleset.effect_base(key, out))
                if is_int(base):
                    out[key] = shifted(base, value, mins[key], maxes.get(key))
    if out is not None and typed:
        ruleset.join_modifiers(out, typed)
    if out is not None and modes:
        mode = ruleset.combine_modes(request, modes)
        if mode is not None:
            out["mode"] = mode
    return request if out is None else out


def active_entries(state: Any) -> list[dict[str, Any]]:
    """The play state's effects (well-formed entries only)."""
    entries = state.get(STATE_KEY) if isinstance(state, dict) else None
    return [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []


def active_changes(state: Any) -> list[dict[str, Any]]:
    """The changes this module applies: every effect's, but the native ones' (the ruleset applies
    those itself), each tagged with its effect's name (``text``) for the page."""
    out = []
    for entry in active_entries(state):
        if entry.get("native"):
            continue
        for change in entry.get("changes") or ():
            if isinstance(change, dict):
                out.append({**change, "text": entry.get("name", "")})
    return out


def apply_to_rollables(
    ruleset: EffectRules, rollables: list[dict[str, Any]], state: Any
) -> list[dict[str, Any]]:
    """The rollables with the state's effects applied to their requests; a rollable an effect
    changed names it (``"effects": ["Stunned"]``) and keeps its request before them
    (``"unaffected"``), so that numbers the table sets (a target, a difficulty, a mode) go in
    before the effects change them (``Ruleset.with_effects`` on the unaffected request)."""
    changes = active_changes(state)
    if not changes:
        return rollables
    out = []
    for rollable in rollables:
        rid = rollable.get("id")
        hits = [c for c in changes if matches(c.get("target"), rid)]
        if not hits:
            out.append(rollable)
            continue
        changed = dict(rollable)
        changed["unaffected"] = rollable.get("request")
        changed["request"] = apply_changes(ruleset, rollable.get("request"), hits, rid)
        names = [n for n in rollable.get("effects") or () if isinstance(n, str)]  # the ruleset's own
        for c in hits:
            if c["text"] and c["text"] not in names:
                names.append(c["text"])
        changed["effects"] = names
        out.append(changed)
    return out


def check_changes(
    ruleset: EffectRules, changes: Any, rollable_ids: Iterable[str], *, path: str = "/changes"
) -> list[dict[str, Any]]:
    """The changes, checked: each reaches at least one of ``rollable_ids`` and changes a key the
    ruleset's requests have. Raises ``EffectError`` naming the first problem."""
    ids = list(rollable_ids)
    if not isinstance(changes, list) or not changes:
        raise EffectError(
            "effect.malformed", 'An effect changes something: "changes" is a list of changes.', path
        )
    if len(changes) > 20:
        raise EffectError("effect.malformed", "An effect has at most 20 changes.", path)
    keys = ruleset.effect_keys
    out = []
    for i, change in enumerate(changes):
        here = f"{path}/{i}"
        if not isinstance(change, dict):
            raise EffectError("effect.malformed", 'A change is {"target": "all", "<key>": number}.', here)
        target = change.get("target", "all")
        if not isinstance(target, str) or not target:
            raise EffectError(
                "effect.unknown_target",
                "A change's target is a roll, a group of rolls or all of them.",
                f"{here}/target",
            )
        if not any(matches(target, rid) for rid in ids):
            raise EffectError(
                "effect.unknown_target",
                f"No roll of this character is {target!r}; pick one of its rolls, or all of them.",
                f"{here}/target",
            )
        clean: dict[str, Any] = {"target": target}
        what = [k for k in change if k not in CHANGE_META]
        if not what:
            raise EffectError(
                "effect.malformed", "A change says what it changes: a number to add, or a mode.", here
            )
        if ruleset.typed_modifiers and ("type" in change or "value" in change):
            kind, value = change.get("type"), change.get("value")
            if kind not in ruleset.modifier_types or not is_int(value) or abs(value) > MAX_SHIFT:
                raise EffectError(
                    "effect.unknown_key",
                    f"A typed change is a type ({', '.join(ruleset.modifier_types)}) and a whole number.",
                    here,
                )
            clean.update(type=kind, value=value)
            what = [k for k in what if k not in ("type", "value")]
        for key in what:
            value = change[key]
            if key == "mode" and ruleset.effect_modes:
                if value not in ruleset.effect_modes:
                    raise EffectError(
                        "effect.unknown_key",
                        f"The mode is one of {', '.join(ruleset.effect_modes)}.",
                        f"{here}/{key}",
                    )
            elif key in keys:
                if not is_int(value) or abs(value) > MAX_SHIFT or value == 0:
                    raise EffectError(
                        "effect.bad_value",
                        f"A change of {ruleset.label(key)} is a whole number from -{MAX_SHIFT} to {MAX_SHIFT}, not 0.",
                        f"{here}/{key}",
                    )
            else:
                known = list(keys) + (["mode"] if ruleset.effect_modes else [])
                if ruleset.typed_modifiers:
                    known += ["type", "value"]
                raise EffectError(
                    "effect.unknown_key",
                    f"An effect cannot change {key!r} in {ruleset.name}; it changes {', '.join(known)}.",
                    f"{here}/{key}",
                )
            clean[key] = value
        out.append(clean)
    return out


def new_id() -> str:
    return uuid.uuid4().hex[:10]


def describe_change(
    ruleset: EffectRules, change: dict[str, Any], rollables: dict[str, str] | None = None
) -> str:
    """A change in words: "−1 Dice to every roll", "+2 status bonus to Athletics"."""
    target = change.get("target", "all")
    if target == "all":
        where = "every roll"
    elif rollables and target in rollables:
        where = rollables[target]
    elif isinstance(target, str) and target.endswith((":", ".")):
        where = f"every {ruleset.label(target.rstrip(':.'))} roll"
    else:
        where = ruleset.label(target)
    parts = []
    if "type" in change:
        v = change.get("value", 0)
        parts.append(f"{v:+d} {change['type']} {'bonus' if v >= 0 else 'penalty'}".replace("-", "−"))
    for key in change_keys(change):
        if key in ("type", "value"):
            continue
        if key == "mode":
            parts.append(f"{ruleset.label(change[key])}")
        elif is_int(change[key]):
            parts.append(f"{change[key]:+d} {ruleset.label(key)}".replace("-", "−"))
    return f"{', '.join(parts)} to {where}"


def duration_text(duration: Any, *, round_now: int | None = None) -> str:
    """What remains of a duration, in words."""
    if not duration:
        return "until removed"
    if "rounds" in duration:
        left = duration["rounds"]
        start = duration.get("start_round")
        if round_now is not None and is_int(start):
            left = max(0, start + duration["rounds"] - round_now)
        return f"{left} round{'s' if left != 1 else ''} left"
    until = duration.get("until")
    if until == "end_of_turn":
        return "until the end of the turn"
    if until == "rest":
        return "until rest"
    return "until removed"


def ending_on_rest(state: Any) -> list[dict[str, Any]]:
    """The entries a rest ends."""
    return [e for e in active_entries(state) if (e.get("duration") or {}).get("until") == "rest"]


def ending_on_round(state: Any, encounter: int, round_now: int) -> list[dict[str, Any]]:
    """The entries of encounter ``encounter`` whose rounds have run out at round ``round_now``."""
    out = []
    for e in active_entries(state):
        d = e.get("duration") or {}
        start = d.get("start_round")
        if "rounds" in d and d.get("encounter") == encounter and is_int(start) and is_int(d["rounds"]):
            if round_now >= start + d["rounds"]:
                out.append(e)
    return out


def ending_on_turn_end(state: Any, combatant: int) -> list[dict[str, Any]]:
    """The entries that end when combatant ``combatant``'s turn ends."""
    return [
        e
        for e in active_entries(state)
        if (e.get("duration") or {}).get("until") == "end_of_turn"
        and (e.get("duration") or {}).get("combatant") == combatant
    ]


def ending_with_encounter(state: Any, encounter: int) -> list[dict[str, Any]]:
    """The entries tied to encounter ``encounter`` (they end with it)."""
    return [e for e in active_entries(state) if (e.get("duration") or {}).get("encounter") == encounter]


def released(state: Any) -> list[dict[str, Any]]:
    """The native entries whose ``held_by`` value in ``state`` is missing or false ("The catalogue")."""
    out = []
    for e in active_entries(state):
        held_by = e.get("held_by")
        if e.get("native") and isinstance(held_by, str) and held_by.startswith("/"):
            if not resolve_pointer(state, held_by, None):
                out.append(e)
    return out


def without(state: dict, ids: Iterable[str]) -> dict:
    """A copy of ``state`` without the effects ``ids``."""
    gone = set(ids)
    new = copy.deepcopy(state)
    new[STATE_KEY] = [e for e in active_entries(state) if e.get("id") not in gone]
    if not new[STATE_KEY]:
        new.pop(STATE_KEY)
    return new


def catalogue_from_entries(entries: Iterable[dict[str, Any]]) -> dict[str, EffectKind]:
    return {str(e["id"]): EffectKind.from_entry(e) for e in entries if isinstance(e, dict) and "id" in e}


def default_catalogue(ctx: Context) -> dict[str, EffectKind]:
    """The catalogue of ``content/effects.json`` merged with the campaign's homebrew effects."""
    return catalogue_from_entries((ctx.catalogue.get("effects") or {}).values())


def ended_text(entries: Iterable[dict[str, Any]]) -> str:
    """ "Stunned ends." / "Stunned and Blessed end." """
    names = [str(e.get("name") or "An effect") for e in entries]
    if not names:
        return ""
    if len(names) == 1:
        return f"{names[0]} ends."
    return f"{', '.join(names[:-1])} and {names[-1]} end."


def check_entries(state: Any) -> list:
    """Problems with the play state's ``effects`` list (the product writes it; a client sending a
    whole state may not break it)."""
    if not isinstance(state, dict) or STATE_KEY not in state:
        return []
    entries = state[STATE_KEY]
    if not isinstance(entries, list):
        return [
            Issue("state.malformed", f"/{STATE_KEY}", "Effects are a list; apply and remove them one by one.")
        ]
    issues = []
    if len(entries) > MAX_EFFECTS:
        issues.append(
            Issue("state.malformed", f"/{STATE_KEY}", f"A character carries at most {MAX_EFFECTS} effects.")
        )
    for i, entry in enumerate(entries):
        ok = (
            isinstance(entry, dict)
            and isinstance(entry.get("id"), str)
            and isinstance(entry.get("name"), str)
            and isinstance(entry.get("changes", []), list)
            and all(isinstance(c, dict) for c in entry.get("changes", []))
            and (entry.get("duration") is None or isinstance(entry.get("duration"), dict))
        )
        if not ok:
            issues.append(
                Issue(
                    "state.malformed",
                    f"/{STATE_KEY}/{i}",
                    "An effect is applied through the effects endpoint, not written by hand.",
                )
            )
    return issues


def resolve(
    ruleset: EffectRules, spec: Any, rollable_ids: Iterable[str], *, ctx: Context | None = None
) -> tuple[dict[str, Any], EffectKind | None]:
    """An effect request (``{"effect", "value"?}`` for a named one, ``{"name", "changes"}`` for a
    custom one) checked against the ruleset and the character's rolls: (the new state entry without
    its duration, the catalogue kind or None). Raises ``EffectError``."""
    if not isinstance(spec, dict):
        raise EffectError("effect.malformed", 'An effect is {"effect": "<id>"} or {"name", "changes"}.')
    ids = list(rollable_ids)
    kind_id = spec.get("effect")
    if kind_id is not None and not (isinstance(kind_id, dict) or isinstance(kind_id, str)):
        raise EffectError("effect.unknown", "Name the effect by its id from the ruleset's list.", "/effect")
    if isinstance(kind_id, dict):  # {"effect": {"name", "changes"}}: a custom one, nested
        spec = {**spec, **kind_id, "effect": None}
        kind_id = None
    if kind_id:
        catalogue = ruleset.effect_catalogue(ctx)
        kind = catalogue.get(kind_id)
        if kind is None:
            names = ", ".join(k.name for k in catalogue.values()) or "none"
            raise EffectError(
                "effect.unknown", f"{kind_id!r} is not one of {ruleset.name}'s effects ({names}).", "/effect"
            )
        value = spec.get("value")
        if kind.valued:
            value = 1 if value is None else value
            if not is_int(value) or not 1 <= value <= kind.max:
                raise EffectError(
                    "effect.bad_value", f"{kind.name} takes a value from 1 to {kind.max}.", "/value"
                )
        elif value not in (None, 1):
            raise EffectError("effect.bad_value", f"{kind.name} takes no value.", "/value")
        else:
            value = None
        changes = kind.changes_at(value or 1)
        if not kind.native:
            # A named effect must reach one of this character's rolls (a change whose target the
            # character has none of is left out; all left out is a refusal).
            kept = [c for c in changes if any(matches(c.get("target", "all"), rid) for rid in ids)]
            if changes and not kept:
                raise EffectError(
                    "effect.unknown_target", f"{kind.name} changes no roll this character has.", "/effect"
                )
            changes = kept
        name = f"{kind.name} {value}" if kind.valued else kind.name
        entry = {
            "id": new_id(),
            "effect": kind.id,
            "name": name,
            "value": value,
            "changes": changes,
            "native": kind.native,
        }
        if kind.house_default:
            entry["house_default"] = True
        if kind.native and kind.held_by:
            entry["held_by"] = kind.held_by
        return entry, kind
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 60:
        raise EffectError(
            "effect.malformed", "A custom effect has a name (up to 60 characters) and its changes.", "/name"
        )
    changes = check_changes(ruleset, spec.get("changes"), ids)
    entry = {
        "id": new_id(),
        "effect": None,
        "name": " ".join(name.split()),
        "value": None,
        "changes": changes,
        "native": False,
    }
    return entry, None


def public_duration(duration: Any) -> dict[str, Any] | None:
    """The duration as it was asked for (CONTRACT.md): the clock's bookkeeping (the encounter, the
    round it began) left out."""
    if not isinstance(duration, dict) or not duration:
        return None
    return {k: v for k, v in duration.items() if k not in ("encounter", "start_round")}
