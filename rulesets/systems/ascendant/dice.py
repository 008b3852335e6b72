"""Ascendant checks: odds, rolls and the sheet's roll buttons (seed 002, "Game Basics").

A check is d20 + modifier against a threshold. The request (odds and roll alike) is CONTRACT.md's
``{"modifier": M, "threshold": T}``, extended compatibly with the typed situational bonuses and
penalties of the roll form (seed "Game Basics": of each type only the highest bonus and the worst
penalty apply, ``rulesets.engine.modifiers.stack``)::

    + "circumstance_bonus": n, "circumstance_penalty": n,   each a whole number 0–50, the penalty's size
      "status_bonus": n, "status_penalty": n,               (2 means −2)
      "item_bonus": n, "item_penalty": n
    + "modifiers": [{"value": v, "type": "status"|…|null, "source": "Frightened 2"}, …]
                   the typed bonuses and penalties M already counts (the sheet's conditions and
                   feats), so that a situational one of the same type stacks with them, not on top

With situational values, the modifier used is M − stack(modifiers) + stack(modifiers + situational). Degrees of success (HD, the seed lost
the ±10 line): total ≥ threshold + 10 critical success, ≥ threshold success,
≤ threshold − 10 critical failure, otherwise failure; then a natural 20 improves and a
natural 1 worsens the degree by one (never past the ends).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import is_int
from rulesets.engine.modifiers import stack
from rulesets.engine.report import Report

from .state import conditions_for, effects, targets

DEGREES = ("critical_failure", "failure", "success", "critical_success")
DEGREE_TEXT = {
    "critical_failure": "critical failure",
    "failure": "failure",
    "success": "success",
    "critical_success": "critical success",
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


SITUATIONAL = tuple(
    (f"{kind}_{word}", kind, sign)
    for kind in ("circumstance", "status", "item")
    for word, sign in (("bonus", 1), ("penalty", -1))
)
SITUATIONAL_MAX = 50
MAX_MODIFIERS = 64


def parse_request(request: Any) -> tuple[int, int]:
    """(modifier, threshold) of an odds/roll request, the situational bonuses and penalties stacked
    in; OddsError saying what is wrong."""
    modifier, threshold, _ = parse_full(request)
    return modifier, threshold


def parse_full(request: Any) -> tuple[int, int, list[dict[str, Any]]]:
    """(modifier, threshold, the situational modifiers that apply) of a request."""
    modifier, threshold = _parse_core(request)
    situational = []
    for key, kind, sign in SITUATIONAL:
        value = request.get(key, 0)
        if not is_int(value) or not 0 <= value <= SITUATIONAL_MAX:
            raise OddsError(f'"{key}" must be a whole number from 0 to {SITUATIONAL_MAX}, not {value!r}.')
        if value:
            word = "bonus" if sign > 0 else "penalty"
            situational.append({"value": sign * value, "type": kind, "source": f"situational {kind} {word}"})
    counted = request.get("modifiers", [])
    if (
        not isinstance(counted, list)
        or len(counted) > MAX_MODIFIERS
        or not all(
            isinstance(m, dict)
            and is_int(m.get("value"))
            and abs(m["value"]) <= LIMIT
            and (m.get("type") is None or isinstance(m.get("type"), str))
            for m in counted
        )
    ):
        raise OddsError(
            '"modifiers" is a list of the typed bonuses and penalties the modifier counts, such as '
            '[{"value": -1, "type": "status", "source": "Frightened 1"}].'
        )
    if not situational:
        return modifier, threshold, []
    before = stack(counted)
    after = stack(counted + situational)
    applied = [m for m in after["applied"] if m in situational]
    return modifier - before["total"] + after["total"], threshold, applied


def _parse_core(request: Any) -> tuple[int, int]:
    if not isinstance(request, dict):
        raise OddsError('An Ascendant check is {"modifier": M, "threshold": T}.')
    out = []
    for key in ("modifier", "threshold"):
        value = request.get(key)
        if value is None:
            raise OddsError(
                f'Give "{key}" (a whole number): the request is {{"modifier": M, "threshold": T}}.'
            )
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


def odds(request: Any, *, ctx: Context | None = None) -> dict[str, float]:
    """Exact chances of the four degrees (each face of the d20 is 1/20)."""
    modifier, threshold = parse_request(request)
    probs = _odds(modifier - threshold)  # only the difference matters
    return {name: probs[i] for i, name in reversed(list(enumerate(DEGREES)))}


def roll(request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
    modifier, threshold, situational = parse_full(request)
    face = roller.d(20)
    outcome = degree(face, modifier, threshold)
    total = face + modifier
    note = " (natural 20)" if face == 20 else " (natural 1)" if face == 1 else ""
    label = request.get("label")
    text = (
        f"{label + ': ' if isinstance(label, str) else ''}d20 {face}{note} {modifier:+d} = {total} "
        f"vs {threshold}: {DEGREE_TEXT[outcome]}"
    )
    if situational:
        text += " (with " + ", ".join(f"{m['type']} {m['value']:+d}" for m in situational) + ")"
    return {"faces": [face], "total": total, "outcome": outcome, "text": text}


def counted_modifiers(stacked: Any) -> list[dict[str, Any]]:
    """The typed bonuses and penalties a modifier counts (``stack``'s applied and ignored ones), as a
    request's ``modifiers``: what a situational bonus or an effect's is stacked with."""
    return [
        {k: m[k] for k in ("value", "type", "source") if k in m}
        for m in stacked["applied"] + stacked["ignored"]
        if is_int(m.get("value")) and m["value"] and (m.get("type") is None or isinstance(m.get("type"), str))
    ]


def sheet_checks(
    build: dict, report: Report, state: Any, conditions: dict, house: dict, skills_cat: dict, lores_cat: dict
) -> list[dict[str, Any]]:
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
        request: dict[str, Any] = {"modifier": modifier, "threshold": threshold}
        counted = counted_modifiers(fx[tid])
        if counted:  # so that a situational bonus of the same type stacks with these, not on top
            request["modifiers"] = counted
        out.append(
            {
                "id": tid,
                "label": label,
                "group": target["group"],
                "request": request,
                "base": target["base"],
                "modifiers": fx[tid]["applied"],
                "ignored": fx[tid]["ignored"],
            }
        )
    return out


# ------------------------------------------------ the engine's dice hooks (engine/interfaces.py)
# ``odds`` and ``roll`` above are the hooks as they are.


def rollables(build: dict, report: Report, state: dict | None, *, ctx: Context) -> list[dict[str, Any]]:
    """Skills, Lores, Perception and the six defenses as checks, with the feats' and the state's
    conditions' modifiers stacked in (``modifiers``/``ignored`` say which applied); the threshold is
    the house ``default_threshold`` for the sheet to change."""
    return sheet_checks(
        build,
        report,
        state,
        conditions_for(ctx, report.derived),
        ctx.settings,
        ctx.catalogue.get("skills", {}),
        ctx.catalogue.get("lores", {}),
    )
