"""Server time of one encounter action with 8 websocket clients watching.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_combat.py [runs]

One action = the service call (lock, rules, save, event rows) plus the broadcast (render the board
once, group_send to the encounter's group), measured in-process around ``encounter_act``; then the
time until all 8 connected WebsocketCommunicators have the message ("delivered"). Runs on the
in-memory channel layer, and on Redis (REDIS_BENCH_URL, default redis://127.0.0.1:6379/15) when it
answers. The encounter: 2 PCs and 6 NPCs (a group of 4 and 2 lone), 60 earlier events.
Targets: median < 20 ms, p95 < 50 ms.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off in a benchmark: settings then need a real-length key (a throwaway one is fine).
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings, setup_test_environment  # noqa: E402

REDIS_URL = os.environ.get("REDIS_BENCH_URL", "redis://127.0.0.1:6379/15")
CLIENTS = 8


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def build_fight():
    from combat import services
    from rulesets.engine.dice import FixedRoller
    from tests.characters.test_sheet_fixtures import make_character
    from tests.combat.conftest import BEA, GOBLIN, PABLO, WOLF
    from tests.factories import make_campaign, make_user

    gm, player, other = make_user(f"gm-{uuid.uuid4().hex[:6]}"), make_user(), make_user()
    campaign = make_campaign(gm=gm, ruleset="pando", players=[player, other])
    pablo = make_character(ruleset="pando", owner=player, campaign=campaign, build=PABLO)
    bea = make_character(ruleset="pando", owner=other, campaign=campaign, build=BEA)
    e = services.encounter_create(campaign=campaign, user=gm, name="Bench")
    c_pablo = services.encounter_add_combatant(encounter=e, user=gm, character=pablo)[0]
    services.encounter_add_combatant(encounter=e, user=gm, character=bea)
    goblins = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN, count=4)
    services.encounter_add_combatant(encounter=e, user=gm, name="Wolf", build=WOLF, count=2, group="")
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([1, 2, 3, 4, 5, 6] * 10))
    for _ in range(20):  # some history in the log
        services.encounter_act(encounter=e, user=gm, combatant_id=goblins[0].pk,
                               action={"action": "gm_momentum", "value": 3})
    return {"gm": gm, "player": player, "e": e, "pablo": c_pablo, "target": goblins[0]}


def session_cookie(user) -> bytes:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def run(fight, runs: int, label: str) -> None:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    from combat import services
    from combat.models import Combatant
    from config.asgi import application
    from rulesets.engine.dice import FixedRoller

    e, pablo, player, target = fight["e"], fight["pablo"], fight["player"], fight["target"]
    cookie = await database_sync_to_async(session_cookie)(fight["gm"])
    comms = []
    for _ in range(CLIENTS):
        comm = WebsocketCommunicator(application, f"/ws/encounters/{e.pk}/",
                                     headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)])
        connected, _ = await comm.connect()
        assert connected
        comms.append(comm)

    def one() -> tuple[float, float, int]:
        # Untimed: give Pablo his speed back so that the strike is always allowed.
        Combatant.objects.filter(pk=pablo.pk).update(combat={**pablo.combat, "speed": 6, "uses": {}})
        with CaptureQueriesContext(connection) as q:
            start, cpu = time.perf_counter(), time.thread_time()
            services.encounter_act(encounter=e.pk, user=player, combatant_id=pablo.pk,
                                   action={"action": "strike:0", "target": target.pk},
                                   roller=FixedRoller([1, 2, 6]))
            elapsed, cpu = (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000
        return elapsed, cpu, len(q.captured_queries)

    pablo.refresh_from_db()
    server, delivered, cpus, queries = [], [], [], 0
    for i in range(runs + 5):
        start = time.perf_counter()
        elapsed, cpu, queries = await database_sync_to_async(one)()
        messages = await asyncio.gather(*(c.receive_from(timeout=5) for c in comms))
        total = (time.perf_counter() - start) * 1000
        assert all("Pablo strikes Goblin 1" in m for m in messages)
        if i >= 5:
            server.append(elapsed)
            delivered.append(total)
            cpus.append(cpu)
    for comm in comms:
        await comm.disconnect()
    print(f"{label:<10} {'action+broadcast':<18} {statistics.median(server):>9.1f} {pct(server, .95):>7.1f} "
          f"{queries:>7}")
    print(f"{label:<10} {'  of which CPU':<18} {statistics.median(cpus):>9.1f} {pct(cpus, .95):>7.1f}")
    print(f"{label:<10} {'delivered to 8':<18} {statistics.median(delivered):>9.1f} {pct(delivered, .95):>7.1f}")


def redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def main(runs: int) -> None:
    from asgiref.sync import async_to_sync

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs (server times are wall clock; CPU is this thread's)")
    fight = build_fight()
    print(f"{'layer':<10} {'measure':<18} {'median ms':>9} {'p95 ms':>7} {'queries':>7}")
    with override_settings(CHANNEL_LAYERS={"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}):
        async_to_sync(run)(fight, runs, "memory")
    if redis_up():
        layers = {"default": {"BACKEND": "channels_redis.core.RedisChannelLayer",
                              "CONFIG": {"hosts": [REDIS_URL], "prefix": f"sf-bench-{uuid.uuid4().hex[:6]}"}}}
        with override_settings(CHANNEL_LAYERS=layers):
            async_to_sync(run)(fight, runs, "redis")
    else:
        print(f"redis      (not reachable at {REDIS_URL}: skipped)")


if __name__ == "__main__":
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    settings.ALLOWED_HOSTS = ["testserver"]
    setup_test_environment()
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        main(runs)
    finally:
        from django.db import connection, connections

        # The websocket consumers' worker threads keep their own sessions open: end them, or the
        # test database cannot be dropped.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        connections.close_all()
        try:
            teardown_databases(old, verbosity=0)
        except Exception as exc:  # a worker thread's connection may still be open
            print(f"(test database not dropped: {exc})")
