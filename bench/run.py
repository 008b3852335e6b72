#!/usr/bin/env python
"""The rules service's benchmark (`make bench`): not a test, a table of numbers.

Every ruleset of the registry is measured, with the data its folder gives (``content/examples.json``,
rulesets/engine/examples.py):

1. In-process validations per second of each ruleset's typical build (target ≥ 5,000/s).
2. Odds latency of each ruleset's largest contract requests (``odds_largest``), cold (first call)
   and warm (median; target < 1 ms).
3. The CLI: 1,000 documents in one `manage.py rules validate` call, wall clock incl. start-up
   (target < 3 s), next to the start-up alone (one document).

Results go to bench/results/<UTC time>.json and bench/results/latest.json (gitignored).
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# DEBUG is off in a benchmark: settings then need a real-length key (a throwaway one is fine).
os.environ.setdefault("SECRET_KEY", "bench-only-" + os.urandom(32).hex())

from rulesets.engine import odds, registry, validate  # noqa: E402  (after sys.path)

RESULTS = ROOT / "bench" / "results"
TARGET_VALIDATIONS = 5_000  # per second, one core
TARGET_ODDS_MS = 1.0
TARGET_CLI_S = 3.0
CLI_DOCUMENTS = 1_000


def odds_requests() -> list[tuple[str, dict]]:
    """The largest requests of CONTRACT.md "Odds" (up to 10 dice), each ruleset's ``odds_largest``."""
    return [(rs.slug, r) for rs in registry.all_rulesets() for r in rs.contract_data()["odds_largest"]]


def typical(slug: str) -> dict:
    return registry.get(slug).contract_data()["typical"]


def bench_validation(seconds: float = 1.0) -> list[dict]:
    rows = []
    for slug in registry.SYSTEMS:
        doc = typical(slug)
        report = validate(doc)  # warm: loads the ruleset and its content once
        n, start, cpu_start = 0, time.perf_counter(), time.process_time()
        deadline = start + seconds
        while True:
            for _ in range(50):
                validate(doc)
            n += 50
            now = time.perf_counter()
            if now >= deadline:
                break
        per_second = n / (now - start)
        # CPU time too: on a busy machine the wall clock counts other processes' turns.
        per_cpu_second = n / max(time.process_time() - cpu_start, 1e-9)
        rows.append({
            "slug": slug, "valid": report.valid, "per_second": round(per_second),
            "per_cpu_second": round(per_cpu_second), "us_each": round(1e6 / per_second, 1),
            "ok": per_cpu_second >= TARGET_VALIDATIONS,
        })
    return rows


def bench_odds(repeats: int = 200) -> list[dict]:
    rows = []
    for slug, request in odds_requests():
        registry.get(slug)
        start = time.perf_counter()
        odds(slug, request)
        cold = (time.perf_counter() - start) * 1000
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            odds(slug, request)
            times.append((time.perf_counter() - start) * 1000)
        warm = statistics.median(times)
        rows.append({
            "slug": slug, "request": request, "cold_ms": round(cold, 3), "warm_ms": round(warm, 4),
            "ok": max(cold, warm) < TARGET_ODDS_MS,
        })
    return rows


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run_cli(paths: list[str]) -> tuple[float, float, int, int]:
    """(wall s, CPU s, exit code, lines) of one `manage.py rules validate` process."""
    start, cpu = time.perf_counter(), _children_cpu()
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "rules", "validate", *paths],
        capture_output=True, cwd=ROOT,
    )
    wall = time.perf_counter() - start
    return wall, _children_cpu() - cpu, result.returncode, len(result.stdout.splitlines())


def bench_cli(runs: int = 3) -> dict:
    with tempfile.TemporaryDirectory(prefix="sheetforge-bench-") as tmp:
        paths = []
        for i in range(CLI_DOCUMENTS):
            slug = registry.SYSTEMS[i % len(registry.SYSTEMS)]
            doc = dict(typical(slug), name=f"Bench {i}")
            path = Path(tmp) / f"{i:04}-{slug}.json"
            path.write_text(json.dumps(doc))
            paths.append(str(path))
        startup = min(_run_cli(paths[:1])[:2] for _ in range(runs))
        walls, cpus, code, lines = [], [], None, None
        for _ in range(runs):
            wall, cpu, code, lines = _run_cli(paths)
            walls.append(wall)
            cpus.append(cpu)
    best = min(walls)
    return {
        "documents": CLI_DOCUMENTS, "exit_code": code, "lines": lines,
        "wall_s_best": round(best, 3), "wall_s_median": round(statistics.median(walls), 3),
        "cpu_s_best": round(min(cpus), 3), "startup_wall_s": round(startup[0], 3),
        "startup_cpu_s": round(startup[1], 3),
        "ok": best < TARGET_CLI_S and lines == CLI_DOCUMENTS and code == 0,
    }


def main() -> int:
    validation = bench_validation()
    odds_rows = bench_odds()
    cli = bench_cli()
    mark = {True: "ok", False: "SLOW"}

    print(f"Validation, in process (target ≥ {TARGET_VALIDATIONS:,}/s)")
    print(f"  {'ruleset':<10} {'valid':<6} {'per second':>11} {'per CPU s':>10} {'µs each':>9}")
    for r in validation:
        print(f"  {r['slug']:<10} {str(r['valid']):<6} {r['per_second']:>11,} {r['per_cpu_second']:>10,} "
              f"{r['us_each']:>9}  {mark[r['ok']]}")
    print(f"\nOdds latency (target < {TARGET_ODDS_MS} ms)")
    print(f"  {'ruleset':<10} {'request':<48} {'cold ms':>8} {'warm ms':>8}")
    for r in odds_rows:
        req = json.dumps(r["request"], separators=(",", ":"))
        print(f"  {r['slug']:<10} {req:<48} {r['cold_ms']:>8} {r['warm_ms']:>8}  {mark[r['ok']]}")
    print(f"\nCLI: manage.py rules validate, {cli['documents']:,} documents in one call "
          f"(target < {TARGET_CLI_S} s)")
    print(f"  wall best {cli['wall_s_best']} s (CPU {cli['cpu_s_best']} s), median {cli['wall_s_median']} s; "
          f"start-up alone {cli['startup_wall_s']} s (CPU {cli['startup_cpu_s']} s); "
          f"{cli['lines']} lines, exit {cli['exit_code']}  {mark[cli['ok']]}")

    results = {
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "validation": validation, "odds": odds_rows, "cli": cli,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = results["when"].replace(":", "").replace("+0000", "Z")
    for name in (f"{stamp}.json", "latest.json"):
        (RESULTS / name).write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nWritten to {RESULTS.relative_to(ROOT)}/latest.json")
    return 0 if all(r["ok"] for r in validation + odds_rows) and cli["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
