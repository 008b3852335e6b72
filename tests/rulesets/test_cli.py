"""`manage.py rules`: the command-line door (CONTRACT.md "Doors")."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from rulesets.engine import registry
from tests import vehicles

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [e for rs in registry.all_rulesets() for e in rs.example_builds()]


def _example(valid: bool) -> dict:
    """A build document from the rulesets' examples whose report is (in)valid."""
    for example in EXAMPLES:
        if example.expect["valid"] is valid:
            return copy.deepcopy(example.build)
    raise AssertionError(f"no example with valid={valid}")


@pytest.fixture
def valid_build() -> dict:
    return _example(True)


@pytest.fixture
def invalid_build() -> dict:
    return _example(False)


def _write(tmp_path: Path, name: str, doc) -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(path)


def rules(*args: str, stdin: bytes | None = None) -> tuple[int, list[dict]]:
    """Run `rules` in-process: (exit code, the JSON Lines parsed)."""
    out = io.StringIO()
    code = 0
    try:
        kwargs = {"stdin": io.BytesIO(stdin)} if stdin is not None else {}
        call_command("rules", *args, stdout=out, **kwargs)
    except SystemExit as exc:
        code = exc.code
    text = out.getvalue()
    assert text.endswith("\n") or text == ""
    lines = text.splitlines()
    return code, [json.loads(line) for line in lines]


REPORT_KEYS = {"ruleset", "valid", "errors", "warnings", "spent", "budget", "remaining", "derived"}


def test_validate_exits_0_when_every_build_is_valid(tmp_path, valid_build):
    a = _write(tmp_path, "a.json", valid_build)
    b = _write(tmp_path, "b.json", valid_build)
    code, lines = rules("validate", a, b)
    assert code == 0
    assert len(lines) == 2
    assert all(REPORT_KEYS <= set(line) and line["valid"] is True and line["errors"] == [] for line in lines)


def test_validate_exits_1_when_any_build_is_invalid(tmp_path, valid_build, invalid_build):
    ok, bad = _write(tmp_path, "ok.json", valid_build), _write(tmp_path, "bad.json", invalid_build)
    code, lines = rules("validate", ok, bad)
    assert code == 1
    assert [line["valid"] for line in lines] == [True, False]
    assert lines[1]["errors"]


def test_an_unreadable_path_is_its_own_line_and_exit_2(tmp_path, valid_build, invalid_build):
    missing = str(tmp_path / "nope.json")
    bad, ok = _write(tmp_path, "bad.json", invalid_build), _write(tmp_path, "ok.json", valid_build)
    code, lines = rules("validate", bad, missing, str(tmp_path), ok)
    assert code == 2  # 2 wins over 1
    assert lines[0]["valid"] is False
    assert lines[1] == {"path": missing, "error": "No such file."}
    assert lines[2]["path"] == str(tmp_path) and lines[2]["error"]
    assert lines[3]["valid"] is True


def test_a_file_that_is_not_json_is_a_malformed_build_not_an_unreadable_path(tmp_path):
    junk, nan = _write(tmp_path, "junk.json", "{not json"), _write(tmp_path, "nan.json", "NaN")
    code, lines = rules("validate", junk, nan)
    assert code == 1
    for line in lines:
        assert line["valid"] is False
        assert [(e["code"], e["path"]) for e in line["errors"]] == [("build.malformed", "")]


def test_a_dash_reads_the_build_from_stdin(tmp_path, valid_build, invalid_build):
    code, lines = rules("validate", "-", stdin=json.dumps(invalid_build).encode())
    assert code == 1
    assert len(lines) == 1 and lines[0]["valid"] is False
    code, lines = rules("validate", "-", stdin=("\ufeff" + json.dumps(valid_build)).encode())  # a BOM is fine
    assert code == 0 and lines[0]["valid"] is True


