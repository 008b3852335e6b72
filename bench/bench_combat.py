"""Server time of one encounter action with 8 websocket clients watching; and, with --processes,
delivery to 200 clients over real websocket servers.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench .venv/bin/python bench/bench_combat.py [runs]
    DATABASE_URL=... .venv/bin/python bench/bench_combat.py --processes 2 [--clients 200] [--actions 40]

One action = the service call (lock, rules, save, event rows) plus the broadcast (the version's
notice, group_send to the encounter's group; each page then fetches its board), measured in-process around ``encounter_act``; then the
time until all 8 connected WebsocketCommunicators have the message ("delivered"). Runs on the
in-memory channel layer, and on Redis (REDIS_BENCH_URL, default redis://127.0.0.1:6379/15) when it
answers. The encounter (bench/fight.py: the ruleset BENCH_RULESET, else the registry's first, its
sheet and typical builds as PCs, its quick NPC as the foes, the actions its contract data names):
2 PCs and 6 NPCs (a group of 4 and 2 lone), 20 earlier GM actions in the log.
Targets: median < 20 ms, p95 < 50 ms.

--processes N: the production topology on loopback. gunicorn (config.wsgi, deploy/gunicorn.conf.py)
and N daphne processes of the websocket server (config.asgi:websocket_application) on free ports,
all on one Redis (REDIS_BENCH_URL) and the throw-away database; --clients websockets (default 200)
spread evenly over the N processes; each action is an htmx POST to gunicorn (the GM sets a
foe's numbers: the ruleset's GM action, bench/fight.py), and its delivery time is from just before the POST until a client has the
message with the encounter's new version. Prints how many clients got every update (target
100 %), the median and p95 over every (action, client) delivery (target median < 100 ms) and the
same for the last client of each action. The clients are asyncio websockets (the `websockets`
library) in this one process: with a thread per client (websocket-client), 200 threads waking
under the GIL added ~40 ms to the measured delivery, which real browsers do not pay.
"""

from __future__ import annotations

import asyncio
import json
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
    from bench.fight import build_fight as table_fight
    from combat import services
    from tests.factories import make_user

    gm, player, other = make_user(f"gm-{uuid.uuid4().hex[:6]}"), make_user(), make_user()
    fight = table_fight(players=[player, other], gm=gm, enemies=4, lone=2)
    if fight["player_action"] is None:
        raise SystemExit(f"{fight['ruleset'].name}: its sheet character has no action to time on its turn")
    for _ in range(20 if fight["gm_action"] else 0):  # some history in the log
        services.encounter_act(encounter=fight["e"], user=gm, combatant_id=fight["bystander"].pk,
                               action=fight["gm_action"])
    return {**fight, "gm": gm, "player": player}


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

    e, pc, player = fight["e"], fight["c_pc"], fight["player"]
    cookie = await database_sync_to_async(session_cookie)(fight["gm"])
    comms = []
    for _ in range(CLIENTS):
        comm = WebsocketCommunicator(application, f"/ws/encounters/{e.pk}/",
                                     headers=[(b"origin", b"http://testserver"), (b"cookie", cookie)])
        connected, _ = await comm.connect()
        assert connected
        comms.append(comm)

    def one() -> tuple[float, float, int]:
        # Untimed: the PC's numbers as its turn began, so that the action is always allowed.
        Combatant.objects.filter(pk=pc.pk).update(combat=pc.combat)
        with CaptureQueriesContext(connection) as q:
            start, cpu = time.perf_counter(), time.thread_time()
            services.encounter_act(encounter=e.pk, user=player, combatant_id=pc.pk,
                                   action=fight["player_action"], roller=FixedRoller([1, 2, 6] * 20))
            elapsed, cpu = (time.perf_counter() - start) * 1000, (time.thread_time() - cpu) * 1000
        return elapsed, cpu, len(q.captured_queries)

    pc.refresh_from_db()
    server, delivered, cpus, queries = [], [], [], 0
    for i in range(runs + 5):
        start = time.perf_counter()
        elapsed, cpu, queries = await database_sync_to_async(one)()
        messages = await asyncio.gather(*(c.receive_from(timeout=5) for c in comms))
        total = (time.perf_counter() - start) * 1000
        assert all(json.loads(m)["encounter"] == e.pk for m in messages)  # the notice
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


# ------------------------------------------------------------------ real servers (--processes)

def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(port: int, proc, name: str, timeout: float = 120) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"{name} exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"{name} on {port} was not healthy within {timeout:.0f} s")


