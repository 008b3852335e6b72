"""`manage.py rules`: the rules service's command-line door (CONTRACT.md "Doors").

    python manage.py rules validate PATH [PATH ...]   # build documents; - reads stdin
    python manage.py rules odds SLUG JSON [JSON ...]  # each JSON an odds request
    python manage.py rules import SLUG PATH [PATH ...] # the game's own character sheets; - reads stdin

One JSON object per input, one per line, in input order. Exit codes:

- ``validate``: 0 every build valid, 1 any build invalid, 2 any PATH unreadable (its line is
  ``{"path": ..., "error": ...}``). A readable file that is not JSON is a readable path whose
  document is malformed: its line is a report with ``build.malformed`` at path "".
- ``odds``: 0, or 2 when any request cannot be answered (its line is ``{"error": ...}``).
- ``import``: each sheet (the ruleset's ``import_sheet`` hook) becomes one ``sheetforge.build/1``
  document; what the conversion could not carry over as written goes to stderr, one line each
  ("PATH: message"), and the build's own report comes from ``validate``. 0 when every PATH was
  such a sheet, 2 when any was unreadable, not JSON or not such a sheet (its line is
  ``{"path": ..., "error": ...}``) or the ruleset is unknown (one ``{"error": ...}`` line).

No database and no system checks: a player validates a folder of exports in one start-up.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def _reject_constant(name: str) -> None:
    # NaN and Infinity are not JSON (RFC 8259); Python's json would accept and echo them.
    raise ValueError(f"{name} is not a JSON value")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def malformed_json_report(exc: Exception) -> dict[str, Any]:
    """The report for bytes that are not JSON: the document is there but unreadable as a build."""
    from rulesets.engine import Report

    report = Report(None)
    report.error("build.malformed", "", f"This is not a JSON document ({exc}); export the build again.")
    return report.as_dict()


def validate_bytes(data: bytes | str) -> dict[str, Any]:
    """The report for one document given as its bytes (never raises).

    JSON is UTF-8 (a BOM is tolerated; json.loads also detects UTF-16/32); bytes that are not
    a JSON text get a ``build.malformed`` report at path "" rather than an unreadable-path line.
    """
    from rulesets.engine import validate

    if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        doc = json.loads(data, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        return malformed_json_report(exc)
    return validate(doc).as_dict()


class Command(BaseCommand):
    help = "Validate build documents or compute odds, one JSON line per input (CONTRACT.md)."
    # The rules service is plain Python: no checks, no migrations, no database.
    requires_system_checks: list[str] = []
    stealth_options = ("stdin",)  # call_command("rules", "validate", "-", stdin=io.BytesIO(...))
    _stdin_data: bytes | str | None = None  # stdin, read once per command (see _read)

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        v = sub.add_parser("validate", help="Validate build documents; - reads stdin.")
        v.add_argument("paths", nargs="+", metavar="PATH")
        o = sub.add_parser("odds", help="Exact odds of a ruleset's core roll.")
        o.add_argument("slug", metavar="SLUG")
        o.add_argument("requests", nargs="+", metavar="JSON")
        i = sub.add_parser(
            "import", help="Convert character sheets of the game's own format to build documents."
        )
        i.add_argument("slug", metavar="SLUG")
        i.add_argument("paths", nargs="+", metavar="PATH")

    def handle(self, *args, action: str, **options):
        self._stdin = options.get("stdin")
        if action == "validate":
            code = self.validate(options["paths"])
        elif action == "import":
            code = self.import_sheets(options["slug"], options["paths"])
        else:
            code = self.odds(options["slug"], options["requests"])
        self.stdout.flush()
        if code:
            # SystemExit, not CommandError: run_from_argv would print a CommandError to stderr,
            # and the lines already say what went wrong. call_command callers catch SystemExit.
            raise SystemExit(code)

    def _emit(self, obj: Any) -> None:
        self.stdout.write(_dumps(obj))

    def _read(self, path: str) -> bytes | str:
        """The bytes of ``path`` (``-``: stdin, read once however often it is named); ``OSError``."""
        if path == "-":
            if self._stdin_data is None:
                self._stdin_data = self._read_stdin()
            return self._stdin_data
        with open(path, "rb") as fh:
            return fh.read()

    def validate(self, paths: list[str]) -> int:
        code = EXIT_OK
        self._stdin_data = None
        for path in paths:
            try:
                data = self._read(path)
            except OSError as exc:
                self._emit({"path": path, "error": _reason(exc)})
                code = EXIT_UNREADABLE
                continue
            report = validate_bytes(data)
            self._emit(report)
            if not report["valid"] and code == EXIT_OK:
                code = EXIT_INVALID
        return code

    def _read_stdin(self) -> bytes | str:
        # call_command(..., stdin=StringIO(...)) in tests; the real binary stdin otherwise.
        stream = self._stdin or sys.stdin.buffer
        return stream.read()

    def import_sheets(self, slug: str, paths: list[str]) -> int:
        from rulesets.engine import registry
        from rulesets.engine.words import a

        ruleset = registry.get(slug)
        if ruleset is None:
            self._emit({"error": f"No ruleset {slug!r}; the rulesets are {', '.join(registry.slugs())}."})
            return EXIT_UNREADABLE
        ctx = ruleset.context()
        code = EXIT_OK
        self._stdin_data = None
        for path in paths:
            try:
                data = self._read(path)
                if isinstance(data, bytes) and data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
                sheet = json.loads(data, parse_constant=_reject_constant)
            except OSError as exc:
                error = _reason(exc)
            except (ValueError, RecursionError) as exc:
                error = f"This is not a JSON document ({exc})."
            else:
                build, issues = ruleset.import_sheet(sheet, ctx=ctx)
                if build is not None:
                    self._emit(build)
                    for issue in issues:
                        self.stderr.write(f"{path}: {issue.message}")
                    continue
                error = (
                    " ".join(i.message for i in issues) or f"This is not {a(ruleset.name)} character sheet."
                )
            self._emit({"path": path, "error": error})
            code = EXIT_UNREADABLE
        return code

    def odds(self, slug: str, requests: list[str]) -> int:
        from rulesets.engine import OddsError, odds

        code = EXIT_OK
        for text in requests:
            try:
                answer = odds(slug, json.loads(text, parse_constant=_reject_constant))
            except ValueError as exc:  # OddsError and JSONDecodeError are both ValueErrors
                reason = str(exc) if isinstance(exc, OddsError) else f"Not a JSON request: {exc}."
            except Exception as exc:  # a ruleset bug: still one line for this input, and exit 2
                reason = f"This request cannot be answered ({type(exc).__name__})."
            else:
                self._emit(answer)
                continue
            self._emit({"error": reason})
            code = EXIT_UNREADABLE
        return code


def _reason(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return "No such file."
    if isinstance(exc, IsADirectoryError):
        return "This is a folder, not a file."
    if isinstance(exc, PermissionError):
        return "Permission denied."
    return getattr(exc, "strerror", None) or str(exc)