def test_many_documents_in_one_call_answer_in_input_order(tmp_path, valid_build, invalid_build):
    pattern = [valid_build, invalid_build, None, [1, 2], {"ruleset": "gurps"}] * 40
    paths = []
    for i, doc in enumerate(pattern):
        missing = str(tmp_path / f"missing{i}.json")
        paths.append(missing if doc is None else _write(tmp_path, f"{i:03}.json", doc))
    code, lines = rules("validate", *paths)
    assert code == 2
    assert len(lines) == len(pattern) == 200
    for path, doc, line in zip(paths, pattern, lines, strict=True):
        if doc is None:
            assert line == {"path": path, "error": "No such file."}
        elif doc is valid_build:
            assert line["valid"] is True
        elif doc is invalid_build:
            assert line["valid"] is False and line["errors"]
        elif doc == [1, 2]:
            assert [e["code"] for e in line["errors"]] == ["build.malformed"]
        else:
            assert [(e["code"], e["path"]) for e in line["errors"]] == [("ruleset.unknown", "/ruleset")]


@pytest.mark.parametrize("slug", list(registry.SYSTEMS))
def test_odds_prints_one_answer_per_request(slug):
    ruleset = registry.get(slug)
    request_ = ruleset.contract_data()["odds"]
    code, lines = rules("odds", slug, json.dumps(request_), json.dumps(request_))
    assert code == 0
    assert len(lines) == 2 and lines[0] == lines[1]
    assert lines[0] == json.loads(json.dumps(ruleset.odds(request_)))  # the rules' own answer


def test_odds_of_a_request_that_cannot_be_answered_is_an_error_line_and_exit_2():
    ruleset = next(
        rs for rs in registry.all_rulesets() if rs.contract_data()["odds_count_key"]
    )  # a request with a count of dice can be nonsense: "many" dice
    data = ruleset.contract_data()
    request_, count = data["odds"], data["odds_count_key"]
    nonsense = json.dumps({**request_, count: "many"})
    code, lines = rules("odds", ruleset.slug, json.dumps(request_), nonsense, "not json", "[1]")
    assert code == 2
    assert lines[0] == json.loads(json.dumps(ruleset.odds(request_)))
    assert [set(line) for line in lines[1:]] == [{"error"}] * 3
    assert all(isinstance(line["error"], str) and line["error"] for line in lines[1:])


def test_odds_of_an_unknown_ruleset_is_an_error_line_per_request():
    code, lines = rules("odds", "gurps", "{}", "{}")
    assert code == 2
    assert len(lines) == 2 and all("gurps" in line["error"] for line in lines)


def _manage(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "rules", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )


def test_the_real_command_exits_with_the_contract_codes(tmp_path, valid_build, invalid_build):
    # Two real processes (each start-up costs about a second); call_command covers the rest.
    ok = _write(tmp_path, "ok.json", valid_build)
    result = _manage("validate", ok, "-", stdin=json.dumps(valid_build).encode())
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["valid"] for line in result.stdout.decode().splitlines()] == [True, True]
    bad = _write(tmp_path, "bad.json", invalid_build)
    result = _manage("validate", bad, str(tmp_path / "missing.json"))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [line.get("valid") for line in lines] == [False, None]
    assert lines[1] == {"path": str(tmp_path / "missing.json"), "error": "No such file."}
    assert result.stderr == b""  # the lines say what went wrong; no traceback, no CommandError noise


@pytest.mark.parametrize("slug", vehicles.SLUGS)
def test_a_bad_odds_request_exits_2_in_every_ruleset(slug):
    """Issue #38 ("a bad odds request on the CLI printed an error and exited 0"): in every
    ruleset, a request the ruleset refuses (its count of dice "many", an empty request, a list, not JSON)
    is an ``{"error"}`` line and exit 2 (CONTRACT "Doors"); a good one beside it is answered. (Passes
    before this change too: the exit 0 was not reproduced; this keeps it so in every ruleset.)"""
    ruleset = registry.get(slug)
    data = ruleset.contract_data()
    bad = ["[1]", "not json", "{}"]
    if data["odds_count_key"]:
        bad.append(json.dumps({**data["odds"], data["odds_count_key"]: "many"}))
    code, lines = rules("odds", slug, json.dumps(data["odds"]), *bad)
    assert code == 2
    assert "error" not in lines[0]
    assert [set(line) for line in lines[1:]] == [{"error"}] * len(bad)
