"""The ASGI side's database connections are bounded (config/settings.py, config/asgi.py): a pool by
default, one connection per call with ASGI_DB_POOL_MAX=0, and persistent connections refused at
start-up with a message that says why. The WSGI side keeps one persistent connection per worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PG = "postgres://postgres@127.0.0.1:5432/sheetforge_settings_only"  # never connected to
PRINT_DB = (
    "from django.conf import settings; import json; d = settings.DATABASES['default']; "
    "print(json.dumps({'age': d['CONN_MAX_AGE'], 'options': d.get('OPTIONS', {})}))"
)


def _python(code: str, **overrides) -> subprocess.CompletedProcess:
    drop = (
        "DATABASE_URL",
        "DB_CONN_MAX_AGE",
        "ASGI_DB_POOL_MAX",
        "SHEETFORGE_SERVER",
        "DJANGO_SETTINGS_MODULE",
        "DB_PREPARED_STATEMENTS",
    )
    environ = {k: v for k, v in os.environ.items() if k not in drop}
    environ.update({"DATABASE_URL": PG, "DEBUG": "true", **overrides})
    return subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _db(entry: str, **overrides) -> dict:
    result = _python(f"import {entry}; {PRINT_DB}", **overrides)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


#: Parameters bound on the server, statements prepared after 5 runs on a connection (config/settings.py).
PREPARED = {"server_side_binding": True, "prepare_threshold": 5}


def test_the_asgi_side_takes_connections_from_a_bounded_pool():
    assert _db("config.asgi") == {
        "age": 0,
        "options": {"pool": {"min_size": 1, "max_size": 4, "timeout": 10}, **PREPARED},
    }
    assert _db("config.asgi", ASGI_DB_POOL_MAX="7")["options"]["pool"]["max_size"] == 7


def test_without_a_pool_the_asgi_side_opens_a_connection_per_call():
    assert _db("config.asgi", ASGI_DB_POOL_MAX="0") == {"age": 0, "options": PREPARED}


def test_the_wsgi_side_keeps_one_persistent_connection_per_worker():
    assert _db("config.wsgi") == {"age": 60, "options": PREPARED}
    assert _db("config.wsgi", DB_CONN_MAX_AGE="300") == {"age": 300, "options": PREPARED}


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    assert _db("config.wsgi", DB_PREPARED_STATEMENTS="false") == {"age": 60, "options": {}}
    assert _db("config.asgi", DB_PREPARED_STATEMENTS="false")["options"] == {
        "pool": {"min_size": 1, "max_size": 4, "timeout": 10}
    }


@pytest.mark.parametrize("pool", ["0", "4"])
def test_the_asgi_side_refuses_persistent_connections(pool):
    result = _python("import config.asgi", DB_CONN_MAX_AGE="60", ASGI_DB_POOL_MAX=pool)
    assert result.returncode == 1
    assert "ImproperlyConfigured: DB_CONN_MAX_AGE=60 on the ASGI server (config.asgi)" in result.stderr
    assert "persistent connections per thread pile up until Postgres refuses more" in result.stderr


def test_a_negative_pool_size_is_refused():
    result = _python("import config.asgi", ASGI_DB_POOL_MAX="-1")
    assert result.returncode == 1
    assert "ASGI_DB_POOL_MAX=-1 must be 0 (no pool) or more." in result.stderr
