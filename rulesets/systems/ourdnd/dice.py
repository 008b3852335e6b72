"""Our D&D's dice (RULES.md §4 "Play and scenes"): the odds and rolls of a d20 check
against the scene's TD and of an effort die, and the sheet's roll buttons.

Odds and rolls, two request shapes:

* a check ``{"stat": S, "td": T, "mode": "normal"|"easy"|"hard"}`` (mode defaults
  to normal) → ``{"success": p, "critical": p, "blunder": p}`` (CONTRACT.md).
  ``success`` is the whole chance of succeeding, criticals included, so the two
  outcomes success and failure (= 1 − ``success``) sum to 1. ``critical`` (a
  natural 20: always a success) is the part of ``success`` that is critical;
  ``blunder`` (a natural 1: always a failure) is the part of the failures that
  blunder. Easy keeps the higher of 2d20, hard the lower; the kept die is the
  natural one.
* an effort roll ``{"effort": "d6", "critical": false}`` → ``{"effort": {"1": p, …}}``
  (a critical or Heroic Inspiration adds a d12).
* an opposed roll (RULES.md W15; seed: "confronted / opposed rolls: higer result wins")
  ``{"stat": S, "against": "opposed", "opponent_stat": O, "mode"?, "opponent_mode"?}`` →
  ``{"win": p, "lose": p}``: each side rolls its d20 (its own mode) + its stat; ties are rolled
  again (house default), so win + lose = 1. No TD, and a natural 20 or 1 is only a number here.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller, convolve, die, keep_highest, keep_lowest
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import get_as, is_int
from rulesets.engine.report import Report

from .character import EFFORT_DICE, STATS

MODES = ("normal", "easy", "hard")
ODDS_LIMIT = 40  # the largest stat or TD an odds request may name (in absolute value)


def _kept(mode: str) -> dict[int, float]:
    d20 = die(20)
    return {"normal": d20, "easy": keep_highest(d20, 2), "hard": keep_lowest(d20, 2)}[mode]


def _bounded(request: dict, key: str) -> int:
    """``request[key]``, a whole number within ±ODDS_LIMIT, or OddsError."""
    value = request.get(key)
    if not is_int(value) or abs(value) > ODDS_LIMIT:
        raise OddsError(f'"{key}" must be a whole number (got {value!r}).')
    return value


def _read_check(request: dict) -> tuple[int, int, str]:
    stat, td, mode = _bounded(request, "stat"), _bounded(request, "td"), request.get("mode", "normal")
    if mode not in MODES:
        raise OddsError(f'"mode" is one of {", ".join(MODES)} (got {mode!r}).')
    return stat, td, mode


def _read_effort(request: dict) -> tuple[str, bool]:
    effort, critical = request.get("effort"), request.get("critical", False)
    if effort not in EFFORT_DICE:
        raise OddsError(f'"effort" is one of {", ".join(EFFORT_DICE)} (got {effort!r}).')
    if not isinstance(critical, bool):
        raise OddsError('"critical" is true or false.')
    return effort, critical


OPPOSED = "opposed"


def _read_opposed(request: dict) -> tuple[int, str, int, str]:
    stat, other = _bounded(request, "stat"), _bounded(request, "opponent_stat")
    mode, other_mode = request.get("mode", "normal"), request.get("opponent_mode", "normal")
    for key, value in (("mode", mode), ("opponent_mode", other_mode)):
        if value not in MODES:
            raise OddsError(f'"{key}" is one of {", ".join(MODES)} (got {value!r}).')
    return stat, mode, other, other_mode


def opposed_odds(stat: int, mode: str, other: int, other_mode: str) -> dict[str, float]:
    """Exact: every pair of kept d20s, a tie rolled again (win = P(higher) / P(not a tie))."""
    mine, theirs = _kept(mode), _kept(other_mode)
    higher = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a + stat > b + other)
    lower = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a + stat < b + other)
    win = higher / (higher + lower)
    return {"win": win, "lose": 1.0 - win}


_CHECK_CACHE: dict[tuple[int, int, str], dict[str, float]] = {}


def check_odds(stat: int, td: int, mode: str) -> dict[str, float]:
    key = (stat, td, mode)
    hit = _CHECK_CACHE.get(key)
    if hit is None:
        kept = _kept(mode)
        critical, blunder = kept[20], kept[1]
        success = critical + sum(p for face, p in kept.items() if 2 <= face <= 19 and face + stat >= td)
        hit = {"success": success, "critical": critical, "blunder": blunder}
        if len(_CHECK_CACHE) > 4096:
            _CHECK_CACHE.clear()
        _CHECK_CACHE[key] = hit
    return dict(hit)


def check_outcomes(answer: Any) -> list[tuple[str, float]] | None:
    """A check's odds as the outcomes a roll lands on (``roll``'s ``outcome``), each once, worst
    first; None for an effort answer."""
    if not isinstance(answer, dict) or not all(k in answer for k in ("success", "critical", "blunder")):
        return None
    success, critical, blunder = answer["success"], answer["critical"], answer["blunder"]
    return [
        ("Blunder", blunder),
        ("Failure", max(0.0, 1.0 - success - blunder)),
        ("Success", max(0.0, success - critical)),
        ("Critical", critical),
    ]


def odds(request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise OddsError('An Our D&D request is {"stat": S, "td": T, "mode": "normal"} or {"effort": "d6"}.')
    if "effort" in request:
        effort, critical = _read_effort(request)
        dist = die(int(effort[1:]))
        if critical:
            dist = convolve(dist, die(12))
        return {"effort": {str(k): v for k, v in sorted(dist.items())}}
    if request.get("against") == OPPOSED:
        return opposed_odds(*_read_opposed(request))
    if "against" in request:
        raise OddsError('"against" is "opposed" (or left out for a check against the TD).')
    return check_odds(*_read_check(request))


def _kept_face(roller: Roller, mode: str) -> tuple[list[int], int]:
    """The d20s of one roll in ``mode`` (two when easy or hard) and the face kept."""
    faces = [roller.d(20)] if mode == "normal" else [roller.d(20), roller.d(20)]
    return faces, max(faces) if mode == "easy" else min(faces)


#: Ties rolled again at most this many times (then the side with the higher stat wins; a tie then
#: is the roller's): never reached in practice, it bounds a roller that keeps tying.
MAX_REROLLS = 50


def roll_opposed(request: dict, roller: Roller) -> dict[str, Any]:
    """Both sides roll; a tie is rolled again (every face in ``faces``, the roller's side first)."""
    stat, mode, other, other_mode = _read_opposed(request)
    faces: list[int] = []
    lines = []
    for _ in range(MAX_REROLLS):
        mine, a = _kept_face(roller, mode)
        theirs, b = _kept_face(roller, other_mode)
        faces += mine + theirs
        lines.append(
            f"{a} {'+' if stat >= 0 else '−'} {abs(stat)} = {a + stat} against {b} {'+' if other >= 0 else '−'} {abs(other)} = {b + other}"
        )
        if a + stat != b + other:
            break
    won = a + stat > b + other if a + stat != b + other else stat >= other
    text = "; tie, rolled again: ".join(lines) + (": wins." if won else ": loses.")
    return {
        "faces": faces,
        "total": a + stat,
        "opponent_total": b + other,
        "outcome": "win" if won else "lose",
        "success": won,
        "text": text,
    }


def roll(request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise OddsError('An Our D&D request is {"stat": S, "td": T, "mode": "normal"} or {"effort": "d6"}.')
    if "effort" in request:
        effort, critical = _read_effort(request)
        faces = [roller.d(int(effort[1:]))]
        text = f"Effort {effort}: {faces[0]}"
        if critical:
            faces.append(roller.d(12))
            text += f" + d12 {faces[1]}"
        total = sum(faces)
        return {"faces": faces, "total": total, "outcome": "effort", "text": f"{text} = {total}"}
    if request.get("against") == OPPOSED:
        return roll_opposed(request, roller)
    stat, td, mode = _read_check(request)
    faces, natural = _kept_face(roller, mode)
    total = natural + stat
    if natural == 20:
        outcome = "critical"
    elif natural == 1:
        outcome = "blunder"
    else:
        outcome = "success" if total >= td else "failure"
    dice_text = f"d20 {faces[0]}" if mode == "normal" else f"2d20 ({mode}) {faces[0]}, {faces[1]} → {natural}"
    text = f"{dice_text} {'+' if stat >= 0 else '−'} {abs(stat)} = {total} vs TD {td}: {outcome}"
    if natural == 20:
        text += " (natural 20: Heroic Inspiration)"
    return {
        "faces": faces,
        "natural": natural,
        "total": total,
        "outcome": outcome,
        "success": outcome in ("success", "critical"),
        "text": text,
    }


def check_id(stat: str) -> str:
    """The rollable id of a check with ``stat`` (the sheet's button; effects may target it, or every
    check with the prefix ``check:``). Its mode is the roll's own: an effect may change it."""
    return f"check:{stat}:normal"


def rollables(build: dict, report: Report, ctx: Context, state: dict | None = None) -> list[dict[str, Any]]:
    """A check per stat (easy or hard is the roller's choice, like the scene's TD: the roll form's
    inputs), and an effort roll per gear die."""
    stats = report.derived.get("stats")
    if not isinstance(stats, dict):
        raw = get_as(build, "stats", dict, {})
        stats = {s: raw[s] for s in STATS if is_int(raw.get(s)) and abs(raw[s]) <= ODDS_LIMIT}
    td = ctx.settings.get("default_td", 12)
    names = ctx.catalogue.get("stats", {})
    out = []
    for stat in STATS:
        if stat not in stats:
            continue
        out.append(
            {
                "id": check_id(stat),
                "label": f"{names.get(stat, {}).get('name', stat.upper())} check",
                "group": "checks",
                "request": {"stat": stats[stat], "td": td, "mode": "normal"},
            }
        )
    catalogue = ctx.catalogue.get("gear", {})
    for key, effort in (report.derived.get("effort") or {}).items():
        label = "Bare hands" if key == "bare_hands" else catalogue.get(key, {}).get("name", key)
        out.append(
            {
                "id": f"effort:{key}",
                "label": f"{label} effort ({effort})",
                "group": "effort",
                "request": {"effort": effort},
            }
        )
    return out
