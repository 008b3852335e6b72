#!/usr/bin/env python
"""Load test of the production stack (`make serve`) against today's single daphne, in one run.

    .venv/bin/python bench/load.py [--duration 30] [--clients 8,32,64] [--port 8100]

Not a test: numbers to read (BENCHMARKS.md). wrk (Debian's package) drives three requests over
loopback, each at 8, 32 and 64 concurrent connections for --duration seconds:

- ``sheet``: a signed-in player's character sheet (GET, the demo data of seed_demo);
- ``builder``: the builder's htmx update (POST of the whole form, as the page sends on every change);
- ``validate``: the anonymous rules service (POST of the first ruleset's typical build to its
  validate URL, bench/typical.py).

…first against the stack (deploy/serve.py: nginx → gunicorn + daphne, started here on --port, or
an already running one with --url), then against today's production command, one daphne serving
HTTP and websockets with persistent connections (bench/baseline_asgi.py, on --baseline-port). For
each it prints requests/s, p50/p95/p99 latency, non-2xx answers, socket errors and the peak number
of Postgres connections to the database (pg_stat_activity, polled every 50 ms), then the ratio.

Today's daphne opens a connection per thread until Postgres refuses more. On a shared Postgres
that would starve its other users, so the baseline connects as a role of its own with a
CONNECTION LIMIT (--baseline-connection-limit, default 40; created for the run, dropped after):
its failure shows at that ceiling instead of at max_connections. The stack connects as DATABASE_URL's user.

DATABASE_URL and REDIS_URL default as for `make serve` (the local Postgres and Redis). It takes
2 × 9 × --duration seconds and a little more (9.5 min at the default 30 s; --duration 10 on a
shared machine). Results also go to bench/results/load-<UTC time>.json (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.typical import first_typical  # noqa: E402
from deploy import serve  # noqa: E402

RESULTS = ROOT / "bench" / "results"
BASELINE_ROLE = "sheetforge_bench_baseline"
CSRF = secrets.token_hex(16)  # 32 characters: a CSRF secret; cookie and header carry the same
TARGETS = {"ratio_sheet_32": 2.4, "validate_rps": 2000}

LUA = r"""
wrk.method = "%(method)s"
wrk.body = [==[%(body)s]==]
%(headers)s
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) bad = 0; s3 = 0; s4 = 0; s5 = 0 end
function response(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    if status >= 500 then s5 = s5 + 1 elseif status >= 400 then s4 = s4 + 1 else s3 = s3 + 1 end
  end
end
function done(summary, latency, requests)
  local nb, n3, n4, n5 = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    nb = nb + t:get("bad"); n3 = n3 + t:get("s3"); n4 = n4 + t:get("s4"); n5 = n5 + t:get("s5")
  end
  local e = summary.errors
  io.write(string.format('JSON {"requests": %%d, "duration_us": %%d, "non2xx": %%d, ' ..
    '"s3xx": %%d, "s4xx": %%d, "s5xx": %%d, "socket_errors": %%d, "timeouts": %%d, ' ..
    '"p50_ms": %%.2f, "p95_ms": %%.2f, "p99_ms": %%.2f}\n',
    summary.requests, summary.duration, nb, n3, n4, n5, e.connect + e.read + e.write, e.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""


def say(message: str = "") -> None:
    print(message, flush=True)


# ------------------------------------------------------------------ servers


def wait_healthy(url: str, proc: subprocess.Popen | None, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SystemExit(f"the server for {url} exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "healthz", timeout=10) as r:
                if r.status == 200:
                    return
        except (OSError, urllib.error.HTTPError):
            pass
        time.sleep(0.5)
    raise SystemExit(f"{url} was not healthy within {timeout:.0f} s")


def start(argv: list[str], env: dict, log: Path) -> subprocess.Popen:
    handle = log.open("w")
    return subprocess.Popen(
        argv, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(proc: subprocess.Popen, sig=signal.SIGTERM, timeout: float = 30) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def baseline_role(database_url: str, limit: int) -> str:
    """A login role with a CONNECTION LIMIT that may use everything DATABASE_URL's user may;
    returns the baseline's DATABASE_URL."""
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlsplit(database_url)
    owner = urllib.parse.unquote(parts.username or "postgres")
    with psycopg.connect(database_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [BASELINE_ROLE]).fetchone()
        verb = "ALTER" if exists else "CREATE"
        conn.execute(
            sql.SQL(verb + " ROLE {} LOGIN NOSUPERUSER CONNECTION LIMIT {}").format(
                sql.Identifier(BASELINE_ROLE), sql.Literal(limit)
            )
        )
        conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(owner), sql.Identifier(BASELINE_ROLE)))
    netloc = f"{BASELINE_ROLE}@{parts.hostname}:{parts.port or 5432}"
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc))


def drop_baseline_role(database_url: str) -> None:
    """The role exists for one run: it may use everything DATABASE_URL's user may."""
    import psycopg
    from psycopg import sql

    try:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(BASELINE_ROLE)))
    except psycopg.Error as exc:
        say(f"(the role {BASELINE_ROLE} was not dropped: {exc})")


