"""The "Apply an effect" form, without JSON: what it offers and how its fields become an effect.

One form for every door that applies effects (the sheet, the party page, the encounter page: the
combat app builds its offer here too). What it offers comes from the ruleset and the moment:

- the ruleset's named effects (its catalogue: name, what it does, a value box for valued ones);
- the campaign's saved effects (``CampaignEffect``), made once and reused;
- a custom effect generated from the ruleset's roll keys: up to ``CHANGE_ROWS`` changes, each "what"
  (a number of the request ``Ruleset.effect_keys``, a ``mode`` of ``effect_modes``, a typed bonus of
  ``modifier_types``) by "how much" to "which rolls" (every roll, one roll of this character by its
  label, a group of its rolls);
- the durations that make sense now: until removed; N rounds of a running encounter and until the
  end of a combatant's turn only while one runs (the encounter clock, characters/effects/clock.py);
  until rest only where the character's sheet has a rest.

``parse`` turns the posted fields into the effects' service's arguments; a field it cannot use is a
``FormInputError`` (its label and why), shown in the form like the service's refusals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from characters.models import CampaignEffect
from config.forms import FormInputError, post_text, post_whole_number
from rulesets.engine import effects as fx
from rulesets.engine.ruleset import Ruleset

#: How many change rows a custom effect's form offers (an effect may have more over the API).
CHANGE_ROWS = 3
NAME_MAX = 60
ALL = "all"
DURATIONS = ("none", "rounds", "turn", "rest")


@dataclass
class Offer:
    """What the form offers: each list holds the options as the template prints them."""

    ruleset_name: str
    named: list[dict[str, Any]] = field(default_factory=list)
    saved: list[dict[str, Any]] = field(default_factory=list)
    whats: list[dict[str, Any]] = field(default_factory=list)
    targets: list[dict[str, Any]] = field(default_factory=list)
    durations: list[dict[str, Any]] = field(default_factory=list)
    encounters: list[dict[str, Any]] = field(default_factory=list)
    combatants: list[dict[str, Any]] = field(default_factory=list)
    rows: range = range(CHANGE_ROWS)
    max_rounds: int = 100

    def named_by_value(self) -> dict[str, dict[str, Any]]:
        return {o["value"]: o for o in self.named}

    def saved_by_value(self) -> dict[str, dict[str, Any]]:
        return {o["value"]: o for o in self.saved}


def target_label(ruleset: Ruleset, target: str, labels: dict[str, str]) -> str:
    """A change's target in words, as ``fx.describe_change`` says it."""
    if target == ALL:
        return "every roll"
    if target in labels:
        return labels[target]
    if target.endswith((":", ".")):
        return f"every {ruleset.label(target.rstrip(':.'))} roll"
    return ruleset.label(target)


def _targets(ruleset: Ruleset, rollables: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Every roll; the groups of the character's rolls (an id prefix ending in ":" or "." that two
    or more of its rolls share, not all of them); each of its rolls by its label."""
    out = [{"value": ALL, "label": "every roll"}]
    if not rollables:
        return out
    ids = [str(r["id"]) for r in rollables if isinstance(r, dict) and r.get("id")]
    labels = {
        str(r["id"]): str(r.get("label") or r["id"]) for r in rollables if isinstance(r, dict) and r.get("id")
    }
    prefixes: dict[str, int] = {}
    for rid in ids:
        cut = min((i for i in (rid.find(":"), rid.find(".")) if i > 0), default=-1)
        if cut > 0:
            prefix = rid[: cut + 1]
            prefixes[prefix] = prefixes.get(prefix, 0) + 1
    for prefix, count in prefixes.items():
        if 2 <= count < len(ids):
            out.append({"value": prefix, "label": target_label(ruleset, prefix, labels)})
    out += [{"value": rid, "label": labels[rid]} for rid in ids]
    return out


def _whats(ruleset: Ruleset) -> list[dict[str, Any]]:
    """What a custom change may change, in the ruleset's words."""
    out = [{"value": f"key:{k}", "label": ruleset.label(k), "amount": True} for k in ruleset.effect_keys]
    out += [
        {"value": f"type:{t}", "label": f"{t} bonus or penalty", "amount": True}
        for t in ruleset.modifier_types
    ]
    out += [
        {"value": f"mode:{m}", "label": f"Make it {ruleset.label(m).lower()}", "amount": False}
        for m in ruleset.effect_modes
    ]
    return out


