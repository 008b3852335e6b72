"""Coin's roll: flip Luck coins, succeed on enough heads (the table says how many: one by default)."""

from __future__ import annotations

from math import comb
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import is_int
from rulesets.engine.interfaces import Dice
from rulesets.engine.report import Report


class CoinDice(Dice):
    def odds(self, *, request: Any, ctx: Context) -> dict[str, Any]:
        coins = request.get("coins") if isinstance(request, dict) else None
        if not is_int(coins) or not 1 <= coins <= 10:
            raise OddsError("Flip 1 to 10 coins.")
        need = request.get("heads", 1)
        if not is_int(need) or not 1 <= need <= 10:
            raise OddsError("Need 1 to 10 heads.")
        hit = sum(comb(coins, k) for k in range(need, coins + 1)) / 2**coins
        return {"success": hit, "failure": 1 - hit}

    def roll(self, *, request: Any, roller: Roller, ctx: Context) -> dict[str, Any]:
        self.odds(request=request, ctx=ctx)
        faces = roller.roll(request["coins"], 2)
        heads = faces.count(2)
        outcome = "success" if heads >= request.get("heads", 1) else "failure"
        return {
            "faces": faces,
            "total": heads,
            "outcome": outcome,
            "text": f"{heads} head{'s' if heads != 1 else ''}: {outcome}",
        }

    def rollables(
        self, *, build: dict, report: Report, state: dict | None, ctx: Context
    ) -> list[dict[str, Any]]:
        luck = report.derived.get("luck", 1)
        return [
            {
                "id": "flip",
                "label": f"Flip {luck} coin{'s' if luck != 1 else ''}",
                "request": {"coins": luck, "heads": 1},
            }
        ]