class PeakConnections:
    """Polls pg_stat_activity for the sessions of one user on the database (this poller excluded)."""

    def __init__(self, database_url: str, user: str):
        import psycopg

        self.conn = psycopg.connect(database_url, autocommit=True)
        self.name, self.user = self.conn.info.dbname, user
        self.peak = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def now(self) -> int:
        return self.conn.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = %s AND usename = %s AND pid <> pg_backend_pid()",
            [self.name, self.user],
        ).fetchone()[0]

    def __enter__(self):
        self.peak = self.now()
        self._stop.clear()

        def poll():
            while not self._stop.wait(0.05):
                self.peak = max(self.peak, self.now())

        self._thread = threading.Thread(target=poll, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


# ------------------------------------------------------------------ what is requested


def prepare(env: dict) -> dict:
    """The demo player's session, a sheet to read, a draft to edit (made here once), the bodies."""
    for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", *serve.PLAIN_HTTP):
        if env.get(key) is not None:
            os.environ[key] = env[key]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connections
    from django.test import Client

    from characters.models import Campaign, Character
    from characters.builder.services import character_create

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    player = get_user_model().objects.get(username="player1")
    sheet = Character.objects.filter(owner=player, status=Character.Status.ACTIVE).order_by("id").first()
    campaign = Campaign.objects.get(gm__username="gm", ruleset=sheet.ruleset, name__startswith="Demo")
    draft = Character.objects.filter(
        owner=player, campaign=campaign, name="Load bench draft", status=Character.Status.DRAFT
    ).first()
    if draft is None:
        draft = character_create(campaign=campaign, owner=player, name="Load bench draft")
    client = Client()
    client.force_login(player)
    session = client.cookies["sessionid"].value
    connections.close_all()
    return {"session": session, "sheet": sheet.pk, "draft": draft.pk, "sheet_ruleset": sheet.ruleset}


def requests_for(base: str, ids: dict) -> dict[str, dict]:
    from tests.characters.conftest import form_fields, parse_html

    cookie = f"sessionid={ids['session']}; csrftoken={CSRF}"
    builder_url = f"{base}characters/{ids['draft']}/build/"
    page = urllib.request.urlopen(
        urllib.request.Request(builder_url, headers={"Cookie": cookie}), timeout=30
    ).read()
    form = urllib.parse.urlencode(list(form_fields(parse_html(page).by_id("builder-form"))))
    _, validate_path, build = first_typical()
    return {
        "sheet": {
            "path": f"characters/{ids['sheet']}/",
            "method": "GET",
            "body": "",
            "headers": {"Cookie": cookie},
        },
        "builder": {
            "path": f"characters/{ids['draft']}/build/",
            "method": "POST",
            "body": form,
            "headers": {
                "Cookie": cookie,
                "X-CSRFToken": CSRF,
                "HX-Request": "true",
                "Content-Type": "application/x-www-form-urlencoded",
            },
        },
        "validate": {
            "path": validate_path,
            "method": "POST",
            "body": build,
            "headers": {"Content-Type": "application/json"},
        },
    }


def check_once(base: str, req: dict) -> int:
    request = urllib.request.Request(
        base + req["path"],
        method=req["method"],
        headers=req["headers"],
        data=req["body"].encode() if req["body"] else None,
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def wrk(base: str, req: dict, clients: int, duration: int, threads: int, tmp: Path) -> dict:
    headers = "\n".join(f'wrk.headers["{k}"] = [==[{v}]==]' for k, v in req["headers"].items())
    script = tmp / "request.lua"
    script.write_text(LUA % {"method": req["method"], "body": req["body"], "headers": headers})
    argv = [
        "wrk",
        "-t",
        str(min(threads, clients)),
        "-c",
        str(clients),
        "-d",
        f"{duration}s",
        "--timeout",
        "10s",
        "-s",
        str(script),
        base + req["path"],
    ]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=duration + 60)
    line = next((x for x in out.stdout.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise SystemExit(f"wrk printed no result:\n{out.stdout}\n{out.stderr}")
    result = json.loads(line[5:])
    seconds = result["duration_us"] / 1e6
    result["rps"] = result["requests"] / seconds
    result["ok_rps"] = (result["requests"] - result["non2xx"]) / seconds  # a 500 is not throughput
    return result


def measure(
    label: str,
    base: str,
    req: dict,
    n: int,
    duration: int,
    threads: int,
    database_url: str,
    user: str,
    tmp: Path,
) -> dict:
    with PeakConnections(database_url, user) as peak:
        r = wrk(base, req, n, duration, threads, tmp)
    r["peak_connections"] = peak.peak
    peak.conn.close()
    say(
        f"  {label:<7} {req['name']:<9} {n:>3} clients {r['rps']:>8.1f} req/s ({r['ok_rps']:.1f} 2xx/s)  "
        f"p50 {r['p50_ms']:>7.1f}  "
        f"p95 {r['p95_ms']:>7.1f}  p99 {r['p99_ms']:>7.1f} ms  non-2xx {r['non2xx']:>5}  "
        f"socket errors {r['socket_errors'] + r['timeouts']:>4}  peak connections {r['peak_connections']:>3}"
    )
    time.sleep(1)
    return r


def warm(label: str, base: str, reqs: dict) -> None:
    for name, req in reqs.items():
        for _ in range(20):  # templates, rules contexts, the sessions' cache
            status = check_once(base, req)
        if status != 200:
            say(f"  ({label} {name}: the warm-up answered {status})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=30, help="seconds per measurement (default 30)")
    parser.add_argument("--clients", default="8,32,64", help="concurrent connections, comma-separated")
    parser.add_argument("--port", type=int, default=8100, help="port of the stack started here (and +1, +2)")
    parser.add_argument(
        "--url", help="measure an already running `make serve` instead (http://127.0.0.1:PORT/)"
    )
    parser.add_argument("--baseline-port", type=int, default=8150)
    parser.add_argument("--no-baseline", action="store_true", help="skip today's single daphne")
    parser.add_argument("--baseline-connection-limit", type=int, default=40)
    parser.add_argument(
        "--threads", type=int, default=1, help="wrk threads (default 1: the CPUs go to the servers)"
    )
    parser.add_argument(
        "--only", default="sheet,builder,validate", help="requests to measure, comma-separated"
    )
    args = parser.parse_args()
    clients = [int(c) for c in args.clients.split(",")]
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed: apt-get install wrk")

    env = serve.environment()
    database_url = env.get("DATABASE_URL", "")
    stack_user = urllib.parse.unquote(urllib.parse.urlsplit(database_url).username or "postgres")
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("bench/load.py needs Postgres (DATABASE_URL, or a local server on 127.0.0.1:5432).")
    serve.ensure_database(database_url)
    runs = (1 if args.no_baseline else 2) * len(clients) * len(args.only.split(","))
    say(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; "
        f"{runs} measurements of {args.duration} s "
        f"(~{runs * (args.duration + 2) / 60:.1f} min)"
    )

    procs: list[subprocess.Popen] = []
    RESULTS.mkdir(parents=True, exist_ok=True)
    try:
        if args.url:
            base = args.url.rstrip("/") + "/"
            host = urllib.parse.urlsplit(base).hostname
            if host not in ("127.0.0.1", "localhost", "::1"):
                raise SystemExit("loopback only: --url must be http://127.0.0.1:PORT/")
            wait_healthy(base, None)
        else:
            base = f"http://127.0.0.1:{args.port}/"
            stack = start(
                [sys.executable, "deploy/serve.py"],
                # every client is one address: nginx's per-address limit (NGINX_CONN_PER_IP) is the bench's own
                {**env, "PORT": str(args.port), "HOST": "127.0.0.1", "NGINX_CONN_PER_IP": "4096"},
                RESULTS / "load-serve.log",
            )
            procs.append(stack)
            wait_healthy(base, stack)
        ids = prepare(env)
        reqs = {k: v for k, v in requests_for(base, ids).items() if k in args.only.split(",")}
        say(
            f"stack: {base} (nginx → gunicorn, {env.get('WEB_CONCURRENCY') or os.cpu_count()} workers; "
            "daphne for /ws/)"
        )
        labels = {"stack": (base, stack_user)}
        if not args.no_baseline:
            baseline_env = {
                **env,
                "DATABASE_URL": baseline_role(database_url, args.baseline_connection_limit),
            }
            baseline_env.pop("SHEETFORGE_SERVER", None)
            base_b = f"http://127.0.0.1:{args.baseline_port}/"
            daphne = start(
                [
                    str(Path(sys.executable).parent / "daphne"),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(args.baseline_port),
                    "--proxy-headers",
                    "bench.baseline_asgi:application",
                ],
                baseline_env,
                RESULTS / "load-baseline.log",
            )
            procs.append(daphne)
            wait_healthy(base_b, daphne)
            say(
                f"today: {base_b} (one daphne, HTTP and websockets, CONN_MAX_AGE=60; its role may open "
                f"{args.baseline_connection_limit} connections)"
            )
            labels["daphne"] = (base_b, BASELINE_ROLE)
        say(
            "Each measurement runs on the stack, then on today's daphne "
            "(the machine's load drifts: pairs compare)."
        )
        results: dict = {label: {} for label in labels}
        with tempfile.TemporaryDirectory(prefix="sheetforge-load-") as tmp:
            for label, (url, _) in labels.items():
                warm(label, url, reqs)
            for name, req in reqs.items():
                for n in clients:
                    for label, (url, user) in labels.items():
                        results[label][f"{name}@{n}"] = measure(
                            label,
                            url,
                            {**req, "name": name},
                            n,
                            args.duration,
                            args.threads,
                            database_url,
                            user,
                            Path(tmp),
                        )
    finally:
        for proc in reversed(procs):
            stop(proc, signal.SIGINT if proc.args[1:2] == ["deploy/serve.py"] else signal.SIGTERM)
        if not args.no_baseline:
            drop_baseline_role(database_url)

    say()
    say(
        "2xx/s: answers per second that were not errors "
        "(today's daphne answers 500 fast once Postgres refuses it)."
    )
    say(
        f"{'request':<9} {'clients':>7} {'stack 2xx/s':>12} {'daphne 2xx/s':>13} {'ratio':>6}   "
        f"{'stack p50/p95/p99 ms':>22}   {'daphne p50/p95/p99 ms':>22}   {'non-2xx stack/daphne':>20}   "
        f"{'peak conns stack/daphne':>23}"
    )
    ok = True
    for key, s in results["stack"].items():
        name, n = key.split("@")
        d = results.get("daphne", {}).get(key)
        ratio = s["ok_rps"] / d["ok_rps"] if d and d["ok_rps"] else float("nan")
        lat = f"{s['p50_ms']:.1f}/{s['p95_ms']:.1f}/{s['p99_ms']:.1f}"
        lat_d = f"{d['p50_ms']:.1f}/{d['p95_ms']:.1f}/{d['p99_ms']:.1f}" if d else "-"
        errors_d = (d["non2xx"] + d["socket_errors"] + d["timeouts"]) if d else "-"
        bad = f"{s['non2xx'] + s['socket_errors'] + s['timeouts']}/{errors_d}"
        conns = f"{s['peak_connections']}/{d['peak_connections'] if d else '-'}"
        say(
            f"{name:<9} {n:>7} {s['ok_rps']:>12.1f} {(d['ok_rps'] if d else float('nan')):>13.1f} "
            f"{ratio:>6.2f}   "
            f"{lat:>22}   {lat_d:>22}   {bad:>20}   {conns:>23}"
        )
        ok &= s["non2xx"] + s["socket_errors"] + s["timeouts"] == 0
    workers = int(env.get("WEB_CONCURRENCY") or os.cpu_count() or 1)
    max_conns = workers + int(env.get("ASGI_DB_POOL_MAX") or 4)
    peak = max(s["peak_connections"] for s in results["stack"].values())
    say()
    say(
        f"targets: 0 non-2xx on the stack: {'ok' if ok else 'MISSED'}; peak connections {peak} ≤ {max_conns} "
        f"({workers} workers + pool {max_conns - workers}): {'ok' if peak <= max_conns else 'MISSED'}"
    )
    ok &= peak <= max_conns
    if "sheet@32" in results["stack"] and "daphne" in results:
        ratio = results["stack"]["sheet@32"]["ok_rps"] / max(results["daphne"]["sheet@32"]["ok_rps"], 1e-9)
        say(
            f"         sheet at 32 clients {ratio:.2f}× today's daphne (≥ {TARGETS['ratio_sheet_32']}): "
            f"{'ok' if ratio >= TARGETS['ratio_sheet_32'] else 'MISSED'}"
        )
        ok &= ratio >= TARGETS["ratio_sheet_32"]
    if any(k.startswith("validate@") for k in results["stack"]):
        best = max(v["ok_rps"] for k, v in results["stack"].items() if k.startswith("validate@"))
        say(
            f"         validate {best:.0f} req/s (≥ {TARGETS['validate_rps']:,}): "
            f"{'ok' if best >= TARGETS['validate_rps'] else 'MISSED'}"
        )
        ok &= best >= TARGETS["validate_rps"]
    say(f"load average after: {os.getloadavg()[0]:.2f}")

    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H%M%SZ")
    record = {
        "when": stamp,
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
        "duration_s": args.duration,
        "workers": workers,
        "max_connections_documented": max_conns,
        "results": results,
    }
    (RESULTS / f"load-{stamp}.json").write_text(json.dumps(record, indent=2) + "\n")
    say(f"written to bench/results/load-{stamp}.json")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