def stack(processes: int, clients: int, actions: int) -> int:
    import re
    import signal
    import subprocess
    import urllib.parse
    import urllib.request

    import websockets

    if not redis_up():
        raise SystemExit(f"--processes needs Redis: none answers at {REDIS_URL} (REDIS_BENCH_URL)")
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update({
        "DATABASE_URL": f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@"
                        f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": REDIS_URL, "DEBUG": "false", "SECRET_KEY": settings.SECRET_KEY,
        "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "false", "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    })
    bin_dir = Path(sys.executable).parent
    web_port, ws_ports = _free_port(), [_free_port() for _ in range(processes)]
    procs = [("gunicorn", web_port, subprocess.Popen(
        [str(bin_dir / "gunicorn"), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{web_port}",
         "--log-level", "warning", "config.wsgi:application"], cwd=ROOT, env=env, start_new_session=True))]
    for port in ws_ports:
        procs.append((f"daphne:{port}", port, subprocess.Popen(
            [str(bin_dir / "daphne"), "--bind", "127.0.0.1", "--port", str(port), "-v", "0",
             "config.asgi:websocket_application"], cwd=ROOT, env=env, start_new_session=True)))
    fight = build_fight()
    e, gm, target, gm_action = fight["e"], fight["gm"], fight["bystander"], fight["gm_action"]
    if gm_action is None:
        raise SystemExit(f"{fight['ruleset'].name} has no GM action to time")
    cookie = session_cookie(gm).decode()
    csrf = uuid.uuid4().hex  # 32 characters: the cookie and the header carry the same secret
    connections_close = __import__("django.db", fromlist=["connections"]).connections.close_all
    connections_close()
    version_re = re.compile(r'"version": (\d+)')  # the notice: {"encounter", "version"}

    def post(value: int) -> int:
        # A number field alternates between two values, so that every action changes the encounter.
        fields = {"combatant": target.pk, **gm_action}
        if isinstance(gm_action.get("value"), int):
            fields["value"] = value
        body = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{web_port}/encounters/{e.pk}/act/", data=body, method="POST",
            headers={"Cookie": f"{cookie}; csrftoken={csrf}", "X-CSRFToken": csrf, "HX-Request": "true",
                     "Content-Type": "application/x-www-form-urlencoded"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status

    async def run() -> dict:
        arrivals: list[dict[int, float]] = [dict() for _ in range(clients)]
        waiting: dict[int, tuple[int, asyncio.Event]] = {}

        async def reader(i: int, ws) -> None:
            async for message in ws:
                now = time.perf_counter()
                match = version_re.search(message)
                if match:
                    v = int(match.group(1))
                    arrivals[i][v] = now
                    if v in waiting:
                        count, event = waiting[v]
                        waiting[v] = (count + 1, event)
                        if count + 1 == clients:
                            event.set()

        sockets, tasks = [], []
        for start in range(0, clients, 20):  # connect in batches, as pages open over time
            batch = []
            for i in range(start, min(clients, start + 20)):
                port = ws_ports[i % processes]
                batch.append(websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/encounters/{e.pk}/", origin=f"http://127.0.0.1:{port}",
                    additional_headers={"Cookie": cookie}, open_timeout=60, max_size=2**22))
            sockets += await asyncio.gather(*batch)
        for i, ws in enumerate(sockets):
            tasks.append(asyncio.create_task(reader(i, ws)))
        version = await asyncio.to_thread(lambda: type(e).objects.get(pk=e.pk).version)
        deliveries, lasts, posts, missed, refused = [], [], [], 0, 0
        for n in range(actions + 3):
            version += 1
            event = asyncio.Event()
            waiting[version] = (0, event)
            t0 = time.perf_counter()
            status = await asyncio.to_thread(post, 3 + n % 2)
            posted = time.perf_counter()
            if status != 204:
                refused += 1
            try:
                await asyncio.wait_for(event.wait(), 15)
            except asyncio.TimeoutError:
                pass
            got = [a[version] - t0 for a in arrivals if version in a]
            if n >= 3:  # the first three warm the processes
                missed += clients - len(got)
                deliveries += [g * 1000 for g in got]
                lasts.append(max(got) * 1000 if got else float("nan"))
                posts.append((posted - t0) * 1000)
            await asyncio.sleep(0.1)
        for ws in sockets:
            await ws.close()
        for task in tasks:
            task.cancel()
        return {"deliveries": deliveries, "lasts": lasts, "posts": posts, "missed": missed,
                "refused": refused}

    try:
        for name, port, proc in procs:
            _wait_healthy(port, proc, name)
        load = os.getloadavg()[0]
        print(f"load average {load:.1f} on {os.cpu_count()} CPUs; gunicorn on {web_port}, "
              f"{processes} websocket "
              f"processes on {', '.join(map(str, ws_ports))}, Redis {REDIS_URL}")
        r = asyncio.run(run())
    finally:
        for _, _, proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for _, _, proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
    expected = clients * actions
    got = len(r["deliveries"])
    median = statistics.median(r["deliveries"]) if r["deliveries"] else float("nan")
    print(f"{clients} clients over {processes} processes, {actions} actions posted to gunicorn "
          f"({r['refused']} refused)")
    print(f"delivered {got}/{expected} ({100 * got / expected:.1f} %)")
    print(f"{'measure':<28} {'median ms':>9} {'p95 ms':>7}")
    print(f"{'POST answered (204)':<28} {statistics.median(r['posts']):>9.1f} {pct(r['posts'], .95):>7.1f}")
    print(f"{'delivered, every client':<28} {median:>9.1f} {pct(r['deliveries'], .95):>7.1f}")
    lasts = r["lasts"]
    print(f"{'delivered, last client':<28} {statistics.median(lasts):>9.1f} {pct(lasts, .95):>7.1f}")
    ok = got == expected and r["refused"] == 0 and median < 100
    print(f"targets: 100 % delivery, median < 100 ms: {'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="?", type=int, default=200)
    parser.add_argument("--processes", type=int, default=0,
                        help="real websocket server processes (0: in-process)")
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args()
    runs = args.runs
    settings.ALLOWED_HOSTS = ["testserver"]
    setup_test_environment()
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    code = 0
    try:
        if args.processes:
            code = stack(args.processes, args.clients, args.actions)
        else:
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
    sys.exit(code)
