"""Shared browser fixtures: Debian's Chromium driven by Playwright, launched once per session.

    def test_something(browser_context, live_server):
        page = browser_context().new_page()
        sign_up(page, live_server.url, "mira", PASSWORD)

`page_as(user)` opens a page already signed in as a Django user (session cookie, no form).
Screenshots of failing steps can go in test-artifacts/ (ignored by git).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

import pytest

from tests.waiting import poll

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in the test thread

#: Debian's Chromium. Its old headless shell (package chromium-headless-shell: the same build, without
#: the full browser's windows and its user-interface renderers; what Playwright itself launches for a
#: headless run) when it is installed: the browser tests took ~40 % less CPU in it (bench note in
#: #20). Else the full browser in headless mode. ``CHROMIUM_PATH`` picks another binary.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(
    os.environ.get("CHROMIUM_PATH")
    or (str(HEADLESS_SHELL) if HEADLESS_SHELL.exists() else "/usr/bin/chromium")
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PASSWORD = "velvet-lantern-77"
HOME_URL = re.compile(r"^https?://[^/]+/$")


@pytest.fixture(scope="package")
def browser():
    """One Chromium for the browser tests (this package); skips with the reason when it cannot run here.

    Package scope, not session: Playwright's sync API keeps an event loop running in the test thread
    while it is open, and code under test that calls ``async_to_sync`` (the channel layer's close and
    broadcast messages) refuses to run beside one. Closed after tests/e2e, later tests run as in production."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: apt-get install chromium chromium-headless-shell"
            " (CI installs them; never `playwright install`)"
        )
    # expect()'s own default is 5 s; pages and actions get 10 s (``browser_context``). A page that
    # answers in well under a second alone can take seconds while the other test worker's browser
    # and server share the two cores: an assertion's wait is the suite's 15 s (failures still name
    # what was awaited; tests that hold a time budget assert it themselves).
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


_csp_violations: list[str] = []
#: What the running test's browsers did: each response (but the static files'), failed request and console error or warning,
#: with the seconds since the test began. A failing browser test's report shows it with where each
#: open page is (``browser_story``, called by tests/conftest.py's report hook): a failure seen once
#: in a full run says what the page asked for and got.
_story: list[str] = []
_contexts: list = []
_began = [time.monotonic()]
#: The daphne servers' log files (``_start_daphne``) and their size when the running test began.
_server_logs: dict[str, tuple[IO[bytes], int]] = {}


def _at() -> str:
    return f"{time.monotonic() - _began[0]:7.2f}s"


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def watch(context) -> None:
    """Watch every page of ``context``: the Content-Security-Policy violations Chromium reports (a
    console error "Refused to ... because it violates the following Content Security Policy
    directive"; ``_no_csp_violations`` fails the test on any), and the test's story (above)."""
    _contexts.append(context)

    def console(msg) -> None:
        if "Content Security Policy" in msg.text:
            _csp_violations.append(f"{msg.location.get('url', '')}: {msg.text}")
        if msg.type in ("error", "warning"):
            _story.append(f"{_at()} console {msg.type}: {msg.text[:300]}")

    context.on("console", console)

    def response(r) -> None:
        if not (r.ok and "/static/" in r.url):  # the page's own files, when they came, say little
            _story.append(f"{_at()} {r.request.method} {_path(r.url)} -> {r.status}")

    context.on("response", response)
    context.on(
        "requestfailed",
        lambda r: _story.append(f"{_at()} {r.method} {_path(r.url)} failed: {r.failure}"),
    )

    def websocket(ws) -> None:  # a live page's socket: asked for, failed, closed
        _story.append(f"{_at()} websocket {_path(ws.url)} asked for")
        ws.on("socketerror", lambda error: _story.append(f"{_at()} websocket {_path(ws.url)} error: {error}"))
        ws.on("close", lambda _: _story.append(f"{_at()} websocket {_path(ws.url)} closed"))

    context.on("page", lambda page: page.on("websocket", websocket))


#: Read off each open page of a failed test: its address, whether htmx is busy, and the text of what
#: the page says of itself (status lines, messages, the builder's save state and submit reason).
_PAGE_STATE = """() => ({
  busy: Array.from(document.querySelectorAll('.htmx-request, .htmx-swapping, .htmx-settling'))
    .map(el => el.id || el.tagName.toLowerCase()),
  said: Array.from(document.querySelectorAll(
    '[role=status], [role=alert], .message, #submit-reason, [data-testid$="-message"], [data-testid$="-error"]'
  )).map(el => (el.id ? '#' + el.id + ': ' : '') + el.textContent.replace(/\\s+/g, ' ').trim().slice(0, 200))
    .filter(text => text),
})"""


