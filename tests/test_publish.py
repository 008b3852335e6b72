"""Live updates sent from synchronous code on Redis's pub/sub layer (config/publish.py): through one
event loop per process with its one connection, in order, failing in time while Redis is stopped
and arriving again once it is back. Before, each update made an event loop in a new thread and a
new connection to Redis (5.9 ms a send; bench/bench_publish.py)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
import uuid

import pytest

from config import publish
from config.layers import redis_channel_layer
from tests.live_layers import _redis_up
from tests.test_outages import own_redis  # noqa: F401 (a redis-server of the test's own)

REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


def _pubsub(settings, url: str) -> dict:
    """Point the site's channel layer at ``url`` (pub/sub, as production) under a prefix of its own."""
    config = redis_channel_layer(url)
    config["CONFIG"]["prefix"] = f"sf-publish-{uuid.uuid4().hex[:8]}."
    settings.CHANNEL_LAYERS = {"default": config}
    return config


def _heard(config: dict, group: str, send, count: int) -> list[dict]:
    """What a page subscribed to ``group`` (its own layer and event loop, as a websocket process)
    hears while ``send()`` runs in a thread of its own (a request of a sync worker)."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    async def listen() -> list[dict]:
        page = RedisPubSubChannelLayer(**config["CONFIG"])
        try:
            channel = await page.new_channel()
            await page.group_add(group, channel)
            await asyncio.to_thread(send)
            return [await asyncio.wait_for(page.receive(channel), timeout=10) for _ in range(count)]
        finally:
            await page.flush()

    return asyncio.run(listen())


def _publishers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "channel-layer-publisher"]


def test_updates_from_sync_code_arrive_in_order_through_one_loop_per_process(settings):
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    config = _pubsub(settings, REDIS_TEST_URL)
    group = f"sheet-{uuid.uuid4().hex[:8]}"
    sent = [{"type": "sheet.changed", "text": f"version {n}"} for n in range(1, 21)]

    def send() -> None:
        for message in sent[:10]:
            publish.group_send((group, message))
        publish.group_send(*((group, message) for message in sent[10:]))  # several in one call

    before = {t.ident for t in threading.enumerate()}
    assert _heard(config, group, send, len(sent)) == sent
    assert len(_publishers()) == 1
    # Nothing else was left running: before, each send left a thread with its own event loop.
    others = [
        t.name for t in threading.enumerate() if t.ident not in before and t.name != "channel-layer-publisher"
    ]
    assert others == []


def test_a_stopped_redis_fails_the_send_in_time_and_a_send_once_it_is_back_arrives(
    settings,
    own_redis,  # noqa: F811
):
    url, start, stop = own_redis
    config = _pubsub(settings, url)
    group = f"encounter-{uuid.uuid4().hex[:8]}"
    first = {"type": "encounter.update", "text": "before"}
    assert _heard(config, group, lambda: publish.group_send((group, first)), 1) == [first]

    stop()
    began = time.monotonic()
    with pytest.raises(Exception) as refused:  # what the layer raises: each caller logs it
        publish.group_send((group, {"type": "encounter.update", "text": "lost"}))
    assert time.monotonic() - began < publish.TIMEOUT_S
    assert "onnect" in f"{type(refused.value).__name__} {refused.value}"

    start()
    back = {"type": "encounter.update", "text": "after"}
    assert _heard(config, group, lambda: publish.group_send((group, back)), 1) == [back]


def test_the_first_update_after_redis_restarted_arrives(
    settings,
    own_redis,  # noqa: F811
):
    """Redis restarted between two changes, with no change meanwhile: the publisher's connection is
    the one Redis closed, and the first send on it failed ("Connection closed by server"). Each web
    process lost its first live update after every Redis restart (found walking ``make serve``: a
    player's change did not reach their other tab; the next one did). A send whose connection Redis
    closed is tried once more, on a new one."""
    url, start, stop = own_redis
    config = _pubsub(settings, url)
    group = f"sheet-{uuid.uuid4().hex[:8]}"
    first = {"type": "sheet.changed", "version": 3}
    assert _heard(config, group, lambda: publish.group_send((group, first)), 1) == [first]
    stop()
    start()
    after = {"type": "sheet.changed", "version": 4}
    assert _heard(config, group, lambda: publish.group_send((group, after)), 1) == [after]


def test_a_sheet_change_on_the_pubsub_layer_is_heard_by_the_sheets_group(settings):
    """The sheet's sender (characters/sheet/live.py) through it: what an open sheet hears."""
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    import json

    from characters.sheet.live import MESSAGE_TYPE, send_changed, sheet_group

    config = _pubsub(settings, REDIS_TEST_URL)
    character_id = 900_000 + int(uuid.uuid4().int % 99_999)
    heard = _heard(
        config,
        sheet_group(character_id),
        lambda: send_changed(character_id=character_id, version=7, stamp=11),
        1,
    )
    assert heard[0]["type"] == MESSAGE_TYPE
    assert json.loads(heard[0]["text"]) == {
        "character": character_id,
        "version": 7,
        "stamp": 11,
        "build": False,
    }
