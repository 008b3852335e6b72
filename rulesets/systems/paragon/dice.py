"""Paragon's check (RULES.md 2 "Play state and combat", seed 001 "BASIC GAME MECHANICS"): d12 that
explodes on 12 + force d6 + 2×skill, against a TN. Exact odds, real rolls, the sheet's roll buttons.

Odds: ``{"force": F, "skill": S, "tn": T}`` → ``{"pass": p}``, the exact chance that
d12 (exploding on 12) + F d6 + 2×S ≥ T. ``skill`` may be left out (an attribute
check, S = 0). ``roll`` takes the same request and answers
``{"faces", "d12", "d6", "total", "outcome": "pass"|"fail"|"rolled" (no tn), "text"}``.

Opposed (seed: "Dice rolls can also be opposed, in which case there is no TN, but the higher of the
two rolls wins. Opposed rolls may be rerolled in case they are tied"), extending the request
compatibly: ``"against": "opposed"`` (CONTRACT.md; ``"opposed_roll"`` is read the same) with the other side's ``"opponent_force"`` (default 2) and
``"opponent_skill"`` (default 0) instead of the TN → ``{"pass": p}``, the exact chance to win with
ties rerolled, P(X > Y) / (1 − P(X = Y)). ``"against": "target_number"`` (the default) is the TN check.
A roll rolls both sides, again while they tie.

Effects (engine/effects.py) shift ``force``, ``skill`` and ``tn`` (``EFFECT_FLOORS``: the lowest each
may reach). The play state's conditions add theirs (state.py ``state_effects`` "changes": tired's
force die): ``rollables`` applies them (``shift``), and a character who cannot act has every roll
unusable, with the reason; ``changed_rollable`` redraws the roll in a changed rollable's label.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller, exploding, sum_dice
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.report import Report

from .checks import MAX_EXPLOSIONS as MAX_EXPLOSIONS
from .checks import ODDS_LIMIT as ODDS_LIMIT
from .checks import check_text as check_text
from .checks import one_side as _one_side
from .state import state_effects

MAX_TIES = 100  # rerolls of a tied opposed roll (a broken roller must not loop forever)
TARGET, OPPOSED = "target_number", "opposed_roll"
#: CONTRACT.md's word for an opposed roll (``against: "opposed"``); "opposed_roll" is read as ever.
OPPOSED_CONTRACT = "opposed"
#: The other side of an opposed roll when the request leaves it out (the roll form's defaults).
OPPONENT_DEFAULTS = {"opponent_force": 2, "opponent_skill": 0}
#: The numbers of a check an effect shifts, and the lowest each may reach.
EFFECT_FLOORS = {"force": 0, "skill": 0, "tn": 1}


def _read_request(request: Any) -> tuple[int, int, int | None]:
    if not isinstance(request, dict):
        raise OddsError('A Paragon check is {"force": F, "skill": S, "tn": T}.')
    force, skill, tn = _bounded(request, "force", None), _bounded(request, "skill", 0), request.get("tn")
    if tn is not None and not is_int(tn):
        raise OddsError(f'"tn" must be a whole number (got {tn!r}).')
    return force, skill, tn


def _bounded(request: dict, key: str, default: int | None) -> int:
    """``request[key]``, a whole number from 0 to ODDS_LIMIT, or OddsError."""
    value = request.get(key, default)
    if not is_int(value) or not 0 <= value <= ODDS_LIMIT:
        raise OddsError(f'"{key}" must be a whole number from 0 to {ODDS_LIMIT} (got {value!r}).')
    return value


def _survival(force: int) -> tuple[dict[int, float], int]:
    """P(force d6 ≥ k) for every k the dice can reach, and the highest total."""
    dist = sum_dice(force, 6)
    surv: dict[int, float] = {}
    acc = 0.0
    for value in sorted(dist, reverse=True):
        acc += dist[value]
        surv[value] = acc
    return surv, max(dist)


_ODDS_CACHE: dict[tuple[int, int, int], float] = {}


def pass_chance(force: int, skill: int, tn: int) -> float:
    """P(d12! + force d6 + 2×skill ≥ tn), exact up to the exploding die's 1e-15 tail."""
    key = (force, skill, tn)
    hit = _ODDS_CACHE.get(key)
    if hit is not None:
        return hit
    surv, top = _survival(force)
    need = tn - 2 * skill
    p = 0.0
    for x, px in exploding(12).items():
        k = need - x  # the force dice must make at least k
        if k <= force:  # force d6 never totals less than force
            p += px
        elif k <= top:
            p += px * surv[k]
    p = min(1.0, p)
    if len(_ODDS_CACHE) > 4096:
        _ODDS_CACHE.clear()
    _ODDS_CACHE[key] = p
    return p


