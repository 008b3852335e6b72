"""The production stack (`make serve`, deploy/serve.py) under real faults: a server killed with
SIGKILL, a flood of slow connections from one address, bodies over the limit sent chunked, two
stacks from one checkout. One stack serves the module (tests/deploy/stack.py), on the test
database and Redis, on loopback; other client addresses are other loopback addresses (127.0.0.2,
127.0.0.3: nginx sees each as a client of its own). Every wait is bounded."""

from __future__ import annotations

import errno
import os
import resource
import select
import signal
import socket
import threading
import time
from collections import Counter

import pytest

from deploy import serve
from tests.deploy.stack import Serve, children_of, connect_from, free_stack_port, http_get, ws_handshake
from tests.factories import database_url_for_servers
from tests.waiting import poll

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),  # the test database exists (the servers open it)
    pytest.mark.postgres_only("the stack's servers open the test database (SQLite's is in this process)"),
]

REDIS_TEST_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15")
BACK_WITHIN_S = 15  # daphne restarted (1 s backoff) and listening again, on a loaded machine
HEADER_TIMEOUT_S = 10  # client_header_timeout and client_body_timeout in the nginx template


def _redis_up() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_TEST_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:
        return False


def _stack(port: int, log, **extra) -> Serve:
    from django.conf import settings

    return Serve(
        port=port,
        database_url=database_url_for_servers(),
        redis_url=REDIS_TEST_URL,
        secret_key=settings.SECRET_KEY,
        log=log,
        **extra,
    )


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):
    if not _redis_up():
        pytest.skip(f"Redis does not answer at {REDIS_TEST_URL}")
    with django_db_blocker.unblock():
        server = _stack(free_stack_port(), tmp_path_factory.mktemp("serve") / "console.log")
    with server:
        yield server


class Probe(threading.Thread):
    """GETs one path in a loop until stopped, from one address; the statuses in order."""

    def __init__(
        self, port: int, path: str = "/accounts/login/", source: str = "127.0.0.1", pause: float = 0.05
    ):
        super().__init__(daemon=True)
        self.port, self.path, self.source, self.pause = port, path, source, pause
        self.statuses: list[int] = []
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            self.statuses.append(http_get(self.port, self.path, source=self.source))
            time.sleep(self.pause)  # deliberate wait: a client's pace between two of its requests

    def served(self, more: int) -> None:
        """Wait until this client has had ``more`` answers from now on (nginx serves it)."""
        now = len(self.statuses)
        assert poll(lambda: len(self.statuses), until=lambda n: n >= now + more, timeout=30) >= now + more

    def finish(self) -> Counter:
        self.halt.set()
        self.join(timeout=30)
        return Counter(self.statuses)


# ------------------------------------------------------------------ a dead process comes back


def test_the_webhooks_worker_runs_beside_the_servers_and_comes_back_when_killed(stack):
    worker = stack.pid("webhooks")
    with open(f"/proc/{worker}/cmdline", "rb") as f:
        assert b"deliver_webhooks" in f.read()
    os.kill(worker, signal.SIGKILL)
    again = poll(
        lambda: stack.pid("webhooks"), until=lambda pid: pid != worker, timeout=BACK_WITHIN_S, every=0.2
    )
    assert again != worker, stack.console()[-2000:]
    with open(f"/proc/{again}/cmdline", "rb") as f:
        assert b"deliver_webhooks" in f.read()


def test_a_killed_daphne_is_restarted_while_nginx_and_gunicorn_serve_on(stack):
    assert ws_handshake(stack.port) == 403  # daphne answers (/ws/nope/ is no route: refused)
    daphne = stack.pid("daphne")
    pages = Probe(stack.port)
    pages.start()
    pages.served(5)  # pages are served before the kill
    os.kill(daphne, signal.SIGKILL)
    killed = time.monotonic()
    seen: list[int] = []

    def handshake() -> int:
        seen.append(ws_handshake(stack.port))
        return seen[-1]

    poll(handshake, until=lambda status: status == 403, timeout=BACK_WITHIN_S, every=0.2)
    back_after = time.monotonic() - killed
    pages.served(5)  # and after daphne is back
    statuses = pages.finish()

    assert seen[-1] == 403, f"daphne is not back {BACK_WITHIN_S} s after its kill: {Counter(seen)}"
    assert 502 in seen or back_after < 1.5  # nginx said so meanwhile (daphne was really gone)
    # nginx and gunicorn served every page meanwhile (before: serve.py stopped them, all failed)
    assert set(statuses) == {200}, statuses
    assert len(pages.statuses) >= 10
    console = stack.console()
    assert f"make serve: daphne (pid {daphne}) exited (killed by SIGKILL)" in console
    assert "restarting it in 1 s, the other servers serve on." in console
    assert "make serve: daphne serves again" in console
    assert stack.pid("daphne") != daphne
    print(f"daphne back after {back_after:.1f} s; pages meanwhile: {dict(statuses)}")


