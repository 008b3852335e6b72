"""``{{ day|clock_time:hour }}``: the campaign's time in words (characters/clock/words.py)."""

from __future__ import annotations

from typing import Any

from django import template

from characters.clock.words import clock_text

register = template.Library()


@register.filter
def clock_time(day: Any, hour: Any) -> str:
    try:
        return clock_text(int(day), int(hour))
    except (TypeError, ValueError):
        return ""
