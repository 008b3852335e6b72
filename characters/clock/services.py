"""The campaign's clock (RULES.md C1): the GM's "Time passes" and "A new day".

``campaign_clock_advance`` moves the clock and lets each character in play feel the time that
passed (the ruleset's ``time_passes``: healing per day and week, Dynama regeneration, the next
rest of the day, willpower every 12 safe hours), one transaction: the campaign row and every
character row locked (in id order), each change a new play version of its character (its sentences
the version's reason: the play log; open sheets and the party page hear of it), each roll the
server made for it a roll of the table's feed with its exact odds. One character whose rules trip
stops no other (logged; it is left as it was).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from characters.campaigns.selectors import campaign_for_user
from characters.clock.live import send_clock
from characters.models import Campaign, Character, RollLog
from characters.sheet.selectors import (
    character_context,
    character_play_state,
    character_report,
    character_ruleset,
)
from characters.table.feed import rolls_logged
from characters.versions import character_version_write
from config.errors import BadInput, NotPermitted
from rulesets.engine.clock import MAX_HOURS, Span, span_to_morning
from rulesets.engine.dice import Roller
from rulesets.engine.errors import OddsError
from rulesets.engine.fields import whole_number

logger = logging.getLogger(__name__)


@dataclass
class ClockMoved:
    """The clock after a move, and what the time did: ``changes`` [{"character", "name", "message"}]."""

    day: int
    hour: int
    changes: list[dict[str, Any]] = field(default_factory=list)


def clock_span(*, campaign: Campaign, hours: Any = None, new_day: Any = None) -> Span:
    """The stretch of time a request asks for: ``hours`` (a whole number, 1 to ``MAX_HOURS``) or
    ``new_day`` true (to the next morning), exactly one. Anything else is ``BadInput`` (400)."""
    if new_day is not None and new_day is not False:
        if new_day is not True or hours is not None:
            raise BadInput(
                'Send either {"hours": n} or {"new_day": true}.',
                errors=[{"field": "new_day", "message": "new_day is true, alone."}],
            )
        return span_to_morning(campaign.clock_day, campaign.clock_hour)
    n = whole_number(hours) if not isinstance(hours, bool) else None
    if n is None or not 1 <= n <= MAX_HOURS:
        raise BadInput(
            f"Say how many hours pass: a whole number from 1 to {MAX_HOURS}, or a new day.",
            errors=[{"field": "hours", "message": f"A whole number from 1 to {MAX_HOURS}."}],
        )
    return Span(campaign.clock_day, campaign.clock_hour, n)


def campaign_clock_advance(
    *, campaign_id: Any, user, hours: Any = None, new_day: Any = None, roller: Roller | None = None
) -> ClockMoved:
    """Move the campaign's clock by ``hours`` or to a new day (the GM only: a player gets
    ``NotPermitted``, anyone else ``CampaignNotFound``) and apply what the time does to every
    character in play. Returns the clock now and the changes, in words."""
    campaign = campaign_for_user(user, campaign_id)
    if not campaign.is_gm(user):
        raise NotPermitted("Only the campaign's GM moves its clock.")
    roller = roller or Roller()
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        span = clock_span(campaign=campaign, hours=hours, new_day=new_day)
        campaign.clock_day, campaign.clock_hour = span.day_to, span.hour_to
        campaign.save(update_fields=["clock_day", "clock_hour"])
        moved = ClockMoved(day=span.day_to, hour=span.hour_to)
        characters = (
            Character.objects.select_for_update()
            .filter(campaign=campaign, status=Character.Status.ACTIVE)
            .select_related("campaign")
            .order_by("pk")
        )
        rolls: list[RollLog] = []
        for character in characters:
            moved.changes.extend(_time_for(character, span=span, user=user, roller=roller, rolls=rolls))
        if rolls:  # every character's rolls in one statement, and one outbox write for them all
            rolls_logged(RollLog.objects.bulk_create(rolls))
        # Every open page shows the new time (characters/clock/live.py), once the move commits.
        day, hour, pks = campaign.clock_day, campaign.clock_hour, [c.pk for c in characters]
        transaction.on_commit(
            lambda: send_clock(campaign_id=campaign.pk, day=day, hour=hour, character_ids=pks)
        )
    return moved


def _time_for(
    character: Character, *, span: Span, user, roller: Roller, rolls: list[RollLog]
) -> list[dict[str, Any]]:
    """What ``span`` did to one locked character: its new play version, in words; the rolls the
    server made for it are added to ``rolls`` (unsaved: the caller saves them all at once)."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return []
    report = character_report(character=character, ruleset=ruleset)
    if not report.valid:
        return []
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    try:
        passage = ruleset.clock_passes(state, character.build, report, span=span, roller=roller, ctx=ctx)
    except Exception:  # a ruleset bug: this character is left as it was, the others go on
        logger.exception("time_passes of %s failed for character %s", ruleset.slug, character.pk)
        return []
    if passage.state != state:
        character.state = passage.state
        reason = " ".join(passage.messages) or f"{span.hours} hours pass."
        character_version_write(character=character, author=user, reason=reason, fields=["state"])
    for roll in passage.rolls:
        try:
            odds = ruleset.odds(roll["request"], ctx=ctx)
        except OddsError:  # the roll stands; its odds are only shown when they can be worked out
            odds = {}
        rolls.append(
            RollLog(
                campaign_id=character.campaign_id,
                character=character,
                user=user,
                label=str(roll.get("label") or "Roll")[:120],
                request=roll["request"],
                result={**roll["result"], "odds": odds, "rollable": "clock"},
            )
        )
    return [{"character": character.pk, "name": character.name, "message": m} for m in passage.messages]
