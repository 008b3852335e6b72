"""Effects' writes: apply one, remove one, and end the ones whose time is up.

Each is its own transaction (or joins the caller's: the encounter's clock ends effects inside its
own) and locks the character row first; each change is a "play" version whose reason says what
happened ("Frightened 2 on Ayla for 1 round."), so the play log, the open sheets and the party page
hear of it through the one version writer (characters/versions.py).

Refusals: ``EffectRefused`` (400: an unknown effect, key or target, a duration without a running
encounter), ``NotPermitted`` (403: neither the GM nor the owner), ``CharacterNotFound`` (404),
``RuleRefused`` (422: the character is not in play, or the ruleset's own state refuses).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction

from characters.campaigns.selectors import campaign_member
from characters.effects.clock import clock
from characters.models import CampaignEffect, Character
from characters.selectors import CharacterNotFound, can_edit_state, character_for_user, is_campaign_gm
from characters.sheet.selectors import (
    character_context,
    character_play_state,
    character_report,
    character_ruleset,
)
from characters.versions import character_version_write
from config.errors import BadInput, NotPermitted, rule_refused
from rulesets.engine import effects as fx
from rulesets.engine.errors import StateError
from rulesets.engine.fields import is_int
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

MAX_ROUNDS = 100


class EffectRefused(BadInput):
    """An effect the rules or the clock refuse (400): ``errors`` is [{code, path, message}]."""

    code = "effect_refused"

    def __init__(self, code: str, message: str, path: str = ""):
        super().__init__(message, errors=[{"code": code, "path": path, "message": message}])


def _refused(exc: fx.EffectError) -> EffectRefused:
    return EffectRefused(exc.code, exc.message, exc.path)


def _lock(*, character_id, user) -> Character:
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    if not can_edit_state(user, character):
        raise NotPermitted("Only the GM, or the player on their own character, applies and removes effects.")
    if character.status != Character.Status.ACTIVE:
        raise rule_refused(
            "state.not_active",
            f"{character.name} is {character.get_status_display().lower()}: effects apply to characters in play.",
        )
    return character


def _rules(character: Character) -> tuple[Ruleset, Report, Any, dict]:
    ruleset = character_ruleset(character)
    if ruleset is None:
        raise rule_refused("ruleset.unknown", "This character's ruleset is not available.", "/ruleset")
    report = character_report(character=character, ruleset=ruleset)
    if not report.valid:
        raise rule_refused("state.build_invalid", "Fix the build before playing this character.")
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    return ruleset, report, ctx, state


def effect_duration(*, campaign_id: int, duration: Any, encounter: Any) -> dict[str, Any] | None:
    """A duration request checked against the campaign's running encounters: what the entry keeps
    (a duration on an encounter's clock carries the encounter and the round it began). Raises
    ``EffectRefused``."""
    if duration in (None, {}, "none"):
        if encounter is not None:
            raise EffectRefused(
                "effect.bad_duration", "An encounter goes with a duration in rounds.", "/encounter"
            )
        return None
    if not isinstance(duration, dict):
        raise EffectRefused(
            "effect.bad_duration",
            'A duration is {"rounds": N} with an encounter, {"until": "end_of_turn", "combatant": id}, '
            '{"until": "rest"}, or none (until removed).',
            "/duration",
        )
    encounter = duration.get("encounter", encounter)
    the_clock = clock()
    if "rounds" in duration:
        rounds = duration["rounds"]
        if not is_int(rounds) or not 1 <= rounds <= MAX_ROUNDS:
            raise EffectRefused(
                "effect.bad_duration",
                f"The rounds are a whole number from 1 to {MAX_ROUNDS}.",
                "/duration/rounds",
            )
        if encounter is None:
            raise EffectRefused(
                "effect.no_encounter",
                "A duration in rounds runs on an encounter's clock: name the running encounter.",
                "/encounter",
            )
        moment = (
            the_clock.encounter_now(campaign_id=campaign_id, encounter_id=encounter)
            if the_clock is not None and is_int(encounter)
            else None
        )
        if moment is None:
            raise EffectRefused(
                "effect.no_encounter",
                "That is not a running encounter of this campaign: start it first, or choose another duration.",
                "/encounter",
            )
        return {"rounds": rounds, "encounter": moment.encounter_id, "start_round": moment.round}
    until = duration.get("until")
    if until == "rest":
        return {"until": "rest"}
    if until == "end_of_turn":
        combatant = duration.get("combatant")
        moment = (
            the_clock.combatant_encounter(campaign_id=campaign_id, combatant_id=combatant)
            if the_clock is not None and is_int(combatant)
            else None
        )
        if moment is None:
            raise EffectRefused(
                "effect.no_encounter",
                "Until the end of a turn needs a combatant of a running encounter of this campaign.",
                "/duration/combatant",
            )
        return {"until": "end_of_turn", "combatant": combatant, "encounter": moment.encounter_id}
    raise EffectRefused(
        "effect.bad_duration",
        'A duration is {"rounds": N}, {"until": "end_of_turn", "combatant": id} or {"until": "rest"}.',
        "/duration",
    )


def _sentence(character: Character, entry: dict, duration: dict | None) -> str:
    return f"{entry['name']} on {character.name}, {fx.duration_text(duration)}."


def character_effect_apply(
    *,
    character_id,
    user,
    spec: dict[str, Any],
    duration: Any = None,
    encounter: Any = None,
    keep_as: str | None = None,
) -> tuple[Character, dict[str, Any]]:
    """Apply an effect (``spec``: ``{"effect", "value"?}`` or ``{"name", "changes"}``) to the
    character's play state, with its duration. Returns (character, the state's new entry).
    ``keep_as``: a custom effect the campaign also keeps under that name, for reuse
    (``campaign_effect_save``), in the same transaction."""
    with transaction.atomic():
        character = _lock(character_id=character_id, user=user)
        ruleset, report, ctx, state = _rules(character)
        ids = [r["id"] for r in ruleset.rollables(character.build, report, state, ctx=ctx) if "id" in r]
        try:
            entry, kind = fx.resolve(ruleset, spec, ids, ctx=ctx)
        except fx.EffectError as exc:
            raise _refused(exc) from None
        entry["duration"] = effect_duration(
            campaign_id=character.campaign_id, duration=duration, encounter=encounter
        )
        if len(fx.active_entries(state)) >= fx.MAX_EFFECTS:
            raise EffectRefused(
                "effect.too_many", f"{character.name} carries {fx.MAX_EFFECTS} effects already."
            )
        try:
            character.state = state_with_effect(
                ruleset=ruleset,
                build=character.build,
                report=report,
                ctx=ctx,
                state=state,
                entry=entry,
                kind=kind,
            )
        except StateError as exc:
            raise rule_refused(exc.code, exc.message, exc.path) from None
        character_version_write(
            character=character,
            author=user,
            reason=_sentence(character, entry, entry["duration"]),
            fields=["state"],
        )
        if keep_as and entry.get("effect") is None:
            campaign_effect_save(
                campaign=character.campaign, user=user, name=keep_as, changes=entry["changes"]
            )
    return character, entry


def state_without_effects(
    *, ruleset: Ruleset, build: dict, report: Report, ctx, state: dict, ending: list[dict]
) -> dict:
    """``state`` (a character's or an NPC combatant's play state) without the ``ending`` entries, a
    native one taken out of the ruleset's own state too through its ``remove`` actions (a refusal
    there is logged: the effect ends all the same). Plain: no database, no version."""
    catalogue = ruleset.effect_catalogue(ctx)
    for entry in ending:
        kind = catalogue.get(entry.get("effect") or "")
        if kind is None or not entry.get("native"):
            continue
        for action in kind.actions("remove", entry.get("value") or 1):
            try:
                state, _ = ruleset.state_action(state, action, build, report, ctx=ctx)
            except StateError:
                logger.info("removing %s: the state had it no more", kind.id)
    return fx.without(state, [e["id"] for e in ending])


def state_with_effect(
    *,
    ruleset: Ruleset,
    build: dict,
    report: Report,
    ctx,
    state: dict,
    entry: dict,
    kind: fx.EffectKind | None,
) -> dict:
    """``state`` with the new ``entry`` (``fx.resolve``'s, its duration set), a native one put into
    the ruleset's own state too through its ``apply`` actions. A refusal of those raises
    ``StateError``; too many effects already is an ``EffectRefused``."""
    entries = fx.active_entries(state)
    if len(entries) >= fx.MAX_EFFECTS:
        raise EffectRefused("effect.too_many", f"At most {fx.MAX_EFFECTS} effects at once.")
    before = state
    if kind is not None and kind.native:
        for action in kind.actions("apply", entry["value"] or 1):
            state, _ = ruleset.state_action(state, action, build, report, ctx=ctx)
    after = {**state, fx.STATE_KEY: [*entries, entry]}
    _require_answerable(
        ruleset=ruleset, build=build, report=report, ctx=ctx, before=before, after=after, name=entry["name"]
    )
    return after


def _require_answerable(
    *, ruleset: Ruleset, build: dict, report: Report, ctx, before: dict, after: dict, name: str
) -> None:
    """Refuse an effect (``EffectRefused``, 400, in words) that takes one of the rolls it changes
    past what the ruleset's odds answer (Strength +50 where the dice answer up to +30): an effect's
    changes stay within the odds' bounds, so no sheet, encounter or party odds is left without an
    answer by one of them. The requests are the party odds': every active change applied to the
    roll's request before effects (a sheet may show a number brought back within the odds)."""

    def requests(state: dict) -> tuple[dict[str, Any], dict[str, str]]:
        changes = fx.active_changes(state)
        found = [r for r in ruleset.rollables(build, report, state, ctx=ctx) if "id" in r]
        return (
            {
                r["id"]: fx.apply_changes(ruleset, r["unaffected"], changes, r["id"])
                if "unaffected" in r
                else r.get("request")
                for r in found
            },
            {r["id"]: str(r.get("label") or "") for r in found},
        )

    try:
        (was, labels), (now, _) = requests(before), requests(after)
    except NotImplementedError:
        return
    for roll_id, request in now.items():
        old = was.get(roll_id)
        if old is None or request == old or not isinstance(request, dict):
            continue
        try:
            ruleset.odds(request, ctx=ctx)
        except NotImplementedError:
            return
        except ValueError:  # OddsError: the dice cannot answer these numbers
            shifts = [
                f"{ruleset.label(key)} {old.get(key)} → {value}"
                for key, value in request.items()
                if is_int(value) and isinstance(old, dict) and old.get(key) != value
            ]
            label = labels.get(roll_id) or ruleset.label(roll_id)
            raise EffectRefused(
                "effect.bad_value",
                f"{name} would take {label} past what the dice can answer"
                + (f" ({'; '.join(shifts)})" if shifts else "")
                + ": make its change smaller.",
                "/changes",
            ) from None


def _without(
    ruleset: Ruleset, character: Character, report: Report, ctx, state: dict, ending: list[dict]
) -> dict:
    return state_without_effects(
        ruleset=ruleset, build=character.build, report=report, ctx=ctx, state=state, ending=ending
    )


def character_effect_remove(*, character_id, user, effect_id: str) -> Character:
    """Remove one effect now (its owner or the GM). An unknown id is a 404."""
    with transaction.atomic():
        character = _lock(character_id=character_id, user=user)
        ruleset, report, ctx, state = _rules(character)
        ending = [e for e in fx.active_entries(state) if e.get("id") == effect_id]
        if not ending:
            raise CharacterNotFound("No such effect on this character.")
        character.state = _without(ruleset, character, report, ctx, state, ending)
        character_version_write(
            character=character,
            author=user,
            reason=f"{ending[0]['name']} removed from {character.name}.",
            fields=["state"],
        )
    return character


def characters_effects_end(
    *, character_ids: Iterable[int], ending: Callable[[dict], list[dict]], why: str = ""
) -> list[tuple[Character, list[dict]]]:
    """End, on each of ``character_ids`` (locked in id order), the effects ``ending(state)`` names;
    in the caller's transaction (the encounter's clock). Returns [(character, ended entries)] for
    the characters that had any: the caller says so in its log."""
    out = []
    for character in Character.objects.filter(pk__in=list(character_ids)).order_by("pk").select_for_update():
        state = character.state or {}
        gone = ending(state)
        if not gone:
            continue
        ruleset = character_ruleset(character)
        if ruleset is None:
            continue
        report = character_report(character=character, ruleset=ruleset)
        ctx = report.context or character_context(character=character, ruleset=ruleset)
        character.state = _without(ruleset, character, report, ctx, state, gone)
        sentence = fx.ended_text(gone)
        character_version_write(
            character=character,
            author=None,
            reason=f"{sentence} ({character.name}{', ' + why if why else ''})",
            fields=["state"],
        )
        out.append((character, gone))
    return out


# ------------------------------------------------------------------ effects kept by the campaign


def campaign_effect_save(*, campaign, user, name: str, changes: list[dict]) -> CampaignEffect:
    """Keep a custom effect in the campaign for reuse (a member of the campaign: the GM, or a player
    who made it for their character): ``changes`` as the effect was applied (checked then). A name
    the campaign keeps already is replaced."""
    if campaign_member(campaign, user.pk) is None:
        raise NotPermitted("Only the campaign's members keep effects in it.")
    name = " ".join(str(name).split())[:60]
    if not name or not isinstance(changes, list) or not changes:
        raise EffectRefused("effect.malformed", "A kept effect has a name and what it changes.", "/name")
    with transaction.atomic():
        kept, _ = CampaignEffect.objects.update_or_create(
            campaign=campaign, name=name, defaults={"changes": changes, "created_by": user}
        )
    return kept


def campaign_effect_delete(*, campaign, user, effect_id: Any) -> str:
    """Forget a kept effect (the GM only). Returns its name; one the campaign does not keep is a 400."""
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the GM deletes the campaign's kept effects.")
    with transaction.atomic():
        kept = CampaignEffect.objects.filter(
            campaign=campaign, pk=effect_id if is_int(effect_id) else 0
        ).first()
        if kept is None:
            raise EffectRefused(
                "effect.gone", "The campaign keeps no such effect (deleted already?).", "/effect"
            )
        kept.delete()
    return kept.name
