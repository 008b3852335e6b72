"""Coin's roll: flip Luck coins, succeed on enough heads (the table says how many: one by default).

Plain functions: the engine calls them by name (``request=``, ``roller=``, ``ctx=``…), so they are
the ruleset's dice hooks as they are (``CoinRuleset.dice`` is this module)."""

from __future__ import annotations

from math import comb
from typing import Any

from rulesets.engine import Context, OddsError, Report, Roller, is_int


def odds(*, request: Any, ctx: Context) -> dict[str, Any]:
    coins = request.get("coins") if isinstance(request, dict) else None
    if not is_int(coins) or not 1 <= coins <= 10:
        raise OddsError("Flip 1 to 10 coins.")
    need = request.get("heads", 1)
    if not is_int(need) or not 1 <= need <= 10:
        raise OddsError("Need 1 to 10 heads.")
    hit = sum(comb(coins, k) for k in range(need, coins + 1)) / 2**coins
    return {"success": hit, "failure": 1 - hit}


def roll(*, request: Any, roller: Roller, ctx: Context) -> dict[str, Any]:
    odds(request=request, ctx=ctx)
    faces = roller.roll(request["coins"], 2)
    heads = faces.count(2)
    outcome = "success" if heads >= request.get("heads", 1) else "failure"
    return {
        "faces": faces,
        "total": heads,
        "outcome": outcome,
        "text": f"{heads} head{'s' if heads != 1 else ''}: {outcome}",
    }


def rollables(*, build: dict, report: Report, state: dict | None, ctx: Context) -> list[dict[str, Any]]:
    luck = report.derived.get("luck", 1)
    return [
        {
            "id": "flip",
            "label": f"Flip {luck} coin{'s' if luck != 1 else ''}",
            "request": {"coins": luck, "heads": 1},
        }
    ]
