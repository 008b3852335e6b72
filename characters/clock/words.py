"""The campaign's time as every page says it (the party page's clock, the sheet's Play block, the
live message that moves them)."""

from __future__ import annotations


def clock_text(day: int, hour: int) -> str:
    return f"Day {day}, {hour:02d}:00"
