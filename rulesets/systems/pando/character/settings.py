"""Pando's house rules: the campaign's overrides of ``content/house.json`` checked."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.report import Issue


def attribute_max(ctx: Context) -> int | None:
    value = ctx.settings.get("attribute_max")
    return value if is_int(value) and value >= 1 else None


def starting_money(ctx: Context) -> int:
    """The campaign's starting money (W5, HD 0: the game gives none)."""
    value = ctx.settings.get("starting_money")
    return value if is_int(value) and value > 0 else 0


def check_settings(settings: dict) -> list[Issue]:
    """Pando-specific house-rule checks on top of the base type checks."""
    issues = []
    money = settings.get("starting_money")
    if "starting_money" in settings and not (is_int(money) and money >= 0):
        issues.append(
            Issue(
                "settings.malformed",
                "/starting_money",
                "Starting money is a whole number of 0 or more (0: the game gives none).",
            )
        )
    cap = settings.get("attribute_max")
    if "attribute_max" in settings and cap is not None and not (is_int(cap) and cap >= 1):
        issues.append(
            Issue(
                "settings.malformed",
                "/attribute_max",
                "attribute_max must be a whole number of 1 or more, or null for no limit.",
            )
        )
    thresholds = settings.get("harm_thresholds")
    if isinstance(thresholds, dict):
        values = [thresholds.get(k) for k in ("wounded", "lame", "maimed") if k in thresholds]
        if not all(is_int(v) and v >= 1 for v in values):
            issues.append(
                Issue(
                    "settings.malformed",
                    "/harm_thresholds",
                    "Harm thresholds (wounded, lame, maimed) must be whole numbers of 1 or more.",
                )
            )
    return issues


# ------------------------------------------------------------------- build
