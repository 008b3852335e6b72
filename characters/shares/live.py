"""The share links' sockets: a revoked link's open sheets are closed once the revocation commits
(the link's group, ``share_group``); they hear of the character's changes from its sheet group
(characters/sheet/live.py), as members' sheets do. A broken channel layer is logged, never raised."""

from __future__ import annotations

import logging

from django.db import transaction

from config.publish import group_send

logger = logging.getLogger(__name__)

REVOKED = "share.revoked"


def share_group(token: str) -> str:
    return f"share-{token}"


def share_revoked(token: str) -> None:
    """Call inside the revoking transaction: once it commits, the link's open sockets close."""
    transaction.on_commit(lambda: send_revoked(token))


def send_revoked(token: str) -> None:
    try:
        group_send((share_group(token), {"type": REVOKED}))
    except Exception:
        logger.exception("closing the sockets of a revoked share link failed")
