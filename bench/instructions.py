#!/usr/bin/env python
"""Instructions per request of a gunicorn worker (valgrind's callgrind): the same on a busy machine.

    .venv/bin/python bench/instructions.py [--requests 50,250] [--tree CHECKOUT]

CPU time (bench/cost.py) still moves with the neighbours; the number of instructions a request
executes does not. This runs gunicorn as `make serve` does (deploy/gunicorn.conf.py, config.wsgi,
a unix socket; one sync worker, PYTHONHASHSEED=0) under ``valgrind --tool=callgrind``, sends 20
warm-up requests and then N of the request (POST of the first ruleset's typical build, bench/typical.py), stops it,
and reads the worker's instruction count. The worker's count includes what the master did before
forking it and its own start, the same for every N: two runs with different N give, by
difference, the instructions of one request (gunicorn's parsing and writing included; the
kernel's work on the socket is not counted, see bench/cost.py for that).

--tree measures another checkout of Sheetforge (e.g. main, to compare) with this venv.

Takes a few minutes (Python runs ~50 times slower under valgrind). Needs valgrind
(apt-get install valgrind) and DATABASE_URL / REDIS_URL as for `make serve` (the validate request
touches neither).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.typical import first_typical  # noqa: E402
from deploy import serve  # noqa: E402

WARM_UP = 20


def request_bytes(path: str, body: bytes) -> bytes:
    """What nginx sends gunicorn for the request (deploy/nginx/sheetforge.conf.template's headers)."""
    head = (
        f"POST /{path} HTTP/1.0\r\nHost: 127.0.0.1:8000\r\nX-Forwarded-Host: 127.0.0.1:8000\r\n"
        "X-Forwarded-Proto: http\r\nX-Forwarded-For: 127.0.0.1\r\n"
        f"Content-Length: {len(body)}\r\nContent-Type: application/json\r\n\r\n"
    )
    return head.encode() + body


def send(sock_path: str, raw: bytes, n: int) -> None:
    for _ in range(n):
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(sock_path)
            s.sendall(raw)
            answer = b""
            while chunk := s.recv(65536):
                answer += chunk
        if not answer.startswith(b"HTTP/1.0 200") and not answer.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"the worker answered {answer[:80]!r}")


def run(n: int, raw: bytes, env: dict[str, str], tree: Path) -> int:
    """The worker's instructions for WARM_UP + n requests."""
    with tempfile.TemporaryDirectory(prefix="sheetforge-callgrind-") as tmp:
        sock_path = f"{tmp}/g.sock"
        argv = [
            "valgrind",
            "--tool=callgrind",
            "--trace-children=yes",
            f"--callgrind-out-file={tmp}/cg.%p",
            str(Path(sys.executable).parent / "gunicorn"),
            "-c",
            str(tree / "deploy" / "gunicorn.conf.py"),
            "--timeout",
            "600",
            "--bind",
            f"unix:{sock_path}",
            "config.wsgi:application",
        ]
        with open(f"{tmp}/log", "w") as log:
            master = subprocess.Popen(
                argv, cwd=tree, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            deadline = time.monotonic() + 900
            while not os.path.exists(sock_path):
                if master.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(
                        f"gunicorn under valgrind did not start:\n{Path(tmp, 'log').read_text()}"
                    )
                time.sleep(1)
            send(sock_path, raw, WARM_UP)  # waits in the socket's queue until the worker is up
            send(sock_path, raw, n)
        finally:
            master.send_signal(signal.SIGTERM)
            master.wait(timeout=300)
        counts = {}
        for out in Path(tmp).glob("cg.*"):
            summary = next(line for line in out.read_text().splitlines() if line.startswith("summary:"))
            counts[int(out.suffix[1:])] = int(summary.split()[1])
        workers = [count for pid, count in counts.items() if pid != master.pid]
        if len(workers) != 1:
            raise SystemExit(f"expected one worker, found the counts {counts}")
        return workers[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", default="50,250", help="two request counts, comma-separated")
    parser.add_argument("--path", help="default: the first ruleset's validate URL")
    parser.add_argument("--tree", default=str(ROOT), help="the checkout to measure (default: this one)")
    parser.add_argument("--body", help="a JSON file; default: the first ruleset's typical build")
    args = parser.parse_args()
    if not args.path or not args.body:
        _, path, build = first_typical()
        if not args.body:
            body_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
            body_file.write(build)
            body_file.close()
            args.body = body_file.name
        args.path = args.path or path
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    low, high = sorted(int(n) for n in args.requests.split(","))
    env = {**serve.environment(), "WEB_CONCURRENCY": "1", "PYTHONHASHSEED": "0"}
    raw = request_bytes(args.path, Path(args.body).read_bytes())
    counts = {}
    for n in (low, high):
        counts[n] = run(n, raw, env, Path(args.tree).resolve())
        print(f"  {WARM_UP} + {n} requests: worker {counts[n]:,} instructions", flush=True)
    per_request = (counts[high] - counts[low]) / (high - low)
    print(f"POST /{args.path}: {per_request:,.0f} instructions per request in the gunicorn worker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
