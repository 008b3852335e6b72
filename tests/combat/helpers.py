"""Helpers of the scripted fights through the combat services (tests/combat/test_*_fight.py)."""

from __future__ import annotations

import pytest

from characters.models import Character
from combat.models import Encounter, EncounterEvent
from config.api import RuleRefused


def snapshot(encounter: Encounter):
    """Everything a refused action must leave as it was: the encounter, its rows, the characters, the log."""
    encounter.refresh_from_db()
    rows = {c.id: (c.state, c.combat) for c in encounter.combatants.all()}
    chars = {c.id: (c.state, c.version) for c in Character.objects.filter(combatants__encounter=encounter)}
    return (
        encounter.version,
        encounter.round,
        encounter.turn,
        encounter.order,
        encounter.state,
        rows,
        chars,
        EncounterEvent.objects.filter(encounter=encounter).count(),
    )


def refused(code: str, fn, *args, **kwargs) -> RuleRefused:
    """Call a service that must refuse with the rule's ``code``; return the refusal."""
    with pytest.raises(RuleRefused) as exc:
        fn(*args, **kwargs)
    assert exc.value.errors[0]["code"] == code, exc.value.errors
    return exc.value


def last_event(encounter: Encounter) -> EncounterEvent:
    return EncounterEvent.objects.filter(encounter=encounter).order_by("-seq").first()


def event_texts(encounter: Encounter) -> list[str]:
    """The encounter's log, oldest first."""
    events = EncounterEvent.objects.filter(encounter=encounter).order_by("seq")
    return list(events.values_list("text", flat=True))
