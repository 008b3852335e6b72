"""The table's roll feed websocket: ws/campaigns/<id>/rolls/ (characters/table/feed.py), and a
character sheet's: ws/characters/<id>/sheet/ (characters/sheet/live.py, ``SheetConsumer`` below).

Anonymous: closed with 4403; not a member of the campaign (or no such campaign): 4404, before the
handshake completes. Members join the campaign's group; the GM also joins the GM group, where
private rolls go, and where the party page hears that a character changed (characters/party/live.py). The socket follows its user's rights after connect (characters/table/live.py): being
removed, leaving, logging out or a password change closes it with 4001, and the page's reconnect
meets the same checks as here.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from characters.campaigns.selectors import CampaignNotFound, campaign_for_user
from characters.selectors import CharacterNotFound, character_for_user
from characters.sheet.live import sheet_group
from characters.table.feed import gm_group, table_group
from characters.table.live import AccessFollowingMixin

CLOSE_ANONYMOUS = 4403
CLOSE_NOT_FOUND = 4404


class TableFeedConsumer(AccessFollowingMixin, AsyncWebsocketConsumer):
    groups_joined: list[str]

    async def connect(self):
        self.groups_joined = []
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        campaign_id = self.scope["url_route"]["kwargs"]["campaign_id"]
        seat = await database_sync_to_async(_seat_of)(user, campaign_id)
        if seat is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        pk, is_gm = seat
        await self.follow_access(user, pk)
        self.groups_joined = [table_group(pk)] + ([gm_group(pk)] if is_gm else [])
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.unfollow_access()
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing that matters: rolls go through the HTTP endpoints."""

    async def table_roll(self, event):
        await self.send(text_data=event["html"])

    async def party_changed(self, event):
        """A character of the campaign changed (characters/party/live.py): the GM's sockets only
        (the GM group); the party page fetches its card, other pages let the JSON pass."""
        await self.send(text_data=event["text"])


def _seat_of(user, campaign_id) -> tuple[int, bool] | None:
    """(campaign id, whether ``user`` is its GM) when ``user`` is a member, else None."""
    try:
        campaign = campaign_for_user(user, campaign_id)
    except CampaignNotFound:
        return None
    return campaign.pk, campaign.gm_id == user.pk


class SheetConsumer(AccessFollowingMixin, AsyncWebsocketConsumer):
    """A character sheet's websocket: ws/characters/<id>/sheet/ (characters/sheet/live.py).

    The people who may see the sheet (its owner while a member of the campaign, the campaign's
    GM: ``character_for_user``) join the character's group and hear of every change of it;
    anyone else is refused before the handshake completes: anonymous 4403, anyone who may not
    see it (or no such character) 4404. After connect the socket follows its user's rights on
    the campaign (characters/table/live.py): a removed member's socket closes with 4001 and their
    reconnect is refused.
    """

    group: str | None = None

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        character_id = self.scope["url_route"]["kwargs"]["character_id"]
        found = await database_sync_to_async(_sheet_of)(user, character_id)
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        pk, campaign_id = found
        await self.follow_access(user, campaign_id)
        self.group = sheet_group(pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.unfollow_access()
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data=None, bytes_data=None):
        """The page sends nothing that matters: changes go through the HTTP endpoints."""

    async def sheet_changed(self, event):
        await self.send(text_data=event["text"])


def _sheet_of(user, character_id) -> tuple[int, int] | None:
    """(character id, campaign id) when ``user`` may see the character's sheet, else None."""
    try:
        character = character_for_user(user=user, character_id=character_id)
    except CharacterNotFound:
        return None
    return character.pk, character.campaign_id