def test_a_killed_web_worker_loses_no_get(stack):
    """A gunicorn worker killed mid-request: nginx tries the GET once more (another worker answers)."""
    master = stack.pid("gunicorn")
    clients = [Probe(stack.port, pause=0) for _ in range(3)]
    for c in clients:
        c.start()
    gone: set[int] = set()
    for _ in range(6):
        # each kill under load (every client served since the last one), of a worker not yet killed
        for c in clients:
            c.served(3)
        workers = poll(lambda: [w for w in children_of(master) if w not in gone], timeout=30)
        if workers:
            os.kill(workers[0], signal.SIGKILL)
            gone.add(workers[0])
    killed = len(gone)
    for c in clients:
        c.served(3)  # what was on its way at the last kill has had its answer
    statuses = sum((c.finish() for c in clients), Counter())
    assert killed == 6
    assert sum(statuses.values()) >= 30
    assert set(statuses) == {200}, f"{killed} workers killed: {dict(statuses)}"
    print(f"{killed} workers killed under 3 clients: {dict(statuses)}")


# ------------------------------------------------------------------ bodies over the limit


def _post(port: int, size: int, *, chunked: bool) -> tuple[int, bytes]:
    body = b"{" + b" " * (size - 2) + b"}"
    head = "POST /api/v1/characters/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += "Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {size}\r\n"
    with connect_from("127.0.0.1", port, timeout=20) as s:
        s.sendall((head + "Connection: close\r\n\r\n").encode())
        try:
            if chunked:
                for i in range(0, size, 16384):
                    piece = body[i : i + 16384]
                    s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                s.sendall(b"0\r\n\r\n")
            else:
                s.sendall(body)
        except OSError:  # nginx may answer (and stop reading) before the whole body is sent
            pass
        answer = b""
        while True:
            try:
                data = s.recv(65536)
            except OSError:
                break
            if not data:
                break
            answer += data
    status = int(answer.split()[1]) if answer.startswith(b"HTTP/") else 0
    return status, answer.partition(b"\r\n\r\n")[2]


def test_a_body_over_256_kib_is_413_however_it_is_sent(stack):
    log = stack.run_dir / "error.log"
    before = log.read_text() if log.exists() else ""
    tries = [(300 * 1024, True)] * 4 + [(900 * 1024, True)] * 4 + [(300 * 1024, False)] * 2
    answers = [_post(stack.port, size, chunked=chunked) for size, chunked in tries]
    statuses = [status for status, _ in answers]
    assert statuses == [413] * len(tries), statuses
    for _, body in answers:
        assert b'"detail": "Request body is over 262144 bytes; the limit is 262144."' in body
    # nginx refused them itself: nothing reached gunicorn to be cut off (before: "readv() failed
    # (104: Connection reset by peer) while reading upstream", a 502 in 1 of 2 tries)
    added = (log.read_text() if log.exists() else "")[len(before) :]
    assert "upstream" not in added, added[-2000:]


# ------------------------------------------------------------------ one client never shuts others out


def _status_if_answered(s: socket.socket) -> int | None:
    """The status on ``s`` if nginx has answered, 0 if it closed without one, None if it waits."""
    if not select.select([s], [], [], 0)[0]:
        return None
    try:
        head = s.recv(64)
    except OSError:
        return 0
    return int(head.split()[1]) if head.startswith(b"HTTP/") else 0


