"""The Redis cache, made to degrade rather than fail when Redis is away (settings ``CACHES``).

Django's ``RedisCache`` raises on a connection error, and the session middleware reads the session
through the cache (``cached_db``), so a Redis outage answered every signed-in page with a 500.
``ForgivingRedisCache`` is that backend with three changes:

- One ``redis.Redis`` client per connection pool, not one per operation (``_ClientPerPool``).
- Short socket timeouts (``OPTIONS``, set in settings): a dead or unreachable Redis costs
  milliseconds, not the operating system's TCP timeout.
- A failed operation counts as a miss (``get`` gives the default, ``add`` and ``delete`` False,
  ``incr`` a ValueError as for a missing key, a write does nothing) and opens a short circuit: for
  ``RETRY_AFTER_S`` no operation tries Redis, so a request costs nothing more while it is away; the
  first one after that tries again, and everything resumes by itself. Failures are logged once per
  ``LOG_INTERVAL_S`` (logger ``config.cache``, WARNING, with how many operations were missed), and
  the return once (INFO).
- ``FALLBACK``: ``"memory"`` serves a process-local memory cache while Redis is away, for what must
  keep counting (DRF's throttles: the token endpoint and wrong join codes; they count per process
  then). Sessions use an alias without it (``SESSION_CACHE_ALIAS``): they fall back to the database,
  which is always right, where a per-process copy could outlive a sign-out in another process.

A write that fails leaves Redis possibly stale (a signed-out session still cached there), so when
Redis answers again the process that missed writes drops the cached sessions (``STALE_ON_RETURN``
key patterns); they are read again from the database, which stayed right throughout.

Why not django-redis and its ``DJANGO_REDIS_IGNORE_EXCEPTIONS``: it does the swallowing but tries
Redis (and logs) on every operation, has no fallback for the throttles, and would replace Django's
own backend, a larger dependency for a few dozen lines here.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: What an unreachable Redis raises: refused, reset, timed out, still loading its data.
OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError)
RETRY_AFTER_S = 2.0
LOG_INTERVAL_S = 60.0


class _Outage:
    """What one Redis server's backends (every alias and thread using it) know of its absence."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.retry_at = 0.0  # no operation tries Redis before this (time.monotonic)
        self.down = False
        self.missed = 0  # operations missed since the last report
        self.missed_writes = False  # since Redis went away: what it holds may be stale
        self.last_logged = 0.0
        self.stale_patterns: set[str] = set()


_outages: dict[str, _Outage] = {}
_outages_lock = threading.Lock()


class _ClientPerPool(RedisCacheClient):
    """Django's client makes a ``redis.Redis`` for every operation (~0.1 ms of CPU: its response
    callbacks are built anew), and a signed-in page reads its session through the cache; one client
    for reads and one for writes serve them all (redis-py's clients are thread-safe over their
    pool). With several servers, a process's reads keep to the replica its first read chose."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[bool, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        client = self._clients.get(write)
        if client is None:
            client = self._clients[write] = super().get_client(key, write=write)
        return client


class ForgivingRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        options = dict(params.get("OPTIONS", {}))
        fallback = options.pop("FALLBACK", None)
        stale_patterns = options.pop("STALE_ON_RETURN", [])
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._class = _ClientPerPool
        self._fallback = (
            LocMemCache(f"forgiving-{server}", {"TIMEOUT": params.get("TIMEOUT", 300)})
            if fallback == "memory"
            else None
        )
        # Django makes a backend per alias and per thread: they share what they know of one server.
        with _outages_lock:
            self._outage = _outages.setdefault(server, _Outage())
        self._outage.stale_patterns.update(stale_patterns)

    # ---- the circuit

    def _available(self) -> bool:
        return time.monotonic() >= self._outage.retry_at

    def _failed(self, exc: BaseException | None, *, write: bool) -> None:
        outage, now = self._outage, time.monotonic()
        with outage.lock:
            outage.missed += 1
            outage.missed_writes = outage.missed_writes or write
            if exc is not None:
                outage.down = True
                outage.retry_at = now + RETRY_AFTER_S
            if now - outage.last_logged < LOG_INTERVAL_S:
                return
            outage.last_logged, missed = now, outage.missed
            outage.missed = 0
        logger.warning(
            "cache: Redis does not answer (%s); %d cache operation(s) served as misses "
            "(or from memory, for the throttles); next report in %d s at most",
            exc or "still away",
            missed,
            LOG_INTERVAL_S,
        )

    def _answered(self) -> None:
        outage = self._outage
        if not outage.down:
            return
        with outage.lock:
            if not outage.down:
                return
            outage.down, stale = False, outage.missed_writes
            outage.missed_writes = False
            outage.missed = 0
            outage.last_logged = 0.0
        logger.info("cache: Redis answers again")
        if stale and outage.stale_patterns:
            self._drop_stale(sorted(outage.stale_patterns))

    def _drop_stale(self, patterns: list[str]) -> None:
        try:
            client = self._cache.get_client(write=True)
            for pattern in patterns:
                keys = list(client.scan_iter(match=f"*{pattern}*", count=1000))
                for start in range(0, len(keys), 500):
                    client.delete(*keys[start : start + 500])
        except OUTAGE as exc:
            self._failed(exc, write=True)

    def _guarded(self, name: str, args: tuple, kwargs: dict, *, miss: Any, write: bool) -> Any:
        if self._available():
            try:
                result = getattr(super(), name)(*args, **kwargs)
            except OUTAGE as exc:
                self._failed(exc, write=write)
            else:
                self._answered()
                return result
        else:
            self._failed(None, write=write)
        if self._fallback is not None:
            return getattr(self._fallback, name)(*args, **kwargs)
        if isinstance(miss, BaseException):
            raise miss
        return miss

    # ---- every operation of RedisCache; the async ones (BaseCache) call these

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("add", (key, value, timeout, version), {}, miss=False, write=True)

    def get(self, key, default=None, version=None):
        return self._guarded("get", (key, default, version), {}, miss=default, write=False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._guarded("set", (key, value, timeout, version), {}, miss=None, write=True)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("touch", (key, timeout, version), {}, miss=False, write=True)

    def delete(self, key, version=None):
        return self._guarded("delete", (key, version), {}, miss=False, write=True)

    def get_many(self, keys, version=None):
        return self._guarded("get_many", (keys, version), {}, miss={}, write=False)

    def has_key(self, key, version=None):
        return self._guarded("has_key", (key, version), {}, miss=False, write=False)

    def incr(self, key, delta=1, version=None):
        missing = ValueError(f"Key '{key}' not found (the cache is unavailable).")
        return self._guarded("incr", (key, delta, version), {}, miss=missing, write=True)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._guarded("set_many", (data, timeout, version), {}, miss=list(data), write=True)

    def delete_many(self, keys, version=None):
        self._guarded("delete_many", (keys, version), {}, miss=None, write=True)

    def clear(self):
        return self._guarded("clear", (), {}, miss=False, write=True)
