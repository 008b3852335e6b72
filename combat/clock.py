"""The encounter clock effects run on (characters/effects/clock.py): combat offers it to characters."""

from __future__ import annotations

from characters.effects.clock import Moment, Running
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

    def running(self, *, campaign_id: int) -> list[Running]:
        encounters = list(
            Encounter.objects.filter(campaign_id=campaign_id, status=Encounter.Status.ACTIVE)
            .order_by("-created", "-id")
            .values_list("pk", "round", "name", "order")
        )
        if not encounters:
            return []
        names: dict[int, dict[int, str]] = {pk: {} for pk, *_ in encounters}
        rows = Combatant.objects.filter(encounter_id__in=list(names)).values_list(
            "encounter_id", "pk", "name"
        )
        for encounter_id, pk, name in rows.order_by("id"):
            names[encounter_id][pk] = name
        out = []
        for pk, round_, name, order in encounters:
            here = names[pk]
            ordered = [i for i in order or [] if i in here] + [i for i in here if i not in (order or [])]
            out.append(Running(pk, round_, name, tuple((i, here[i]) for i in ordered)))
        return out
