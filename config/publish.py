"""Live updates sent from synchronous code (a view, a service once its transaction commits, a
management command): ``group_send((group, message), ...)``.

``async_to_sync(layer.group_send)`` from a thread with no event loop (every request of gunicorn's
sync workers) makes a new event loop in a new thread for each call, and Redis's pub/sub layer
(channels_redis keeps one connection set per event loop) a new connection to Redis for each loop:
5.9 ms and 5.6 ms of CPU per update (bench/bench_publish.py), and the thread and the loop were torn
down while the next request of the process ran (the sheet drawn after a play change took ~3 ms
longer for it). On Redis, the messages go through one event loop per process instead, kept in a
daemon thread with its one connection: 0.5 ms per update.

Any other layer (the in-memory one of ``make run`` and of the tests) keeps ``async_to_sync``: its
queues belong to the server's own event loop, which ``async_to_sync`` uses when there is one.

A send whose connection Redis closed (Redis restarted since the process last sent) is tried once
more: the kept connection is the closed one, and its first command fails while the next opens a new
one; without it each web process lost its first live update after every Redis restart. A message
sent twice is harmless (pages compare versions), one lost is a page left behind.

What the layer raises is raised here (a timeout after ``TIMEOUT_S`` as ``TimeoutError``): each
caller logs it, never fails the change it tells of."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError

#: The longest a sender waits for Redis to take its messages (a connection refused fails at once).
TIMEOUT_S = 5.0


class _Loop:
    """One event loop in a daemon thread, made in the process that uses it (a forked worker makes
    its own: threads do not survive a fork)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, name="channel-layer-publisher", daemon=True).start()

    def run(self, coroutine: Any) -> None:
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            future.result(timeout=TIMEOUT_S)
        except TimeoutError:
            future.cancel()
            raise


_loop: _Loop | None = None
_lock = threading.Lock()


def _publisher() -> _Loop:
    global _loop
    with _lock:
        if _loop is None or _loop.pid != os.getpid():
            _loop = _Loop()
        return _loop


def _keeps_one_loop(layer: Any) -> bool:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    return isinstance(layer, RedisPubSubChannelLayer)


def group_send(*messages: tuple[str, dict[str, Any]]) -> None:
    """Send each ``(group, message)`` to the channel layer, in order (nothing without a layer)."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send() -> None:
        for group, message in messages:
            try:
                await layer.group_send(group, message)
            except RedisConnectionError:  # the connection Redis closed: once more, on a new one
                await layer.group_send(group, message)

    if _keeps_one_loop(layer):
        _publisher().run(send())
    else:
        async_to_sync(send)()
