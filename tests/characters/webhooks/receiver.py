"""A local webhook receiver for the tests: an HTTP server on 127.0.0.1 (a port from 8180–8189) that
records every request and answers what the test queued (status, headers, body, a delay)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORTS = range(8180, 8190)


@dataclass
class Heard:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    server: ThreadingHTTPServer
    heard: list[Heard] = field(default_factory=list)
    #: (status, headers, body, seconds to wait first) answered in turn; the last one stays.
    answers: list[tuple[int, dict[str, str], bytes, float]] = field(
        default_factory=lambda: [(200, {}, b"", 0.0)]
    )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def answer(
        self, status: int, headers: dict[str, str] | None = None, body: bytes = b"", delay: float = 0.0
    ):
        self.answers = [(status, headers or {}, body, delay)]

    def then(self, status: int, headers: dict[str, str] | None = None, body: bytes = b"", delay: float = 0.0):
        self.answers.append((status, headers or {}, body, delay))

    def next_answer(self):
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def start() -> Receiver:
    holder: dict[str, Receiver] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 — http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            receiver = holder["r"]
            receiver.heard.append(Heard(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status, headers, answer, delay = receiver.next_answer()
            if delay:
                time.sleep(delay)  # deliberate wait: a slow endpoint is what the test asks for
            try:
                self.send_response(status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)
            except OSError:
                pass  # the worker gave up waiting

        def log_message(self, *args):
            pass

    server = None
    for port in PORTS:
        try:
            server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
            break
        except OSError:
            continue
    assert server is not None, "no free port in 8180-8189 for the test receiver"
    server.daemon_threads = True
    holder["r"] = Receiver(server)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return holder["r"]
