"""Live updates stay within their Redis database (config/layers.py). Redis's pub/sub ignores the
database number: before, a site (or a test worker, a second stack) on database 14 woke the pages of
one on database 15 with its own "encounter 3 is at version 7" (both have an encounter 3)."""

from __future__ import annotations

import asyncio
import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from asgiref.sync import async_to_sync

from config.layers import redis_channel_layer
from tests.live_layers import _redis_up

REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


def _on_database(url: str, database: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


def _layer(url: str):
    from channels_redis.pubsub import RedisPubSubChannelLayer

    config = redis_channel_layer(url)
    assert config["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    return RedisPubSubChannelLayer(**config["CONFIG"])


def test_each_database_number_names_its_own_channels():
    assert redis_channel_layer("redis://cache:6379/3")["CONFIG"] == {
        "hosts": ["redis://cache:6379/3"],
        "prefix": "sheetforge.db3.",
    }
    assert redis_channel_layer("redis://cache:6379")["CONFIG"]["prefix"] == "sheetforge.db0."


def test_a_page_hears_its_own_databases_update_and_not_another_sites():
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    mine = int(urlsplit(REDIS_TEST_URL).path.strip("/") or 0)
    theirs = _on_database(REDIS_TEST_URL, (mine + 1) % 16)
    group = f"encounter-{uuid.uuid4().hex[:8]}"  # the same group name on both sites

    async def first_heard() -> dict:
        page, other_site, this_site = _layer(REDIS_TEST_URL), _layer(theirs), _layer(REDIS_TEST_URL)
        try:
            channel = await page.new_channel()
            await page.group_add(group, channel)
            # The other site publishes first; this site's own update follows it through Redis.
            await other_site.group_send(group, {"type": "encounter.update", "text": "theirs"})
            await this_site.group_send(group, {"type": "encounter.update", "text": "mine"})
            return await asyncio.wait_for(page.receive(channel), timeout=10)
        finally:
            for layer in (page, other_site, this_site):
                await layer.flush()

    assert async_to_sync(first_heard)()["text"] == "mine"
