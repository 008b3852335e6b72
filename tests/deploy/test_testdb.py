"""``make test``'s choice of database (deploy/testdb.py), run as make runs it: a subprocess, with the
probe pointed at a closed port (nobody's server is stopped) and the command replaced by one that
reports what it was given."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import poll

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "testdb.py"
REPORT = "import os, sys; print('DATABASE_URL=' + os.environ.get('DATABASE_URL', '(unset)')); sys.exit(3)"

sys.path.insert(0, str(ROOT / "deploy"))
import testdb  # noqa: E402

sys.path.remove(str(ROOT / "deploy"))


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PG_PROBE_URL", "PG_BINDIR")}
    env["PG_PROBE_URL"] = f"postgresql://postgres@127.0.0.1:{_closed_port()}/postgres"
    env.update(extra)
    return env


def _testdb(*command: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *command],
        cwd=ROOT,
        env=_env(**extra),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_no_server_and_no_binaries_runs_on_sqlite_and_says_so():
    result = _testdb(sys.executable, "-c", REPORT, PG_BINDIR="none")
    assert result.returncode == 3  # the command's own exit code
    lines = result.stdout.splitlines()
    assert lines[0].startswith("No Postgres answers at 127.0.0.1:") and "DATABASE_URL is unset" in lines[0]
    assert lines[1].startswith("No Postgres binaries found")
    assert lines[2] == (
        "!!! Tests use database: SQLite. The tests that need Postgres are skipped, each named in the summary."
    )
    assert lines[3] == "DATABASE_URL=(unset)"


def test_a_given_database_url_is_used_as_is():
    url = "postgres://someone@db.example:5433/elsewhere"
    result = _testdb(sys.executable, "-c", REPORT, DATABASE_URL=url)
    assert result.stdout.splitlines() == [f"Tests use database: DATABASE_URL ({url})", f"DATABASE_URL={url}"]


def test_the_server_that_answers_the_probe_is_used():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("no Postgres server to probe in this run")
    db = connection.settings_dict
    where = f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    result = _testdb(sys.executable, "-c", REPORT, PG_PROBE_URL=f"postgresql://{db['USER']}@{where}/postgres")
    assert result.stdout.splitlines() == [
        f"Tests use database: the Postgres server at {where} (postgres://{db['USER']}@{where}/sheetforge)",
        f"DATABASE_URL=postgres://{db['USER']}@{where}/sheetforge",
    ]


@pytest.fixture
def bindir() -> Path:
    found = testdb.postgres_bindir()
    if found is None:
        pytest.skip("no Postgres binaries (initdb, pg_ctl) on this machine for a throwaway cluster")
    return found


def test_no_server_makes_a_throwaway_postgres_and_removes_it(bindir):
    use = (
        "import os, sys, psycopg; url = os.environ['DATABASE_URL']; print(url)\n"
        "with psycopg.connect(url.rsplit('/', 1)[0] + '/postgres') as c:\n"
        "    print(c.execute('select current_setting(%s)', ['fsync']).fetchone()[0])\n"
        "sys.exit(4)"
    )
    result = _testdb(sys.executable, "-c", use)
    assert result.returncode == 4, result.stdout + result.stderr
    said, url, fsync = result.stdout.splitlines()[1:]
    assert said.startswith(f"Tests use database: a throwaway {testdb.postgres_version(bindir)} at 127.0.0.1:")
    assert said.endswith("removed after the run")
    assert url.startswith("postgres://postgres@127.0.0.1:") and url.endswith("/sheetforge")
    assert f"({url})" in said
    assert fsync == "off"
    folder = Path(said.split(", in ")[1].split(", removed")[0])
    assert folder.name.startswith("sheetforge-testdb-")
    assert not folder.exists()
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert not _port_open(port)


def test_a_terminated_run_still_removes_its_throwaway_postgres(bindir):
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), sys.executable, "-c", "import time; time.sleep(120)"],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        said = ""
        while not said.startswith("Tests use database"):
            said = proc.stdout.readline()
            assert said, "testdb.py ended before it said which database"
        folder = Path(said.split(", in ")[1].split(", removed")[0])
        port = int(said.split(" at 127.0.0.1:")[1].split()[0])
        assert folder.exists() and _port_open(port)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 143
    finally:
        if proc.poll() is None:
            proc.kill()
    assert not folder.exists()
    assert not poll(lambda: _port_open(port), until=lambda open_: not open_)


def test_on_sqlite_the_postgres_only_tests_are_skipped_and_named():
    """make test's SQLite fallback is green: each Postgres-only test is a skip with its reason."""
    result = _testdb(
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "tests/characters/builder/test_rulebook_order.py",
        "tests/deploy/test_two_asgi_processes.py",
        PG_BINDIR="none",
    )
    out = result.stdout
    assert result.returncode == 0, out[-3000:]
    assert "!!! Tests use database: SQLite." in out
    # Every test of both files is skipped (their number grows with the registry's rulesets).
    assert (
        re.search(r"\b\d+ skipped", out)
        and "passed" not in out
        and "failed" not in out
        and "error" not in out
    )
    assert (
        out.count("postgres_only: jsonb reorders a mapping's keys; SQLite's JSON keeps them as written") == 1
    )
    assert "postgres_only: two server processes share the test database" in out
    assert "this run is on sqlite3" in out
