"""The table's roll feed: from a roll's request to each of 8 connected browsers (websockets) having it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench REDIS_BENCH_URL=redis://127.0.0.1:6379/3 \\
      .venv/bin/python bench/bench_feed.py [--rolls 50] [--clients 8] [--server serve|daphne] [--port 8470]

``--server serve`` (the default): `make serve`'s stack, started by deploy/serve.py's own
``start_stack`` on PORT, PORT+1, PORT+2 (8470–8472): nginx in front, gunicorn (WSGI, one sync worker
per core) for the rolls, daphne (config.asgi:websocket_application) for the sockets, on one Redis
(pub/sub channel layer) and a throw-away copy of the database (Django's test database). The
browsers' sockets go through nginx like a page's.

``--server daphne``: the browser tests' server (tests/e2e/test_table_feed_browser.py): one daphne
serving config.asgi:application, pages and sockets, with the in-process channel layer.

A campaign with a GM and 7 players: the 8 members each open the feed's socket
(ws/campaigns/<id>/rolls/, asyncio clients of the `websockets` library in this process, one per
member with their own session). Then, one after the other with a pause between them, the measured
rolls, each an htmx POST as the page sends it:

- **sheet**: a player rolls on their sheet (POST characters/<id>/roll/);
- **fight**: a player's action in the running encounter (POST encounters/<id>/act/; the ruleset's
  own, bench/fight.py), whose dice reach the feed in the log's words (combat/services.py).

For each roll: the time from just before the POST to each client receiving its line (every
(roll, client) pair), and to the last of the 8 (the table has it); the POST's own answer time
beside them. Prints median, p95 and max; exits 1 unless every client got every line and the
p95 of "every client" is under 100 ms (the issue's "a roll reaches the table feed of 8 connected
browsers in < 100 ms").
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402

REDIS_URL = (
    os.environ.get("REDIS_BENCH_URL") or os.environ.get("REDIS_TEST_URL") or "redis://127.0.0.1:6379/15"
)
ROLL_RE = re.compile(r'data-roll="(\d+)"')


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def session_cookie(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def build_table(clients: int) -> dict:
    """A campaign of the bench ruleset (bench/fight.py): a GM, ``clients - 1`` players, the first
    one's sheet character, and a running encounter where it is that character's turn. The
    campaign's id is drawn high at random: the websocket servers' Redis pub/sub channels are named
    after it, and other databases on the same Redis start at 1."""
    from bench.fight import build_fight
    from characters.models import Campaign
    from characters.sheet.selectors import sheet_rules
    from tests.factories import make_user

    with connection.cursor() as cursor:
        table = Campaign._meta.db_table
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), %s)", [random.randint(10**6, 10**9)]
        )
    tag = uuid.uuid4().hex[:6]
    gm = make_user(f"gm-{tag}")
    players = [make_user(f"player{i}-{tag}") for i in range(1, clients)]
    fight = build_fight(players=players, gm=gm, pcs=1, enemies=1)
    if fight["player_action"] is None:
        raise SystemExit(f"{fight['ruleset'].name}: its sheet character has no action to time on its turn")
    rollable = next(
        str(r["id"]) for r in sheet_rules(character=fight["pc"]).rollables if r.get("usable") is not False
    )
    return {**fight, "members": [gm, *players], "roller": players[0], "rollable": rollable}


def server_env() -> dict[str, str]:
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(
        {
            "DATABASE_URL": f"postgres://{db['USER']}{':' + db['PASSWORD'] if db['PASSWORD'] else ''}@"
            f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
            "DEBUG": "false",
            "SECRET_KEY": settings.SECRET_KEY,
            "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
            "LOG_LEVEL": "WARNING",
        }
    )
    return env


def start_serve(port: int):
    """`make serve`'s stack (deploy/serve.py): nginx on ``port``, gunicorn and daphne behind it."""
    from deploy import serve

    # every client is one address: nginx's per-address limit (NGINX_CONN_PER_IP) is the bench's own
    env = {
        **server_env(),
        **serve.PLAIN_HTTP,
        **serve.BEHIND_ONE_PROXY,
        "REDIS_URL": REDIS_URL,
        "NGINX_CONN_PER_IP": "4096",
    }

    class Quiet(serve.Stack):
        """The servers' access logs go to .serve/bench_feed.log, not between the numbers."""

        def spawn(self, child, env):
            serve.RUN.mkdir(exist_ok=True)
            with open(serve.RUN / "bench_feed.log", "ab") as log:
                return subprocess.Popen(
                    child.argv, cwd=ROOT, env=env, preexec_fn=serve._die_with_parent, stdout=log, stderr=log
                )

    stack = Quiet()
    info = serve.start_stack(host="127.0.0.1", port=port, env=env, stack=stack)
    return stack, info


