"""Every open page shows the campaign's time as it now is (characters/clock/services.py).

A move of the clock is said once to the GM's party pages (the campaign's GM group) and to the open
sheets of every character in play (each character's sheet group), as ``{"clock": {"day", "hour",
"text"}}``: the page puts the text where it shows the time (static/js/party_live.js,
static/js/sheet_live.js). Nothing of a character changes for it (no version, no stamp: a play change
after a move is not taken for the same session of play). A broken channel layer is logged, never
raised: the clock has moved; a page shows the time on its next draw.
"""

from __future__ import annotations

import json
import logging

from characters.clock.words import clock_text
from characters.party.live import MESSAGE_TYPE as PARTY_MESSAGE
from characters.sheet.live import MESSAGE_TYPE as SHEET_MESSAGE
from characters.sheet.live import sheet_group
from characters.table.feed import gm_group
from config.publish import group_send

logger = logging.getLogger(__name__)


def clock_message(day: int, hour: int) -> str:
    return json.dumps({"clock": {"day": day, "hour": hour, "text": clock_text(day, hour)}})


def send_clock(*, campaign_id: int, day: int, hour: int, character_ids: list[int]) -> None:
    try:
        text = clock_message(day, hour)
        group_send(
            (gm_group(campaign_id), {"type": PARTY_MESSAGE, "text": text}),
            *((sheet_group(pk), {"type": SHEET_MESSAGE, "text": text}) for pk in character_ids),
        )
    except Exception:
        logger.exception("telling the open pages of campaign %s the time failed", campaign_id)
