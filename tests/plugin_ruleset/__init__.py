"""Coin: a sixth ruleset that exists only in the tests, to prove a ruleset is a plugin.

One attribute, Luck (1 to 5; each point above 1 costs 2 coins). A roll flips Luck coins and
succeeds on any head. Play state: three lives. Combat: on your turn, flip a coin at an enemy;
heads, they lose a life. Everything it shows (labels, awards, its quick NPC, its odds form,
its sheet block and its builder widget) is in this folder; the product is not told about it
except by ``registry.register(RULESET)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.base import FORMAT, Context, OddsError, Ruleset, StateError, is_int
from rulesets.engine.dice import Roller
from rulesets.engine.report import Issue, Report

LIVES = 3


class CoinRuleset(Ruleset):
    slug = "coin"
    name = "Coin"
    currencies = ("coins",)
    known_keys = frozenset({"luck"})
    content_dir = Path(__file__).parent / "content"

    # ------------------------------------------------------------ build

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        luck = build.get("luck", 1)
        top = ctx.settings["max_luck"]
        if not is_int(luck) or not 1 <= luck <= top:
            report.error("coin.luck_invalid", "/luck", f"Luck is a whole number from 1 to {top}.")
            return
        report.charge("coins", 2 * (luck - 1), path="/luck", label=f"Luck {luck}")
        report.derived["luck"] = luck
        report.derived["odds_of_heads"] = f"{round(100 * (1 - 0.5**luck))}%"

    def traits(self, ctx: Context) -> dict[str, Any]:
        return {
            "sections": [
                {
                    "id": "luck",
                    "label": "Luck",
                    "kind": "number",
                    "path": "/luck",
                    "min": 1,
                    "max": ctx.settings["max_luck"],
                    "help": "Each point above 1 costs 2 coins.",
                },
                {"id": "purse", "label": "Purse", "kind": "custom", "widget": "coin_purse", "path": "/luck"},
            ]
        }

    def blank_build(
        self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None
    ) -> dict:
        ctx = ctx or self.context()
        return {
            "format": FORMAT,
            "ruleset": self.slug,
            "name": name,
            "budget": dict(budget or ctx.settings["starting_budget"]),
            "luck": 1,
        }

    # ------------------------------------------------------------- dice

    def odds(self, request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
        coins = request.get("coins") if isinstance(request, dict) else None
        if not is_int(coins) or not 1 <= coins <= 10:
            raise OddsError("Flip 1 to 10 coins.")
        miss = 0.5**coins
        return {"success": 1 - miss, "failure": miss}

    def roll(self, request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
        self.odds(request)
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
        self, build: dict, report: Report, state: dict | None = None, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        luck = report.derived.get("luck", 1)
        return [
            {"id": "flip", "label": f"Flip {luck} coin{'s' if luck != 1 else ''}", "request": {"coins": luck}}
        ]

    # ------------------------------------------------------- play state

    def initial_state(self, build: dict, report: Report, *, ctx: Context | None = None) -> dict[str, Any]:
        return {"lives": LIVES}

    def check_state(
        self, state: Any, build: dict, report: Report, *, ctx: Context | None = None
    ) -> list[Issue]:
        lives = state.get("lives") if isinstance(state, dict) else None
        if not is_int(lives) or not 0 <= lives <= LIVES:
            return [Issue("coin.lives_invalid", "/lives", f"Lives are 0 to {LIVES}.")]
        return []

    def state_sections(
        self, build: dict, report: Report, state: dict, *, ctx: Context | None = None
    ) -> list[dict[str, Any]]:
        lives = state.get("lives", LIVES)
        return [
            {
                "id": "lives",
                "label": "Lives",
                "kind": "pools",
                "items": [
                    {
                        "id": "lives",
                        "label": "Lives",
                        "path": "/lives",
                        "value": lives,
                        "min": 0,
                        "max": LIVES,
                        "status": "out" if lives == 0 else "",
                    }
                ],
                "actions": [{"action": "lose_life", "label": "Lose a life", "fields": []}],
            }
        ]

    def state_action(
        self,
        state: dict,
        action: dict,
        build: dict,
        report: Report,
        roller: Roller | None = None,
        *,
        ctx: Context | None = None,
    ) -> tuple[dict, str]:
        lives = state.get("lives", LIVES)
        kind = action.get("action")
        if kind == "lose_life":
            if lives <= 0:
                raise StateError("coin.no_lives", "No lives left to lose.", "/lives")
            return {**state, "lives": lives - 1}, f"Lost a life ({lives - 1} left)."
        if kind == "set" and action.get("path") == "/lives":
            value = action.get("value")
            if not is_int(value) or not 0 <= value <= LIVES:
                raise StateError("coin.lives_invalid", f"Lives are 0 to {LIVES}.", "/lives")
            return {**state, "lives": value}, f"Lives set to {value}."
        raise StateError("state.unknown_action", f"Coin has no action {kind!r}.")

    # ----------------------------------------------------------- combat

    def make_combat(self):
        from .combat import CoinCombat

        return CoinCombat(self)


RULESET = CoinRuleset()
