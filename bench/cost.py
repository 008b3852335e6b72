#!/usr/bin/env python
"""CPU per request of the production stack's processes: a load-independent measure.

    .venv/bin/python bench/cost.py [--port 8300] [--requests validate] [--duration 5] [--rounds 3]
    .venv/bin/python bench/cost.py --url http://127.0.0.1:8300/ --url http://127.0.0.1:8310/  # A/B
    .venv/bin/python bench/cost.py --in-process [--without MIDDLEWARE_PART ...]

Throughput (bench/load.py) on a shared 2-core machine measures the neighbours as much as the
code. What a request costs does not depend on them much: this drives wrk at --clients
connections for --duration seconds and reads, before and after, the CPU time the kernel charged
to each process of the stack (``/proc/<pid>/task/<tid>/schedstat``, nanoseconds, user + system),
then prints microseconds of CPU per answered request for nginx (master and workers), gunicorn
(master and workers) and their sum, and what wrk itself spent (it shares the cores in a real run).
On a busy machine every process's CPU per request grows somewhat (caches are shared and
switched more often), so compare stacks measured in the same run, round after round.

Without --url it starts ``deploy/serve.py`` on --port (DATABASE_URL and REDIS_URL as for
`make serve`) and stops it after. Several --url are measured in turn, round after round (the
load drifts: interleaved rounds compare); each must be a `make serve` on loopback, whose
processes are found from the one listening on its port. Results also go to
bench/results/cost-<UTC time>.json (git-ignored).

--in-process calls config.wsgi's application directly in a loop with the environ gunicorn gives
it behind nginx (DEBUG off, the validate POST), best of 5 × 1,000: Django's share alone, in µs
of CPU (time.process_time). --without drops the middleware whose dotted path contains the text
(repeatable), to see what one costs; nothing of the sort is a configuration to run. --tree
measures another checkout (e.g. main) the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from bench.typical import first_typical  # noqa: E402
from deploy import serve  # noqa: E402

RESULTS = ROOT / "bench" / "results"


# ------------------------------------------------------------------ processes and their CPU


def _stat(pid: int) -> tuple[str, int]:
    """(comm, ppid) of a process."""
    text = Path(f"/proc/{pid}/stat").read_text()
    comm = text[text.index("(") + 1 : text.rindex(")")]
    return comm, int(text[text.rindex(")") + 2 :].split()[1])


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def listener_pid(port: int) -> int:
    """A process holding the TCP socket that listens on 127.0.0.1:``port`` (nginx's master or a worker)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":  # LISTEN
                inodes.add(f"socket:[{fields[9]}]")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) in inodes:
                    return int(entry.name)
        except OSError:
            continue
    raise SystemExit(f"no process listens on port {port}")


def stack_processes(port: int) -> dict[str, list[int]]:
    """The processes of the `make serve` listening on ``port``, by server: nginx, gunicorn, daphne."""
    pid = listener_pid(port)
    comm, ppid = _stat(pid)
    while comm.startswith("nginx") and _stat(ppid)[0].startswith("nginx"):  # a worker: up to the master
        pid, (comm, ppid) = ppid, _stat(ppid)
    root = ppid  # serve.py
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(_stat(int(entry.name))[1], []).append(int(entry.name))
            except (OSError, ValueError):
                pass
    found: dict[str, list[int]] = {"nginx": [], "gunicorn": [], "daphne": []}
    todo = list(children.get(root, []))
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        line = _cmdline(p)
        for name in found:
            if name in line or (name == "gunicorn" and "sheetforge-web" in line):
                found[name].append(p)
                break
    if not found["nginx"] or not found["gunicorn"]:
        raise SystemExit(f"port {port}: not a `make serve` stack ({found})")
    return found


def cpu_ns(pids: list[int]) -> int:
    """User + system CPU of every thread of ``pids`` so far, in nanoseconds (schedstat's first field)."""
    total = 0
    for pid in pids:
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                total += int((task / "schedstat").read_text().split()[0])
        except OSError:
            pass
    return total


