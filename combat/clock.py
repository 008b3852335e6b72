"""The encounter clock effects run on (characters/effects/clock.py): combat offers it to characters."""

from __future__ import annotations

from characters.effects.clock import Moment
from combat.models import Combatant, Encounter


class CombatClock:
    def encounter_now(self, *, campaign_id: int, encounter_id: int) -> Moment | None:
        row = (
            Encounter.objects.filter(pk=encounter_id, campaign_id=campaign_id, status=Encounter.Status.ACTIVE)
            .values_list("pk", "round", "name")
            .first()
        )
        return Moment(*row) if row else None

    def combatant_encounter(self, *, campaign_id: int, combatant_id: int) -> Moment | None:
        row = (
            Combatant.objects.filter(
                pk=combatant_id,
                encounter__campaign_id=campaign_id,
                encounter__status=Encounter.Status.ACTIVE,
            )
            .values_list("encounter_id", "encounter__round", "encounter__name")
            .first()
        )
        return Moment(*row) if row else None
