"""Coin's roll: flip Luck coins, succeed on any head."""

from __future__ import annotations

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
        miss = 0.5**coins
        return {"success": 1 - miss, "failure": miss}

    def roll(self, *, request: Any, roller: Roller, ctx: Context) -> dict[str, Any]:
        self.odds(request=request, ctx=ctx)
        faces = roller.roll(request["coins"], 2)
        heads = faces.count(2)
        outcome = "success" if heads else "failure"
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
            {"id": "flip", "label": f"Flip {luck} coin{'s' if luck != 1 else ''}", "request": {"coins": luck}}
        ]
