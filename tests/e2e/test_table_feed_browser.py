"""The fixtures of the table's roll feed in real browsers, GM and player in two contexts (Playwright +
Debian's Chromium against daphne: ``table_server``, ``_context_as``, ``_feed_page``). Each game's
feed: tests/rulesets/<slug>/e2e/test_*_table_feed_browser.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

from tests.e2e.conftest import watch_csp

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table_server(transactional_db):
    """daphne serving config.asgi (pages and websockets) on the test database; its base URL."""
    yield from serve_daphne("config.asgi:application")


def serve_daphne(application: str):
    """daphne serving ``application`` (a module:attribute path) on the test database: yields its base URL."""
    if connection.vendor != "postgresql":
        pytest.skip("a server process shares the test database: Postgres only")
    db = connection.settings_dict
    url = f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DEBUG": "true",
        "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        "STATICFILES_BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "REDIS_URL": "",
        "LOG_LEVEL": "ERROR",
    }
    # The listening socket is opened here, on a port the system picks, and handed to daphne
    # (``--fd``): no two servers of parallel test workers can race for one port, and no request
    # can reach another worker's server (on another test database) by mistake.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    port = listener.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "--fd", str(listener.fileno()), application],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        pass_fds=[listener.fileno()],
    )
    listener.close()  # daphne has its own copy
    deadline = time.monotonic() + 20
    while True:  # the socket accepts at once; wait until daphne answers on it
        if proc.poll() is not None:
            pytest.fail("daphne did not start: " + proc.stderr.read().decode()[-2000:])
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                break
        except urllib.error.HTTPError:
            break  # it answered (a 503 names a service away: the test will see it)
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail("daphne did not answer /healthz within 20 s")
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()


def _context_as(browser, base_url, user, *, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=base_url, viewport=viewport)
    watch_csp(context)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base_url}])
    context.set_default_timeout(10_000)
    return context


def _feed_page(context, campaign_id):
    page = context.new_page()
    page.goto(f"/campaigns/{campaign_id}/")
    page.wait_for_selector("#table-feed[data-connected]", state="attached")
    page.evaluate("() => { window.__notReloaded = true; }")
    return page
