"""The shared sheet's websocket: ws/s/<token>/ (characters/shares/).

Anyone with a link that works joins its character's sheet group (characters/sheet/live.py: it
hears that the character changed, ``{"character", "version", "build"}``, and fetches the shared
sheet's blocks) and the link's own group, where its revocation closes it (4404). A link that does
not work (unknown, revoked, its maker's access gone) is refused before the handshake: 4404. The
socket sends nothing the members' sheet sockets do not, and receives nothing.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from characters.shares.live import share_group
from characters.shares.selectors import ShareNotFound, shared_character
from characters.sheet.live import sheet_group

CLOSE_NOT_FOUND = 4404


def _character_of(token: str) -> int | None:
    try:
        _, character = shared_character(token=token)
    except ShareNotFound:
        return None
    return character.pk


class SharedSheetConsumer(AsyncWebsocketConsumer):
    groups_joined: list[str]

    async def connect(self):
        self.groups_joined = []
        token = self.scope["url_route"]["kwargs"]["token"]
        pk = await database_sync_to_async(_character_of)(token)
        if pk is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.groups_joined = [sheet_group(pk), share_group(token)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def receive(self, text_data=None, bytes_data=None):
        """Read-only: nothing a visitor sends does anything."""

    async def sheet_changed(self, event):
        await self.send(text_data=event["text"])

    async def share_revoked(self, event):
        await self.close(code=CLOSE_NOT_FOUND)
