"""Obstacles (RULES.md amendment W2): the GM sets them, EP from anyone's rolls accumulate in them.

"When enough cumulative EP has been spent on overcoming the obstacle it is resolved … The EP can be
accumulated over multiple rolls, but EP used to overcome the obstacle cannot be spent on outcomes."
(seed 000, "Obstacles")

Every write locks the obstacle's row (``select_for_update``): two players putting EP in at once both
count, one after the other. Resolution ends the linked effect of the afflicted character (its
``effect``) in the same transaction; the caller logs the sentence. The spend that puts the EP in is
the ruleset's (its refusal codes); here the product's half: the row, the lock, the clock.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from characters.effects.clock import clock
from characters.effects.services import characters_effects_end
from characters.models import Campaign, Character, Obstacle
from characters.selectors import is_campaign_gm
from config.errors import BadInput, NotPermitted, rule_refused
from rulesets.engine import effects as fx
from rulesets.engine.fields import is_int

MAX_LEVEL = 1000
MAX_ROUNDS = 100
NAME_LENGTH = 120


class ObstacleNotFound(BadInput):
    """No such obstacle for this user (a 404 in the API)."""

    status_code = 404


def _whole(value: Any, field: str, low: int, high: int, *, what: str) -> int:
    if not is_int(value) or not low <= value <= high:
        raise BadInput(f"{what} is a whole number from {low} to {high}.", field=field)
    return value


def _checked(
    campaign: Campaign, data: dict[str, Any], *, partial: bool, obstacle: Obstacle | None = None
) -> dict:
    """The fields of ``data`` checked (400 naming the field otherwise)."""
    out: dict[str, Any] = {}
    if not isinstance(data, dict):
        raise BadInput('An obstacle is an object such as {"name": "Locked door", "level": 5}.', field=None)
    if "name" in data or not partial:
        name = data.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH:
            raise BadInput("Give the obstacle a name of 1 to 120 characters.", field="name")
        out["name"] = " ".join(name.split())
    if "level" in data or not partial:
        out["level"] = _whole(data.get("level"), "level", 1, MAX_LEVEL, what="The level")
    if "secret" in data:
        if not isinstance(data["secret"], bool):
            raise BadInput("secret is true or false.", field="secret")
        out["secret"] = data["secret"]
    if "within_rounds" in data:
        rounds = data["within_rounds"]
        out["within_rounds"] = (
            None if rounds is None else _whole(rounds, "within_rounds", 1, MAX_ROUNDS, what="within_rounds")
        )
    if "ep" in data and partial:
        out["ep"] = _whole(data["ep"], "ep", 0, MAX_LEVEL * 10, what="EP")
    if not partial:
        encounter = data.get("encounter")
        if encounter is not None:
            running = clock()
            if (
                not is_int(encounter)
                or running is None
                or running.encounter_now(campaign_id=campaign.pk, encounter_id=encounter) is None
            ):
                raise BadInput(
                    "encounter is the id of a running encounter of this campaign.", field="encounter"
                )
            out["encounter_id"] = encounter
        who = data.get("character")
        if who is not None:
            character = Character.objects.filter(pk=who, campaign=campaign).first() if is_int(who) else None
            if character is None:
                raise BadInput("character is the id of a character of this campaign.", field="character")
            out["character"] = character
        effect = data.get("effect")
        if effect is not None:
            character = out.get("character")
            entries = fx.active_entries(character.state) if character is not None else []
            if not isinstance(effect, str) or not any(e.get("id") == effect for e in entries):
                raise BadInput("effect is the id of an effect the character has now.", field="effect")
            out["effect"] = effect
    return out


def obstacle_create(*, campaign: Campaign, user, data: dict[str, Any]) -> Obstacle:
    """A new obstacle (the GM's): ``{name, level, secret?, within_rounds?, encounter?, character?,
    effect?}``."""
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the GM sets obstacles.")
    fields = _checked(campaign, data, partial=False)
    return Obstacle.objects.create(campaign=campaign, **fields)


def _locked(*, obstacle_id: Any, campaign_id: int | None = None) -> Obstacle:
    rows = Obstacle.objects.select_for_update().select_related("campaign")
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    found = rows.filter(pk=obstacle_id).first() if is_int(obstacle_id) else None
    if found is None:
        raise ObstacleNotFound("No such obstacle.", field="obstacle")
    return found


def obstacle_update(*, obstacle: Obstacle, user, data: dict[str, Any]) -> Obstacle:
    """Change an obstacle (the GM's): name, level, secret, within_rounds, ep. A level met by its EP
    resolves it (the same as EP put in)."""
    if not is_campaign_gm(user, obstacle.campaign):
        raise NotPermitted("Only the GM changes obstacles.")
    with transaction.atomic():
        row = _locked(obstacle_id=obstacle.pk)
        fields = _checked(row.campaign, data, partial=True, obstacle=row)
        for key, value in fields.items():
            setattr(row, key, value)
        if not row.resolved and row.ep >= row.level:
            _resolve(row)
            row.save()
            obstacle_end_effect(obstacle=row)
        row.save()
    return row


def obstacle_delete(*, obstacle: Obstacle, user) -> None:
    if not is_campaign_gm(user, obstacle.campaign):
        raise NotPermitted("Only the GM removes obstacles.")
    Obstacle.objects.filter(pk=obstacle.pk).delete()


def _resolve(row: Obstacle) -> str:
    """Mark ``row`` resolved (saved by the caller): the sentence. Its linked effect is the caller's to
    end (``obstacle_end_effect``, or an encounter's own step for a character fighting in it)."""
    row.resolved, row.since_round = True, None
    return f"{row.name} is overcome ({row.ep}/{row.level} EP)."


def obstacle_end_effect(*, obstacle: Obstacle) -> str:
    """End the effect a resolved obstacle is linked to (the afflicted character's, e.g. Stunned), in
    the caller's transaction, through the effects' service: " Stunned ends." or ""."""
    if not (obstacle.resolved and obstacle.character_id and obstacle.effect):
        return ""
    ended = characters_effects_end(
        character_ids=[obstacle.character_id],
        ending=lambda state: [e for e in fx.active_entries(state) if e.get("id") == obstacle.effect],
        why=f"{obstacle.name} overcome",
    )
    return " " + fx.ended_text(ended[0][1]) if ended else ""


def obstacle_put_ep(
    *,
    obstacle_id: Any,
    campaign_id: int,
    ep: int,
    who: str,
    refusal: tuple[str, str],
    round_now: tuple[int, int] | None = None,
) -> tuple[Obstacle, str]:
    """Put ``ep`` into an obstacle of the campaign under its row lock (two at once both count):
    (the obstacle, the sentence for the log and the feed). A resolved one refuses with the ruleset's
    ``refusal`` (code, message) and nothing changes. ``round_now``: (encounter id, round) when put in
    during that encounter, where the count of ``within_rounds`` starts."""
    row = _locked(obstacle_id=obstacle_id, campaign_id=campaign_id)
    if row.resolved:
        raise rule_refused(refusal[0], refusal[1].format(name=row.name), path="/obstacle")
    if row.ep == 0 and round_now is not None and row.encounter_id in (None, round_now[0]):
        row.since_round = round_now[1]
    row.ep += ep
    level = "?" if row.secret else str(row.level)
    text = f"{who} puts {ep} EP into {row.name} ({row.ep}/{level})."
    if row.ep >= row.level:
        text = f"{who} puts {ep} EP into {row.name}: " + _resolve(row)
    row.save()
    return row, text


def obstacles_time_out(*, campaign_id: int, encounter_id: int, round_now: int) -> list[str]:
    """The encounter's round moved on: an obstacle whose EP were not enough within its rounds starts
    again from 0 (W2 "with within_rounds, the EP reset when that many rounds pass unmet"). The
    sentences, one per obstacle reset."""
    out = []
    rows = Obstacle.objects.select_for_update().filter(
        campaign_id=campaign_id,
        resolved=False,
        within_rounds__isnull=False,
        ep__gt=0,
        since_round__isnull=False,
    )
    for row in rows.filter(encounter_id__in=[encounter_id]) | rows.filter(encounter_id__isnull=True):
        if (
            row.since_round is not None
            and row.within_rounds
            and round_now - row.since_round >= row.within_rounds
        ):
            out.append(
                f"{row.name}: the EP put in ({row.ep}) run out, not enough within {row.within_rounds} rounds."
            )
            row.ep, row.since_round = 0, None
            row.save(update_fields=["ep", "since_round", "updated"])
    return out
