#!/usr/bin/env python3
"""The database ``make test`` runs on, chosen and said out loud; then the tests, on it.

    python deploy/testdb.py COMMAND [ARG ...]   # make test: python -m pytest $(PYTEST_ARGS)

The first of these that works, printed as ``Tests use database: ...`` before the command runs:

1. ``DATABASE_URL`` when it is set: used as it is.
2. The Postgres server that answers at ``PG_PROBE_URL`` (default: the local one,
   ``postgresql://postgres@127.0.0.1:5432/postgres``): its database ``sheetforge`` (pytest-django
   makes ``test_sheetforge`` beside it).
3. A throwaway Postgres from the binaries in ``PG_BINDIR`` (default: Debian's newest
   ``/usr/lib/postgresql/*/bin``, else ``pg_config --bindir``; ``PG_BINDIR=none`` skips this step):
   ``initdb`` into a temporary folder, started on a free loopback port with trust authentication and
   no fsync, stopped and deleted when the command ends, whatever its outcome (Ctrl-C included).
   initdb refuses to run as root: as root, the cluster is made and run by the ``postgres`` user.
4. SQLite, loudly: the tests marked ``postgres_only`` (row locks, jsonb, several server processes on
   one database) are then skipped, each named with its reason in pytest's summary (tests/conftest.py).

A missing server never turns the run red; only the tests do. Exits with the command's exit code.
``PG_PROBE_URL`` lets a test (tests/deploy/test_testdb.py) point the probe at a closed port without
stopping anybody's server.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_PROBE = "postgresql://postgres@127.0.0.1:5432/postgres"
DATABASE = "sheetforge"
START_TIMEOUT_S = 60


def say(line: str) -> None:
    print(line, flush=True)


def postgres_answers(url: str) -> bool:
    try:
        import psycopg

        psycopg.connect(url, connect_timeout=2).close()
        return True
    except Exception:
        return False


def server_database_url(probe: str) -> str:
    """The probed server's ``sheetforge`` database, as a DATABASE_URL."""
    parts = urlsplit(probe)
    return urlunsplit(("postgres", parts.netloc, f"/{DATABASE}", parts.query, ""))


def postgres_bindir() -> Path | None:
    configured = os.environ.get("PG_BINDIR")
    if configured is not None:
        path = Path(configured)
        return path if configured not in ("", "none") and (path / "initdb").is_file() else None
    debian = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if debian:
        return Path(debian[-1]).parent
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True).stdout.strip()
        if out and (Path(out) / "initdb").is_file():
            return Path(out)
    return None


def postgres_version(bindir: Path) -> str:
    """``PostgreSQL 15.14``, from the binaries' own word."""
    out = subprocess.run([str(bindir / "postgres"), "--version"], capture_output=True, text=True).stdout
    found = re.search(r"\(PostgreSQL\) (\S+)", out)
    return f"PostgreSQL {found.group(1)}" if found else f"Postgres from {bindir}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def throwaway_postgres(bindir: Path) -> Iterator[tuple[str, Path]]:
    """A Postgres cluster in a temporary folder on a free port, for the duration of the block:
    (its DATABASE_URL, the folder)."""
    user: str | None = None
    if os.geteuid() == 0:
        import pwd

        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root and there is no `postgres` user to run initdb as") from None
        user = "postgres"
    folder = Path(tempfile.mkdtemp(prefix="sheetforge-testdb-"))
    if user:
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data, log, port = folder / "data", folder / "postgres.log", free_port()

    def run(*argv: str) -> None:
        result = subprocess.run(argv, user=user, capture_output=True, text=True, cwd=folder)
        if result.returncode:
            detail = (result.stderr or result.stdout).strip().splitlines()[-3:]
            if log.exists():
                detail += log.read_text(errors="replace").strip().splitlines()[-5:]
            raise RuntimeError(f"{Path(argv[0]).name} failed: " + " | ".join(detail))

    started = False
    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = (
            f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
        started = True
        yield f"postgres://postgres@127.0.0.1:{port}/{DATABASE}", folder
    finally:
        if started:
            subprocess.run(
                [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                user=user,
                capture_output=True,
                cwd=folder,
            )
        shutil.rmtree(folder, ignore_errors=True)


def run_command(command: list[str], database_url: str | None) -> int:
    env = dict(os.environ)
    if database_url:
        env["DATABASE_URL"] = database_url
    else:
        env.pop("DATABASE_URL", None)
    return subprocess.run(command, env=env).returncode


def main(command: list[str]) -> int:
    if not command:
        say(__doc__.strip().splitlines()[0] + "\nusage: python deploy/testdb.py COMMAND [ARG ...]")
        return 2
    # SIGTERM (a CI timeout, `kill`) ends the run through the `finally` that removes the cluster.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    given = os.environ.get("DATABASE_URL", "")
    if given:
        say(f"Tests use database: DATABASE_URL ({given})")
        return run_command(command, given)
    probe = os.environ.get("PG_PROBE_URL") or DEFAULT_PROBE
    where = urlsplit(probe).netloc.rpartition("@")[2] or probe
    if postgres_answers(probe):
        url = server_database_url(probe)
        say(f"Tests use database: the Postgres server at {where} ({url})")
        return run_command(command, url)
    say(f"No Postgres answers at {where} and DATABASE_URL is unset.")
    bindir = postgres_bindir()
    if bindir:
        try:
            with throwaway_postgres(bindir) as (url, folder):
                say(
                    f"Tests use database: a throwaway {postgres_version(bindir)} at "
                    f"{urlsplit(url).netloc.rpartition('@')[2]} ({url}), in {folder}, removed after the run"
                )
                return run_command(command, url)
        except RuntimeError as exc:
            say(f"!!! Could not start a throwaway Postgres from {bindir}: {exc}")
    else:
        say(
            "No Postgres binaries found for a throwaway server (PG_BINDIR, /usr/lib/postgresql/*/bin, pg_config)."
        )
    say(
        "!!! Tests use database: SQLite. The tests that need Postgres are skipped, each named in the summary."
    )
    return run_command(command, None)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