def _opponent(request: dict) -> tuple[int, int] | None:
    """The other side's (force, skill) of an opposed roll; None for a TN check; OddsError otherwise."""
    against = request.get("against", TARGET)
    if against not in (TARGET, OPPOSED, OPPOSED_CONTRACT):
        raise OddsError(f'"against" is "{TARGET}" or "{OPPOSED_CONTRACT}", not {against!r}.')
    if against == TARGET:
        return None
    return (
        _bounded(request, "opponent_force", OPPONENT_DEFAULTS["opponent_force"]),
        _bounded(request, "opponent_skill", OPPONENT_DEFAULTS["opponent_skill"]),
    )


@lru_cache(maxsize=256)
def _pmf(force: int, skill: int) -> dict[int, float]:
    """P(d12! + force d6 + 2×skill = t) for every t it reaches (the exploding die's tail cut at 1e-15)."""
    out: dict[int, float] = {}
    dice = sum_dice(force, 6) if force else {0: 1.0}
    for x, px in exploding(12).items():
        for y, py in dice.items():
            t = x + y + 2 * skill
            out[t] = out.get(t, 0.0) + px * py
    return out


@lru_cache(maxsize=1024)
def win_chance(force: int, skill: int, opp_force: int, opp_skill: int) -> float:
    """P(this side wins an opposed roll), ties rerolled: P(X > Y) / (1 − P(X = Y))."""
    mine, theirs = _pmf(force, skill), _pmf(opp_force, opp_skill)
    below = 0.0  # P(Y < t), accumulated over the totals in order
    win = tie = 0.0
    keys = sorted(set(mine) | set(theirs))
    for t in keys:
        px, py = mine.get(t, 0.0), theirs.get(t, 0.0)
        win += px * below
        tie += px * py
        below += py
    return min(1.0, win / (1.0 - tie)) if tie < 1.0 else 0.5