# ------------------------------------------------------------------ one measurement


def run_wrk(base: str, req: dict, clients: int, duration: int, tmp: Path) -> tuple[dict, float]:
    """wrk as load.py runs it; returns its result and its own CPU seconds (user + system)."""
    headers = "\n".join(f'wrk.headers["{k}"] = [==[{v}]==]' for k, v in req["headers"].items())
    script = tmp / "request.lua"
    script.write_text(load.LUA % {"method": req["method"], "body": req["body"], "headers": headers})
    argv = ["wrk", "-t", "1", "-c", str(clients), "-d", f"{duration}s", "--timeout", "10s"]
    proc = subprocess.Popen(
        [*argv, "-s", str(script), base + req["path"]], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out = proc.stdout.read().decode()  # type: ignore[union-attr]
    proc.stderr.read()  # type: ignore[union-attr]
    _, _, usage = os.wait4(proc.pid, 0)
    line = next((x for x in out.splitlines() if x.startswith("JSON ")), None)
    if line is None:
        raise SystemExit(f"wrk printed no result:\n{out}")
    return json.loads(line[5:]), usage.ru_utime + usage.ru_stime


def measure(base: str, req: dict, clients: int, duration: int, tmp: Path) -> dict:
    procs = stack_processes(urllib.parse.urlsplit(base).port or 80)
    before = {name: cpu_ns(pids) for name, pids in procs.items()}
    result, wrk_cpu = run_wrk(base, req, clients, duration, tmp)
    after = {name: cpu_ns(pids) for name, pids in procs.items()}
    answered = result["requests"] - result["non2xx"]
    if answered <= 0 or result["non2xx"]:
        raise SystemExit(f"{base}: {result['non2xx']} non-2xx of {result['requests']} answers")
    us = {name: (after[name] - before[name]) / 1e3 / answered for name in procs}
    us["stack"] = us["nginx"] + us["gunicorn"]
    us["wrk"] = wrk_cpu * 1e6 / answered
    return {
        "requests": answered,
        "rps": answered / (result["duration_us"] / 1e6),
        "us_per_request": us,
        "load_average": os.getloadavg()[0],
    }


def in_process(without: list[str], tree: Path, n: int = 1000) -> None:
    import io

    if "config" in sys.modules:
        raise SystemExit("in_process() must run before Django is imported")
    sys.path.insert(0, str(tree))  # that checkout's config, characters, rulesets...

    for name, value in {**serve.PLAIN_HTTP, **serve.BEHIND_ONE_PROXY, "DEBUG": "false"}.items():
        os.environ[name] = value
    os.environ.setdefault("SECRET_KEY", "in-process-only-" + os.urandom(32).hex())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not any(w in m for w in without)]
    from django.core.handlers.wsgi import WSGIHandler

    application = WSGIHandler()
    _, path, text = first_typical()
    body = text.encode()
    import config

    assert Path(config.__file__).resolve().parent.parent == tree, config.__file__
    base = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/" + path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.0",
        "REMOTE_ADDR": "",
        "HTTP_HOST": "127.0.0.1:8000",
        "HTTP_X_FORWARDED_HOST": "127.0.0.1:8000",
        "HTTP_X_FORWARDED_PROTO": "http",
        "HTTP_X_FORWARDED_FOR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status: list[str] = []

    def start_response(s, headers, exc_info=None):
        status[:] = [s]

    def one() -> None:
        out = application({**base, "wsgi.input": io.BytesIO(body)}, start_response)
        b"".join(out)
        out.close()

    for _ in range(200):
        one()
    if not status[0].startswith("200"):
        raise SystemExit(f"the validate request answered {status[0]}")
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(n):
            one()
        best = min(best, (time.process_time() - start) / n)
    dropped = f" without {', '.join(without)}" if without else ""
    print(f"validate in process{dropped}: {best * 1e6:.1f} µs of CPU per request (best of 5 × {n})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", action="append", help="a running `make serve` (repeat to compare)")
    parser.add_argument("--port", type=int, default=8300, help="port of the stack started here")
    parser.add_argument("--requests", default="validate", help="of bench/load.py's: sheet,builder,validate")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=int, default=5, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--in-process", action="store_true", help="Django alone, no server")
    parser.add_argument("--without", action="append", default=[], help="with --in-process")
    parser.add_argument("--tree", default=str(ROOT), help="with --in-process: the checkout to measure")
    args = parser.parse_args()
    if args.in_process:
        in_process(args.without, Path(args.tree).resolve())
        return 0

    env = serve.environment()
    started = None
    urls = [u.rstrip("/") + "/" for u in args.url or []]
    try:
        if not urls:
            serve.ensure_database(env.get("DATABASE_URL", ""))
            RESULTS.mkdir(parents=True, exist_ok=True)
            started = load.start(
                [sys.executable, "deploy/serve.py"],
                # every client is one address: nginx's per-address limit (NGINX_CONN_PER_IP) is the bench's own
                {**env, "PORT": str(args.port), "HOST": "127.0.0.1", "NGINX_CONN_PER_IP": "4096"},
                RESULTS / "cost-serve.log",
            )
            urls = [f"http://127.0.0.1:{args.port}/"]
            load.wait_healthy(urls[0], started)
        for url in urls:
            if urllib.parse.urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
                raise SystemExit("loopback only: --url must be http://127.0.0.1:PORT/")
            load.wait_healthy(url, None)
        names = args.requests.split(",")
        if names == ["validate"]:  # no session needed: spare the database set-up
            _, path, build = first_typical()
            reqs = {
                "validate": {
                    "path": path,
                    "method": "POST",
                    "body": build,
                    "headers": {"Content-Type": "application/json"},
                }
            }
        else:
            ids = load.prepare(env)
            reqs = {k: v for k, v in load.requests_for(urls[0], ids).items() if k in names}
        print(
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; "
            f"{args.rounds} rounds × {len(urls)} stacks × {len(reqs)} requests × {args.duration} s, "
            f"{args.clients} connections",
            flush=True,
        )
        results: dict = {url: {name: [] for name in reqs} for url in urls}
        with tempfile.TemporaryDirectory(prefix="sheetforge-cost-") as tmp:
            for url in urls:
                load.warm(url, url, reqs)
            for rnd in range(args.rounds):
                for name, req in reqs.items():
                    for url in urls:
                        r = measure(url, req, args.clients, args.duration, Path(tmp))
                        results[url][name].append(r)
                        u = r["us_per_request"]
                        print(
                            f"  round {rnd + 1} {url} {name:<8} {r['requests']:>6} answers "
                            f"{r['rps']:>7.0f}/s  µs CPU per request: nginx {u['nginx']:6.1f}  "
                            f"gunicorn {u['gunicorn']:6.1f}  stack {u['stack']:6.1f}  (wrk {u['wrk']:5.1f})  "
                            f"load {r['load_average']:.1f}",
                            flush=True,
                        )
    finally:
        if started is not None:
            load.stop(started, signal.SIGINT)

    print()
    print("median µs of CPU per answered request (nginx + gunicorn = stack; wrk apart):")
    first: dict[str, float] = {}
    for url in urls:
        for name in reqs:
            rows = results[url][name]
            med = {
                k: statistics.median(r["us_per_request"][k] for r in rows) for k in rows[0]["us_per_request"]
            }
            versus = ""
            if name in first:
                versus = f"  ({med['stack'] / first[name] - 1:+.0%} against the first)"
            else:
                first[name] = med["stack"]
            print(
                f"  {url} {name:<8} nginx {med['nginx']:6.1f}  gunicorn {med['gunicorn']:6.1f}  "
                f"stack {med['stack']:6.1f}  wrk {med['wrk']:5.1f}{versus}"
            )
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H%M%SZ")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"cost-{stamp}.json").write_text(json.dumps(results, indent=2) + "\n")
    print(f"written to bench/results/cost-{stamp}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
