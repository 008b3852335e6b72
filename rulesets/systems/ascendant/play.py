"""Ascendant at the table: checks (odds and rolls), the sheet's roll buttons, play state.

A check is d20 + modifier against a threshold (seed, "Game Basics"). Degrees of
success (HD, the seed lost the ±10 line): total ≥ threshold + 10 critical success,
≥ threshold success, ≤ threshold − 10 critical failure, otherwise failure; then a
natural 20 improves and a natural 1 worsens the degree by one (never past the ends).

Play state (beside the build, never priced)::

    {"stamina": 16, "temp_stamina": 0, "hero_points": 1,
     "conditions": [{"id": "frightened", "value": 2}, {"id": "off_guard"}]}

Conditions come from ``content/conditions.json``; each lists typed modifiers with a
``selector`` — "all" (every check and threshold), "attr:<a>" (what adds that
attribute: its skills, its defense, and Deflection for dex), "deflection",
"perception", "skill.<id>", "defense.<id>" — and a fixed ``value`` or a
``per_value`` multiplied by the condition's value. They stack by
``rulesets.engine.modifiers.stack``: frightened 2 and sickened 1 are both status
penalties, so only −2 applies.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from rulesets.engine.base import OddsError, StateError, action_amount, is_int
from rulesets.engine.dice import Roller
from rulesets.engine.modifiers import stack
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

from .rules import ATTRIBUTE_LABELS, DEFENSES

DEGREES = ("critical_failure", "failure", "success", "critical_success")
DEGREE_TEXT = {
    "critical_failure": "critical failure", "failure": "failure",
    "success": "success", "critical_success": "critical success",
}
LIMIT = 1000  # modifiers and thresholds beyond this are typos, not characters


def degree(face: int, modifier: int, threshold: int) -> str:
    """The degree of success of one d20 face."""
    total = face + modifier
    if total >= threshold + 10:
        step = 3
    elif total >= threshold:
        step = 2
    elif total <= threshold - 10:
        step = 0
    else:
        step = 1
    if face == 20:
        step = min(3, step + 1)
    elif face == 1:
        step = max(0, step - 1)
    return DEGREES[step]


def parse_request(request: Any) -> tuple[int, int]:
    """(modifier, threshold) of an odds/roll request, or OddsError saying what is wrong."""
    if not isinstance(request, dict):
        raise OddsError('An Ascendant check is {"modifier": M, "threshold": T}.')
    out = []
    for key in ("modifier", "threshold"):
        value = request.get(key)
        if value is None:
            raise OddsError(f'Give "{key}" (a whole number): the request is {{"modifier": M, "threshold": T}}.')
        if not is_int(value):
            raise OddsError(f'"{key}" must be a whole number, not {value!r}.')
        if abs(value) > LIMIT:
            raise OddsError(f'"{key}" must be between −{LIMIT} and {LIMIT}.')
        out.append(value)
    return out[0], out[1]


@lru_cache(maxsize=1024)
def _odds(difference: int) -> tuple[float, ...]:
    counts = [0, 0, 0, 0]
    for face in range(1, 21):
        counts[DEGREES.index(degree(face, difference, 0))] += 1
    return tuple(c / 20 for c in counts)


def odds(request: Any) -> dict[str, float]:
    """Exact chances of the four degrees (each face of the d20 is 1/20)."""
    modifier, threshold = parse_request(request)
    probs = _odds(modifier - threshold)  # only the difference matters
    return {name: probs[i] for i, name in reversed(list(enumerate(DEGREES)))}


def roll(request: Any, roller: Roller) -> dict[str, Any]:
    modifier, threshold = parse_request(request)
    face = roller.d(20)
    outcome = degree(face, modifier, threshold)
    total = face + modifier
    note = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
    label = request.get("label")
    text = (f"{label + ': ' if isinstance(label, str) else ''}d20 {face}{note} {modifier:+d} = {total} "
            f"vs {threshold}: {DEGREE_TEXT[outcome]}")
    return {"faces": [face], "total": total, "outcome": outcome, "text": text}


# ----------------------------------------------------------------- targets


def targets(derived: dict, skills_cat: dict) -> list[dict[str, Any]]:
    """Every number conditions can touch: checks (with their base modifier) and thresholds."""
    out: list[dict[str, Any]] = []
    if "skills" not in derived:
        return out
    feats = derived.get("breakdown") or {}

    def add(tid: str, group: str, value: int, check: bool, tags: set[str]) -> None:
        # A number with feat modifiers starts from its base, and the feats stack with the conditions.
        bd = feats.get(tid)
        out.append({"id": tid, "group": group, "base": bd["base"] if bd else value, "check": check,
                    "feat_modifiers": bd["modifiers"] if bd else [], "tags": tags})

    for skill, value in derived["skills"].items():
        attr = skills_cat.get(skill, {}).get("attribute")
        add(f"skill.{skill}", "skills", value, True, {"all", "skill", f"skill.{skill}", f"attr:{attr}"})
    if "perception" in derived:
        add("perception", "perception", derived["perception"], True, {"all", "perception", "attr:wis"})
    for name, value in derived.get("defenses", {}).items():
        add(f"defense.{name}", "defenses", value, True,
            {"all", "defense", f"defense.{name}", f"attr:{DEFENSES[name]}"})
    for lore, value in derived.get("lore_modifiers", {}).items():
        add(f"lore.{lore}", "lores", value, True, {"all", "lore", f"lore.{lore}", "attr:int"})
    if "thresholds" in derived:
        add("deflection", "thresholds", derived["thresholds"]["deflection"], False, {"all", "deflection", "attr:dex"})
    return out


def condition_modifiers(conditions: dict[str, dict], state: Any, tags: set[str]) -> list[dict[str, Any]]:
    mods: list[dict[str, Any]] = []
    for entry in (state or {}).get("conditions", []) if isinstance(state, dict) else []:
        if not isinstance(entry, dict):
            continue
        cond = conditions.get(entry.get("id"))
        if cond is None:
            continue
        value = entry.get("value", 1) if is_int(entry.get("value", 1)) else 1
        source = cond["name"] + (f" {value}" if cond.get("valued") else "")
        for mod in cond.get("modifiers", []):
            if mod.get("selector") in tags:
                amount = mod["per_value"] * value if "per_value" in mod else mod.get("value", 0)
                mods.append({"value": amount, "type": mod.get("type"), "source": source})
    return mods


# ------------------------------------------------------------------- state


def check_state(state: Any, derived: dict, conditions: dict, house: dict) -> list[Issue]:
    if not isinstance(state, dict):
        return [Issue("state.malformed", "", "The play state must be an object.")]
    issues: list[Issue] = []
    limits = {"stamina": derived.get("max_stamina"), "temp_stamina": None, "hero_points": house["hero_points_max"]}
    for key, top in limits.items():
        value = state.get(key)
        if value is None:
            continue
        if not is_int(value):
            issues.append(Issue("state.malformed", ptr(key), f"{key.replace('_', ' ')} must be a whole number."))
        elif value < 0:
            issues.append(Issue("state.below_minimum", ptr(key), f"{key.replace('_', ' ')} cannot go below 0."))
        elif top is not None and value > top:
            issues.append(Issue("state.above_maximum", ptr(key), f"{key.replace('_', ' ')} is {value}, above its "
                                f"maximum {top}."))
    conds = state.get("conditions", [])
    if not isinstance(conds, list):
        return issues + [Issue("state.malformed", "/conditions", "Conditions are a list of {\"id\", \"value\"}.")]
    seen: set[str] = set()
    for i, entry in enumerate(conds):
        path = ptr("conditions", i)
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            issues.append(Issue("state.malformed", path, "A condition is {\"id\": \"frightened\", \"value\": 2}."))
            continue
        cond = conditions.get(entry["id"])
        if cond is None:
            issues.append(Issue("state.unknown_condition", path + "/id", f"{entry['id']!r} is not a condition; "
                                f"use one of {', '.join(conditions)}."))
            continue
        if entry["id"] in seen:
            issues.append(Issue("state.duplicate", path, f"{cond['name']} is listed twice; keep the higher value."))
        seen.add(entry["id"])
        value = entry.get("value", 1)
        if cond.get("valued"):
            if not is_int(value) or not 1 <= value <= cond.get("max", 99):
                issues.append(Issue("state.above_maximum" if is_int(value) and value > 1 else "state.malformed",
                                    path + "/value", f"{cond['name']} takes a value from 1 to {cond.get('max', 99)}."))
        elif value not in (1, None):
            issues.append(Issue("state.malformed", path + "/value", f"{cond['name']} has no value; leave it out."))
    return issues


def _find(conds: list[dict], cid: str) -> dict | None:
    return next((c for c in conds if isinstance(c, dict) and c.get("id") == cid), None)


def apply_action(state: Any, action: Any, derived: dict, conditions: dict, house: dict,
                 name: str) -> tuple[dict, str]:
    """One play-state change: damage, heal, temp_stamina, add_condition, remove_condition, rest,
    hero_point. Returns (new state, a sentence); raises StateError when refused."""
    if not isinstance(action, dict) or not isinstance(action.get("action"), str):
        raise StateError("state.malformed", 'An action is {"action": "damage", "amount": 5}.')
    broken = [i for i in check_state(state if isinstance(state, dict) else {}, derived, conditions, house)
              if i.code in ("state.malformed", "state.unknown_condition", "state.duplicate")]
    if broken:  # repair the state first (the sheet's editor) rather than guess at it
        raise StateError(broken[0].code, broken[0].message, broken[0].path)
    new = copy.deepcopy(state) if isinstance(state, dict) else {}
    top = derived.get("max_stamina")
    if top is None:
        raise StateError("state.unavailable", "This build's maximum Stamina is unknown; fix the build first.")
    for key in ("stamina", "temp_stamina", "hero_points", "conditions"):
        if new.get(key) is None:
            new.pop(key, None)
    new.setdefault("stamina", top)
    new.setdefault("temp_stamina", 0)
    new.setdefault("hero_points", house["hero_points_start"])
    conds = [c for c in new.get("conditions", []) if isinstance(c, dict)]
    new["conditions"] = conds
    kind = action["action"]

    def set_condition(cid: str, value: int) -> None:
        cond = conditions[cid]
        current = _find(conds, cid)
        value = min(value, cond.get("max", 1)) if cond.get("valued") else 1
        if current is None:
            conds.append({"id": cid, "value": value} if cond.get("valued") else {"id": cid})
        elif cond.get("valued"):
            current["value"] = max(current.get("value", 1), value)

    def drop(cid: str) -> None:
        conds[:] = [c for c in conds if c.get("id") != cid]

    if kind == "damage":
        amount = action_amount(action, low=1)
        absorbed = min(new["temp_stamina"], amount)
        new["temp_stamina"] -= absorbed
        was = new["stamina"]
        new["stamina"] = max(0, was - (amount - absorbed))
        text = f"{name} takes {amount} damage" + (f" ({absorbed} absorbed by temporary Stamina)" if absorbed else "")
        if new["stamina"] == 0 and was > 0:
            wounded = _find(conds, "wounded")
            dying = 1 + (wounded.get("value", 1) if wounded else 0)
            set_condition("dying", dying)
            set_condition("unconscious", 1)
            text += f" and falls unconscious, dying {min(dying, conditions['dying'].get('max', 4))}"
        return new, text + f": {new['stamina']}/{top} Stamina."
    if kind == "heal":
        amount = action_amount(action, low=1)
        was = new["stamina"]
        new["stamina"] = min(top, was + amount)
        text = f"{name} recovers {new['stamina'] - was} Stamina: {new['stamina']}/{top}."
        if was == 0 and new["stamina"] > 0 and _find(conds, "dying"):
            drop("dying")
            drop("unconscious")
            wounded = _find(conds, "wounded")
            set_condition("wounded", (wounded.get("value", 1) + 1) if wounded else 1)
            text += " No longer dying (wounded rises by 1)."
        return new, text
    if kind == "temp_stamina":
        amount = action_amount(action)
        new["temp_stamina"] = max(new["temp_stamina"], amount)  # temporary Stamina does not add up
        return new, f"{name} has {new['temp_stamina']} temporary Stamina."
    if kind == "add_condition":
        cid = action.get("id")
        if not isinstance(cid, str) or cid not in conditions:
            raise StateError("state.unknown_condition", f"{cid!r} is not a condition; use one of "
                             f"{', '.join(conditions)}.", "/id")
        value = action_amount(action, "value", low=1) if conditions[cid].get("valued") else 1
        set_condition(cid, value)
        now = _find(conds, cid)
        return new, f"{name} is {conditions[cid]['name'].lower()}" + (
            f" {now['value']}." if conditions[cid].get("valued") else ".")
    if kind == "remove_condition":
        cid = action.get("id")
        current = _find(conds, cid) if isinstance(cid, str) else None
        if current is None:
            raise StateError("state.not_present", f"{name} is not {cid}; nothing to remove.", "/id")
        by = action.get("value")
        if by is not None and conditions.get(cid, {}).get("valued"):
            by = action_amount(action, "value", low=1)
            current["value"] = current.get("value", 1) - by
            if current["value"] > 0:
                return new, f"{name}'s {conditions[cid]['name'].lower()} drops to {current['value']}."
        drop(cid)
        return new, f"{name} is no longer {conditions.get(cid, {}).get('name', cid).lower()}."
    if kind == "rest":
        # HD: a night's rest gives back Constitution × level Stamina (at least level).
        level = derived.get("level", 1)
        gain = level * max(1, derived.get("attributes", {}).get("con", 0))
        was = new["stamina"]
        new["stamina"] = min(top, was + gain)
        new["temp_stamina"] = 0
        conds[:] = [c for c in conds if not conditions.get(c.get("id"), {}).get("ends_on_rest")]
        drained = _find(conds, "drained")
        if drained:
            drained["value"] = drained.get("value", 1) - 1
            if drained["value"] <= 0:
                drop("drained")
        if new["stamina"] == top:
            drop("wounded")
        if new["stamina"] > 0:
            drop("dying")
            drop("unconscious")
        return new, f"{name} rests and recovers {new['stamina'] - was} Stamina: {new['stamina']}/{top}."
    if kind == "hero_point":
        delta = action.get("delta", -1)
        if not is_int(delta) or delta == 0:
            raise StateError("state.malformed", "delta is +1 (gain) or −1 (spend).", "/delta")
        after = new["hero_points"] + delta
        if after < 0:
            raise StateError("state.below_minimum", f"{name} has no Hero Point to spend.", "/delta")
        new["hero_points"] = min(house["hero_points_max"], after)
        verb = "spends" if delta < 0 else "gains"
        return new, f"{name} {verb} a Hero Point ({new['hero_points']} left)."
    raise StateError("state.unknown_action", f"Ascendant play-state actions are damage, heal, temp_stamina, "
                     f"add_condition, remove_condition, rest and hero_point; not {kind!r}.", "/action")


def labels_for(conditions: dict, state: Any) -> list[str]:
    out = []
    for entry in state.get("conditions", []) if isinstance(state, dict) else []:
        cond = conditions.get(entry.get("id")) if isinstance(entry, dict) else None
        if cond:
            value = entry.get("value", 1)
            out.append(f"{cond['name']}{f' {value}' if cond.get('valued') else ''}: {cond.get('text', '')}")
    return out


def attribute_label(attr: str) -> str:
    return ATTRIBUTE_LABELS.get(attr, attr)


def effects(derived: dict, conditions: dict, state: Any, skills_cat: dict) -> dict[str, Any]:
    """Per check and threshold: the stacked condition modifiers, and the adjusted numbers."""
    checks: dict[str, Any] = {}
    thresholds: dict[str, int] = {}
    threshold_mods: dict[str, Any] = {}
    for target in targets(derived, skills_cat):
        stacked = stack(target["feat_modifiers"] + condition_modifiers(conditions, state, target["tags"]))
        entry = {**stacked, "base": target["base"], "modifier": target["base"] + stacked["total"]}
        if target["check"]:
            checks[target["id"]] = entry
            if target["group"] == "defenses":  # a defense's threshold moves with its check
                name = target["id"].split(".", 1)[1]
                thresholds[name] = derived["thresholds"][name] - derived["defenses"][name] + entry["modifier"]
                threshold_mods[name] = stacked
        else:
            thresholds[target["id"]] = entry["modifier"]
            threshold_mods[target["id"]] = stacked
    dying = _find([c for c in (state or {}).get("conditions", []) if isinstance(c, dict)], "dying") \
        if isinstance(state, dict) else None
    return {
        "checks": checks,
        "thresholds": thresholds,
        "threshold_modifiers": threshold_mods,
        "labels": labels_for(conditions, state),
        "dying": dying.get("value", 1) if dying else 0,
    }


def rollables(build: dict, report: Report, state: Any, conditions: dict, house: dict,
              skills_cat: dict, lores_cat: dict) -> list[dict[str, Any]]:
    d = report.derived
    if "skills" not in d:
        return []
    fx = effects(d, conditions, state, skills_cat)["checks"]
    threshold = house["default_threshold"]
    out: list[dict[str, Any]] = []
    for target in targets(d, skills_cat):
        if not target["check"]:
            continue
        tid = target["id"]
        group, _, key = tid.partition(".")
        if tid == "perception":
            label = "Perception"
        elif group == "skill":
            label = skills_cat.get(key, {}).get("name", key)
        elif group == "defense":
            label = key.title()
        else:
            label = lores_cat.get(key, {}).get("name", key)
        modifier = fx[tid]["modifier"]
        out.append({
            "id": tid, "label": label, "group": target["group"],
            "request": {"modifier": modifier, "threshold": threshold},
            "base": target["base"], "modifiers": fx[tid]["applied"], "ignored": fx[tid]["ignored"],
        })
    return out
