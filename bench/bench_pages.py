"""The sheet page against the login page, one client, through `make serve`'s stack.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/sf_bench REDIS_URL=redis://127.0.0.1:6379/3 \
      .venv/bin/python bench/bench_pages.py [--requests 300] [--port 8200] [--url http://127.0.0.1:8200] \
      [--modes warm,change,cold]

Without --url it starts the stack (deploy/serve.py: nginx → gunicorn + daphne, migrate and
seed_demo) on --port and stops it afterwards. One client, keep-alive, requests alternated (the
login page for an anonymous visitor, then the demo player's first character sheet signed in) so
that a drift in the machine's load falls on both alike. The sheet is timed three ways (--modes), one
after the other, each against its own login requests, so that none is measured only warm from a
cache:

- ``warm``: the same sheet again, its blocks cached by the last request;
- ``change``: the sheet right after a play-state change (its ruleset's first ``play_actions``, and
  the one undoing it, in turn), made through the API (``POST /api/v1/characters/<id>/actions/``,
  not timed), which renders nothing: a new version, so every block keyed by it is drawn anew;
- ``cold``: the first view of a character (a copy of the demo character, made and submitted
  through the API before the timing): nothing of it is cached yet.

Prints each page's median and p90 wall time as the client saw it and the median CPU the stack's
servers (nginx and gunicorn, from /proc/<pid>/task/*/schedstat, as bench/cost.py reads it) spent on
it, which a busy machine inflates far less; each sheet's ratio to the login page in both (the
budget: the sheet's median at most 1.5× the login's) and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.cost import cpu_ns, stack_processes  # noqa: E402
from rulesets.engine import registry  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = os.environ.get("DEMO_PASSWORD", "sheetforge-demo")


def wait_healthy(url: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if requests.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.5)
    raise SystemExit(f"{url}/healthz did not answer 200 within {seconds:.0f} s")


def signed_in(url: str, username: str) -> requests.Session:
    s = requests.Session()
    page = s.get(f"{url}/accounts/login/", timeout=10)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, "no CSRF token on the login page"
    answer = s.post(
        f"{url}/accounts/login/",
        data={"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)},
        headers={"Referer": f"{url}/accounts/login/"},
        timeout=10,
    )
    assert answer.ok and "sessionid" in s.cookies, f"sign-in as {username} failed ({answer.status_code})"
    return s


def timed(session: requests.Session, url: str, servers: list[int] | None = None) -> tuple[float, float]:
    """The GET's wall time as the client saw it, and the CPU the servers (``servers``: nginx's and
    gunicorn's processes) spent meanwhile, both in ms: the second hardly depends on the machine's load."""
    cpu = cpu_ns(servers or [])
    start = time.perf_counter()
    answer = session.get(url, timeout=10)
    elapsed = time.perf_counter() - start
    cpu = cpu_ns(servers or []) - cpu
    assert answer.status_code == 200, (url, answer.status_code)
    return elapsed * 1000, cpu / 1e6


def api(session: requests.Session, url: str, path: str, data: dict) -> dict:
    """A POST to the JSON API as the page's scripts make it (the session's cookie, its CSRF token)."""
    answer = session.post(
        f"{url}{path}",
        json=data,
        headers={"X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": f"{url}/"},
        timeout=10,
    )
    assert answer.ok, (path, answer.status_code, answer.text[:300])
    return answer.json()


def copies(session: requests.Session, url: str, character: dict, count: int) -> list[str]:
    """``count`` new characters with ``character``'s build in its campaign, submitted: their sheets'
    addresses, none of them viewed yet."""
    sheets = []
    for _ in range(count):
        made = api(
            session,
            url,
            "/api/v1/characters/",
            {"campaign": character["campaign"], "build": character["build"]},
        )
        api(session, url, f"/api/v1/characters/{made['id']}/submit/", {})
        sheets.append(f"{url}/characters/{made['id']}/")
    return sheets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--port", type=int, default=8200)
    parser.add_argument("--url", default="")
    parser.add_argument(
        "--modes", default="warm,change,cold", help="which sheets to time: warm, change, cold"
    )
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    url = args.url.rstrip("/") or f"http://127.0.0.1:{args.port}"
    stack = None
    if not args.url:
        # one client address: nginx's per-address limit (NGINX_CONN_PER_IP) is the bench's own
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(args.port), "NGINX_CONN_PER_IP": "4096"}
        stack = subprocess.Popen(
            [sys.executable, str(ROOT / "deploy" / "serve.py")],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        wait_healthy(url)
        stack_pids = stack_processes(urllib.parse.urlsplit(url).port or 80)
        servers = stack_pids["nginx"] + stack_pids["gunicorn"]
        player = signed_in(url, "player1")
        characters = player.get(f"{url}/api/v1/characters/", timeout=10).json()
        rows = characters.get("results", characters) if isinstance(characters, dict) else characters
        first = player.get(f"{url}/api/v1/characters/{rows[0]['id']}/", timeout=10).json()
        sheet = f"{url}/characters/{first['id']}/"
        # the actions as the API takes them: numbers as numbers (the sheet's forms post text)
        actions = [
            {k: int(v) if isinstance(v, str) and v.lstrip("-").isdigit() else v for k, v in action.items()}
            for action in registry.get(first["build"]["ruleset"]).contract_data()["play_actions"]
        ]
        cold = copies(player, url, first, args.requests) if "cold" in modes else []
        visitor = requests.Session()
        login = f"{url}/accounts/login/"
        for _ in range(20):  # warm both (templates compiled, connections open, fragments cached)
            timed(visitor, login)
            timed(player, sheet)
        load_before = os.getloadavg()[0]
        # One mode after the other, each its own run of login / sheet pairs: a change makes a new
        # version, which a warm sheet would meet uncached in the worker that did not draw it yet.
        times: dict[str, dict[str, list[tuple[float, float]]]] = {}
        for mode in modes:
            pairs = times[mode] = {"login": [], "sheet": []}
            for i in range(args.requests):
                pairs["login"].append(timed(visitor, login, servers))
                if mode == "change":
                    api(player, url, f"/api/v1/characters/{first['id']}/actions/", actions[i % len(actions)])
                pairs["sheet"].append(timed(player, cold[i] if mode == "cold" else sheet, servers))
        load_after = os.getloadavg()[0]
    finally:
        if stack is not None:
            os.killpg(stack.pid, signal.SIGINT)
            try:
                stack.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(stack.pid, signal.SIGKILL)
    for mode, pairs in times.items():
        wall, cpu = {}, {}
        for page, values in pairs.items():
            walls = sorted(w for w, _ in values)
            wall[page], cpu[page] = statistics.median(walls), statistics.median(c for _, c in values)
            p90 = walls[int(len(walls) * 0.9) - 1]
            print(
                f"{mode:6} {page:5} median {wall[page]:6.2f} ms   p90 {p90:6.2f} ms   servers' CPU "
                f"median {cpu[page]:5.2f} ms   ({len(values)} requests)"
            )
        print(
            f"{mode:6} sheet ÷ login: {wall['sheet'] / wall['login']:.2f}× wall, "
            f"{cpu['sheet'] / cpu['login']:.2f}× servers' CPU (budget 1.5×)"
        )
    print(f"load average: {load_before:.2f} before, {load_after:.2f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
