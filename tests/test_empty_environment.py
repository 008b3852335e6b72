"""A fresh checkout with an empty environment (no SECRET_KEY, DEBUG or DATABASE_URL), as a newcomer has.

The rules CLI answers there (CONTRACT.md "Doors": no server, no database and no configuration) and so
does ``manage.py help``; everything that serves or signs still refuses to start without a key when
DEBUG is off (manage.py says which commands are which). Each command runs as a user runs it: the
checkout's ``manage.py`` in a subprocess, with PATH and HOME only (pytest-env's key is not passed on).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.engine import registry

ROOT = Path(__file__).resolve().parents[1]
#: The rulesets a fresh checkout has: the folders of rulesets/systems/ (not a test's registered one).
FOLDERS = [rs for rs in registry.all_rulesets() if rs.package_dir.parent == ROOT / "rulesets" / "systems"]
#: A build the rules refuse, with the codes they refuse it by: the first such example of a folder.
INVALID = next(e for rs in FOLDERS for e in rs.example_builds() if not e.expect["valid"])
SECRET_KEY_MESSAGE = "SECRET_KEY is not set: with DEBUG off it must be at least 50 random characters"


@pytest.fixture
def run(tmp_path):
    """``python <checkout>/manage.py ARGS`` (or ``python -c CODE``) from the checkout, env = PATH and HOME
    plus what the test adds."""

    def _run(*args: str, stdin: str = "", python: bool = False, **extra: str) -> subprocess.CompletedProcess:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), **extra}
        argv = [sys.executable, *args] if python else [sys.executable, "manage.py", *args]
        return subprocess.run(
            argv, cwd=ROOT, env=env, input=stdin, capture_output=True, text=True, timeout=120
        )

    return _run


def _lines(result: subprocess.CompletedProcess) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def _numbers(answer, at="") -> dict[str, float]:
    """An odds answer's numbers by where they are (``ep.2``), as JSON carries them."""
    if isinstance(answer, dict):
        return {k: v for key, value in answer.items() for k, v in _numbers(value, f"{at}{key}.").items()}
    return (
        {at.rstrip("."): answer} if isinstance(answer, int | float) and not isinstance(answer, bool) else {}
    )


def test_rules_validate_answers_with_an_empty_environment(run, tmp_path):
    """Every folder's example builds in one call, each answered as the rules answer it in process."""
    files, expected = [], []
    for ruleset in FOLDERS:
        for example in ruleset.example_builds():
            path = tmp_path / f"{ruleset.slug}-{example.name}.json"
            path.write_text(json.dumps(example.build))
            files.append(str(path))
            report = ruleset.validate(example.build)
            expected.append(
                (ruleset.slug, report.valid, dict(report.spent), dict(report.budget), dict(report.remaining))
            )
    assert FOLDERS and len(files) >= len(FOLDERS)
    result = run("rules", "validate", *files)
    assert result.returncode == (0 if all(e[1] for e in expected) else 1), result.stderr
    answered = [(r["ruleset"], r["valid"], r["spent"], r["budget"], r["remaining"]) for r in _lines(result)]
    assert answered == expected

    result = run("rules", "validate", files[0], "-", stdin=json.dumps(INVALID.build))
    assert result.returncode == 1, result.stderr
    first, invalid = _lines(result)
    assert first["valid"] is expected[0][1] and invalid["valid"] is False
    assert [e["code"] for e in invalid["errors"]] == [e["code"] for e in INVALID.expect["errors"]]


def test_rules_odds_answers_with_an_empty_environment(run):
    """A folder's contract odds request answered as in process; one without the key a roll needs
    refused by name (exit 2)."""
    ruleset = next(rs for rs in FOLDERS if rs.contract_data()["odds_required_key"])
    data = ruleset.contract_data()
    request, needed = data["odds"], data["odds_required_key"]
    lacking = {k: v for k, v in request.items() if k != needed}
    result = run("rules", "odds", ruleset.slug, json.dumps(request), json.dumps(lacking))
    assert result.returncode == 2, result.stderr  # the second request cannot be answered
    odds, error = _lines(result)
    want = _numbers(json.loads(json.dumps(ruleset.odds(request))))
    assert want and _numbers(odds) == pytest.approx(want)
    assert needed in error["error"]
    result = run("rules", "odds", ruleset.slug, json.dumps(request))
    assert result.returncode == 0, result.stderr
    assert _numbers(_lines(result)[0]) == pytest.approx(want)


@pytest.mark.parametrize("args", [("help",), (), ("help", "rules"), ("rules", "--help")])
def test_help_lists_the_project_s_commands_with_an_empty_environment(run, args):
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert "rules" in result.stdout
    if args[:1] != ("rules",) and args != ("help", "rules"):
        assert "[rulesets]" in result.stdout and "seed_demo" in result.stdout  # not only Django's own
    assert "not properly configured" not in result.stdout + result.stderr


# ---- The production check still holds: serving with DEBUG off and no key refuses to start.


@pytest.mark.parametrize(
    "args",
    [
        ("check", "--deploy"),
        ("runserver", "127.0.0.1:0", "--noreload"),
        ("migrate", "--noinput"),
        ("shell", "-c", "from django.conf import settings; print(settings.SECRET_KEY)"),
    ],
    ids=["check-deploy", "runserver", "migrate", "shell-reading-the-key"],
)
@pytest.mark.parametrize("debug", [None, "false"], ids=["DEBUG-unset", "DEBUG-false"])
def test_commands_that_serve_or_sign_refuse_to_start_without_a_key(run, args, debug):
    extra = {"DEBUG": debug} if debug else {}
    result = run(*args, **extra)
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert SECRET_KEY_MESSAGE in result.stderr
    assert "Traceback" not in result.stderr  # the message, not a page of stack
    assert "Starting" not in result.stdout and "Operations to perform" not in result.stdout


@pytest.mark.parametrize(
    "code",
    ["import config.wsgi", "import config.asgi", "from config.asgi import websocket_application"],
)
def test_the_servers_entry_points_refuse_to_start_without_a_key(run, code):
    """gunicorn and daphne import these: no manage.py, no exception."""
    result = run("-c", code, python=True, DEBUG="false", DJANGO_SETTINGS_MODULE="config.settings")
    assert result.returncode == 1
    assert SECRET_KEY_MESSAGE in result.stderr


def test_the_rules_command_is_refused_nothing_else_by_its_exception(run):
    """The exception is this process's, for this command: no environment variable switches the check
    off for a server (a child process inherits nothing), and the CLI's settings carry no key to sign with."""
    code = (
        "import os, sys; sys.argv = ['manage.py', 'rules']; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
        "from config.env import secret_key_not_needed; secret_key_not_needed()\n"
        "from django.conf import settings\n"
        "print(repr(settings.DEBUG), repr(settings._wrapped.SECRET_KEY))\n"
        "import subprocess; r = subprocess.run([sys.executable, '-c', 'import config.wsgi'], capture_output=True, text=True)\n"
        "print(r.returncode, 'SECRET_KEY is not set' in r.stderr)\n"
        "settings.SECRET_KEY\n"
    )
    result = run("-c", code, python=True)
    first, second = result.stdout.splitlines()
    assert first == "False ''"
    assert second == "1 True"  # the child server refuses
    assert result.returncode == 1
    assert "The SECRET_KEY setting must not be empty" in result.stderr  # nothing signs with an empty key