def odds(request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
    force, skill, tn = _read_request(request)
    opponent = _opponent(request)
    if opponent is not None:
        return {"pass": win_chance(force, skill, *opponent)}
    if tn is None:
        raise OddsError('"tn" is required: the target number the check must reach.')
    return {"pass": pass_chance(force, skill, tn)}


def roll(request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
    force, skill, tn = _read_request(request)
    opponent = _opponent(request)
    d12, d6, total, text = _one_side(force, skill, roller)
    if opponent is not None:
        ties = 0
        _, _, theirs, their_text = _one_side(*opponent, roller)
        while theirs == total and ties < MAX_TIES:  # "rerolled in case they are tied"
            ties += 1
            d12, d6, total, text = _one_side(force, skill, roller)
            _, _, theirs, their_text = _one_side(*opponent, roller)
        outcome = "pass" if total > theirs else "fail"
        tied = f" (after {ties} tie{'' if ties == 1 else 's'} rerolled)" if ties else ""
        text += f" vs the opponent's {their_text}{tied}: {'wins' if outcome == 'pass' else 'loses'}"
        return {"faces": d12 + d6, "d12": d12, "d6": d6, "total": total, "outcome": outcome, "text": text}
    if tn is None:
        outcome = "rolled"
    else:
        outcome = "pass" if total >= tn else "fail"
        text += f" vs TN {tn}: {outcome}"
    return {"faces": d12 + d6, "d12": d12, "d6": d6, "total": total, "outcome": outcome, "text": text}


def rollables(build: dict, report: Report, ctx: Context, state: dict | None = None) -> list[dict[str, Any]]:
    """A check per skill (its force's d6 + 2×rank) and an attribute check per force (no skill), with
    the numbers of the conditions the play state holds (tired) and, when it holds one that stops the
    character acting, every roll unusable with the reason (the engine adds the effects)."""
    forces = get_as(build, "forces", dict, {})
    skills = get_as(build, "skills", dict, {})
    tn = ctx.settings.get("default_tn", 12)
    out = []
    for skill_id, entry in ctx.catalogue.get("skills", {}).items():
        force, rank = forces.get(entry.get("force")), skills.get(skill_id, 0)
        if is_int(force) and is_int(rank) and 0 <= force <= ODDS_LIMIT and 0 <= rank <= ODDS_LIMIT:
            out.append(
                {
                    "id": f"skill:{skill_id}",
                    "label": f"{entry.get('name', skill_id)} ({check_text(force, rank)})",
                    "group": entry.get("force"),
                    "request": {"force": force, "skill": rank, "tn": tn},
                }
            )
    for force_id, entry in ctx.catalogue.get("forces", {}).items():
        force = forces.get(force_id)
        if is_int(force) and 0 <= force <= ODDS_LIMIT:
            out.append(
                {
                    "id": f"force:{force_id}",
                    "label": f"{entry.get('name', force_id)} check ({check_text(force, 0)})",
                    "group": "forces",
                    "request": {"force": force, "skill": 0, "tn": tn},
                }
            )
    if not isinstance(state, dict) or not state:
        return out
    held = state_effects(build, report, ctx, state)
    out = [_with_conditions(r, held["changes"]) for r in out]
    if not held["can_act"]:
        stops = dict(zip(held["conditions"], held["labels"], strict=True))
        why = next((stops[c] for c in ("bodily_death", "incapacitated", "paralysed") if c in stops), "")
        out = [{**r, "usable": False, "reason": why} for r in out]
    return out


def shift(request: dict[str, Any], changes: list[dict[str, Any]], rollable_id: str | None) -> dict[str, Any]:
    """``request`` with the ``changes`` that reach ``rollable_id`` added (each number kept at its floor,
    ``EFFECT_FLOORS``); a key the request leaves out stays out."""
    out = dict(request)
    for change in changes:
        if not fx.matches(change.get("target"), rollable_id):
            continue
        for key, floor in EFFECT_FLOORS.items():
            if is_int(change.get(key)) and is_int(out.get(key)):
                out[key] = max(floor, out[key] + change[key])
    return out


def _with_conditions(rollable: dict[str, Any], changes: list[dict[str, Any]]) -> dict[str, Any]:
    """A rollable with the state's conditions' ``changes`` that reach it, naming them (``effects``)."""
    hits = [c for c in changes if fx.matches(c.get("target"), rollable["id"])]
    if not hits:
        return rollable
    names = list(dict.fromkeys(str(c.get("text", "")) for c in hits if c.get("text")))
    return {**rollable, "request": shift(rollable["request"], hits, rollable["id"]), "effects": names}


def changed_rollable(rollable: dict[str, Any]) -> dict[str, Any]:
    """A rollable effects changed (``Ruleset.changed_rollable``): force and skill kept within what the
    odds take, and the roll its label spells out ("Melee (d12!+1d6+2)") the one it now is."""
    request = rollable.get("request")
    if not isinstance(request, dict):
        return rollable
    request = {
        k: min(v, ODDS_LIMIT) if k in ("force", "skill") and is_int(v) else v for k, v in request.items()
    }
    label = str(rollable.get("label", ""))
    force, skill = request.get("force"), request.get("skill", 0)
    if label.endswith(")") and " (" in label and is_int(force) and is_int(skill):
        label = f"{label.rsplit(' (', 1)[0]} ({check_text(force, skill)})"
    return {**rollable, "request": request, "label": label}
