"""The live-update fixture of every websocket test (combat and the table feed): once on the
in-memory channel layer and once on Redis when it answers at REDIS_TEST_URL."""

from __future__ import annotations

import os
import uuid

import pytest

REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")


def _redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings):
    if request.param == "redis":
        if not _redis_up():
            pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [REDIS_TEST_URL], "prefix": f"sf-test-{uuid.uuid4().hex[:8]}"},
            }
        }
    else:
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    return request.param