def browser_story() -> str:
    """The running test's story and its open pages, for its failure report ("" with no browser)."""
    if not _contexts and not _story:
        return ""
    lines = list(_story[-80:])
    for name, (log, since) in _server_logs.items():  # what the test's servers logged meanwhile
        log.seek(since)
        said = log.read().decode(errors="replace").strip()
        if said:
            lines.append(f"{name} logged:\n{said[-3000:]}")
    for context in _contexts:
        try:
            pages = list(context.pages)
        except Exception:  # noqa: BLE001 — a closed context has nothing to tell
            continue
        for page in pages:
            try:
                state = page.evaluate(_PAGE_STATE)
            except Exception as exc:  # noqa: BLE001 — a page that cannot answer says so
                state = {"error": str(exc)[:200]}
            lines.append(f"page {_path(page.url)}: {state}")
    return "\n".join(lines)


def slow_link(page, latency_ms: int = 300) -> None:
    """Every request of ``page`` ``latency_ms`` late each way (Chromium's network emulation): a
    phone's link, on which a second click lands while the first is on its way."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )


#: Each POST's answer reaches the page's script ``ms`` after the server sent it (htmx reads it in
#: xhr.onload, which is held); each held answer is recorded in window.__heard as "answer".
_HOLD_POST_ANSWERS = """(ms) => {
  window.__heard = window.__heard || [];
  const open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method) { this.__method = method; return open.apply(this, arguments); };
  XMLHttpRequest.prototype.send = function () {
    if (this.__method === "POST") {
      const xhr = this, onload = xhr.onload;
      xhr.onload = function (ev) {
        setTimeout(() => { window.__heard.push("answer"); onload.call(xhr, ev); }, ms);
      };
    }
    return send.apply(this, arguments);
  };
}"""


def hold_post_answers(page, ms: int = 1000) -> None:
    """Hold every POST's answer ``ms`` on ``page`` (already open): a slow link on which the live
    update's word, sent as the change commits, arrives before the answer of the request that made it."""
    page.evaluate(_HOLD_POST_ANSWERS, ms)


@pytest.fixture(autouse=True)
def _no_csp_violations():
    _csp_violations.clear()
    _story.clear()
    _contexts.clear()
    _began[0] = time.monotonic()
    for name, (log, _) in list(_server_logs.items()):
        _server_logs[name] = (log, log.seek(0, os.SEEK_END))
    yield
    violations = list(_csp_violations)
    _csp_violations.clear()
    _contexts.clear()
    assert violations == [], "Content-Security-Policy violations in the browser:\n" + "\n".join(violations)


@pytest.fixture
def browser_context(browser, live_server):
    """A factory of isolated browser contexts (separate cookies: one per person at the table)."""
    contexts = []

    def make(**options):
        options = {"base_url": live_server.url, "viewport": {"width": 1280, "height": 900}, **options}
        context = browser.new_context(**options)
        watch(context)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page_as(browser_context, live_server):
    """Open a page signed in as ``user`` (a Django user) without going through the login form."""
    from django.test import Client

    def open_as(user, **options):
        client = Client()
        client.force_login(user)
        context = browser_context(**options)
        cookie = client.cookies["sessionid"]
        context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
        return context.new_page()

    return open_as


@pytest.fixture
def tab_as(page_as):
    """One tab per person (and screen size) for a test that walks many pages: ``tab_as(user)`` opens
    a signed-in page the first time and gives the same page back after, as a person keeps one tab
    open and goes from page to page (its browser cache warm). A new context per page costs ~0.25 s
    of the ~0.35 s a page took. Tests that need two tabs of one person use ``page_as``."""
    tabs: dict[tuple, object] = {}

    def tab(user, **options):
        key = (user.pk, repr(sorted(options.items())))
        if key not in tabs or tabs[key].is_closed():
            tabs[key] = page_as(user, **options)
        return tabs[key]

    return tab


@pytest.fixture(scope="package")
def _walks() -> dict:
    return {}


