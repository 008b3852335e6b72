"""Maelstrom dice: pools of d10 against a difficulty, with botches and thresholds; the sheet's
roll buttons (``rollables``).

Request (``odds`` and ``roll`` alike)::

    {"pool": N, "difficulty": D, "threshold": K,          CONTRACT.md's shape, accepted as it is
     "required": ["Swords", ...],                          optional: advanced specialties the task requires
     "specialties": ["Swords", ...],                       optional: specialties this roll uses
     "ability_dots": A,                                    the rolled ability's dots (with "specialties")
     "unskilled": true}                                    optional: a skill with no dots (difficulty +1)

N 0–30 dice, D 2–10 (default 6), K ≥ 0 (default 0). Required specialties (seed,
"Required Specialties"): "For each required specialty, increase the threshold by one
unless you use that specialty", so the threshold used is K + the required names not
among ``specialties`` (names compared as RULES.md says: case and punctuation aside).
"The amount [of specialties] which can be used in a given roll is limited by the number
of dots in that ability": more than A names in ``specialties`` is refused, and a request
that lists specialties says A. The seed gives a specialty no other effect on the dice.

Each die ≥ D is a success, each 1 a botch. The threshold removes up to K
successes first, and removed successes do not cancel botches. Then each botch
cancels a remaining success: more botches than remaining successes is a botch;
nothing left (and no botch outstanding) is a failure; otherwise the roll has
the successes left. Seed examples: pool 5, difficulty 6, rolled 1, 3, 4, 6, 7
→ 1 success; threshold 2 with two successes and a botch → botch.

The odds are exact: a multinomial over the counts (successes, botches, other)
of the pool, (N+1)(N+2)/2 terms, cached per request.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import get_as, is_int, name_key
from rulesets.engine.report import Report

from . import limbs
from .state import chart_of, effects, house_of, permanent_willpower

MAX_POOL = 30
MAX_NAMES = 64  # required or used specialties in one request: far more than any roll
REQUEST_KEYS = frozenset(
    {"pool", "difficulty", "threshold", "required", "specialties", "ability_dots", "unskilled"}
)


def parse(request: Any, default_difficulty: int = 6) -> tuple[int, int, int]:
    """(pool, difficulty, threshold) of a request, the threshold raised by each required
    specialty the roll does not use; ``OddsError`` with the reason otherwise."""
    pool, difficulty, threshold = _parse_core(request, default_difficulty)
    if "required" in request or "specialties" in request or "ability_dots" in request:
        threshold += len(missing_specialties(request))
    return pool, difficulty, threshold


def missing_specialties(request: dict) -> list[str]:
    """The required specialties (as written) that the roll does not use: each adds 1 to the
    threshold. Checks ``required``, ``specialties`` and ``ability_dots`` (``OddsError``)."""
    required = _names(request, "required")
    used = _names(request, "specialties")
    dots = request.get("ability_dots")
    if dots is not None and (not is_int(dots) or dots < 0):
        raise OddsError(f"ability_dots must be a whole number of dots ≥ 0, not {dots!r}.")
    if used and dots is None:
        raise OddsError(
            'Say the dots of the ability rolled ("ability_dots"): a roll uses at most that many specialties.'
        )
    if dots is not None and len(used) > dots:
        raise OddsError(
            f"This roll uses {len(used)} specialties but the ability has {dots} dot"
            f"{'' if dots == 1 else 's'}: the specialties used in one roll are limited by the "
            "ability's dots."
        )
    if not required:
        return []
    seen = {name_key(n) for n in used}
    missing = []
    for name in required:
        key = name_key(name)
        if key not in seen:
            seen.add(key)
            missing.append(name)
    return missing


def _names(request: dict, key: str) -> list[str]:
    raw = request.get(key, [])
    if (
        not isinstance(raw, list)
        or len(raw) > MAX_NAMES
        or not all(isinstance(n, str) and name_key(n) for n in raw)
    ):
        raise OddsError(f'{key} is a list of specialty names such as ["Swords"] (at most {MAX_NAMES}).')
    return raw


def _parse_core(request: Any, default_difficulty: int) -> tuple[int, int, int]:
    if not isinstance(request, dict):
        raise OddsError('A Maelstrom roll is an object {"pool": N, "difficulty": D, "threshold": K}.')
    unknown = sorted(set(request) - REQUEST_KEYS)
    if unknown:
        raise OddsError(
            "A Maelstrom roll has pool, difficulty, threshold, required, specialties and ability_dots; "
            f"not {', '.join(unknown)}."
        )
    if "pool" not in request:
        raise OddsError('Say how many dice to roll: "pool" (0–30).')
    pool = request["pool"]
    difficulty = request.get("difficulty", default_difficulty)
    threshold = request.get("threshold", 0)
    if not is_int(pool) or not 0 <= pool <= MAX_POOL:
        raise OddsError(f"pool must be a whole number of dice from 0 to {MAX_POOL}, not {pool!r}.")
    if not is_int(difficulty) or not 2 <= difficulty <= 10:
        raise OddsError(f"difficulty must be a whole number from 2 to 10, not {difficulty!r}.")
    if not is_int(threshold) or threshold < 0:
        raise OddsError(f"threshold must be a whole number ≥ 0, not {threshold!r}.")
    unskilled = request.get("unskilled", False)
    if not isinstance(unskilled, bool):
        raise OddsError(f"unskilled is true or false, not {unskilled!r}.")
    if (
        unskilled
    ):  # seed: "When rolling for a skill in which you have no dots, the difficulty is increased by 1"
        difficulty = min(10, difficulty + 1)
    return pool, difficulty, threshold


def outcome(successes: int, botches: int, threshold: int) -> int:
    """The result of a roll: −1 for a botch, 0 for a failure, n ≥ 1 successes."""
    remaining = max(0, successes - threshold)
    if botches > remaining:
        return -1
    return remaining - botches


_COMB = [[comb(n, k) for k in range(n + 1)] for n in range(MAX_POOL + 1)]


@lru_cache(maxsize=4096)
def _distribution(pool: int, difficulty: int, threshold: int) -> tuple[tuple[int, float], ...]:
    p_success = (11 - difficulty) / 10
    p_other = (difficulty - 2) / 10
    pow_s = [p_success**k for k in range(pool + 1)]
    pow_b = [0.1**k for k in range(pool + 1)]
    pow_o = [p_other**k for k in range(pool + 1)]
    out = [0.0] * (pool + 2)  # index 0: botch, 1: failure, n + 1: n successes
    for s in range(pool + 1):
        rest = pool - s
        head = _COMB[pool][s] * pow_s[s]
        if not head:
            continue
        remaining = s - threshold if s > threshold else 0
        row = _COMB[rest]
        for b in range(rest + 1):
            p = head * row[b] * pow_b[b] * pow_o[rest - b]
            # outcome(): a botch when botches outnumber the successes left after the threshold.
            out[0 if b > remaining else remaining - b + 1] += p
    return tuple((i - 1, p) for i, p in enumerate(out) if p)


def pool_odds(request: Any, default_difficulty: int = 6) -> dict[str, Any]:
    pool, difficulty, threshold = parse(request, default_difficulty)
    dist = dict(_distribution(pool, difficulty, threshold))
    return {
        "botch": dist.pop(-1, 0.0),
        "failure": dist.pop(0, 0.0),
        "successes": {str(k): p for k, p in sorted(dist.items())},
    }


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 'es' if word.endswith(('h', 's')) else 's'}"


def pool_roll(request: Any, roller: Roller, default_difficulty: int = 6) -> dict[str, Any]:
    pool, difficulty, threshold = parse(request, default_difficulty)
    missing = missing_specialties(request) if threshold else []
    faces = roller.roll(pool, 10) if pool else []
    successes = sum(1 for f in faces if f >= difficulty)
    botches = sum(1 for f in faces if f == 1)
    result = outcome(successes, botches, threshold)
    remaining = max(0, successes - threshold)
    text = (
        f"Rolled {', '.join(map(str, faces)) or 'no dice'} at difficulty {difficulty}: "
        f"{plural(successes, 'success')}, {plural(botches, 'botch')}"
    )
    if threshold:
        why = (
            (
                f" (+{len(missing)} for the required specialt{'y' if len(missing) == 1 else 'ies'} not used: "
                f"{', '.join(missing)})"
            )
            if missing
            else ""
        )
        text += f"; threshold {threshold}{why} removes {min(threshold, successes)}"
    if request.get("unskilled") is True:
        text = text.replace(f"at difficulty {difficulty}", f"at difficulty {difficulty} (no dots: +1)", 1)
    if result < 0:
        name, total = "botch", 0
        text += f" → botch ({botches - remaining} uncancelled)."
    elif result == 0:
        name, total = "failure", 0
        text += " → failure."
    else:
        name, total = "success", result
        text += f" → {plural(result, 'success')}."
    return {
        "faces": faces,
        "total": total,
        "outcome": name,
        "text": text,
        "successes": successes,
        "botches": botches,
        "uncancelled_botches": max(0, botches - remaining) if result < 0 else 0,
        "threshold": threshold,
        "required_missing": missing,
    }


# ----------------------------------------------------------------- rollables


def sheet_pools(
    build: dict, report: Report, state: Any, catalogue: dict, chart: list[dict], start: int, difficulty: int
) -> list[dict[str, Any]]:
    """Attribute + ability pools (wound penalty applied), attributes alone and willpower.

    Zero dots: a talent rolls the attribute alone; a skill rolls it at difficulty + 1;
    a knowledge cannot be attempted (left out).
    """
    build = build if isinstance(build, dict) else {}
    raw_attrs = get_as(build, "attributes", dict, {})
    raw_abil = get_as(build, "abilities", dict, {})
    attributes = {k: v for k, v in raw_attrs.items() if k in catalogue["attributes"] and is_int(v) and v >= 0}
    permanent = permanent_willpower(build, report, start)
    eff = effects(state, chart, permanent)
    penalty = eff["wound_penalty"]
    blocked = "Dead." if eff["dead"] else "Incapacitated: cannot act." if eff["incapacitated"] else None
    out: list[dict[str, Any]] = []

    lame = limbs.crippled(state)

    def add(
        entry_id: str,
        label: str,
        group: str,
        pool: int,
        diff: int,
        note: str = "",
        ability: dict | None = None,
    ) -> None:
        entry: dict[str, Any] = {
            "id": entry_id,
            "label": label,
            "group": group,
            "picker": True,  # the sheet's picker composes these (``picker``/``picked`` below)
            "request": {"pool": min(30, max(0, pool + penalty)), "difficulty": diff, "threshold": 0},
        }
        refused = blocked or (limbs.refusal(ability, lame) if ability else "")
        hand = limbs.note(ability, lame) if ability else ""
        notes = [n for n in (note, hand, f"wound penalty {penalty}" if penalty else "", refused or "") if n]
        if notes:
            entry["note"] = "; ".join(notes)
        if refused:
            entry["disabled"] = True
            entry["reason"] = refused
        out.append(entry)

    names = {k: e["name"] for k, e in catalogue["attributes"].items()}
    for key, dots in attributes.items():
        add(key, names[key], "attributes", dots, difficulty)
    for key, entry in catalogue["abilities"].items():
        dots = raw_abil.get(key, 0)
        if not is_int(dots) or dots < 0:
            continue
        category = entry.get("category", "talent")
        pairs = [a for a in entry.get("common_attributes") or list(names) if a in attributes]
        for attr in pairs:
            label = f"{names[attr]} + {entry['name']}"
            rid = f"{attr}__{key}"
            if dots:
                add(rid, label, category, attributes[attr] + dots, difficulty, ability=entry)
            elif category == "talent":
                add(
                    rid, label, category, attributes[attr], difficulty, f"no dots: {names[attr]} alone", entry
                )
            elif category == "skill":
                add(
                    rid,
                    label,
                    category,
                    attributes[attr],
                    min(10, difficulty + 1),
                    f"no dots: {names[attr]} alone at difficulty +1",
                    entry,
                )
    current = eff["willpower"]
    out.append(
        {
            "id": "willpower",
            "label": "Willpower",
            "group": "willpower",
            "request": {"pool": min(30, current), "difficulty": difficulty, "threshold": 0},
            "note": f"current willpower {current} of {permanent}; rolled alone, no wound penalty",
        }
    )
    return out


# ------------------------------------------------ the engine's dice hooks (engine/interfaces.py)
# The campaign's default difficulty fills a request that names none.


def odds(request: Any, *, ctx: Context) -> dict[str, Any]:
    return pool_odds(request, house_of(ctx).default_difficulty)


def roll(request: Any, roller: Roller, *, ctx: Context) -> dict[str, Any]:
    return pool_roll(request, roller, house_of(ctx).default_difficulty)


def rollables(build: dict, report: Report, state: dict | None, *, ctx: Context) -> list[dict[str, Any]]:
    h = house_of(ctx)
    return sheet_pools(
        build,
        report,
        state,
        ctx.catalogue,
        chart_of(report, h.health_chart),
        h.willpower_start,
        h.default_difficulty,
    )
