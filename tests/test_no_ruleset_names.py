"""No ruleset is named outside its own folders (issue 21): a sixth ruleset is one folder.

The product (characters/, combat/, config/, templates/, static/), the benchmarks (bench/) and every
test outside tests/rulesets/<slug>/ take their rulesets from the registry: a generic test is
parametrised over the registered rulesets or picks its vehicle by what it needs (tests/vehicles.py),
and a test of one game's rules lives in that game's folder of tests. So no file there names a
ruleset of rulesets/systems/, by its slug or its name, comments included. The words are read from
the registry, so this file names none either.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulesets.engine import registry

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = ROOT / "rulesets" / "systems"
#: Where no ruleset is named.
SEARCHED = ("tests", "bench", "characters", "combat", "config", "templates", "static")
#: The rulesets' folders (rulesets/systems/<slug>/) and their tests (tests/rulesets/<slug>/).
FOLDERS = [rs for rs in registry.all_rulesets() if rs.package_dir.parent == SYSTEMS]
#: Written by a tool, not by a person: the scheduler's timings of each unit of tests, whose names
#: are the test files' paths (tests/rulesets/<slug>/... among them). tests/scheduling.py.
GENERATED = {ROOT / "tests" / "durations.json"}
#: Folders of output a tool writes and git ignores: ``make bench``'s results (bench/run.py).
GENERATED_FOLDERS = {ROOT / "bench" / "results"}


def _words() -> re.Pattern[str]:
    words = {w.lower() for rs in FOLDERS for w in (rs.slug, rs.name)}
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)


def _files():
    own_tests = {ROOT / "tests" / "rulesets" / rs.slug for rs in FOLDERS}
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path in GENERATED:
                continue
            if any(folder in path.parents for folder in GENERATED_FOLDERS):
                continue
            if any(folder in path.parents for folder in own_tests):
                continue
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:  # an image or a font: no words in it
                continue


def test_the_registry_has_the_folders_this_guard_reads():
    assert len(FOLDERS) >= 2 and all((SYSTEMS / rs.slug).is_dir() for rs in FOLDERS)


def test_no_file_outside_the_rulesets_folders_names_a_ruleset():
    words = _words()
    named = {}
    for path, text in _files():
        found = sorted({m.group(0).lower() for m in words.finditer(text)})
        if found:
            lines = [n for n, line in enumerate(text.splitlines(), 1) if words.search(line)]
            named[str(path.relative_to(ROOT))] = (
                f"{', '.join(found)} (lines {', '.join(map(str, lines[:8]))})"
            )
    assert not named, (
        f"{len(named)} files name a ruleset outside rulesets/systems/<slug>/ and tests/rulesets/<slug>/ "
        "(take it from the registry, tests/vehicles.py, or move the test to its folder):\n"
        + "\n".join(f"  {path}: {what}" for path, what in sorted(named.items()))
    )