@pytest.fixture
def walked(_walks, tab_as, table):
    """``walked(slug)``: what each page of ``slug``'s table holds, ``{"phone": …, "laptop": …}``
    (tests/e2e/phone_walk.py). The first test to ask walks the pages on its own table; the package's
    later tests get the same findings (the pages are not opened again)."""
    from tests.e2e import phone_walk as walks

    def found(slug: str) -> dict:
        if slug not in _walks:
            _walks[slug] = walks.walk(tab_as, table, slug)
        return _walks[slug]

    return found


@pytest.fixture
def phone_walk(walked):
    """``phone_walk(slug)``: the walk's findings at a phone's size (390×844)."""
    return lambda slug: walked(slug)["phone"]


@pytest.fixture
def laptop_walk(walked):
    """``laptop_walk(slug)``: the walk's findings at a laptop's size (1280×900), each page resized
    after its phone findings."""
    return lambda slug: walked(slug)["laptop"]


#: Where ``keep_screenshot`` saves: $SHOTS_DIR when it is set (a person looking at the pages), else
#: nothing is taken: no assertion reads a screenshot, and each cost ~0.2-0.5 s of a core.
SHOTS_DIR = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None


def keep_screenshot(page, name: str, *, full_page: bool = True) -> None:
    """A screenshot of ``page`` as $SHOTS_DIR/<name>.png, to look at; nothing without $SHOTS_DIR."""
    if SHOTS_DIR is not None:
        SHOTS_DIR.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=full_page)