def describe(ruleset: Ruleset, changes: Any, labels: dict[str, str] | None = None) -> str:
    """An effect's changes in words, one sentence: "+1 TD to every roll; −1 Dice to Melee"."""
    return "; ".join(fx.describe_change(ruleset, c, labels) for c in changes or () if isinstance(c, dict))


def offer(
    *,
    ruleset: Ruleset,
    ctx,
    rollables: list[dict[str, Any]] | None,
    saved: list[CampaignEffect],
    running: list[Any],
    rest: bool,
    encounter_id: int | None = None,
) -> Offer:
    """What the form offers now. ``rollables``: the character's rolls (None: the encounter's form,
    for any combatant: custom changes reach every roll). ``running``: the campaign's running
    encounters (``clock.Running``); ``encounter_id``: the form of that encounter's page (its rounds
    and its combatants only). ``rest``: the character's sheet has a rest."""
    labels = {
        str(r["id"]): str(r.get("label") or r["id"])
        for r in rollables or ()
        if isinstance(r, dict) and r.get("id")
    }
    made = Offer(ruleset_name=ruleset.name)
    for kind in ruleset.effect_catalogue(ctx).values():
        changes = kind.changes_at(1)
        made.named.append(
            {
                "value": f"named:{kind.id}",
                "id": kind.id,
                "name": kind.name,
                "text": kind.text or describe(ruleset, changes, labels),
                "valued": kind.valued,
                "max": kind.max if kind.valued else None,
                "house_default": kind.house_default,
            }
        )
    made.saved = [
        {
            "value": f"saved:{s.pk}",
            "pk": s.pk,
            "name": s.name,
            "text": describe(ruleset, s.changes, labels),
            "changes": s.changes,
        }
        for s in saved
    ]
    made.whats = _whats(ruleset)
    made.targets = _targets(ruleset, rollables)
    if encounter_id is not None:
        running = [r for r in running if r.encounter_id == encounter_id]
    made.encounters = [{"id": r.encounter_id, "name": r.name, "round": r.round} for r in running]
    several = len(running) > 1
    made.combatants = [
        {"id": cid, "label": f"{name} ({r.name})" if several else name}
        for r in running
        for cid, name in r.combatants
    ]
    made.durations = [{"value": "none", "label": "Until removed"}]
    if running:
        made.durations.append({"value": "rounds", "label": "Rounds of the encounter"})
        if made.combatants:
            made.durations.append({"value": "turn", "label": "Until the end of a combatant's turn"})
    if rest:
        made.durations.append({"value": "rest", "label": "Until rest"})
    return made


@dataclass
class Parsed:
    """The form's fields as the effects' service takes them."""

    spec: dict[str, Any]
    duration: dict[str, Any] | None
    encounter: int | None
    save_as: str | None = None  # a custom effect to keep in the campaign under this name
    saved: dict[str, Any] | None = None  # the saved effect picked


def _custom_changes(post, made: Offer) -> list[dict[str, Any]]:
    whats = {o["value"]: o for o in made.whats}
    targets = {o["value"] for o in made.targets}
    changes = []
    for i in made.rows:
        what = post_text(post, f"what-{i}", label="What", max_length=80)
        if not what:
            continue
        where = f"Change {i + 1}"
        if what not in whats:
            raise FormInputError(f"what-{i}", "pick what it changes from the list.", label=where)
        target = post_text(post, f"target-{i}", label="Which rolls", max_length=200) or ALL
        if target not in targets:
            raise FormInputError(f"target-{i}", "pick which rolls it changes from the list.", label=where)
        kind, _, key = what.partition(":")
        if kind == "mode":
            changes.append({"target": target, "mode": key})
            continue
        amount = post_whole_number(
            post, f"amount-{i}", label=f"{where}, how much", min_value=-fx.MAX_SHIFT, max_value=fx.MAX_SHIFT
        )
        if amount == 0:
            raise FormInputError(
                f"amount-{i}", "a change of 0 changes nothing: add or take away at least 1.", label=where
            )
        changes.append(
            {"target": target, "type": key, "value": amount}
            if kind == "type"
            else {"target": target, key: amount}
        )
    if not changes:
        raise FormInputError(
            "what-0", "say what it changes: pick what, how much and which rolls.", label="Change 1"
        )
    return changes


