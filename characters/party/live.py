"""The party page follows its characters live (characters/templates/characters/party/party.html,
static/js/party_live.js).

Whatever changes a character of a campaign (its play state, its build, its status: every change
goes through the one version writer, characters/versions.py, whose ``sheet_changed`` calls
``send_party_changed`` once the change commits), and whatever changes what the party page shows
of it without a new version (an award in the ledger, an advancement request made, withdrawn or
rejected: ``party_changed``), the campaign's GM group (characters/table/feed.py ``gm_group``,
joined by the GM's sockets of characters/table/consumers.py ``TableFeedConsumer``) hears a small
message, the same for every page: ``{"character": id, "version": n}`` (JSON, type
``party.changed``). The page fetches that character's card over HTTP (``views.party_card``, the
same access check as the page) and swaps it in. A player never joins the GM group.

A broken channel layer is logged, never raised: the change is committed and the page catches up
on its next (re)connect.
"""

from __future__ import annotations

import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from characters.table.feed import gm_group

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "party.changed"


def message(*, character_id: int, version: int) -> dict:
    return {"type": MESSAGE_TYPE, "text": json.dumps({"character": character_id, "version": version})}


def party_changed(character) -> None:
    """Call inside the writer's transaction when something the party page shows of ``character``
    changed without a new version of it (the ledger, its requests): the GM's open party pages
    fetch its card once the transaction commits."""
    pk, version, campaign_id = character.pk, character.version, character.campaign_id
    transaction.on_commit(
        lambda: send_party_changed(campaign_id=campaign_id, character_id=pk, version=version)
    )


def send_party_changed(*, campaign_id: int | None, character_id: int, version: int) -> None:
    if campaign_id is None:
        return
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        async_to_sync(layer.group_send)(
            gm_group(campaign_id), message(character_id=character_id, version=version)
        )
    except Exception:
        logger.exception("telling the party page of character %s failed", character_id)
