"""Live sheets: after a change of a character commits, every open sheet of it hears of it.

The one writer of character versions (characters/versions.py) calls ``sheet_changed``
inside its transaction, so every door that changes a character (the sheet, the API's PATCH, an
encounter's action, an advancement's approval, a GM's spend) reaches the open sheets; nothing is
sent when the transaction rolls back.

What is sent is small and the same for everybody: ``{"character", "version", "stamp", "build"}``
(JSON; ``stamp``: ``Character.live_stamp``, when the row last changed: an award changes the budget
and the stamp, not the version). The one way of every live page (README, "Live pages").
What a sheet shows differs per person (the GM's private-roll toggle, a player's last picks), so
each page asks for its own blocks over HTTP (``views_sheet.character_sheet_live``) with the
version it shows, exactly as the encounter page fetches its own action panel; that request meets
the same access check as the page. The sheet's script (static/js/sheet_live.js) redraws the
blocks without taking the focus or the typed text from the person.

The same commit tells the campaign's GM group that the character changed
(characters/party/live.py): the GM's open party page fetches that character's card. Both go out
in one call to the channel layer.

The socket (characters/table/consumers.py ``SheetConsumer``) follows its user's rights like every
campaign channel (characters/table/live.py). A broken channel layer is logged, never raised: the change
is committed and the page catches up on its next (re)connect.
"""

from __future__ import annotations

import json
import logging

from channels.layers import get_channel_layer
from django.db import transaction

from characters.party.live import message as party_message
from characters.party.live import party_versions
from characters.table.feed import gm_group
from config.publish import group_send

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "sheet.changed"


def sheet_group(character_id: int) -> str:
    return f"sheet-{character_id}"


def sheet_changed(character, *, build: bool = False, party: bool = True) -> None:
    """Call inside the writer's transaction: once it commits, the open sheets of ``character``
    hear that it is at its current version and stamp (``build``: its build changed too), and so
    do the open party pages of its campaign (unless ``party`` is False: the caller tells them)."""
    pk, version, stamp = character.pk, character.version, character.live_stamp
    campaign_id = character.campaign_id if party else None
    transaction.on_commit(
        lambda: send_changed(
            character_id=pk, version=version, build=build, campaign_id=campaign_id, stamp=stamp
        )
    )


def message(*, character_id: int, version: int, build: bool, stamp: int = 0) -> str:
    """The sheet's live message: the version and the stamp (``Character.live_stamp``) the character
    is at. A page showing an older version, or the same version with an older stamp (an award
    changed the budget, not the version), fetches its blocks."""
    return json.dumps({"character": character_id, "version": version, "stamp": stamp, "build": build})


def send_changed(
    *,
    character_id: int,
    version: int,
    build: bool = False,
    campaign_id: int | None = None,
    stamp: int = 0,
) -> None:
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        text = message(character_id=character_id, version=version, build=build, stamp=stamp)
        to_party = None
        if campaign_id is not None:  # every character's version: a party page sees what it missed
            to_party = party_message(
                character_id=character_id, version=version, party=party_versions(campaign_id)
            )

        messages = [(sheet_group(character_id), {"type": MESSAGE_TYPE, "text": text})]
        if campaign_id is not None and to_party is not None:
            messages.append((gm_group(campaign_id), to_party))
        group_send(*messages)
    except Exception:
        logger.exception("telling the open sheets of character %s failed", character_id)