def parse(post, made: Offer) -> Parsed:
    """The posted form as (spec, duration, encounter): raises ``FormInputError`` naming the field."""
    picked = post_text(post, "effect", label="Effect", max_length=200)
    save_as = None
    saved = None
    if picked in made.named_by_value():
        kind = made.named_by_value()[picked]
        spec: dict[str, Any] = {"effect": kind["id"]}
        if kind["valued"]:
            spec["value"] = post_whole_number(
                post, "value", label=f"{kind['name']}'s value", default=1, min_value=1, max_value=kind["max"]
            )
    elif picked in made.saved_by_value():
        saved = made.saved_by_value()[picked]
        spec = {"name": saved["name"], "changes": saved["changes"]}
    elif picked == "custom":
        name = " ".join(post_text(post, "custom_name", label="Name", max_length=NAME_MAX).split())
        if not name:
            raise FormInputError(
                "custom_name", "give the effect a name (Blessed, Off balance…).", label="Name"
            )
        spec = {"name": name, "changes": _custom_changes(post, made)}
        if post.get("save") == "on":
            save_as = name
    else:
        raise FormInputError("effect", "pick an effect, or make one.", label="Effect")
    how = post_text(post, "duration", label="How long", max_length=20) or "none"
    if how not in DURATIONS:
        raise FormInputError("duration", "pick one of the durations offered.", label="How long")
    # Whether the encounter still runs, whether the combatant is still in one, is the service's to
    # say (its refusal names why): the form may have been drawn before the encounter ended.
    duration: dict[str, Any] | None = None
    encounter = None
    if how == "rounds":
        rounds = post_whole_number(post, "rounds", label="Rounds", min_value=1, max_value=made.max_rounds)
        duration = {"rounds": rounds}
        ids = [r["id"] for r in made.encounters]
        encounter = post_whole_number(
            post, "encounter", label="Encounter", default=ids[0] if len(ids) == 1 else None, min_value=1
        )
    elif how == "turn":
        duration = {
            "until": "end_of_turn",
            "combatant": post_whole_number(post, "combatant", label="Whose turn", min_value=1),
        }
    elif how == "rest":
        duration = {"until": "rest"}
    return Parsed(spec=spec, duration=duration, encounter=encounter, save_as=save_as, saved=saved)


def kept_after(post) -> Any:
    """What the form keeps after an effect is applied: the choices, so the place the person pressed
    Enter in stays on the screen with the focus, but not the custom effect's name (a second press
    asks for one, rather than applying it twice) nor "keep it"."""
    kept = post.copy()
    kept["custom_name"] = ""
    kept.pop("save", None)
    return kept


def refusal_text(code: str, message: str, *, parsed: Parsed | None, character_name: str = "") -> str:
    """A refusal of the effects' service as the form says it: the engine's words, but where they would
    name a roll by its id (a saved effect made on another character), the form's."""
    if code == "effect.unknown_target" and parsed is not None and parsed.saved is not None:
        who = character_name or "this character"
        return f"{parsed.saved['name']} changes a roll {who} does not have: make it again for {who}."
    if code == "effect.unknown_target" and parsed is not None and "effect" in parsed.spec:
        return message  # "Frightened changes no roll this character has."
    if code in ("effect.unknown_target", "effect.unknown_key", "effect.malformed"):
        return "The rules cannot apply that effect to this character: pick another, or make it again."
    return message
