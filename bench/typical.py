"""The request the single-request benches send (cost.py, load.py, instructions.py): the first
ruleset's of the registry typical build (``content/examples.json``, rulesets/engine/examples.py),
POSTed to its validate URL. Read in a child process of this checkout, so that a bench measuring
another tree (``--tree``) imports nothing of this one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_READ = (
    "import json; from rulesets.engine import registry; rs = registry.all_rulesets()[0]; "
    "print(json.dumps([rs.slug, rs.contract_data()['typical']]))"
)


def first_typical() -> tuple[str, str, str]:
    """(slug, validate path without the leading slash, the build as JSON text)."""
    out = subprocess.run(
        [sys.executable, "-c", _READ], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    slug, build = json.loads(out.strip().splitlines()[-1])
    return slug, f"api/v1/rulesets/{slug}/validate/", json.dumps(build, indent=2)
