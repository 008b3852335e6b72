from typing import Any

from rulesets.engine import Context, Issue, Report, Roller, StateError, is_int

LIVES = 3


def initial_state(build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    return {"lives": LIVES}


def check_state(state: Any, build: dict, report: Report, *, ctx: Context) -> list[Issue]:
    lives = state.get("lives") if isinstance(state, dict) else None
    if not is_int(lives) or not 0 <= lives <= LIVES:
        return [Issue("toss.lives_invalid", "/lives", f"Lives are 0 to {LIVES}.")]
    return []


def state_effects(state: dict, build: dict, report: Report, *, ctx: Context) -> dict[str, Any]:
    return {}  # lives change no number


def state_sections(state: dict, build: dict, report: Report, *, ctx: Context) -> list[dict[str, Any]]:
    lives = state.get("lives", LIVES)
    pool = {
        "id": "lives",
        "label": "Lives",
        "path": "/lives",
        "value": lives,
        "min": 0,
        "max": LIVES,
        "status": "",
    }
    lose = {"action": "lose_life", "label": "Lose a life", "fields": []}
    return [{"id": "lives", "label": "Lives", "kind": "pools", "items": [pool], "actions": [lose]}]


def state_action(
    state: dict, action: dict, build: dict, report: Report, *, ctx: Context, roller: Roller | None = None
) -> tuple[dict, str]:
    lives = state.get("lives", LIVES)
    if action.get("action") != "lose_life":
        raise StateError("state.unknown_action", "Toss knows one action: lose a life.")
    if lives <= 0:
        raise StateError("toss.no_lives", "No lives left to lose.", "/lives")
    return {**state, "lives": lives - 1}, f"Lost a life ({lives - 1} left)."
