"""Live updates: after a change of an encounter commits, what changed goes to every open page.

The change is rendered once, server-side, and sent to the encounter's channels group; each
page's websocket (combat/consumers.py) passes the HTML on and the htmx ws extension swaps the
parts by id (out of band). Only what changed is rendered: the status line (it carries the
encounter's version), the rows of the combatants whose row differs (or the whole turn order
when combatants came or went, or the order changed) and the new log lines, added on top of
the page's log. What differs per person — the actions panel: a player sees buttons only for
their own combatants — is not broadcast: the fragment carries a ``hx-trigger="load"`` link
that makes each page fetch its own panel, once.

A page that missed a message (a dropped websocket, or a message out of order) sees that the
version does not follow its own and fetches the whole board (``board/``): see the script of
encounter_detail.html.

Channel layer: in memory by default (one process), Redis when REDIS_URL is set.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string

from combat.selectors import encounter_board, row_signature

logger = logging.getLogger(__name__)

LIVE_TEMPLATE = "combat/encounter_detail.html#encounter-live"
UPDATE_TEMPLATE = "combat/encounter_detail.html#encounter-update"


def group_name(encounter_id: int) -> str:
    return f"encounter-{encounter_id}"


def render_live(board: dict, *, refresh: bool = True) -> str:
    """The shared parts of the page, each with ``hx-swap-oob`` (also used by htmx POST replies).
    ``refresh``: with the link that makes the page fetch its panel (not when the panel is sent too)."""
    return render_to_string(LIVE_TEMPLATE, {"board": board, "oob": True, "refresh": refresh})


def render_update(board: dict, *, rows_before: dict[int, str] | None, new_log: list[dict]) -> str:
    """What changed since ``rows_before`` (the rows' signatures before the change; None: send
    the whole turn order), with the new log lines (newest first)."""
    rows = None
    if rows_before is not None:
        rows = [r for r in board["combatants"] if row_signature(r) != rows_before.get(r["id"])]
    return render_to_string(UPDATE_TEMPLATE, {"board": board, "rows": rows, "new_log": new_log, "oob": True})


def encounter_changed(
    fight, *, rows_before: dict[int, str] | None = None, new_log: list[dict] | None = None
) -> None:
    """Call inside the service's transaction: broadcasts once it commits (never if it rolls back)."""
    transaction.on_commit(lambda: send_update(fight, rows_before=rows_before, new_log=new_log or []))


def send_update(fight, *, rows_before: dict[int, str] | None, new_log: list[dict]) -> None:
    """Render what changed in ``fight`` (already loaded by the service: no reload, no query) and
    send it to the encounter's group. A broken channel layer is logged, never raised: the change
    is committed and the pages catch up on their next load or reconnect."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        board = encounter_board(fight=fight, log_limit=0)
        html = render_update(board, rows_before=rows_before, new_log=new_log)
        message = {"type": "encounter.update", "html": html, "version": board["version"]}
        async_to_sync(layer.group_send)(group_name(fight.encounter.pk), message)
    except Exception:
        logger.exception("broadcast of encounter %s failed", fight.encounter.pk)
