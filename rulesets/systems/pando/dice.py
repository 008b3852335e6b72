"""Pando's efficiency roll (RULES.md 1 "Play state", seed 000): attribute value d6, each die ≤ the
skill level gives 1 EP. Exact odds (binomial), real rolls, and the sheet's roll buttons.

Odds: ``{"dice": N, "skill": L}`` → ``{"ep": {"0": p, …, "N": p}}``. At leisure (HD, seed table
lost) there is no roll: EP = the skill level, unless the campaign's ``leisure_ep`` says "none".
"""

from __future__ import annotations

import re
from math import comb
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.report import Report

from . import leisure
from . import outcomes as oc
from . import state as play
from .character import ATTRIBUTE_GROUPS, ATTRIBUTES, CAPABILITY, HOUSE_NOTE, entry_item, label

MAX_DICE = 30


def parse_roll(request: Any) -> tuple[int, int]:
    """(dice, skill level) of an efficiency roll request, or OddsError saying what is wrong."""
    if not isinstance(request, dict):
        raise OddsError('An efficiency roll is {"dice": N, "skill": L}.')
    dice, skill = request.get("dice"), request.get("skill")
    if not is_int(dice):
        raise OddsError('"dice" must be a whole number: the value of the attribute rolled (N d6).')
    if not is_int(skill):
        raise OddsError('"skill" must be a whole number: the level of the skill used (1 for capability).')
    if not 0 <= dice <= MAX_DICE:
        raise OddsError(f'"dice" must be between 0 and {MAX_DICE}, not {dice}.')
    if not 0 <= skill <= 6:
        raise OddsError(f'"skill" must be between 0 and 6, not {skill}.')
    return dice, skill


_ODDS: dict[tuple[int, int], dict[str, float]] = {}


def efficiency_odds(dice: int, skill: int) -> dict[str, float]:
    """P(k EP) for k = 0..dice: each d6 showing ≤ skill is one EP, so k is binomial(dice, skill/6).
    Computed in whole numbers and divided once, so every probability is the float nearest the truth."""
    key = (dice, skill)
    if key not in _ODDS:
        whole = 6**dice
        _ODDS[key] = {
            str(k): comb(dice, k) * skill**k * (6 - skill) ** (dice - k) / whole for k in range(dice + 1)
        }
    return dict(_ODDS[key])


def efficiency_roll(request: Any, roller: Roller) -> dict[str, Any]:
    dice, skill = parse_roll(request)
    faces = roller.roll(dice, 6)
    ep = sum(1 for face in faces if face <= skill)
    if ep == 0:
        outcome = "none"
    elif ep == dice:
        outcome = "full"
    else:
        outcome = "partial"
    shown = ", ".join(str(f) for f in faces) or "no dice"
    text = f"Rolled {dice}d6 against skill level {skill}: {shown} → {ep} EP" + (
        " (every die counts: the roll's fullest potential)."
        if outcome == "full" and dice
        else " (no outcome this time)."
        if ep == 0
        else "."
    )
    return {"faces": faces, "total": ep, "outcome": outcome, "text": text}


def _roll_choice(attr: str, value: int, level: int) -> dict[str, Any]:
    return {
        "attribute": attr,
        "label": f"{label(attr)} {value}d6",
        "request": {"dice": min(max(value, 0), MAX_DICE), "skill": level},
    }


def sheet_rolls(
    build: dict,
    report: Report,
    effects: dict[str, Any],
    catalogue: dict[str, dict],
    leisure_ep: str = "skill_level",
    marked: list[str] | tuple[str, ...] = (),
) -> list[dict]:
    """Efficiency rolls of the sheet: one per learned skill (its usual attribute, the others as
    alternatives, since the player picks what fits the action), capability, and each wielded or
    carried item with an action. ``effects`` are the play-state effects (lame arms, wounds).
    ``leisure_ep`` is the house rule for actions at leisure: "skill_level" (no roll, EP = the
    skill's level; a skill's roll may be chanced instead, leisure.py) or "none" (the campaign
    always rolls; no at-leisure shortcut shown). ``marked``: the skills chanced since the clock
    last moved (W4)."""
    attrs = build.get("attributes")
    attrs = (
        {k: v for k, v in attrs.items() if k in ATTRIBUTE_GROUPS and is_int(v) and v >= 0}
        if isinstance(attrs, dict)
        else {}
    )
    if not attrs:
        return []
    levels, names = leisure.learned(build, report)
    best_attr = max(attrs, key=lambda a: (attrs[a], -ATTRIBUTES.index(a)))
    name = get_as(build, "name", str, "The character")
    return [
        *_skill_rollables(
            attrs,
            best_attr,
            (levels, names),
            effects,
            catalogue,
            oc.of_tools(build, catalogue),
            (name, list(marked) if leisure_ep == "skill_level" else None),
        ),
        *_item_rollables(build, attrs, best_attr, levels, names, effects, catalogue),
    ]


