"""Paragon's Dynama powers (RULES.md W6; seed: "Dynama is expended to use the magical powers and
techniques of a paragon character").

The catalogue is ``content/powers.json`` (a house default: the seed names no power), which campaign
homebrew extends: each ``{"id", "name", "force", "rank": 1–5, "cost": Dynama, "text", "roll"?:
{"skill", "tn"?}}``. A paragon knows every power whose force they hold at that rank or more: no
purchase ("the seed prices none"); ordinary people know none ("Ordinary people have only a little in
the way of Dynama and no means of using it").

Using a power spends its cost from the current Dynama; a power with a ``roll`` rolls that skill's
check as the sheet rolls it (effects and conditions applied), against its TN when it has one. Dynama
0 paralyses (state.py). Ritual sword-worship regains ``sword_worship_dice`` d6 Dynama (house default
1, the seed's "can be regenerated faster by various means, such as by ritualistic sword-worship").

Play-state actions (state.py dispatches them): ``use_power`` ``{"power": id}``, ``sword_worship``.
Codes: ``paragon.power_unknown``, ``paragon.power_not_known``, ``paragon.no_powers`` (an ordinary
person), ``paragon.not_enough_dynama``, ``paragon.paralysed``, ``paragon.dynama_full``.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as, is_int, lookup
from rulesets.engine.report import Issue

from .checks import ODDS_LIMIT, one_side

#: The key of a use_power action under which the ruleset puts the roll's request with the
#: character's effects (``Paragon.action_with_effects``); one a client sends is dropped.
CHECK = "_power_check"


def catalogue(ctx: Context) -> dict[str, dict[str, Any]]:
    """Every power of the campaign (the house default catalogue and its homebrew), by id."""
    return ctx.catalogue.get("powers", {})


def is_paragon(build: dict) -> bool:
    return is_int(build.get("power_level"))


def known(build: dict, ctx: Context) -> list[dict[str, Any]]:
    """The powers ``build`` knows, in catalogue order: a paragon's, of each force held at the power's
    rank or more; none for an ordinary person (or a build whose forces are unreadable)."""
    if not is_paragon(build):
        return []
    forces = get_as(build, "forces", dict, {})
    return [entry for entry in catalogue(ctx).values() if _holds(forces, entry)]


def _holds(forces: dict, entry: dict[str, Any]) -> bool:
    """Whether ``forces`` hold the power's force at its rank or more."""
    held, rank = forces.get(entry.get("force")), entry.get("rank")
    return is_int(held) and is_int(rank) and held >= rank


def derived(build: dict, ctx: Context) -> dict[str, int]:
    """``derived.powers``: the powers known, id → Dynama cost."""
    return {p["id"]: p.get("cost", 0) for p in known(build, ctx)}


def describe(entry: dict[str, Any], ctx: Context) -> str:
    """A power in the game's words: "Gale Step (Wind 1, 2 Dynama)"."""
    force = lookup(ctx.catalogue.get("forces", {}), entry.get("force"), {}) or {}
    return (
        f"{entry.get('name', entry.get('id'))} ({force.get('name', entry.get('force'))} "
        f"{entry.get('rank')}, {entry.get('cost')} Dynama)"
    )


def choices(build: dict, ctx: Context) -> list[dict[str, str]]:
    """The power field's options: the powers known, each in words."""
    return [{"id": p["id"], "label": describe(p, ctx)} for p in known(build, ctx)]


def check_request(entry: dict[str, Any], build: dict, ctx: Context) -> dict[str, int] | None:
    """The odds request of a power's roll (the skill's force d6 + 2×rank, its TN if it has one)."""
    roll = entry.get("roll")
    if not isinstance(roll, dict):
        return None
    skill = roll.get("skill")
    skill_entry = lookup(ctx.catalogue.get("skills", {}), skill)
    if not isinstance(skill_entry, dict):
        return None
    forces = get_as(build, "forces", dict, {})
    skills = get_as(build, "skills", dict, {})
    force = forces.get(skill_entry.get("force"), 0)
    rank = skills.get(skill, 0)
    request = {
        "force": min(force, ODDS_LIMIT) if is_int(force) and force >= 0 else 0,
        "skill": min(rank, ODDS_LIMIT) if is_int(rank) and rank >= 0 else 0,
    }
    if is_int(roll.get("tn")):
        request["tn"] = roll["tn"]
    return request


def rollable_id(entry: dict[str, Any]) -> str | None:
    """The sheet roll whose effects reach a power's roll (``skill:<skill>``)."""
    roll = entry.get("roll")
    return f"skill:{roll['skill']}" if isinstance(roll, dict) and isinstance(roll.get("skill"), str) else None


def find(action: dict, build: dict, ctx: Context) -> dict[str, Any]:
    """The power ``action["power"]`` names, known to ``build``; else the refusal in words."""
    pid = action.get("power")
    entry = catalogue(ctx).get(pid) if isinstance(pid, str) else None
    if entry is None:
        raise StateError(
            "paragon.power_unknown",
            "Name a power of the catalogue: "
            + (", ".join(p["name"] for p in known(build, ctx)) or "none")
            + ".",
            "/power",
        )
    if not is_paragon(build):
        raise StateError(
            "paragon.no_powers",
            "Ordinary people have only a little Dynama and no means of using it: only paragons use powers.",
            "/power",
        )
    forces = get_as(build, "forces", dict, {})
    if not _holds(forces, entry):
        held = forces.get(entry.get("force"), 0)
        force = (lookup(ctx.catalogue.get("forces", {}), entry.get("force")) or {}).get(
            "name", entry.get("force")
        )
        raise StateError(
            "paragon.power_not_known",
            f"{entry.get('name')} needs {force} {entry.get('rank')}; this character holds {force} "
            f"{held if is_int(held) else 0}.",
            "/power",
        )
    return entry