def start_daphne(port: int):
    """The browser tests' server: one daphne, pages and sockets, the in-process channel layer."""
    env = {**server_env(), "REDIS_URL": "", "SECURE_SSL_REDIRECT": "false", "SESSION_COOKIE_SECURE": "false"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    from deploy import serve

    serve.wait_for_port("127.0.0.1", port, proc, "daphne")
    stack = serve.Stack()
    stack.running.append(serve._Running(serve.Child("daphne", proc.args), proc, time.monotonic()))
    return stack, {"daphne": proc.pid}


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return found


def servers_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) used so far by the servers' processes and their children
    (gunicorn's workers, nginx's): the load-independent cost of the rolls."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
        except (OSError, IndexError, ValueError):
            continue
        todo += _children(pid)
    return total


async def measure(table: dict, *, base: str, rolls: int, clients: int, pids: list[int]) -> dict[str, dict]:
    import websockets

    from combat.models import Combatant

    cookies = [await asyncio.to_thread(session_cookie, m) for m in table["members"][:clients]]
    roller_cookie = await asyncio.to_thread(session_cookie, table["roller"])
    csrf = uuid.uuid4().hex
    ws_base = base.replace("http://", "ws://")
    arrivals: list[dict[int, float]] = [{} for _ in range(clients)]
    waiting: dict[str, asyncio.Event] = {}

    async def reader(i: int, ws) -> None:
        async for message in ws:
            now = time.perf_counter()
            for pk in ROLL_RE.findall(message):
                arrivals[i].setdefault(int(pk), now)
            for event in waiting.values():
                event.set()

    sockets = await asyncio.gather(
        *(
            websockets.connect(
                f"{ws_base}/ws/campaigns/{table['campaign'].pk}/rolls/",
                origin=base,
                additional_headers={"Cookie": cookie},
                open_timeout=30,
            )
            for cookie in cookies
        )
    )
    tasks = [asyncio.create_task(reader(i, ws)) for i, ws in enumerate(sockets)]

    def post(path: str, fields: dict) -> tuple[int, str]:
        request = urllib.request.Request(
            f"{base}{path}",
            data=urllib.parse.urlencode(fields).encode(),
            method="POST",
            headers={
                "Cookie": f"{roller_cookie}; csrftoken={csrf}",
                "X-CSRFToken": csrf,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": base + "/",
            },
        )
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, r.read().decode()

    def latest_roll() -> int:
        from characters.models import RollLog

        rolls = RollLog.objects.filter(campaign=table["campaign"]).order_by("-id")
        return rolls.values_list("id", flat=True).first() or 0

    c_pc = table["c_pc"]

    def fresh_turn() -> None:  # untimed: the PC's numbers as its turn began, so that every action is allowed
        Combatant.objects.filter(pk=c_pc.pk).update(combat=c_pc.combat)

    kinds = {
        "sheet": (f"/characters/{table['pc'].pk}/roll/", {"rollable": table["rollable"]}, None),
        "fight": (
            f"/encounters/{table['e'].pk}/act/",
            {"combatant": c_pc.pk, **table["player_action"]},
            fresh_turn,
        ),
    }
    results: dict[str, dict] = {}
    previous = 0
    for kind, (path, fields, before) in kinds.items():
        every, lasts, posts, missed = [], [], [], 0
        cpu = cpu_self = 0.0
        for n in range(rolls + 3):  # the first three warm the processes up
            if n == 3:
                cpu, cpu_self = servers_cpu(pids), time.process_time()
            if before:
                await asyncio.to_thread(before)
            event = asyncio.Event()
            waiting[kind] = event
            t0 = time.perf_counter()
            status, _ = await asyncio.to_thread(post, path, fields)
            answered = time.perf_counter()
            if status not in (200, 204):
                raise SystemExit(f"{kind}: the POST answered {status}")
            pk = await asyncio.to_thread(latest_roll)
            if pk == previous:
                raise SystemExit(f"{kind}: the POST made no roll (refused?)")
            previous = pk
            deadline = time.perf_counter() + 5
            while sum(pk in a for a in arrivals) < clients and time.perf_counter() < deadline:
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), max(0.01, deadline - time.perf_counter()))
                except TimeoutError:
                    break
            got = [(a[pk] - t0) * 1000 for a in arrivals if pk in a]
            if n >= 3:
                missed += clients - len(got)
                every += got
                lasts.append(max(got) if got else float("nan"))
                posts.append((answered - t0) * 1000)
            await asyncio.sleep(0.15)
        results[kind] = {
            "every": every,
            "last": lasts,
            "post": posts,
            "missed": missed,
            # Less the pause between rolls, which costs nothing.
            "server_cpu": (servers_cpu(pids) - cpu) * 1000 / rolls,
            "client_cpu": (time.process_time() - cpu_self) * 1000 / rolls,
        }
    for ws in sockets:
        await ws.close()
    for task in tasks:
        task.cancel()
    return results


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--rolls", type=int, default=50)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--server", choices=("serve", "daphne"), default="serve")
    parser.add_argument("--port", type=int, default=8470, help="8470-8479 on the shared machine")
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["testserver", "127.0.0.1"]
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    stack = None
    code = 1
    try:
        table = build_table(args.clients)
        connections.close_all()
        if args.server == "serve":
            stack, info = start_serve(args.port)
        else:
            stack, info = start_daphne(args.port)
        base = f"http://127.0.0.1:{args.port}"
        load = os.getloadavg()[0]
        where = (
            f"make serve's stack (nginx {args.port}, gunicorn {info.get('web_port')} × {info.get('workers')} "
            f"workers, daphne {info.get('ws_port')}; Redis pub/sub {REDIS_URL})"
            if args.server == "serve"
            else f"one daphne on {args.port} (pages and sockets, in-process layer)"
        )
        print(f"load average {load:.1f} on {os.cpu_count()} CPUs; {where}")
        pids = [proc.pid for _, proc, _ in stack.procs]
        results = asyncio.run(measure(table, base=base, rolls=args.rolls, clients=args.clients, pids=pids))
        print(f"{args.clients} clients, {args.rolls} rolls of each kind")
        print(f"{'roll':<6} {'measure':<26} {'median ms':>9} {'p95 ms':>7} {'max ms':>7}")
        ok = True
        for kind, r in results.items():
            for name, key in (
                ("POST answered", "post"),
                ("delivered, every client", "every"),
                ("delivered, last of 8", "last"),
            ):
                values = r[key]
                print(
                    f"{kind:<6} {name:<26} {statistics.median(values):>9.1f} {pct(values, 0.95):>7.1f} "
                    f"{max(values):>7.1f}"
                )
            expected = args.clients * args.rolls
            print(
                f"{kind:<6} delivered {expected - r['missed']}/{expected}; CPU per roll: servers "
                f"{r['server_cpu']:.1f} ms, the 8 clients and this script {r['client_cpu']:.1f} ms"
            )
            ok = ok and r["missed"] == 0 and pct(r["every"], 0.95) < 100
        print(f"target: every line to every client, p95 < 100 ms: {'ok' if ok else 'MISSED'}")
        code = 0 if ok else 1
    finally:
        if stack is not None:
            stack.stop()
        with connection.cursor() as cursor:  # the servers' sessions, or the database cannot be dropped
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        connections.close_all()
        try:
            teardown_databases(old, verbosity=0)
        except Exception as exc:
            print(f"(test database not dropped: {exc})")
    return code


if __name__ == "__main__":
    sys.exit(main())
