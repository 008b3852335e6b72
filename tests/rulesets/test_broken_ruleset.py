"""A ruleset folder that fails to import (here a toy written against an engine module that is gone)
is an error that names it, logged once; every other ruleset, page, the URL conf and the rules CLI
go on without it (rulesets/engine/registry.py, rulesets/checks.py)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from html import escape
from pathlib import Path

import pytest
from django.core import checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client

import rulesets.systems
from rulesets.engine import registry, validate

ROOT = Path(__file__).resolve().parents[2]
TOY = "toy_broken"
WHY = "ModuleNotFoundError: No module named 'rulesets.engine.gone'"


def _write_toy(folder: Path) -> None:
    (folder / TOY).mkdir()
    (folder / TOY / "__init__.py").write_text(
        "from rulesets.engine.gone import Ruleset\n\n"
        "class Toy(Ruleset):\n    slug, name = 'toy_broken', 'Toy'\n\nRULESET = Toy()\n"
    )


def _rediscover() -> None:
    registry._found = None
    registry._rulesets()


@pytest.fixture
def broken(tmp_path, monkeypatch):
    """The toy folder among rulesets/systems/'s (its package path extended), the registry found again."""
    _write_toy(tmp_path)
    monkeypatch.setattr(rulesets.systems, "__path__", [*rulesets.systems.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_logged", set())
    before = registry.slugs()
    _rediscover()
    yield before
    monkeypatch.undo()
    _rediscover()


def test_the_other_rulesets_are_found_and_the_broken_folder_is_named_with_its_error(broken):
    assert registry.slugs() == broken  # every ruleset found before, in the same order
    assert registry.broken() == {TOY: WHY}
    assert [validate(rs.contract_data()["build"]).valid for rs in registry.all_rulesets()] == [True] * len(
        broken
    )


def test_it_is_logged_once_with_its_traceback(tmp_path, monkeypatch, caplog):
    _write_toy(tmp_path)
    monkeypatch.setattr(rulesets.systems, "__path__", [*rulesets.systems.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_logged", set())
    try:
        with caplog.at_level(logging.ERROR, logger="rulesets.engine.registry"):
            for _ in range(3):  # found again three times (a test reset, a reload): one line
                _rediscover()
                registry.all_rulesets()
        records = [r for r in caplog.records if r.name == "rulesets.engine.registry"]
        assert [(r.levelname, TOY in r.getMessage(), r.exc_info is not None) for r in records] == [
            ("ERROR", True, True)
        ]
    finally:
        monkeypatch.undo()
        _rediscover()


def test_manage_py_check_reports_it_as_an_error_naming_it_and_other_commands_as_a_warning(broken):
    with pytest.raises(SystemCheckError) as failed:
        call_command("check")
    assert f"rulesets.E001) The ruleset folder rulesets/systems/{TOY}/ failed to load: {WHY}" in str(
        failed.value
    )
    messages = [m for m in checks.run_checks() if m.id and m.id.startswith("rulesets.")]
    assert [(m.id, m.level, m.obj) for m in messages] == [
        ("rulesets.W001", checks.WARNING, f"rulesets.systems.{TOY}")
    ]


def test_without_a_broken_folder_the_check_is_silent():
    assert registry.broken() == {}
    call_command("check")  # no SystemCheckError
    assert [m.id for m in checks.run_checks() if m.id and m.id.startswith("rulesets.")] == []


@pytest.mark.django_db
def test_the_pages_and_the_api_list_the_other_rulesets(broken):
    page = Client().get("/rulesets/")
    assert page.status_code == 200
    assert [escape(rs.name) in page.content.decode() for rs in registry.all_rulesets()] == [True] * len(
        broken
    )
    first = registry.all_rulesets()[0]
    answer = Client().post(
        f"/api/v1/rulesets/{first.slug}/validate/",
        first.contract_data()["build"],
        content_type="application/json",
    )
    assert (answer.status_code, answer.json()["valid"]) == (200, True)


SCRIPT = """
import json, runpy, sys
import rulesets.systems
rulesets.systems.__path__.append({folder!r})
sys.argv = ["manage.py", *json.loads(sys.argv[1])]
runpy.run_path("manage.py", run_name="__main__")
"""


def _manage(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``manage.py args`` in a fresh process whose rulesets/systems/ has the toy folder too."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = SCRIPT.format(folder=str(folder))
    return subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
def test_in_a_fresh_process_check_fails_naming_it_while_the_url_conf_and_the_cli_work(tmp_path):
    _write_toy(tmp_path)
    first = registry.all_rulesets()[0]
    build = tmp_path / "build.json"
    build.write_text(json.dumps(first.contract_data()["build"]))

    check = _manage(tmp_path, "check")
    assert check.returncode == 1
    assert (
        check.stderr.count("rulesets/systems/toy_broken/ failed to load and is left out") == 1
    )  # logged once
    assert (
        f"rulesets.systems.{TOY}: (rulesets.E001) The ruleset folder rulesets/systems/{TOY}/ failed to load: {WHY}"
        in check.stderr
    )
    # The URL conf (with the API schema's per-ruleset texts, rulesets/serializers.py) loaded: Django's
    # URL checks import it, and the toy is the one issue.
    assert "System check identified 1 issue (0 silenced)." in check.stderr

    validate = _manage(tmp_path, "rules", "validate", str(build))
    assert validate.returncode == 0, validate.stderr
    assert json.loads(validate.stdout.splitlines()[-1])["valid"] is True
