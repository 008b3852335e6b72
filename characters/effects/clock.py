"""The encounter clock an effect's duration runs on, offered by the combat app.

``characters`` knows nothing of combat: the combat app appends an ``EncounterClock`` here when it
is ready (combat/apps.py), the way it offers the running encounter's numbers to the sheet. Without
one (combat not installed), a duration tied to an encounter is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Moment:
    """Where an encounter is: its id, its round, and the combatant ids of a character in it."""

    encounter_id: int
    round: int
    name: str


@dataclass(frozen=True)
class Running:
    """A running encounter of a campaign as the effects' forms and texts need it: its id, round and
    name, and its combatants (id, name) in turn order."""

    encounter_id: int
    round: int
    name: str
    combatants: tuple[tuple[int, str], ...] = ()


class EncounterClock(Protocol):
    def encounter_now(self, *, campaign_id: int, encounter_id: int) -> Moment | None:
        """The encounter's moment when it is a running encounter of the campaign, else None."""
        ...

    def combatant_encounter(self, *, campaign_id: int, combatant_id: int) -> Moment | None:
        """The moment of the running encounter of the campaign that combatant ``combatant_id`` is
        in, else None."""
        ...

    def running(self, *, campaign_id: int) -> list[Running]:
        """The campaign's running encounters with their combatants, newest first."""
        ...


CLOCKS: list[EncounterClock] = []


def clock() -> EncounterClock | None:
    return CLOCKS[0] if CLOCKS else None
