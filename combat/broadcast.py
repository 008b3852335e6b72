"""Live updates: after a change of an encounter commits, its board goes to every open page.

The shared parts of the page (status, turn order, combatant rows, log) are rendered once
per change, server-side, and sent to the encounter's channels group; each page's
websocket (combat/consumers.py) passes the HTML on and the htmx ws extension swaps the
parts by id (out of band). What differs per person — the actions panel: a player sees
buttons only for their own combatants — is not broadcast: the fragment carries a
``hx-trigger="load"`` link that makes each page fetch its own panel.

Channel layer: in memory by default (one process), Redis when REDIS_URL is set.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

LIVE_TEMPLATE = "combat/encounter_detail.html#encounter-live"


def group_name(encounter_id: int) -> str:
    return f"encounter-{encounter_id}"


def render_live(board: dict) -> str:
    """The shared parts of the page, each with ``hx-swap-oob`` (also used by htmx POST replies)."""
    return render_to_string(LIVE_TEMPLATE, {"board": board, "oob": True})


def encounter_changed(fight) -> None:
    """Call inside the service's transaction: broadcasts once it commits (never if it rolls back)."""
    transaction.on_commit(lambda: send_board(fight))


def send_board(fight) -> None:
    """Render the board of ``fight`` (already loaded by the service: no reload of the fighters)
    and send it to the encounter's group. A broken channel layer is logged, never raised: the
    change is committed and the pages catch up on their next load."""
    from combat.selectors import encounter_board

    try:
        layer = get_channel_layer()
        if layer is None:
            return
        board = encounter_board(fight=fight)
        message = {"type": "encounter.update", "html": render_live(board), "version": board["version"]}
        async_to_sync(layer.group_send)(group_name(fight.encounter.pk), message)
    except Exception:
        logger.exception("broadcast of encounter %s failed", fight.encounter.pk)