def _skill_rollables(
    attrs: dict[str, int],
    best_attr: str,
    learned: tuple[dict[str, int], dict[str, str]],
    effects: dict[str, Any],
    catalogue: dict[str, dict],
    tools: dict[str, list[dict]],
    chancing: tuple[str, list[str] | None],
) -> list[dict]:
    """One button per learned skill, rolled with its usual attribute (the best one when it has none),
    offering the outcomes of the tools held for it (``outcomes.of_tools``). ``chancing``: the character's
    name and the skills chanced since the clock last moved, or None when the campaign takes nothing at
    leisure (then nothing is chanced either)."""
    levels, names = learned
    name, marked = chancing
    skills = catalogue.get("skills", {})
    dead = effects.get("dead", False)
    out = []
    for sid, level in levels.items():
        attr = (skills.get(sid) or {}).get("attribute") or best_attr
        if attr not in attrs:
            attr = best_attr
        choices = [_roll_choice(a, attrs[a], level) for a in ATTRIBUTES if a in attrs]
        main = next(c for c in choices if c["attribute"] == attr)
        rollable = {
            "id": f"skill:{sid}",
            "label": f"{names[sid]} ({main['label']}, level {level})",
            "group": "Skills",
            "skill": sid,
            "attribute": attr,
            "request": main["request"],
            "alternatives": [c for c in choices if c["attribute"] != attr],
            "leisure": {
                "ep": level,
                "text": f"At leisure: no roll, {level} EP (the skill level){HOUSE_NOTE}.",
            }
            if marked is not None
            else None,
            "usable": not dead,
        }
        if tools.get(sid):
            rollable["outcomes"] = tools[sid]
        if marked is not None:
            rollable["chance"] = leisure.chance(sid, names[sid], level, attr, marked, name)
        out.append(with_chances(rollable))
    return out


def _item_rollables(
    build: dict,
    attrs: dict[str, int],
    best_attr: str,
    levels: dict[str, int],
    names: dict[str, str],
    effects: dict[str, Any],
    catalogue: dict[str, dict],
) -> list[dict]:
    """One button per action of each wielded or carried item (strikes only when wielded), rolled with
    the best learned skill the action lists; a lame or maimed holding arm makes it unusable."""
    equipment = get_as(build, "equipment", list, [])
    out = []
    for i, entry in enumerate(equipment):
        if not isinstance(entry, dict) or entry.get("state") not in ("wielded", "carried"):
            continue
        item = entry_item(entry, catalogue)
        if item is None:
            continue
        # A disarmed weapon is carried until taken up again (W1 "Disarm").
        held = "carried" if i in (effects.get("disarmed") or ()) else entry["state"]
        arms = []
        if held == "wielded":
            raw = entry.get("arms")
            arms = [a for a in raw if isinstance(a, str)] if isinstance(raw, list) else []
        for action in item["actions"]:
            if not isinstance(action, dict) or not isinstance(action.get("attribute"), str):
                continue
            if action.get("action") == "strike" and held != "wielded":
                continue
            offered = oc.of_roll(catalogue, str(action.get("action")), item)
            out.append(
                _item_rollable(i, item, action, arms, attrs, best_attr, levels, names, effects, offered)
            )
    return out


def _item_rollable(
    i: int,
    item: dict,
    action: dict,
    arms: list[str],
    attrs: dict[str, int],
    best_attr: str,
    levels: dict[str, int],
    names: dict[str, str],
    effects: dict[str, Any],
    outcomes: list[dict] | None = None,
) -> dict:
    attr = action["attribute"] if action["attribute"] in attrs else best_attr
    listed_skills = get_as(action, "skills", list, [])
    known = [s for s in listed_skills if isinstance(s, str) and s in levels]
    sid = max(known, key=lambda s: levels[s], default=CAPABILITY)
    level = levels[sid]
    status = effects.get("body", {})
    hurt = [a for a in arms if status.get(a, {}).get("status") in ("lame", "maimed")]
    wounded = [a for a in arms if status.get(a, {}).get("status") == "wounded"]
    rollable = {
        "id": f"item:{i}:{action.get('action')}",
        "label": f"{item['name']}: {label(str(action.get('action')))} "
        f"({label(attr)} {attrs[attr]}d6, {names[sid]} level {level})",
        "group": "Weapons" if item["wield"] else "Items",
        "attribute": attr,
        "skill": sid,
        "equipment": i,
        "request": _roll_choice(attr, attrs[attr], level)["request"],
        "speed_cost": 1 + (effects.get("wounded_speed_cost", 1) if wounded else 0),
        "usable": not effects.get("dead", False) and not hurt,
    }
    if hurt:
        rollable["reason"] = (
            f"The {' and '.join(label(a).lower() for a in hurt)} cannot be used until healed."
        )
    elif wounded:
        rollable["reason"] = (
            f"The {' and '.join(label(a).lower() for a in wounded)} is wounded: "
            f"+{effects.get('wounded_speed_cost', 1)} speed{HOUSE_NOTE}."
        )
    rollable["cost"] = f"{rollable['speed_cost']} speed"
    if outcomes:
        # Before rolling: the exact chance to afford each outcome, P(EP ≥ cost) (W1).
        rollable["outcomes"] = oc.affordable(efficiency_odds(*parse_roll(rollable["request"])), outcomes)
    return rollable


