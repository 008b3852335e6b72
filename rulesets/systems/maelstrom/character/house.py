"""Maelstrom's house rules: read once per context (``House``), and the campaign's overrides checked."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue


@dataclass(slots=True)
class House:
    """The numbers the rules use, read from the merged settings with safe fallbacks.

    ``overridden`` names the house-rule keys a campaign changed, so that messages can
    say where a number came from.
    """

    costs: dict[str, int]
    attribute_min: int
    attribute_max: int
    ability_max: int
    willpower_min: int
    willpower_max: int
    willpower_start: int
    creation_start: int
    creation_primary: int
    creation_secondary: int
    creation_abilities: list[int]
    health_chart: list[dict[str, Any]]
    default_difficulty: int
    willpower_recovery_hours: int = 12
    overridden: frozenset[str] = field(default_factory=frozenset)

    def source(self, key: str) -> str:
        return "this campaign's house rule" if key in self.overridden else "the Maelstrom cost table"

    def note(self, *keys: str) -> str:
        """ " (this campaign's house rule)" when a campaign changed a number the message relies on."""
        return " (this campaign's house rule)" if self.overridden.intersection(keys) else ""


def house(ctx: Context, defaults: dict[str, Any]) -> House:
    """The ``House`` of a context (worked out once per context)."""
    return ctx.memo("maelstrom.house", lambda: _read_house(ctx.settings, defaults))


def _read_house(settings: dict, defaults: dict) -> House:
    def num(section: str, key: str | None = None, *, low: int = 0) -> int:
        raw = settings.get(section)
        base = defaults[section]
        if key is not None:
            raw = raw.get(key) if isinstance(raw, dict) else None
            base = base[key]
        return raw if is_int(raw) and raw >= low else base

    raw_slots = settings.get("creation_abilities")
    slots: list[int] = (
        raw_slots
        if isinstance(raw_slots, list) and all(is_int(s) and 0 <= s <= 10 for s in raw_slots)
        else defaults["creation_abilities"]
    )
    raw_chart = settings.get("health_chart")
    chart: list[dict] = raw_chart if _good_chart(raw_chart) else defaults["health_chart"]
    costs = {key: num("xp_costs", key) for key in defaults["xp_costs"]}
    overridden = {k for k, v in settings.items() if defaults.get(k) != v}
    return House(
        costs=costs,
        attribute_min=num("attribute_range", "min"),
        attribute_max=num("attribute_range", "max"),
        ability_max=num("ability_range", "max"),
        willpower_min=num("willpower_range", "min"),
        willpower_max=num("willpower_range", "max"),
        willpower_start=num("willpower_start"),
        creation_start=num("creation_attributes", "start"),
        creation_primary=num("creation_attributes", "primary"),
        creation_secondary=num("creation_attributes", "secondary"),
        creation_abilities=sorted(slots, reverse=True),
        health_chart=[dict(level) for level in chart],
        default_difficulty=num("default_difficulty", low=2),
        willpower_recovery_hours=num("willpower_recovery_hours", low=1),
        overridden=frozenset(overridden),
    )


def _good_chart(chart: Any) -> TypeGuard[list[dict]]:
    return (
        isinstance(chart, list)
        and len(chart) >= 2
        and all(
            isinstance(level, dict)
            and isinstance(level.get("id"), str)
            and isinstance(level.get("label"), str)
            and (level.get("penalty") is None or is_int(level.get("penalty")))
            for level in chart
        )
    )


def check_settings(settings: dict, defaults: dict) -> list[Issue]:
    """Nested checks of house-rule overrides (the base class checks the top-level types)."""
    issues: list[Issue] = []
    for key, value in settings.items():
        default = defaults.get(key)
        if isinstance(default, dict) and isinstance(value, dict) and key != "starting_budget":
            for sub, subvalue in value.items():
                if sub not in default:
                    issues.append(
                        Issue(
                            "settings.unknown",
                            ptr(key, sub),
                            f"House rule {key!r} has no {sub!r} (known: {', '.join(default)}).",
                        )
                    )
                elif not is_int(subvalue) or subvalue < 0:
                    issues.append(
                        Issue("settings.malformed", ptr(key, sub), f"{key}/{sub} must be a whole number ≥ 0.")
                    )
        elif key == "creation_abilities" and isinstance(value, list):
            if not all(is_int(s) and 0 <= s <= 10 for s in value):
                issues.append(
                    Issue(
                        "settings.malformed",
                        ptr(key),
                        "The abilities' creation dots are whole numbers from 0 to 10, one per ability, "
                        "e.g. 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1.",
                    )
                )
        elif key == "health_chart" and isinstance(value, list) and not _good_chart(value):
            issues.append(
                Issue(
                    "settings.malformed",
                    ptr(key),
                    "health_chart lists levels "
                    '{"id", "label", "penalty": whole number or null}, at least two.',
                )
            )
    return issues
