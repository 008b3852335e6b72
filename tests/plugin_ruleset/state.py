"""Coin's play state: three lives. Plain functions, the engine's play-state hooks as they are
(``CoinRuleset.play_state`` is this module)."""

from __future__ import annotations

from typing import Any

from rulesets.engine import Context, Issue, Report, Roller, StateError, is_int

LIVES = 3


def initial_state(*, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {"lives": LIVES}


def check_state(*, state: Any, build: dict, report: Report, ctx: Context) -> list[Issue]:
    lives = state.get("lives") if isinstance(state, dict) else None
    if not is_int(lives) or not 0 <= lives <= LIVES:
        return [Issue("coin.lives_invalid", "/lives", f"Lives are 0 to {LIVES}.")]
    return []


def state_effects(*, state: dict, build: dict, report: Report, ctx: Context) -> dict[str, Any]:
    return {}  # lives change no number


def state_sections(*, state: dict, build: dict, report: Report, ctx: Context) -> list[dict[str, Any]]:
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
    *,
    state: dict,
    action: dict,
    build: dict,
    report: Report,
    ctx: Context,
    roller: Roller | None,
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
