"""Live sockets follow their user's rights: one rule for every campaign channel.

A websocket is authorised once, at connect. To make what it receives follow the rights of the
person behind it, every socket also joins a **per-user group** (``user_group``); whenever
something may have taken access away, a ``live.access`` message goes to that group and every
socket of the user concerned closes with ``CLOSE_RECHECK`` (4001):

- the user leaves a campaign or is removed from it (any delete of their ``Membership``: the
  services, the admin, a campaign deleted) → the sockets of *that campaign*;
- the user logs out, or their password changes → *all* their sockets (a password change ends
  every other session; a logout ends the one it was sent from).

We close rather than re-check in the socket: the rights check then lives in one place, the
consumer's ``connect()``. The page reconnects at once after a 4001 (static/js/encounter.js) and
``connect()`` decides with the session as it is now: still a member, still signed in (the
session's password hash still matches) → the stream goes on after a catch-up of the board;
otherwise the handshake is refused and the page stops trying (it asks the server over HTTP
whether the encounter is still visible, and shows that it is not). A membership version checked
on every send would cost a query per message per socket; these events are rare.

A consumer opts in with ``AccessFollowingMixin``: call ``follow_access(user, campaign_id)`` in
``connect()`` before accepting. The encounter socket (combat/consumers.py) does; the table's roll
feed (a campaign-wide channel) is to do the same.

Messages are sent once the transaction that took access away commits (``transaction.on_commit``),
so a rolled-back removal closes nothing. A broken channel layer is logged, never raised.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.db import transaction

from config.publish import group_send

logger = logging.getLogger(__name__)

#: Close code: "your access may have changed, reconnect to find out" (the page reconnects once).
CLOSE_RECHECK = 4001
MESSAGE_TYPE = "live.access"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def close_user_sockets(*, user_id: int, campaign_id: int | None = None) -> None:
    """After the current transaction commits: close the user's sockets on ``campaign_id``
    (every one of their sockets when None)."""
    transaction.on_commit(lambda: send_close(user_id=user_id, campaign_id=campaign_id))


def send_close(*, user_id: int, campaign_id: int | None = None) -> None:
    try:
        group_send((user_group(user_id), {"type": MESSAGE_TYPE, "campaign": campaign_id}))
    except Exception:
        logger.exception("closing the sockets of user %s failed", user_id)


if TYPE_CHECKING:
    from channels.generic.websocket import AsyncWebsocketConsumer as _ConsumerBase  # what it is mixed into
else:
    _ConsumerBase = object


class AccessFollowingMixin(_ConsumerBase):
    """For an ``AsyncWebsocketConsumer`` on one campaign's channel (see the module docstring)."""

    access_group: str | None = None
    access_campaign: int | None = None

    async def follow_access(self, user, campaign_id: int) -> None:
        self.access_campaign = campaign_id
        self.access_group = user_group(user.pk)
        await self.channel_layer.group_add(self.access_group, self.channel_name)

    async def unfollow_access(self) -> None:
        if self.access_group:
            await self.channel_layer.group_discard(self.access_group, self.channel_name)
            self.access_group = None

    async def live_access(self, event):
        campaign = event.get("campaign")
        if campaign is None or campaign == self.access_campaign:
            await self.unfollow_access()
            await self.close(code=CLOSE_RECHECK)
