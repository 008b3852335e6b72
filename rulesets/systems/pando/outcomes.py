"""Pando's outcomes (seed 000 "Outcomes"; RULES.md amendment W1): what a roll's efficiency points buy.

"Each action has a related list of Outcomes possible for that action … Efficiency is a point system
that lets you choose outcomes for the action, with different outcomes costing different amounts of
Efficiency." An outcome is data::

    {"id": "hit", "name": "Hit", "cost": 1, "chainable": true,
     "harm"?: 1,                 # harm per time taken, to a body part the roller picks
     "effect"?: "prone", "value"?: n,   # a named effect put on the target (effects.json)
     "disarm"?: true,            # the target's wielded item becomes carried
     "text": "words for the table and the GM"}

``content/outcomes.json`` holds them (the house defaults ``hit``, ``knock_prone``, ``disarm``,
``cause_bleeding``: the seed's list of outcome characteristics is lost); ``content/actions.json`` and
``content/items.json`` list the ids each action and item offers. Campaign homebrew adds outcomes
(kind ``outcomes``, naming the ``actions`` and ``items`` that offer them) or replaces one by its id.
The campaign's catalogue then lists every action's and item's outcomes in full (``expanded``).

Spending ("After rolling, the player taking the action selects an outcome with a cost equal to or
less than the roll's EP. Only one outcome can be selected … The exception to this rule are outcomes
marked as chainable"): ``plan`` checks one spend and says what it buys, or refuses it with the
contract's code; nothing here changes a state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.engine.combat import CombatRefused
from rulesets.engine.context import ID_RE
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as, is_int, whole_number
from rulesets.engine.report import Issue

from .character import entry_item, label
from .character.common import DEFAULT_PARTS

KIND = "outcomes"
#: The keys an outcome may have, in the order the catalogue shows them.
KEYS = ("id", "name", "cost", "chainable", "harm", "effect", "value", "disarm", "text")
#: The dearest outcome a homebrew may make (no roll gives more EP than its dice: 30).
MAX_COST = 30


def outcome_problems(entry: dict, path: str) -> list[Issue]:
    """The field checks of a homebrew outcome."""
    out: list[Issue] = []

    def bad(key: str, message: str) -> None:
        out.append(Issue("homebrew.malformed", f"{path}/{key}", message))

    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        bad("name", "Give the outcome a name.")
    cost = entry.get("cost")
    if not (is_int(cost) and 0 <= cost <= MAX_COST):
        bad("cost", f"An outcome's cost is a whole number of EP from 0 to {MAX_COST}.")
    if not isinstance(entry.get("chainable", False), bool):
        bad("chainable", "chainable is true or false.")
    if "harm" in entry and not (is_int(entry["harm"]) and 1 <= entry["harm"] <= MAX_COST):
        bad("harm", "harm is a whole number of 1 or more (harm per time taken).")
    if "effect" in entry and not (isinstance(entry["effect"], str) and ID_RE.match(entry["effect"])):
        bad("effect", "effect is the id of one of Pando's effects, such as prone or bleeding.")
    if "value" in entry and not (is_int(entry["value"]) and entry["value"] >= 1):
        bad("value", "value is the effect's value, a whole number of 1 or more.")
    if "disarm" in entry and not isinstance(entry["disarm"], bool):
        bad("disarm", "disarm is true or false.")
    if not isinstance(entry.get("text", ""), str):
        bad("text", "text is words for the table.")
    for key in ("actions", "items"):
        ids = entry.get(key, [])
        if not (isinstance(ids, list) and all(isinstance(i, str) and ID_RE.match(i) for i in ids)):
            bad(key, f"{key} is a list of ids of the catalogue's {key} that offer this outcome.")
    return out


def public(outcome: dict) -> dict[str, Any]:
    """An outcome as the catalogue, the page and the API show it."""
    out = {k: outcome[k] for k in KEYS if k in outcome}
    out["chainable"] = bool(outcome.get("chainable"))
    out.setdefault("text", "")
    if outcome.get("house_default"):
        out["house_default"] = True
    if outcome.get("homebrew"):
        out["homebrew"] = True
    return out


def expanded(catalogue: dict[str, dict[str, dict]]) -> dict[str, dict[str, dict]]:
    """``catalogue`` with each action's and item's ``outcomes`` in full: the ids it lists (or the
    outcomes it already lists in full, looked up again so a campaign's replacement wins), then the
    outcomes whose ``actions`` / ``items`` name it (homebrew). An id nobody defines is left out."""
    known = catalogue.get(KIND, {})
    out = dict(catalogue)
    for kind in ("actions", "items"):
        entries = {}
        for eid, entry in catalogue.get(kind, {}).items():
            listed = [o if isinstance(o, str) else o.get("id") for o in entry.get(KIND) or []]
            listed += [oid for oid, o in known.items() if eid in (o.get(kind) or []) and oid not in listed]
            entries[eid] = {**entry, KIND: [public(known[oid]) for oid in listed if oid in known]}
        out[kind] = entries
    return out


def of_roll(catalogue: dict[str, dict[str, dict]], kind: str, item: dict | None = None) -> list[dict]:
    """The outcomes a roll of action ``kind`` (with ``item``, when an item's action) may buy: the
    action's, then the item's, each once."""
    known = catalogue.get(KIND, {})
    action = catalogue.get("actions", {}).get(kind) or {}
    found = [*(action.get(KIND) or []), *((item or {}).get(KIND) or [])]
    if item is not None and item.get("id") in catalogue.get("items", {}):
        found += catalogue["items"][item["id"]].get(KIND) or []
    seen: set[str] = set()
    out = []
    for o in found:
        if isinstance(o, str):  # a custom item lists ids
            o = public(known[o]) if o in known else None
        if isinstance(o, dict) and o.get("id") not in seen:
            seen.add(o["id"])
            out.append(o)
    return out


def of_tools(build: dict, catalogue: dict[str, dict[str, dict]]) -> dict[str, list[dict]]:
    """Skill id → the outcomes a skill's action may buy with what the character holds: an item's
    action (a strike aside: that is the weapon's own roll) that lists the skill offers the action's
    and the item's outcomes to it (lockpicks to Lockpicking: Work quietly, Steady hand)."""
    out: dict[str, list[dict]] = {}
    for entry in get_as(build, "equipment", list, []):
        if not isinstance(entry, dict) or entry.get("state") not in ("wielded", "carried"):
            continue
        item = entry_item(entry, catalogue)
        for action in item["actions"] if item is not None else ():
            if not isinstance(action, dict) or action.get("action") == "strike":
                continue
            offered = of_roll(catalogue, str(action.get("action")), item)
            for sid in get_as(action, "skills", list, []):
                have = out.setdefault(str(sid), [])
                have.extend(o for o in offered if all(o["id"] != h["id"] for h in have))
    return out


def chance_at_least(ep_odds: dict[str, float], cost: int) -> float:
    """P(EP ≥ ``cost``) from an odds answer's exact distribution ``{"0": p, …}``."""
    return float(sum(p for ep, p in ep_odds.items() if int(ep) >= cost))


def affordable(ep_odds: dict[str, float], outcomes: list[dict]) -> list[dict[str, Any]]:
    """Each outcome (as ``public`` shows it) with the chance that the roll affords it: ``chance``,
    ``pct`` and ``afford`` ("Knock prone (3 EP): 42%")."""
    out = []
    for o in outcomes:
        chance = chance_at_least(ep_odds, o["cost"])
        out.append(
            {
                **{k: v for k, v in public(o).items()},
                "chance": chance,
                "pct": round(chance * 100),
                "afford": f"{o['name']} ({cost_text(o)}): {percent_text(chance)}%",
            }
        )
    return out


def percent_text(chance: float, places: int = 0) -> str:
    """``chance`` as a percentage for people, rounded to ``places`` decimals: never 0 for a chance
    that is not nothing, nor 100 for one that is not sure ("<1", ">99"; "<0.1", ">99.9")."""
    shown = round(chance * 100, places)
    least = 10**-places
    if chance and shown == 0:
        return f"<{least:g}"
    if chance < 1 and shown == 100:
        return f">{100 - least:g}"
    return f"{shown:g}" if places else str(int(shown))


def cost_text(outcome: dict) -> str:
    each = " each" if outcome.get("chainable") else ""
    return f"{outcome['cost']} EP{each}"


def spend_params(
    available: list[dict], ep: int, *, main_taken: bool, parts: list[str], obstacles: Any = None
) -> list[dict[str, Any]]:
    """The spend form's fields (the encounter's action form and the sheet's alike): one outcome that
    is not chainable, how many times each chainable one, the body part a harm lands on; each choice
    with its cost, only what ``ep`` affords."""
    params: list[dict[str, Any]] = []
    singles = [o for o in available if not o.get("chainable") and o["cost"] <= ep]
    if singles and not main_taken:
        params.append(
            {
                "id": "outcome",
                "label": "One outcome",
                "kind": "choice",
                "options": [
                    {"id": "", "label": "None"},
                    *({"id": o["id"], "label": f"{o['name']} — {cost_text(o)}"} for o in singles),
                ],
                "default": "",
            }
        )
    for o in available:
        if o.get("chainable") and o["cost"] <= ep:
            params.append(
                {
                    "id": f"times_{o['id']}",
                    "label": f"{o['name']} — {cost_text(o)}, chainable (times)",
                    "kind": "number",
                    "min": 0,
                    "max": ep // o["cost"] if o["cost"] else ep,
                    "default": 0,
                }
            )
    open_ones = {k: v for k, v in (obstacles or {}).items() if isinstance(v, dict) and not v.get("resolved")}
    if open_ones:
        params.append(
            {
                "id": "obstacle",
                "label": "Obstacle to work on",
                "kind": "choice",
                "options": [
                    {"id": "", "label": "None"},
                    *(
                        {
                            "id": k,
                            "label": f"{v.get('name')} ({v.get('ep', 0)}/{'?' if v.get('secret') else v.get('level')} EP)",
                        }
                        for k, v in open_ones.items()
                    ),
                ],
                "default": "",
            }
        )
        params.append(
            {
                "id": "ep_to_obstacle",
                "label": "EP into the obstacle",
                "kind": "number",
                "min": 0,
                "max": ep,
                "default": 0,
            }
        )
    if parts and any(o.get("harm") for o in available):
        params.append(
            {
                "id": "body_part",
                "label": "Body part hit",
                "kind": "choice",
                "options": [{"id": p, "label": label(p)} for p in parts],
            }
        )
    return params


def requested(action: dict, available: list[dict]) -> Any:
    """The outcomes a spend asks for: the API's ``outcomes`` list, else the form's fields
    (``outcome``, ``times_<id>``, ``body_part``, ``target``)."""
    if "outcomes" in action:
        return action["outcomes"]
    part = action.get("body_part") if isinstance(action.get("body_part"), str) else None
    target = action.get("target")
    out: list[dict[str, Any]] = []
    main = action.get("outcome")
    if isinstance(main, str) and main:
        out.append({"id": main})
    for o in available:
        raw = action.get(f"times_{o['id']}")
        if raw in (None, ""):
            continue
        times = whole_number(raw)
        out.append({"id": o["id"], "times": raw if times is None else times})
    if part:
        out = [{**r, "body_part": part} if "body_part" not in r else r for r in out]
    if target not in (None, ""):
        out = [{**r, "target": target} for r in out]
    return out


@dataclass
class Bought:
    """One outcome of a spend: taken ``times`` times, on ``body_part`` (harm) of ``target``."""

    outcome: dict
    times: int
    body_part: str | None
    target: int | None

    @property
    def cost(self) -> int:
        return int(self.outcome["cost"]) * self.times

    def words(self) -> str:
        times = f" ×{self.times}" if self.times > 1 else ""
        return f"{self.outcome['name']}{times} ({self.cost} EP)"


def _names(outcomes: list[dict]) -> str:
    return ", ".join(f"{o['name']} ({cost_text(o)})" for o in outcomes) or "none"


def plan(
    available: list[dict], request: Any, ep: int, *, main_taken: bool, to_obstacle: int = 0
) -> list[Bought]:
    """The outcomes a spend of ``ep`` buys (``request``: ``[{"id", "times"?, "body_part"?,
    "target"?}]``), or ``CombatRefused``: ``pando.outcome_unknown`` (not this roll's),
    ``pando.outcome_not_chainable`` (two outcomes that are not chainable, counting one bought
    already from this roll: ``main_taken``), ``pando.ep_exceeded`` (more than the roll's EP, with
    ``to_obstacle`` EP put into an obstacle besides)."""
    if not isinstance(request, list) or not all(isinstance(r, dict) for r in request):
        raise CombatRefused(
            "pando.outcome_unknown", f"Pick the outcomes to buy. This roll's: {_names(available)}."
        )
    by_id = {o["id"]: o for o in available}
    bought: list[Bought] = []
    for r in request:
        outcome = by_id.get(r.get("id")) if isinstance(r.get("id"), str) else None
        if outcome is None:
            raise CombatRefused(
                "pando.outcome_unknown",
                f"That outcome is not one this roll can buy. This roll's: {_names(available)}.",
            )
        times = whole_number(r.get("times", 1))
        if times is None or times < 0:
            raise CombatRefused(
                "pando.invalid_amount", f"Take {outcome['name']} a whole number of times, 1 or more."
            )
        if times == 0:
            continue
        part = r.get("body_part")
        target = whole_number(r.get("target")) if r.get("target") not in (None, "") else None
        bought.append(Bought(outcome, times, part if isinstance(part, str) and part else None, target))
    single = [b for b in bought if not b.outcome.get("chainable")]
    if main_taken and single or sum(b.times for b in single) > 1:
        names = (
            " and ".join(b.outcome["name"] for b in single) if not main_taken else single[0].outcome["name"]
        )
        already = " (one was bought from this roll already)" if main_taken else ""
        raise CombatRefused(
            "pando.outcome_not_chainable",
            "Only one outcome can be selected, but chainable ones: "
            f"{names} cannot be taken together{already}.",
        )
    spent = sum(b.cost for b in bought) + to_obstacle
    if spent > ep:
        what = " and ".join(b.words() for b in bought) or "Nothing"
        obstacle = f" with {to_obstacle} EP into the obstacle" if to_obstacle else ""
        raise CombatRefused(
            "pando.ep_exceeded",
            f"{what}{obstacle} cost{'s' if len(bought) < 2 else ''} {spent} EP; the roll has {ep}.",
        )
    return bought


# ------------------------------------------------------------------ EP into an obstacle (W2)

#: The refusal of EP put into an obstacle already overcome ({name}: the obstacle's), kept with the
#: spend so the product refuses in these words when another spend got there first.
RESOLVED = (
    "pando.obstacle_resolved",
    "{name} is overcome already: EP put into it would be lost. Spend them on outcomes instead.",
)


def obstacle_part(request: dict[str, Any], obstacles: Any) -> dict[str, Any] | None:
    """The obstacle part of a spend (``obstacle``: its id, ``ep_to_obstacle``: how many EP, at least
    1) checked against the obstacles the product listed (id → {name, level, ep, resolved}); None
    when the spend names none. "EP used to overcome the obstacle cannot be spent on outcomes": the
    caller counts them against the roll's EP (``plan``'s ``to_obstacle``)."""
    oid = request.get("obstacle")
    if oid in (None, "") or request.get("ep_to_obstacle") in (0, "0"):
        return None
    known = obstacles if isinstance(obstacles, Mapping) else {}
    found = known.get(str(oid))
    if found is None:
        raise CombatRefused("pando.obstacle_unknown", "That obstacle is not one this roll can work on.")
    if found.get("resolved"):
        raise CombatRefused(RESOLVED[0], RESOLVED[1].format(name=found.get("name") or "The obstacle"))
    ep = whole_number(request.get("ep_to_obstacle"))
    if ep is None or ep < 1:
        raise CombatRefused("pando.invalid_amount", "Put 1 EP or more into the obstacle.")
    return {"id": int(oid), "ep": ep, "name": found.get("name") or "the obstacle", "refusal": list(RESOLVED)}


# ------------------------------------------------------------------ a sheet roll's EP (outside a fight)


def to_spend(rollable: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    """What a sheet roll leaves to spend: its EP and the outcomes ``rollable`` offers (dice.py lists
    them with their chances); None when it offers none or rolled no EP."""
    offered = [o for o in rollable.get(KIND) or [] if isinstance(o, dict) and isinstance(o.get("id"), str)]
    ep = result.get("total")
    if not offered or not is_int(ep) or ep <= 0:
        return None
    return _with_form(
        {
            "ep": ep,
            "label": str(rollable.get("label") or "the roll")[:120],
            KIND: [public(o) for o in offered],
            "main_taken": False,
        }
    )


def _with_form(pending: dict[str, Any]) -> dict[str, Any]:
    """A pending roll with its spend form (``params``, the sheet shows them) and whether an outcome
    of it falls on someone (``needs_target``: the sheet asks whom)."""
    available = pending[KIND]
    return {
        **pending,
        "params": spend_params(
            available, pending["ep"], main_taken=bool(pending["main_taken"]), parts=list(DEFAULT_PARTS)
        ),
        "needs_target": any(o.get("harm") or o.get("effect") or o.get("disarm") for o in available),
    }


def sheet_spend(pending: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Spend a sheet roll's EP (``to_spend``'s ``pending``): the plan ``Ruleset.spend_roll`` returns.
    Harm, an effect or a disarm falls on ``target`` (a character of the campaign, which the product
    checks); words are for the table. Refusals as in the encounter, as ``StateError``."""
    if not isinstance(pending, dict) or not is_int(pending.get("ep")) or pending["ep"] <= 0:
        raise StateError(
            "pando.no_roll_to_spend",
            "There is no EP to spend: roll first; a roll's EP are spent before acting again.",
        )
    available = [o for o in pending.get(KIND) or [] if isinstance(o, dict)]
    try:
        obstacle = obstacle_part(request, request.get("obstacles"))
        to_obstacle = obstacle["ep"] if obstacle else 0
        bought = plan(
            available,
            requested(request, available),
            pending["ep"],
            main_taken=bool(pending.get("main_taken")),
            to_obstacle=to_obstacle,
        )
    except CombatRefused as exc:
        raise StateError(exc.code, exc.message) from None
    if not bought and not obstacle:
        raise StateError(
            "pando.outcome_unknown", f"Pick an outcome to buy. This roll's: {_names(available)}."
        )
    targets: dict[int, dict[str, Any]] = {}
    words = []
    for b in bought:
        o = b.outcome
        if not (o.get("harm") or o.get("effect") or o.get("disarm")):
            words.append(f"{b.words()}: {o.get('text') or o['name']}")
            continue
        if b.target is None:
            raise StateError("pando.no_target", f"Name the character {o['name']} falls on.", "/target")
        t = targets.setdefault(b.target, {"target": b.target, "actions": [], "effects": []})
        if o.get("harm"):
            t["actions"].append(
                {"action": "harm", "body_part": b.body_part, "amount": o["harm"] * b.times, "protected": True}
            )
        if o.get("disarm"):
            t["actions"].append({"action": "disarm"})
        if o.get("effect"):
            t["effects"].append({"effect": o["effect"], **({"value": o["value"]} if o.get("value") else {})})
        words.append(b.words())
    if obstacle:
        words.insert(0, f"{to_obstacle} EP into {obstacle['name']}")
    cost = sum(b.cost for b in bought) + to_obstacle
    left = pending["ep"] - cost
    main = bool(pending.get("main_taken")) or any(not b.outcome.get("chainable") for b in bought)
    return {
        "text": f"spends {cost} EP of {pending.get('label') or 'the roll'}: " + "; ".join(words) + ".",
        "spent": cost,
        "obstacle": obstacle,
        "left": _with_form({**pending, "ep": left, "main_taken": main}) if left else None,
        "targets": list(targets.values()),
    }