def settled(page) -> None:
    """Wait until htmx has no request, swap or settle under way (what a page loads after it opens:
    ``hx-trigger="load"``), rather than a fixed pause."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def painted(page) -> None:
    """Wait until the page has drawn what just changed (a scroll, a swap's new layout): its next two
    animation frames, an event of the page rather than a fixed pause."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


#: Counts the requests the page sends (htmx's XMLHttpRequests and ``fetch``) and those that have had
#: their answer, in ``window.__requests`` (``answered`` waits on it).
_COUNT_REQUESTS = """() => {
  if (window.__requests) return;
  const counts = window.__requests = {sent: 0, ended: 0};
  const send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    counts.sent += 1;
    this.addEventListener("loadend", () => { counts.ended += 1; });
    return send.apply(this, arguments);
  };
  const fetch = window.fetch;
  window.fetch = function () {
    counts.sent += 1;
    return fetch.apply(this, arguments).finally(() => { counts.ended += 1; });
  };
}"""

#: Every request counted has had its answer, and the page has drawn it: htmx has no request, swap or
#: settle under way and no tap is waiting to leave (static/js/taps.js).
_ANSWERED = """() => window.__requests.sent === window.__requests.ended
  && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')
  && (!window.sfTaps || window.sfTaps.pending() === 0)"""


def count_requests(page) -> None:
    """From now on, count the requests ``page`` (already open) sends and those answered."""
    page.evaluate(_COUNT_REQUESTS)


def answered(page, timeout: float = 15_000) -> None:
    """Wait until every request ``page`` sent since ``count_requests`` has had its answer, drawn:
    the positive end of "and nothing more was sent" (a request still to come would be on its way,
    or queued behind one that is)."""
    page.wait_for_function(_ANSWERED, timeout=timeout)


#: Every websocket the page makes (``window.__sockets``), and every reconnect htmx's ws extension
#: plans (``window.__reconnects``: planned, and made once its delay is over; the delay is app.js's).
_FOLLOW_SOCKETS = """
window.__sockets = [];
window.__reconnects = {planned: 0, made: 0};
const NativeWebSocket = window.WebSocket;
window.WebSocket = function (url, protocols) {
  const socket = new NativeWebSocket(url, protocols);
  window.__sockets.push(socket);
  return socket;
};
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
window.WebSocket.prototype = NativeWebSocket.prototype;
document.addEventListener("DOMContentLoaded", () => {
  const delay = window.htmx && htmx.config.wsReconnectDelay;
  if (typeof delay !== "function") return;
  htmx.config.wsReconnectDelay = (retries) => {
    const ms = delay(retries);
    window.__reconnects.planned += 1;
    setTimeout(() => { window.__reconnects.made += 1; }, ms + 1);  // just after htmx's own
    return ms;
  };
});
"""


def follow_sockets(context) -> None:
    """Count the websockets of ``context``'s pages and their planned reconnects, from the next page
    loaded on (``stopped_reconnecting`` waits on them)."""
    context.add_init_script(_FOLLOW_SOCKETS)


def stopped_reconnecting(page) -> None:
    """Wait until every socket ``page`` opened is closed and every reconnect planned has been made:
    once the page has stopped following (its live element gone, which the caller waits for first),
    nothing can open another. The positive end of "and it did not reconnect again"."""
    page.wait_for_function(
        "() => window.__sockets.every(s => s.readyState === 3)"
        " && window.__reconnects.planned === window.__reconnects.made"
    )


def sign_up(page, username: str, password: str = PASSWORD) -> None:
    """Create an account through the sign-up form; the page ends on the home page, signed in."""
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(HOME_URL)


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Sign in through the login form; the page ends on the home page."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(HOME_URL)


@pytest.fixture(scope="package")
def daphne_servers(django_db_setup):
    """``serve(application)``: the base URL of daphne serving ``application`` (a module:attribute path)
    on this worker's test database, pages and websockets (pytest-django's live_server speaks WSGI only).

    One server per application for the package's tests, started when a test first asks for it: a start
    costs ~1.5 s of CPU and ~0.9 s before it answers, paid by each of ~40 tests before (a fifth of
    the browser tests' servers' time). The tests keep what made a server per test safe: each is
    transactional (its rows are committed for daphne to read, then deleted), its ids are new (the
    flush deletes rows, it does not reset sequences: tests/conftest.py), and it closes its browser
    contexts, so no page of one test talks to the server during the next. Stopped with the package,
    before the test database is dropped."""
    from django.db import connection

    servers: dict[str, tuple[subprocess.Popen, str, IO[bytes]]] = {}

    def serve(application: str) -> str:
        if connection.vendor != "postgresql":
            pytest.skip("a server process shares the test database: Postgres only")
        if application not in servers or servers[application][0].poll() is not None:
            servers[application] = _start_daphne(application)
            log = servers[application][2]
            _server_logs[f"daphne {application}"] = (log, log.seek(0, os.SEEK_END))
        return servers[application][1]

    yield serve
    for proc, _, _ in servers.values():
        proc.terminate()
    for application, (proc, _, log) in servers.items():
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
        _server_logs.pop(f"daphne {application}", None)
        log.close()


def _start_daphne(application: str) -> tuple[subprocess.Popen, str, IO[bytes]]:
    """daphne on a port of its own; (the process, its base URL, the file its errors go to)."""
    from tests.factories import database_url_for_servers

    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_servers(),
        "DEBUG": "true",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "REDIS_URL": "",
        # Warnings too: an outage's one line (config/outage.py: a socket closed with 1013, a pool
        # that gave no connection) goes into a failing test's story (``browser_story``).
        "LOG_LEVEL": "WARNING",
    }
    # The listening socket is opened here, on a port the system picks, and handed to daphne
    # (``--fd``): no two servers of parallel test workers can race for one port, and no request
    # can reach another worker's server (on another test database) by mistake.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    # Its errors go to a file, not a pipe: a server that lives for a package could fill a pipe
    # nobody reads and stall.
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "--fd", str(listener.fileno()), application],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log,
        pass_fds=[listener.fileno()],
    )
    listener.close()  # daphne has its own copy

    def answers() -> bool:  # the socket accepts at once; wait until daphne answers on it
        if proc.poll() is not None:
            log.seek(0)
            reason = log.read().decode()[-2000:]
            log.close()
            pytest.fail("daphne did not start: " + reason)
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return True
        except urllib.error.HTTPError:
            return True  # it answered (a 503 names a service away: the test will see it)
        except OSError:
            return False

    if not poll(answers, timeout=20, every=0.1):
        proc.kill()
        pytest.fail("daphne did not answer /healthz within 20 s")
    return proc, f"http://127.0.0.1:{port}", log


def api_post(base_url: str, user, path: str, body: dict, *, method: str = "POST") -> dict:
    """POST (or ``method``) ``body`` (JSON) to ``path`` of the server at ``base_url`` as ``user`` (an API token), as
    another device of the table does: the server that made the change tells the open pages (the
    test process's own channel layer reaches none of them). Returns the answer's JSON; fails on
    an answer that is not a success."""
    import json

    from characters.accounts.services import account_token_create

    _, key = account_token_create(user=user, name="another device")
    request = urllib.request.Request(
        base_url + path,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Token {key}", "Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=15) as answer:
        assert 200 <= answer.status < 300, answer.status
        return json.loads(answer.read() or b"{}")
