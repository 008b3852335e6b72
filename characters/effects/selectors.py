"""Effects' reads: a character's rolls (effects applied) and its effects as people read them."""

from __future__ import annotations

from typing import Any

from django.db import connection

from characters.effects.clock import Running, clock
from characters.models import CampaignEffect, Character
from characters.sheet.selectors import (
    character_context,
    character_play_state,
    character_report,
    character_ruleset,
)
from rulesets.engine import effects as fx
from rulesets.engine.ruleset import Ruleset


def character_rollables(*, character: Character) -> list[dict[str, Any]]:
    """The sheet's roll buttons as [{id, label, request}]: the play state's effects and the
    campaign's house defaults applied (CONTRACT.md "The GM's screen")."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return []
    report = character_report(character=character, ruleset=ruleset)
    if not report.valid:
        return []
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    return [
        {"id": r["id"], "label": r.get("label", ""), "request": r["request"]}
        for r in ruleset.rollables(character.build, report, state, ctx=ctx)
        if "id" in r and isinstance(r.get("request"), dict)
    ]


def effect_view(
    ruleset: Ruleset,
    entry: dict[str, Any],
    *,
    labels: dict[str, str] | None = None,
    round_now: int | None = None,
) -> dict[str, Any]:
    """One effect of the play state as the API and the pages show it: the state's entry with its
    changes and duration in words (``text``, ``remaining``)."""
    changes = [c for c in entry.get("changes") or () if isinstance(c, dict)]
    return {
        "id": entry.get("id"),
        "effect": entry.get("effect"),
        "name": entry.get("name", ""),
        "value": entry.get("value"),
        "changes": changes,
        "duration": fx.public_duration(entry.get("duration")),
        "encounter": (entry.get("duration") or {}).get("encounter"),
        "native": bool(entry.get("native")),
        "house_default": bool(entry.get("house_default")),
        "text": [fx.describe_change(ruleset, c, labels) for c in changes],
        "remaining": fx.duration_text(entry.get("duration"), round_now=round_now),
    }


def character_effects(*, character: Character, ruleset: Ruleset | None = None) -> list[dict[str, Any]]:
    """The character's active effects as ``effect_view`` shows them, what remains as it is now (the
    running encounter's round; read only when an effect is tied to an encounter)."""
    ruleset = ruleset or character_ruleset(character)
    if ruleset is None:
        return []
    entries = fx.active_entries(character.state)
    tied = any(isinstance(e.get("duration"), dict) and "encounter" in e["duration"] for e in entries)
    running = running_encounters(campaign_id=character.campaign_id) if tied else []
    return [
        {**effect_view(ruleset, e), "remaining": remaining_text(e.get("duration"), running)} for e in entries
    ]


def characters_holding_encounter_effects(
    *, campaign_id: int, encounter_id: int, exclude: list[int] | tuple[int, ...] = ()
) -> list[int]:
    """The active characters of the campaign (but ``exclude``) holding an effect tied to encounter
    ``encounter_id`` (rounds of it, a turn of one of its combatants): the encounter's clock reaches
    them even when they are not in the fight. One query (jsonb containment on Postgres)."""
    found = Character.objects.filter(campaign_id=campaign_id, status=Character.Status.ACTIVE)
    if exclude:
        found = found.exclude(pk__in=list(exclude))
    if connection.vendor == "postgresql":
        tied = [{"duration": {"encounter": encounter_id}}]
        return list(found.filter(state__effects__contains=tied).values_list("pk", flat=True).order_by("pk"))
    return [  # SQLite has no jsonb containment: read the states
        pk
        for pk, state in found.values_list("pk", "state").order_by("pk")
        if fx.ending_with_encounter(state, encounter_id)
    ]


def campaign_saved_effects(*, campaign_id: int) -> list[CampaignEffect]:
    """The custom effects the campaign keeps for reuse, by name (one query)."""
    return list(CampaignEffect.objects.filter(campaign_id=campaign_id).order_by("name", "id"))


def running_encounters(*, campaign_id: int) -> list[Running]:
    """The campaign's running encounters with their combatants (the combat app's clock; none without it)."""
    the_clock = clock()
    return the_clock.running(campaign_id=campaign_id) if the_clock is not None else []


def remaining_text(duration: Any, running: list[Running]) -> str:
    """What remains of a duration now, in words: "2 rounds left" (the encounter's round now), "until
    the end of Goblin's turn"."""
    if isinstance(duration, dict) and duration.get("until") == "end_of_turn":
        for r in running:
            for cid, name in r.combatants:
                if cid == duration.get("combatant"):
                    return f"until the end of {name}'s turn"
    rounds = {r.encounter_id: r.round for r in running}
    encounter = duration.get("encounter") if isinstance(duration, dict) else None
    return fx.duration_text(duration, round_now=rounds.get(encounter) if encounter is not None else None)


def effects_shown(
    *, character: Character, ruleset: Ruleset, rollables: list[dict[str, Any]] | None = None, ctx=None
) -> list[dict[str, Any]]:
    """The character's active effects as its Effects block lists them: ``effect_view`` with what it
    changes in one sentence (``sentence``, the catalogue's text for one that changes nothing the
    form can say) and what remains now (``remaining``; the running encounters are read only when an
    effect is tied to one)."""
    entries = fx.active_entries(character.state)
    if not entries:
        return []
    labels = {
        str(r["id"]): str(r.get("label") or r["id"])
        for r in rollables or ()
        if isinstance(r, dict) and r.get("id")
    }
    tied = any(isinstance(e.get("duration"), dict) and "encounter" in e["duration"] for e in entries)
    running = running_encounters(campaign_id=character.campaign_id) if tied else []
    catalogue = ruleset.effect_catalogue(ctx)
    out = []
    for entry in entries:
        view = effect_view(ruleset, entry, labels=labels)
        kind = catalogue.get(entry.get("effect") or "")
        view["sentence"] = "; ".join(view["text"]) or (kind.text if kind is not None else "")
        view["remaining"] = remaining_text(entry.get("duration"), running)
        out.append(view)
    return out


def has_rest(ruleset: Ruleset, sections: list[dict[str, Any]]) -> bool:
    """Whether the sheet's play-state sections offer a rest (so "until rest" can end)."""
    return any(
        isinstance(a, dict) and a.get("action") in ruleset.rest_actions
        for s in sections
        if isinstance(s, dict)
        for a in s.get("actions") or ()
    )
