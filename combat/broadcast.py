"""Live updates: after a change of an encounter commits, every open page hears which version the
encounter is at, and fetches what it shows.

The one way every live page of Sheetforge learns of a change (README, "Live pages"): the socket
carries a small JSON notice, the same for everybody, ``{"encounter": id, "version": n}``; a page
that shows an older version fetches over HTTP what it shows (``views.encounter_board``: the shared
parts — status, turn order, log — and this viewer's own actions panel, in one answer, each part
carrying the version it describes). Nothing per person goes through the channel layer, and the
fetch meets the same access check as the page. A page that misses a notice, reconnects or is shown
again fetches the same way; an answer older than what the page shows is never drawn
(static/js/encounter.js).

Channel layer: in memory by default (one process), Redis when REDIS_URL is set.
"""

from __future__ import annotations

import json
import logging

from django.db import transaction
from django.template.loader import render_to_string

from config.publish import group_send

logger = logging.getLogger(__name__)

LIVE_TEMPLATE = "combat/encounter_detail.html#encounter-live"
MESSAGE_TYPE = "encounter.update"


def group_name(encounter_id: int) -> str:
    return f"encounter-{encounter_id}"


def render_live(board: dict) -> str:
    """The shared parts of the page (status, turn order, log), each with ``hx-swap-oob`` and the
    version it describes: what a page fetches after a notice, and what a stale page's refusal shows."""
    return render_to_string(LIVE_TEMPLATE, {"board": board, "oob": True})


def message(*, encounter_id: int, version: int) -> str:
    return json.dumps({"encounter": encounter_id, "version": version})


def encounter_changed(fight) -> None:
    """Call inside the service's transaction, once the encounter's version has moved on: every open
    page hears the new version once it commits (never if it rolls back)."""
    pk, version = fight.encounter.pk, fight.encounter.version
    transaction.on_commit(lambda: send_update(encounter_id=pk, version=version))


def send_update(*, encounter_id: int, version: int) -> None:
    """Tell the encounter's group its version. A broken channel layer is logged, never raised: the
    change is committed and the pages catch up on their next notice, reconnect or look."""
    try:
        text = message(encounter_id=encounter_id, version=version)
        group_send((group_name(encounter_id), {"type": MESSAGE_TYPE, "text": text}))
    except Exception:
        logger.exception("broadcast of encounter %s failed", encounter_id)
