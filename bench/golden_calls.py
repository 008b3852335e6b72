"""A pytest plugin that records every validation the tests make, for ``profile_rules.py calls``.

    GOLDEN_RECORD=/tmp/calls.jsonl .venv/bin/python -m pytest -p bench.golden_calls tests/rulesets -m "not browser"

Each ``Ruleset.validate`` call's arguments (the document, the campaign's settings and homebrew, the
phase, the previous build) are appended to ``GOLDEN_RECORD`` as one JSON line, each distinct call
once; a call whose arguments are not JSON is left out. Not a test, and nothing the tests need.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rulesets.engine.ruleset import Ruleset

_validate = Ruleset.validate
_seen: set[str] = set()


def _recorded(self: Ruleset, doc: Any, **kwargs: Any) -> Any:
    try:
        line = json.dumps({"slug": self.slug, "doc": doc, **_arguments(kwargs)}, sort_keys=True)
    except (TypeError, ValueError):
        line = None
    if line is not None and line not in _seen:
        _seen.add(line)
        with open(os.environ["GOLDEN_RECORD"], "a", encoding="utf-8") as out:
            out.write(line + "\n")
    return _validate(self, doc, **kwargs)


def _arguments(kwargs: dict[str, Any]) -> dict[str, Any]:
    return {
        "settings": kwargs.get("settings"),
        "homebrew": kwargs.get("homebrew"),
        "phase": kwargs.get("phase", "draft"),
        "previous": kwargs.get("previous"),
    }


Ruleset.validate = _recorded  # type: ignore[method-assign]
