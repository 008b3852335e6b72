"""The campaign's clock as the rules see it (RULES.md C1): what time passing does to a character.

The clock itself (a day and an hour) is the campaign's, kept and moved by the product; a ruleset
sees only how much time passed: ``Ruleset.time_passes(state, build, report, passage=Span(...))``
answers the new play state and what it did, in words (Pando's healing per day and week,
Paragon's Dynama, Our D&D's one rest a day, Maelstrom's willpower every 12 hours). Plain data
both ways: no ORM, no wall clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

HOURS_PER_DAY = 24
#: "A new day" starts at this hour (the morning after a night).
MORNING = 8
#: The most hours one "Time passes" may move the clock (thirty days).
MAX_HOURS = 30 * HOURS_PER_DAY


@dataclass(frozen=True)
class Span:
    """A stretch of the campaign's clock: from (``day_from``, ``hour_from``), ``hours`` long."""

    day_from: int
    hour_from: int
    hours: int

    @property
    def day_to(self) -> int:
        return self.day_from + (self.hour_from + self.hours) // HOURS_PER_DAY

    @property
    def hour_to(self) -> int:
        return (self.hour_from + self.hours) % HOURS_PER_DAY

    @property
    def days(self) -> int:
        """How many new days began in the span (midnights passed)."""
        return self.day_to - self.day_from

    @property
    def weeks(self) -> int:
        """How many of the campaign's weeks (days 1–7, 8–14, …) began in the span."""
        return (self.day_to - 1) // 7 - (self.day_from - 1) // 7


def span_to_morning(day: int, hour: int) -> Span:
    """ "A new day": from now to the next day's ``MORNING``."""
    return Span(day, hour, HOURS_PER_DAY - hour + MORNING)


@dataclass
class Passage:
    """What a span of time did to one character: the new play state, its sentences for the log, and
    the rolls the server made for it ({"label", "request", "result"}: the ruleset's roll answer)."""

    state: dict[str, Any]
    messages: list[str] = field(default_factory=list)
    rolls: list[dict[str, Any]] = field(default_factory=list)
