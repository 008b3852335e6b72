#!/usr/bin/env python
"""Profiling helper for the rules service's validation (not a test, not `make bench`).

    .venv/bin/python bench/profile_rules.py time [slug ...]       # best-of-N µs per validation
    .venv/bin/python bench/profile_rules.py profile <slug>         # cProfile of the typical build
    .venv/bin/python bench/profile_rules.py loop <slug> [n]        # n validations (for callgrind)
    .venv/bin/python bench/profile_rules.py golden write|check F   # behaviour snapshot of a corpus
    .venv/bin/python bench/profile_rules.py calls write|check F R  # the same of recorded calls

The golden corpus is every ruleset's typical build, example builds and demo characters (its
folder's data), each also mutated deterministically (every leaf swapped for junk, every key
dropped, every value wrapped in a list), validated in "draft" and "approval" and against itself as
``previous``; ``check`` compares every report's ``as_dict()`` with the snapshot, so an optimisation
that changes any output shows up.

``calls`` does the same for the validations the tests make (their campaigns' house rules and
homebrew, the property tests' documents): R is a file of JSON lines, one call each, written by
running tests with ``-p bench.golden_calls`` and ``GOLDEN_RECORD=R`` (bench/golden_calls.py).
Write the snapshot with the code before the change, check it with the code after.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off in a benchmark: settings then need a real-length key (a throwaway one is fine).
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())

from rulesets.engine import registry, validate  # noqa: E402

JUNK = [None, True, -1, 0, 3, 99, 2.5, "", "x", "strength", "left_arm", [], {}, [1], {"a": 1}]


def typical(slug: str) -> dict:
    """The ruleset's typical build (``content/examples.json``, rulesets/engine/examples.py)."""
    return registry.get(slug).contract_data()["typical"]


def time_slug(slug: str, repeats: int = 7, number: int = 2000) -> float:
    doc = typical(slug)
    validate(doc)
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        for _ in range(number):
            validate(doc)
        best = min(best, (time.process_time() - t0) / number)
    return best * 1e6


def cmd_time(slugs: list[str]) -> None:
    for slug in slugs or registry.SYSTEMS:
        print(f"{slug:10s} {time_slug(slug):8.1f} µs (best of 7 × 2000, CPU time)")


def cmd_profile(slug: str) -> None:
    import cProfile
    import pstats

    doc = typical(slug)
    validate(doc)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(3000):
        validate(doc)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(35)


def cmd_loop(slug: str, n: int) -> None:
    doc = typical(slug)
    validate(doc)
    for _ in range(n):
        validate(doc)


# ------------------------------------------------------------------ golden corpus


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


def _get(node, path):
    for t in path:
        node = node[t]
    return node


def _set(doc, path, value):
    parent = _get(doc, path[:-1])
    parent[path[-1]] = value


def _mutants(doc: dict):
    yield doc
    for path in list(_paths(doc)):
        if not path:
            continue
        for junk in JUNK:
            d = copy.deepcopy(doc)
            _set(d, path, copy.deepcopy(junk))
            yield d
        d = copy.deepcopy(doc)
        parent = _get(d, path[:-1])
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
        yield d
        d = copy.deepcopy(doc)
        _set(d, path, [copy.deepcopy(_get(doc, path))])
        yield d
        v = _get(doc, path)
        if isinstance(v, int) and not isinstance(v, bool):
            for delta in (-2, -1, 1, 2, 10):
                d = copy.deepcopy(doc)
                _set(d, path, v + delta)
                yield d
        if isinstance(v, list) and v:
            d = copy.deepcopy(doc)
            _set(d, path, v + [copy.deepcopy(v[0])])
            yield d


def _seeds(slug: str) -> list[dict]:
    ruleset = registry.get(slug)
    demos = [d["document"] for d in ruleset.demo_builds() if isinstance(d.get("document"), dict)]
    return [
        ruleset.blank_build("Mutant"),
        typical(slug),
        *(e.build for e in ruleset.example_builds()),
        *demos,
    ]


def corpus():
    for slug in registry.SYSTEMS:
        for seed in _seeds(slug):
            for doc in _mutants(seed):
                yield slug, seed, doc


def _run(slug, seed, doc):
    out = []
    for phase in ("draft", "approval"):
        out.append(validate(copy.deepcopy(doc), phase=phase).as_dict())
    out.append(validate(copy.deepcopy(doc), previous=copy.deepcopy(seed)).as_dict())
    out.append(validate(copy.deepcopy(seed), previous=copy.deepcopy(doc)).as_dict())
    return out


def cmd_golden(mode: str, file: str) -> None:
    import logging

    logging.disable(logging.CRITICAL)
    lines = []
    for slug, seed, doc in corpus():
        key = json.dumps(doc, sort_keys=True, default=repr)
        res = json.dumps(_run(slug, seed, doc), default=repr)
        lines.append(hashlib.sha1(key.encode()).hexdigest() + "\t" + res)
    _compare(mode, file, lines)


def cmd_calls(mode: str, file: str, recorded: str) -> None:
    """Each recorded call (bench/golden_calls.py) made again: its report, as ``golden`` keeps them."""
    import logging

    logging.disable(logging.CRITICAL)
    lines = []
    for line in Path(recorded).read_text().splitlines():
        call = json.loads(line)
        ruleset = registry.get(call["slug"])
        if ruleset is None:  # a test's own ruleset (tests/plugin_ruleset): not the registry's
            continue
        report = ruleset.validate(
            call["doc"],
            settings=call["settings"],
            homebrew=call["homebrew"],
            phase=call["phase"],
            previous=call["previous"],
        )
        lines.append(
            hashlib.sha1(line.encode()).hexdigest() + "\t" + json.dumps(report.as_dict(), default=repr)
        )
    _compare(mode, file, lines)


def _compare(mode: str, file: str, lines: list[str]) -> None:
    if mode == "write":
        Path(file).write_text("\n".join(lines))
        print(f"wrote {len(lines)} documents")
        return
    old = Path(file).read_text().split("\n")
    bad = 0
    for i, (a, b) in enumerate(zip(old, lines)):
        if a != b:
            bad += 1
            if bad <= 5:
                print("DIFF at", i)
                print("  old:", a[:2000])
                print("  new:", b[:2000])
    print(f"{len(lines)} documents, {bad} differ" + ("" if len(old) == len(lines) else f" (count {len(old)})"))
    sys.exit(1 if bad or len(old) != len(lines) else 0)


if __name__ == "__main__":
    cmd, *args = sys.argv[1:] or ["time"]
    if cmd == "time":
        cmd_time(args)
    elif cmd == "profile":
        cmd_profile(args[0])
    elif cmd == "loop":
        cmd_loop(args[0], int(args[1]) if len(args) > 1 else 2000)
    elif cmd == "golden":
        cmd_golden(args[0], args[1])
    elif cmd == "calls":
        cmd_calls(args[0], args[1], args[2])
    else:
        sys.exit(__doc__)
