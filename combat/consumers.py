"""The encounter page's websocket: ws/encounters/<id>/.

The session (AuthMiddlewareStack, config/asgi.py) says who is connecting. Anonymous: closed
with 4403; not a member of the encounter's campaign (or no such encounter): closed with 4404
— before the handshake completes, so nothing leaks. Members join the encounter's group and
hear the encounter's version after every change, and fetch what they show (combat/broadcast.py).

The socket follows its user's rights after connect too (characters/table/live.py): leaving or being
removed from the campaign, logging out or a password change closes it with 4001, and the page's
reconnect meets the same checks as here.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from characters.table.live import AccessFollowingMixin
from combat.broadcast import group_name
from combat.selectors import EncounterNotFound, encounter_for_user

CLOSE_ANONYMOUS = 4403
CLOSE_NOT_FOUND = 4404


class EncounterConsumer(AccessFollowingMixin, AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        encounter_id = self.scope["url_route"]["kwargs"]["encounter_id"]
        campaign_id = await database_sync_to_async(_campaign_of)(user, encounter_id)
        if campaign_id is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.follow_access(user, campaign_id)
        self.group = group_name(int(encounter_id))
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.unfollow_access()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing that matters (htmx may send form values): actions go through
        the HTTP endpoints, which check rights and rules."""

    async def encounter_update(self, event):
        await self.send(text_data=event["text"])


def _campaign_of(user, encounter_id) -> int | None:
    """The encounter's campaign when ``user`` may watch it, else None."""
    try:
        return encounter_for_user(user=user, encounter_id=encounter_id).campaign_id
    except EncounterNotFound:
        return None
