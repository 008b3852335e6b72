"""Live sheets: after a change of a character commits, every open sheet of it hears of it.

The one writer of character versions (characters/versions.py) calls ``sheet_changed``
inside its transaction, so every door that changes a character (the sheet, the API's PATCH, an
encounter's action, an advancement's approval, a GM's spend) reaches the open sheets; nothing is
sent when the transaction rolls back.

What is sent is small and the same for everybody: ``{"character", "version", "build"}`` (JSON).
What a sheet shows differs per person (the GM's private-roll toggle, a player's last picks), so
each page asks for its own blocks over HTTP (``views_sheet.character_sheet_live``) with the
version it shows, exactly as the encounter page fetches its own action panel; that request meets
the same access check as the page. The sheet's script (static/js/sheet_live.js) redraws the
blocks without taking the focus or the typed text from the person.

The socket (characters/table/consumers.py ``SheetConsumer``) follows its user's rights like every
campaign channel (characters/table/live.py). A broken channel layer is logged, never raised: the change
is committed and the page catches up on its next (re)connect.
"""

from __future__ import annotations

import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "sheet.changed"


def sheet_group(character_id: int) -> str:
    return f"sheet-{character_id}"


def sheet_changed(character, *, build: bool = False) -> None:
    """Call inside the writer's transaction: once it commits, the open sheets of ``character``
    hear that it is at its current version (``build``: its build changed too)."""
    pk, version = character.pk, character.version
    transaction.on_commit(lambda: send_changed(character_id=pk, version=version, build=build))


def message(*, character_id: int, version: int, build: bool) -> str:
    return json.dumps({"character": character_id, "version": version, "build": build})


def send_changed(*, character_id: int, version: int, build: bool = False) -> None:
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        text = message(character_id=character_id, version=version, build=build)
        async_to_sync(layer.group_send)(sheet_group(character_id), {"type": MESSAGE_TYPE, "text": text})
    except Exception:
        logger.exception("telling the open sheets of character %s failed", character_id)
