"""config/env.py and start-up: a bad environment stops the process with a message naming the variable."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from config import env
from config.env import ImproperlyConfigured, env_bool, env_int, env_list, parse_database_url

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        (" on ", True),
        ("0", False),
        ("false", False),
        ("NO", False),
        ("off", False),
        ("", False),
    ],
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SF_FLAG", raw)
    assert env_bool("SF_FLAG", default=not expected) is expected


def test_env_bool_default_when_unset(monkeypatch):
    monkeypatch.delenv("SF_FLAG", raising=False)
    assert env_bool("SF_FLAG", default=True) is True
    assert env_bool("SF_FLAG", default=False) is False


def test_env_bool_refuses_maybe(monkeypatch):
    monkeypatch.setenv("SF_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match=r"SF_FLAG='maybe' is not a boolean"):
        env_bool("SF_FLAG")


def test_env_int(monkeypatch):
    monkeypatch.setenv("SF_N", "42")
    assert env_int("SF_N", 1) == 42
    monkeypatch.setenv("SF_N", "")
    assert env_int("SF_N", 7) == 7
    monkeypatch.setenv("SF_N", "4k")
    with pytest.raises(ImproperlyConfigured, match="SF_N='4k' is not a whole number"):
        env_int("SF_N", 1)


def test_env_list(monkeypatch):
    monkeypatch.setenv("SF_HOSTS", " a.example , b.example,,")
    assert env_list("SF_HOSTS") == ["a.example", "b.example"]
    monkeypatch.delenv("SF_HOSTS")
    assert env_list("SF_HOSTS", ["x"]) == ["x"]


def test_env_errors_are_djangos_improperly_configured():
    from django.core.exceptions import ImproperlyConfigured as Django

    assert issubclass(env.ImproperlyConfigured, Django)


def test_parse_postgres_url():
    config = parse_database_url(
        "postgres://sheet:p%40ss@db.example:6543/forge?sslmode=require", base_dir=ROOT
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("forge", "sheet", "p@ss")
    assert (config["HOST"], config["PORT"]) == ("db.example", "6543")
    assert config["OPTIONS"] == {"sslmode": "require"}


def test_parse_sqlite_urls():
    assert parse_database_url("sqlite:///db.sqlite3", base_dir=ROOT)["NAME"] == str(ROOT / "db.sqlite3")
    assert parse_database_url("sqlite:////tmp/x.db", base_dir=ROOT)["NAME"] == "/tmp/x.db"


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://u@h/db", "unsupported scheme 'mysql'"),
        ("postgres://u@h:5432/", "names no database"),
        ("postgres://u@h:port/db", "port that is not a number"),
        ("nonsense", "unsupported scheme '(none)'"),
    ],
)
def test_parse_database_url_refuses_what_it_cannot_use(url, message):
    with pytest.raises(ImproperlyConfigured, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_database_url(url, base_dir=ROOT)


def _manage(*args, **overrides):
    """``manage.py`` in a clean environment: a production-like one (DEBUG off) with a good
    SECRET_KEY unless ``overrides`` say otherwise (``SECRET_KEY=None`` leaves it unset)."""
    environ = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    environ["SECRET_KEY"] = secrets.token_urlsafe(50)
    environ.update(overrides)
    environ = {k: v for k, v in environ.items() if v is not None}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"DATABASE_URL": "mysql://root@localhost/sheetforge"}, "unsupported scheme 'mysql'"),
        ({"MAX_REQUEST_BODY": "lots"}, "MAX_REQUEST_BODY='lots' is not a whole number"),
        (
            {"SECRET_KEY": None},
            "SECRET_KEY is not set: with DEBUG off it must be at least 50 random characters",
        ),
        (
            {"SECRET_KEY": ""},
            "SECRET_KEY is not set: with DEBUG off it must be at least 50 random characters",
        ),
        (
            {"SECRET_KEY": "x" * 49},
            "SECRET_KEY is only 49 characters long: with DEBUG off it must be at least 50",
        ),
        ({"SECRET_KEY": None, "DEBUG": "false"}, "SECRET_KEY is not set"),
    ],
)
def test_a_bad_environment_stops_start_up_with_a_clear_message(overrides, message):
    result = _manage("check", **overrides)
    assert result.returncode != 0
    assert message in result.stderr
    assert "ImproperlyConfigured" in result.stderr


def test_check_deploy_is_quiet_in_a_production_environment():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="example.com",
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_the_server_never_starts_on_the_development_key_with_debug_off():
    """Fail closed (was: boot on the public development key, flagged only by check --deploy)."""
    result = _manage("check", "--deploy", DEBUG="false", SECRET_KEY=None, ALLOWED_HOSTS="example.com")
    assert result.returncode == 1
    assert "SECRET_KEY is not set" in result.stderr
    assert "System check" not in result.stdout


def test_the_development_key_is_used_only_with_debug_on():
    result = _manage("check", "--deploy", DEBUG="true", SECRET_KEY=None)
    assert "security.W009" in result.stdout + result.stderr  # the development key, flagged
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.SECRET_KEY[:16])",
        DEBUG="true",
        SECRET_KEY=None,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "django-insecure-"


def test_a_given_key_is_used_as_is():
    key = secrets.token_urlsafe(50)
    result = _manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.SECRET_KEY)",
        DEBUG="false",
        SECRET_KEY=key,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == key
