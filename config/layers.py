"""The channel layer of a Redis URL (config/settings.py; the tests that start their own servers
build theirs here too, so they publish where the servers listen)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def redis_channel_layer(url: str) -> dict[str, Any]:
    """Redis pub/sub (a broadcast is published once and each websocket process hands it to its own
    clients), its channels named after the URL's database: Redis's pub/sub ignores the database
    number (a message published from database 14 reaches a subscriber on database 15), so two
    sites on one Redis server, each on its own database (or two test workers, two stacks of one
    machine), heard each other's live updates: a page of one woke for another's "encounter 3 is at
    version 7". Each database number now names its own channels."""
    database = urlsplit(url).path.strip("/") or "0"
    return {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [url], "prefix": f"sheetforge.db{database}."},
    }
