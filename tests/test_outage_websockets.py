"""What the websockets' guard (config/outage.py ``guard_websockets``) takes for an outage, without
servers: a socket whose consumer meets one is accepted and closed with 1013 ("try again later"),
which the pages' sockets answer by reconnecting; anything else stays the error it is.

Found by tests/test_outages.py's Redis restart (a full run, 2026-12-08): as Redis came back, a
handshake was answered 500, the server logging asyncio's "readuntil() called while another coroutine
is already waiting for incoming data" out of Redis's client, the channel layer's receiver and the
new socket's subscribe reconnecting its one pub/sub connection at once. Here that error is made
for real, two reads of one connection to Redis at once.
"""

from __future__ import annotations

import asyncio
import os

import pytest
import redis.asyncio
import redis.exceptions

from config.outage import CLOSE_TRY_AGAIN, guard_websockets, is_outage

REDIS_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


async def _two_reads_of_one_connection() -> RuntimeError:
    """The RuntimeError Redis's client raises when a second coroutine reads its connection while a
    first waits on it (what the pub/sub layer's receiver and a subscribe did on a reconnect)."""
    client = redis.asyncio.Redis.from_url(REDIS_URL)
    connection = await client.connection_pool.get_connection()
    try:
        first = asyncio.ensure_future(connection.read_response())
        # The first read waits on the socket after one turn of the loop:
        await asyncio.sleep(0)  # deliberate wait: one turn
        try:
            await connection.read_response()
        except RuntimeError as raced:
            return raced
        finally:
            first.cancel()
            await asyncio.gather(first, return_exceptions=True)
        raise AssertionError("a second read of one connection did not raise")
    finally:
        await connection.disconnect()
        await client.aclose()


def _raced() -> RuntimeError:
    try:
        return asyncio.run(_two_reads_of_one_connection())
    except redis.exceptions.ConnectionError as refused:
        pytest.skip(f"Redis does not answer at {REDIS_URL}: {refused}")


def _sent_by_guard(error: BaseException) -> tuple[list[dict], BaseException | None]:
    """What the guarded app sends when its consumer raises ``error`` during the handshake, and what
    the guard raised (None when it handled it)."""
    sent: list[dict] = []

    async def app(scope, receive, send):
        raise error

    async def receive():
        return {"type": "websocket.connect"}

    async def send(message):
        sent.append(message)

    try:
        asyncio.run(guard_websockets(app)({"type": "websocket", "path": "/ws/encounters/1/"}, receive, send))
    except BaseException as raised:
        return sent, raised
    return sent, None


def test_two_reads_of_one_redis_connection_are_an_outage_and_the_socket_is_told_to_try_again():
    raced = _raced()
    assert "another coroutine is already waiting" in str(raced)
    assert is_outage(raced)
    sent, raised = _sent_by_guard(raced)
    assert raised is None
    assert sent == [{"type": "websocket.accept"}, {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}]


def test_a_runtime_error_of_our_own_is_no_outage_and_stays_the_error_it_is():
    ours = RuntimeError("readuntil() called while another coroutine is already waiting for incoming data")
    assert not is_outage(ours)  # the same words, not out of Redis's client: a bug
    sent, raised = _sent_by_guard(ours)
    assert raised is ours
    assert sent == []


def test_redis_refusing_the_connection_is_an_outage_as_before():
    refused = redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    assert is_outage(refused)
    sent, raised = _sent_by_guard(refused)
    assert raised is None
    assert sent[-1] == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN}
