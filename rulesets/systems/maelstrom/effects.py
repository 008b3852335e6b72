"""Maelstrom's named effects (``content/effects.json``, engine/effects.py "The catalogue").

- **Wounds** (native): levels of bashing damage on the health track (``state.py`` "damage", within
  the track; removed by "heal"). The track is the one truth: its wound penalty already comes off
  the pools (dice.py, combat/, picker.py), so the effect's changes only show the penalty the
  levels give an unhurt character, read from the campaign's health chart (a house-ruled chart
  included): Wounds 3 on the book's chart is Hurt, −1 die.
- **Prone**: two dice fewer on every roll (a house default: the seed has no such state).

Targets: Maelstrom's roll ids are ``<attribute>`` (the attribute alone), ``<attribute>__<ability>``
(``strength__athletics``) and ``willpower``; no id ends in ":" or ".", so no prefix reaches a group of
them: a change names one roll, or ``"all"``. The encounter's rolls and the roll picker's composed
roll carry the id of the sheet's roll of the same traits (``roll_id``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulesets.engine import effects as fx
from rulesets.engine.fields import is_int

WOUNDS = "wounds"
MINUS = "\u2212"


def penalty_at(chart: list[dict], levels: int) -> int:
    """The wound penalty of a track whose top ``levels`` boxes hold damage (state.py's rule: the
    penalty of the lowest damaged box that has one)."""
    for level in reversed(chart[: max(0, levels)]):
        if is_int(level.get("penalty")):
            return level["penalty"]
    return 0


@dataclass(frozen=True)
class WoundsKind(fx.EffectKind):
    """The Wounds effect of one health chart: its changes at a value are the chart's penalty there."""

    chart: tuple[tuple[str, int | None], ...] = ()

    def changes_at(self, value: int) -> list[dict[str, Any]]:
        penalty = penalty_at([{"label": n, "penalty": p} for n, p in self.chart], value)
        return [{"target": "all", "pool": penalty}] if penalty else []

    @classmethod
    def of(cls, kind: fx.EffectKind, chart: list[dict]) -> WoundsKind:
        levels = tuple(
            (str(level.get("label", "")), level.get("penalty") if is_int(level.get("penalty")) else None)
            for level in chart
        )
        words = ", ".join(
            f"{i} {name} ({'cannot act' if p is None else 'no penalty' if p == 0 else f'{p:+d}'.replace('-', MINUS)})"
            for i, (name, p) in enumerate(levels, start=1)
        )
        return cls(
            **{**kind.__dict__, "max": len(levels) or kind.max, "text": f"{kind.text} Levels: {words}."},
            chart=levels,
        )


def catalogue(kinds: dict[str, fx.EffectKind], chart: list[dict]) -> dict[str, fx.EffectKind]:
    """The catalogue with Wounds read from the campaign's health chart."""
    out = dict(kinds)
    wounds = out.get(WOUNDS)
    if wounds is not None and wounds.native and not isinstance(wounds, WoundsKind):
        out[WOUNDS] = WoundsKind.of(wounds, chart)
    return out


def roll_id(attribute: str, second: str | None, abilities: Any) -> str | None:
    """The sheet's id of the roll of these traits (dice.py): the attribute alone, or with an ability;
    None for two attributes (no roll button of the sheet is that pair)."""
    if not second:
        return attribute
    if second in abilities:
        return f"{attribute}__{second}"
    return None


def names_reaching(state: Any, rollable_id: str | None) -> list[str]:
    """The names of the effects whose changes reach the roll ``rollable_id`` (for the roll's note)."""
    names: list[str] = []
    for change in fx.active_changes(state):
        if fx.matches(change.get("target"), rollable_id) and change["text"] and change["text"] not in names:
            names.append(change["text"])
    return names