def use(
    st: dict, action: dict, build: dict, ctx: Context, roller: Roller | None, name: str
) -> tuple[dict, str]:
    """``use_power``: spend the power's Dynama (refused when short or paralysed), roll its check."""
    entry = find(action, build, ctx)
    pools = st["pools"]
    have, cost = pools["dynama"], entry.get("cost", 0)
    if have == 0:
        raise StateError(
            "paragon.paralysed", f"{name} is paralysed (Dynama 0) and can use no power.", "/pools/dynama"
        )
    if cost > have:
        raise StateError(
            "paragon.not_enough_dynama",
            f"{entry.get('name')} costs {cost} Dynama but {name} has {have}; rest or worship the sword "
            "to regain Dynama.",
            "/pools/dynama",
        )
    pools["dynama"] = have - cost
    text = f"{name} uses {entry.get('name')}: Dynama {have} → {pools['dynama']}."
    if pools["dynama"] == 0:
        text += " Paralysed: Dynama 0."
    request = action.get(CHECK) if isinstance(action.get(CHECK), dict) else check_request(entry, build, ctx)
    if request is not None:
        result = roll_check(request, roller or Roller())
        skill = entry["roll"]["skill"]
        word = (ctx.catalogue.get("skills", {}).get(skill) or {}).get("name", skill)
        text += f" {word}: {result['text']}."
    return st, text


def regenerate(state: dict, build: dict, top: int, hours: int, ctx: Context) -> tuple[dict, str | None]:
    """Dynama regenerating on its own as the campaign's clock moves (RULES.md W6, C1: "It slowly
    regenerates on it's own"): ``dynama_per_hour_of_rest`` an hour of rest (house default 1,
    content/house.json), up to ``top``. A plain function for the clock's hook (``time_passes``)
    to call: (the new state, its sentence), or (``state``, None) when nothing changes. Never mutates
    ``state``."""
    rate = ctx.settings.get("dynama_per_hour_of_rest", 1)
    pools = get_as(state, "pools", dict, {})
    current = pools.get("dynama")
    if not (is_int(rate) and rate > 0 and is_int(hours) and hours > 0 and is_int(current) and current < top):
        return state, None
    after = min(top, current + rate * hours)
    name = get_as(build, "name", str, "The character")
    woke = " No longer paralysed." if current == 0 else ""
    rest = f"{hours} hour{'s' if hours != 1 else ''} of rest"
    return {
        **state,
        "pools": {**pools, "dynama": after},
    }, f"{name}: {rest}: Dynama {current} → {after}.{woke}"


def roll_check(request: dict[str, Any], roller: Roller) -> dict[str, Any]:
    """A power's check rolled: {"total", "outcome": "pass"|"fail"|"rolled" (no TN), "text"}."""
    force = request.get("force", 0)
    skill = request.get("skill", 0)
    force = min(max(force, 0), ODDS_LIMIT) if is_int(force) else 0
    skill = min(max(skill, 0), ODDS_LIMIT) if is_int(skill) else 0
    _, _, total, text = one_side(force, skill, roller)
    tn = request.get("tn")
    if not is_int(tn):
        return {"total": total, "outcome": "rolled", "text": text}
    outcome = "pass" if total >= tn else "fail"
    return {"total": total, "outcome": outcome, "text": f"{text} vs TN {tn}: {outcome}"}


def sword_worship(
    st: dict, action: dict, build: dict, ctx: Context, roller: Roller | None, top: dict[str, int], name: str
) -> tuple[dict, str]:
    """Ritual sword-worship: regain ``sword_worship_dice`` d6 Dynama (house default 1d6), up to the maximum."""
    pools = st["pools"]
    high = top.get("dynama", 0)
    if pools["dynama"] >= high:
        raise StateError("paragon.dynama_full", f"{name}'s Dynama is full ({high}).", "/pools/dynama")
    n = ctx.settings.get("sword_worship_dice", 1)
    n = n if is_int(n) and n >= 0 else 1
    faces = (roller or Roller()).roll(n, 6)
    before = pools["dynama"]
    pools["dynama"] = min(high, before + sum(faces))
    rolled = "+".join(map(str, faces)) or "0"
    return st, (
        f"{name} worships the sword in ritual: {n}d6 = {rolled}, Dynama {before} → {pools['dynama']}."
    )


def check_homebrew_roll(entry: dict, path: str, skills: frozenset[str]) -> list[Issue]:
    """A campaign's own power's roll, when it has one: a known skill and a TN ≥ 1 (the form's catalogue
    choices are checked without the campaign's catalogue; the form checks the name, the rank 1–5 and
    the Dynama cost, character/ the force)."""
    issues = []
    roll = entry.get("roll")
    if roll is not None and not (
        isinstance(roll, dict)
        and roll.get("skill") in skills
        and (roll.get("tn") is None or (is_int(roll["tn"]) and roll["tn"] >= 1))
    ):
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/roll",
                'A power\'s roll is {"skill": <a skill>, "tn": <a target number ≥ 1>} (the TN may be left out).',
            )
        )
    return issues
