"""`make serve` (deploy/serve.py) as a test runs it: the whole stack (nginx, gunicorn, daphne) in a
process of its own on the test database and Redis, on loopback ports, stopped with Ctrl-C's signal.

Ports: DEPLOY_TEST_PORTS ("8130-8149") when set, else free ones between 20000 and 29999 (below
Linux's ephemeral range, where the clients' own ports are taken). A stack needs PORT and PORT+2."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.waiting import poll

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 180  # collectstatic and migrate (a no-op on the test database) first, on a busy machine
STOP_TIMEOUT_S = 30


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def free_stack_port(avoid: set[int] = frozenset()) -> int:
    """A port P with P and P+2 free (and P+1: the range is the stack's)."""
    wanted = os.environ.get("DEPLOY_TEST_PORTS", "")
    found = re.fullmatch(r"(\d+)-(\d+)", wanted)
    candidates = (
        list(range(int(found.group(1)), int(found.group(2)) - 1))
        if found
        else random.sample(range(20000, 29997), 200)
    )
    for port in candidates:
        if {port, port + 1, port + 2} & set(avoid):
            continue
        if all(_free(p) for p in (port, port + 1, port + 2)):
            return port
    raise RuntimeError(f"no three free ports in a row ({wanted or '20000-29999'})")


class Serve:
    """deploy/serve.py on ``port``; its console (stdout and stderr) in ``log``."""

    def __init__(self, *, port: int, database_url: str, redis_url: str, secret_key: str, log: Path, **extra):
        self.port = port
        self.log = log
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if k not in ("SHEETFORGE_SERVER", "DJANGO_ALLOW_ASYNC_UNSAFE")
            },
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "SECRET_KEY": secret_key,
            "SEED_DEMO": "false",
            "WEB_CONCURRENCY": "2",
            "LOG_LEVEL": "WARNING",
            **{k: str(v) for k, v in extra.items()},
        }
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def run_dir(self) -> Path:
        return ROOT / ".serve" / str(self.port)

    def console(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def start(self) -> Serve:
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "deploy/serve.py"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def started() -> bool:
            if self.proc.poll() is not None:
                raise RuntimeError(f"make serve stopped ({self.proc.returncode}):\n{self.console()[-4000:]}")
            return "/healthz → " in self.console()

        if poll(started, timeout=START_TIMEOUT_S, every=0.3):
            return self
        self.stop()
        raise RuntimeError(f"make serve did not start within {START_TIMEOUT_S} s:\n{self.console()[-4000:]}")

    def pid(self, server: str) -> int:
        """The pid of ``server`` (nginx, gunicorn, daphne) this stack runs now: the last one the
        console named (restarts are said there too)."""
        pids = re.findall(
            rf"(?:  {server}\s+pid |make serve: {server} restarted \(pid )(\d+)", self.console()
        )
        assert pids, f"{server} is not on the console:\n{self.console()[-2000:]}"
        return int(pids[-1])

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def __enter__(self) -> Serve:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def children_of(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return found


def connect_from(source: str, port: int, timeout: float = 5) -> socket.socket:
    """A TCP connection to 127.0.0.1:port from the loopback address ``source`` (127.0.0.2, ...):
    to nginx, another client address on the same machine."""
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def http_get(
    port: int, path: str = "/accounts/login/", *, source: str = "127.0.0.1", timeout: float = 10
) -> int:
    """The status of one GET (Connection: close) from ``source``; 0 when no answer came."""
    try:
        with connect_from(source, port, timeout) as s:
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = s.recv(64)
        return int(head.split()[1]) if head.startswith(b"HTTP/") else 0
    except (OSError, ValueError, IndexError):
        return 0


def ws_handshake(port: int, timeout: float = 5) -> int:
    """The status nginx answers a websocket handshake on /ws/ with: 403 when daphne is there (the
    path matches no route: refused before the handshake), 502 when it is not; 0 for no answer."""
    try:
        with connect_from("127.0.0.1", port, timeout) as s:
            s.sendall(
                b"GET /ws/nope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            head = s.recv(64)
        return int(head.split()[1]) if head.startswith(b"HTTP/") else 0
    except (OSError, ValueError, IndexError):
        return 0