def test_one_address_is_held_to_its_connections_and_the_others_are_served(stack):
    """200 requests from 127.0.0.2 that send their headers and then hold their bodies back: the
    128 (NGINX_CONN_PER_IP's default) are waited on, the 72 past it are 429 at once; 127.0.0.3
    is served meanwhile, and the held ones are closed 10 s on (client_body_timeout)."""
    limit = serve.CONN_PER_IP_DEFAULT
    sockets = []
    try:
        for _ in range(200):
            s = connect_from("127.0.0.2", stack.port)
            s.sendall(
                b"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
            )
            sockets.append(s)
        opened = time.monotonic()
        first: list[int | None] = [None] * len(sockets)

        def answered() -> int:
            for i, s in enumerate(sockets):
                if first[i] is None:
                    first[i] = _status_if_answered(s)
            return sum(status is not None for status in first)

        # the ones past the limit are answered at once; the held ones (asserted below) never are
        poll(answered, until=lambda n: n >= len(sockets) - limit, timeout=HEADER_TIMEOUT_S - 1)
        other = [http_get(stack.port, source="127.0.0.3") for _ in range(5)]
        same = http_get(stack.port, source="127.0.0.2")
        waiting = [s for s, status in zip(sockets, first, strict=True) if status is None]
        ended: list[int] = []

        def still_waiting() -> list[socket.socket]:
            for s in list(waiting):
                status = _status_if_answered(s)
                if status is not None:
                    ended.append(status)
                    waiting.remove(s)
            return waiting

        poll(
            still_waiting,
            until=lambda left: not left,
            timeout=HEADER_TIMEOUT_S + 5 - (time.monotonic() - opened),
            every=0.25,
        )
        closed_after = time.monotonic() - opened
    finally:
        for s in sockets:
            s.close()
    after = http_get(stack.port, source="127.0.0.2")

    assert Counter(first) == Counter({None: limit, 429: 200 - limit}), Counter(first)
    assert other == [200] * 5  # another address is served
    assert same == 429  # this one is at its limit
    # the held ones are closed (without an answer: nginx drops a timed-out request) by the body
    # timeout, not after nginx's default 60 s
    assert Counter(ended) == Counter({0: limit}) and not waiting, (Counter(ended), len(waiting))
    assert HEADER_TIMEOUT_S - 1 < closed_after < HEADER_TIMEOUT_S + 5
    assert after == 200  # and the address is served again once they are gone
    print(f"first look: {dict(Counter(first))}; the held ones closed after {closed_after:.1f} s")


def _closed_by_server(s: socket.socket) -> bool:
    """Whether nginx has closed ``s`` (a non-blocking socket it never answered)."""
    try:
        return s.recv(64) == b""
    except BlockingIOError:
        return False
    except OSError as e:
        return e.errno in (errno.ECONNRESET, errno.EPIPE)


def test_slow_headers_from_one_address_do_not_shut_the_others_out(stack):
    """3,000 connections from 127.0.0.2 that send half a request's headers (1,024 worker
    connections per nginx worker gave out at ~2,600): 127.0.0.3 is served all along, and nginx
    closes the slow ones 10 s on (client_header_timeout) rather than 60."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 3500:
        pytest.skip(f"3,000 connections need more open files than this machine allows (ulimit -Hn {hard})")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(8192, hard)), hard))
    slow: list[socket.socket] = []
    try:
        for _ in range(3000):
            try:
                s = connect_from("127.0.0.2", stack.port, timeout=3)
                s.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                slow.append(s)
            except OSError:
                break
        opened = time.monotonic()
        statuses = []
        while time.monotonic() - opened < 6:
            statuses.append(http_get(stack.port, source="127.0.0.3", timeout=5))
            for s in slow[:50]:  # a byte now and then, as a slow client sends
                try:
                    s.send(b"a")
                except OSError:
                    pass
            time.sleep(0.3)  # deliberate wait: a slow client's pace, all the while the others are served
        for s in slow:
            s.setblocking(False)
        ended: set[socket.socket] = set()

        def closed_now() -> int:
            for s in slow:
                if s not in ended and _closed_by_server(s):
                    ended.add(s)
            return len(ended)

        closed = poll(
            closed_now,
            until=lambda n: n >= 2950,
            timeout=HEADER_TIMEOUT_S + 3 - (time.monotonic() - opened),
            every=0.5,
        )
    finally:
        for s in slow:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

    assert len(slow) == 3000  # every connection was accepted
    assert len(statuses) >= 10 and set(statuses) == {200}, Counter(statuses)
    assert closed >= 2950, f"{closed} of {len(slow)} closed {HEADER_TIMEOUT_S + 3} s on"
    print(f"others: {dict(Counter(statuses))}; slow ones closed after {HEADER_TIMEOUT_S + 3} s: {closed}")


# ------------------------------------------------------------------ two stacks, one checkout


def test_two_stacks_of_one_checkout_keep_their_own_run_folders(stack, django_db_blocker, tmp_path):
    with django_db_blocker.unblock():
        second = _stack(free_stack_port(avoid={stack.port}), tmp_path / "console.log")
    with second:
        first_pid = int((stack.run_dir / "nginx.pid").read_text())
        second_pid = int((second.run_dir / "nginx.pid").read_text())
        assert first_pid == stack.pid("nginx")
        assert second_pid == second.pid("nginx") != first_pid
        assert (second.run_dir / "error.log").exists() and stack.run_dir != second.run_dir
        assert http_get(second.port) == 200 and http_get(stack.port) == 200
    # the second one's stop left the first one's pid file and servers alone
    assert int((stack.run_dir / "nginx.pid").read_text()) == stack.pid("nginx")
    assert http_get(stack.port) == 200
