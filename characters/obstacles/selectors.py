"""Obstacles as people see them: a secret one's level is None (shown "?") to anyone but the GM."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from characters.compiled import CompiledQuery
from characters.models import Campaign, Obstacle
from characters.selectors import is_campaign_gm


def obstacle_view(obstacle: Obstacle, *, is_gm: bool) -> dict[str, Any]:
    """CONTRACT.md's shape: ``{id, name, level, ep, resolved, secret, within_rounds, encounter,
    character, effect}``, ``level`` None for players when secret; ``level_text`` and ``text`` in words."""
    hidden = obstacle.secret and not is_gm
    level = None if hidden else obstacle.level
    rounds = f", within {obstacle.within_rounds} rounds" if obstacle.within_rounds else ""
    state = "overcome" if obstacle.resolved else f"{obstacle.ep}/{'?' if hidden else obstacle.level} EP"
    return {
        "id": obstacle.pk,
        "name": obstacle.name,
        "level": level,
        "ep": obstacle.ep,
        "resolved": obstacle.resolved,
        "secret": obstacle.secret,
        "within_rounds": obstacle.within_rounds,
        "encounter": obstacle.encounter_id,
        "character": obstacle.character_id,
        "effect": obstacle.effect or None,
        "text": f"{obstacle.name}: {state}{rounds}"
        + (" (secret level)" if obstacle.secret and is_gm else ""),
    }


def campaign_obstacles(
    *, campaign: Campaign, user, encounter_id: int | None = None, character_id: int | None = None
) -> list[dict[str, Any]]:
    """The campaign's obstacles as ``user`` sees them; ``encounter_id``: the campaign's own and that
    encounter's; ``character_id``: that character's afflictions."""
    gm = is_campaign_gm(user, campaign)
    rows = Obstacle.objects.filter(campaign=campaign)
    if encounter_id is not None:
        rows = rows.filter(encounter_id__in=[encounter_id]) | rows.filter(
            encounter_id__isnull=True, character__isnull=True
        )
    if character_id is not None:
        if encounter_id is None:  # a sheet's afflictions: every character page asks
            return [
                obstacle_view(o, is_gm=gm)
                for o in _AFFLICTIONS.fetch(campaign=campaign.pk, character=character_id)
            ]
        rows = rows.filter(character_id=character_id)
    return [obstacle_view(o, is_gm=gm) for o in rows.order_by("resolved", "pk")]


def _afflictions(campaign: int, character: int) -> QuerySet[Obstacle]:
    return Obstacle.objects.filter(campaign_id=campaign, character_id=character).order_by("resolved", "pk")


#: A character's afflictions, compiled once per process (characters/compiled.py): the sheet reads them
#: on every view.
_AFFLICTIONS = CompiledQuery(_afflictions, "campaign", "character")


def obstacles_for_rules(*, campaign_id: int, encounter_id: int | None = None) -> dict[str, dict[str, Any]]:
    """The obstacles a spend may put EP into, for the rules (plain data): id → {name, level, ep,
    resolved}."""
    rows = Obstacle.objects.filter(campaign_id=campaign_id)
    if encounter_id is not None:
        rows = rows.filter(encounter_id__in=[encounter_id]) | rows.filter(encounter_id__isnull=True)
    return {
        str(o.pk): {"name": o.name, "level": o.level, "ep": o.ep, "resolved": o.resolved, "secret": o.secret}
        for o in rows
    }


def encounter_obstacle_rows(*, campaign_id: int, encounter_id: int) -> list[Obstacle]:
    """The obstacles an encounter shows and its rolls may work on (one query): the campaign's own,
    this encounter's, and the afflictions of anyone (a character's obstacle)."""
    rows = Obstacle.objects.filter(campaign_id=campaign_id)
    return list(
        (rows.filter(encounter_id__in=[encounter_id]) | rows.filter(encounter_id__isnull=True)).order_by(
            "resolved", "pk"
        )
    )


def for_rules(rows: list[Obstacle]) -> dict[str, dict[str, Any]]:
    """``rows`` as the rules read them: id → {name, level, ep, resolved, secret}."""
    return {
        str(o.pk): {"name": o.name, "level": o.level, "ep": o.ep, "resolved": o.resolved, "secret": o.secret}
        for o in rows
    }
