from typing import Any

from rulesets.engine import Context, OddsError, Report, Roller, is_int


def odds(request: Any, *, ctx: Context) -> dict[str, float]:
    coins = request.get("coins") if isinstance(request, dict) else None
    if not is_int(coins) or not 1 <= coins <= 10:
        raise OddsError("Flip 1 to 10 coins.")
    return {"success": 1 - 0.5**coins, "failure": 0.5**coins}


def roll(request: Any, roller: Roller, *, ctx: Context) -> dict[str, Any]:
    odds(request, ctx=ctx)
    faces = roller.roll(request["coins"], 2)  # a 2 is heads
    outcome = "success" if 2 in faces else "failure"
    return {"faces": faces, "total": faces.count(2), "outcome": outcome, "text": f"{faces}: {outcome}"}


def rollables(build: dict, report: Report, state: dict | None, *, ctx: Context) -> list[dict[str, Any]]:
    luck = report.derived.get("luck", 1)
    return [{"id": "flip", "label": f"Flip {luck} coins", "request": {"coins": luck}}]
