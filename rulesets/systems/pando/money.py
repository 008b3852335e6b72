"""Pando's money pool (RULES.md W5): what the starting money left once the equipment was bought,
kept on the sheet and spent or gained in play.

The seed: "Starting resources come in the form of Character Points, Equipment, and currency. ... If
a game provies you with starting currency, they my allow you to purchase items for your character
before starting the game proper. Or they might instead require you to spend your currency during the
play sessions." The build buys at creation (character/equipment.py charges each item's price to the
``money`` budget); the play state keeps the rest::

    {"money": 5, ...}        # a whole number of 0 or more; missing = 0

A new character in play starts with what its build has left (``opening``). In play the owner or the
GM spends it (never below 0: refused, nothing changed) or gains more (loot, pay, a sale), each a
play version with its sentence in the play log. Buying an item in play is a spend that says what
was bought; the build's equipment changes only by advancement (RULINGS.md "Money").
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.errors import StateError
from rulesets.engine.fields import is_int
from rulesets.engine.report import Issue, Report

from .character import MONEY
from .character.common import amount_field

#: The play state's key of the pool (the money budget's currency, kept in play).
KEY = MONEY

#: The longest "what for" / "where from" a spend or gain keeps (it becomes the play log's sentence).
WHAT_LENGTH = 80


def opening(report: Report) -> dict[str, int]:
    """The pool a character comes into play with: what its build leaves of the money budget (none
    when the campaign gives no starting money)."""
    if MONEY not in report.budget:
        return {}
    return {KEY: max(0, report.budget[MONEY] - report.spent.get(MONEY, 0))}


def pool(state: Any) -> int:
    """The money in ``state`` (0 when it holds none or a value that is not money)."""
    value = state.get(KEY) if isinstance(state, dict) else None
    return value if is_int(value) and value >= 0 else 0


def kept(state: Any) -> dict[str, int]:
    """``{"money": n}`` when ``state`` holds a well-formed pool, else nothing (for ``normalise``)."""
    value = state.get(KEY) if isinstance(state, dict) else None
    return {KEY: value} if is_int(value) and value >= 0 else {}


def check(state: dict) -> list[Issue]:
    value = state.get(KEY, 0)
    if not is_int(value) or value < 0:
        return [Issue("state.malformed", "/money", "Money is a whole number of 0 or more.")]
    return []


def section(state: dict) -> dict[str, Any]:
    """The sheet's Money block: the pool and its two play actions."""
    return {
        "id": "money",
        "label": "Money",
        "kind": "pools",
        "items": [
            {
                "id": KEY,
                "label": "Money",
                "path": "/money",
                "value": pool(state),
                "min": 0,
                "max": None,
                "status": "",
            }
        ],
        "help": "What the starting money left after buying equipment, and what play brings or costs.",
        "actions": [
            {
                "action": "spend_money",
                "label": "Spend money",
                "fields": [amount_field(), {"id": "what", "label": "On what", "kind": "text", "default": ""}],
            },
            {
                "action": "gain_money",
                "label": "Gain money",
                "fields": [
                    amount_field(),
                    {"id": "what", "label": "From where", "kind": "text", "default": ""},
                ],
            },
        ],
    }


def _need_amount(action: dict) -> int:
    amount = action.get("amount")
    if not is_int(amount) or amount < 1:
        raise StateError("state.invalid_amount", "Amount must be a whole number of 1 or more.", "/amount")
    return amount


def _what(action: dict) -> str:
    what = action.get("what") or ""
    if not isinstance(what, str) or len(what.strip()) > WHAT_LENGTH:
        raise StateError("state.invalid", f"Say what for in {WHAT_LENGTH} characters or fewer.", "/what")
    return what.strip()


def spend(s: dict, action: dict, body: Any, name: str) -> tuple[dict, str]:
    """``spend_money``: ``amount`` out of the pool (``what``: on what), never below 0."""
    amount, what = _need_amount(action), _what(action)
    have = pool(s)
    if amount > have:
        raise StateError(
            "pando.not_enough_money",
            f"{name} has only {have} money, not {amount}: spend {have} or less, or gain money first.",
            "/amount",
        )
    s[KEY] = have - amount
    on = f" on {what}" if what else ""
    return s, f"{name} spends {amount} money{on} ({s[KEY]} left)."


def gain(s: dict, action: dict, body: Any, name: str) -> tuple[dict, str]:
    """``gain_money``: ``amount`` into the pool (``what``: where from)."""
    amount, what = _need_amount(action), _what(action)
    s[KEY] = pool(s) + amount
    source = f" from {what}" if what else ""
    return s, f"{name} gains {amount} money{source} ({s[KEY]} now)."
