"""The party page follows its characters live (characters/templates/characters/party/party.html,
static/js/party_live.js).

Whatever changes a character of a campaign (its play state, its build, its status: every change
goes through the one version writer, characters/versions.py, whose ``sheet_changed`` calls
``send_party_changed`` once the change commits), and whatever changes what the party page shows
of it without a new version (an award in the ledger, an advancement request made, withdrawn or
rejected, a new round of an encounter it fights in — "2 rounds left": ``party_changed``), the campaign's GM group (characters/table/feed.py ``gm_group``,
joined by the GM's sockets of characters/table/consumers.py ``TableFeedConsumer``) hears a small
message, the same for every page: ``{"character": id, "version": n, "party": {id: version, …}}``
(JSON, type ``party.changed``; ``party``: the version of every character of the campaign). The
page fetches that character's card over HTTP (``views.party_card``, the same access check as the
page) and swaps it in, and the card of any other character the page shows older than ``party``
says (a message it missed). A player never joins the GM group.

A broken channel layer is logged, never raised: the change is committed and the page catches up
on its next (re)connect.
"""

from __future__ import annotations

import json
import logging

from channels.layers import get_channel_layer
from django.db import transaction

from characters.models import Character
from characters.table.feed import gm_group
from config.publish import group_send

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "party.changed"


def party_versions(campaign_id: int | None) -> dict[str, int]:
    """The version of every character of the campaign, by id (one small query): each party message
    carries them all, so a page that missed a message sees which of its cards are behind at the
    next one it hears, whichever character that one is about."""
    if campaign_id is None:
        return {}
    rows = Character.objects.filter(campaign_id=campaign_id).values_list("id", "version")
    return {str(pk): version for pk, version in rows}


def message(*, character_id: int, version: int, party: dict[str, int] | None = None) -> dict:
    body: dict = {"character": character_id, "version": version}
    if party is not None:
        body["party"] = party
    return {"type": MESSAGE_TYPE, "text": json.dumps(body)}


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
        text = message(character_id=character_id, version=version, party=party_versions(campaign_id))
        group_send((gm_group(campaign_id), text))
    except Exception:
        logger.exception("telling the party page of character %s failed", character_id)