#: The attributes whose rolls Prone takes a die off (W1, a house default).
PRONE_ATTRIBUTES = ("acrobatics", "coordination")


def is_prone(state: Any) -> bool:
    """Whether the play state holds the Prone effect (outcomes.py's Knock prone)."""
    entries = state.get("effects") if isinstance(state, dict) else None
    return isinstance(entries, list) and any(
        isinstance(e, dict) and e.get("effect") == "prone" for e in entries
    )


def prone_request(request: dict, attribute: str | None, state: Any) -> dict:
    """``request`` with Prone's die off when it rolls an attribute Prone hinders (never below 1 die)."""
    if attribute not in PRONE_ATTRIBUTES or not is_prone(state) or not is_int(request.get("dice")):
        return request
    return {**request, "dice": max(min(1, request["dice"]), request["dice"] - 1)}


def with_chances(rollable: dict) -> dict:
    """A rollable with the exact chances of its request (redone when an effect or Prone changed it):
    to afford each of its outcomes, and, chanced, to get more, as many or fewer EP than at leisure."""
    if not (rollable.get("outcomes") or rollable.get("chance")) or not isinstance(
        rollable.get("request"), dict
    ):
        return rollable
    try:
        dice, skill = parse_roll(rollable["request"])
    except OddsError:
        return rollable
    ep = efficiency_odds(dice, skill)
    out = dict(rollable)
    if rollable.get("outcomes"):
        out["outcomes"] = oc.affordable(ep, rollable["outcomes"])
    if rollable.get("chance"):
        out["chance"] = leisure.with_odds(rollable["chance"], ep, dice)
    return out


#: A roll's numbers at the end of its label: "(Coordination 3d6, level 1)", "(… 3d6, Blades level 3)".
_NUMBERS = re.compile(r"\((?P<attribute>[^()]+) (?P<dice>\d+)d6, (?P<skill>[^()]*)level (?P<level>\d+)\)$")


def relabelled(rollable: dict) -> dict:
    """A rollable effects changed (they are named in ``effects``), its label saying the dice and
    level it now rolls and what changed them: "Capability (Coordination 2d6, level 1, after Stunned)"."""
    request, text = rollable.get("request"), str(rollable.get("label", ""))
    found = _NUMBERS.search(text)
    if found is None or not isinstance(request, dict):
        return rollable
    dice, level = request.get("dice"), request.get("skill")
    if not is_int(dice) or not is_int(level):
        return rollable
    names = ", ".join(n for n in rollable.get("effects") or () if isinstance(n, str) and n)
    numbers = (
        f"({found['attribute']} {dice}d6, {found['skill']}level {level}{f', after {names}' if names else ''})"
    )
    return {**rollable, "label": text[: found.start()] + numbers}


def _prone_rollable(rollable: dict, state: Any) -> dict:
    changed = prone_request(rollable.get("request") or {}, rollable.get("attribute"), state)
    if changed is rollable.get("request"):
        return rollable
    return with_chances(
        {
            **rollable,
            "unaffected": rollable.get("request"),
            "request": changed,
            "effects": [*(rollable.get("effects") or []), "Prone"],
            "alternatives": [
                {**a, "request": prone_request(a["request"], a.get("attribute"), state)}
                for a in rollable.get("alternatives") or []
            ],
        }
    )


# ------------------------------------------------ the engine's dice hooks (engine/interfaces.py)


def odds(request: Any, *, ctx: Context) -> dict[str, Any]:
    return {"ep": efficiency_odds(*parse_roll(request))}


def roll(request: Any, roller: Roller, *, ctx: Context) -> dict[str, Any]:
    return efficiency_roll(request, roller)


def rollables(build: dict, report: Report, state: dict | None, *, ctx: Context) -> list[dict[str, Any]]:
    # The play state's effects (lame arms, wounds) change what the sheet can roll; Prone a die.
    fx = play.effects(state, play.body_of(build, report, ctx)) if isinstance(state, dict) else {}
    found = sheet_rolls(
        build,
        report,
        fx,
        ctx.catalogue,
        ctx.settings.get("leisure_ep", "skill_level"),
        leisure.chanced(state),
    )
    return [_prone_rollable(r, state) for r in found] if is_prone(state) else found
