"""How hard the fuzzers and property tests push: ``FUZZ=smoke`` (the default) or ``FUZZ=full``.

Every fuzz and property test runs in both profiles, over every operation, form, ruleset and person it
covers; the profile only sets how many examples each one draws (and, for schemathesis, whether the
exhaustive ``coverage`` phase runs):

- ``smoke``, what ``make test`` runs: a few examples per test, each fuzzer still posting valid and
  invalid values to every endpoint as each person. Fast enough to run on every change.
- ``full``, what the suite ran before (CI may set ``FUZZ=full`` on a schedule): the example counts
  written beside each test, and schemathesis's ``coverage`` phase (every boundary and type-violating
  case the schema defines, and the unexpected methods) as a GM and as a player.

The older knobs still win when set: ``FORM_FUZZ_EXAMPLES``, ``SCHEMATHESIS_MAX_EXAMPLES``,
``SCHEMATHESIS_PHASES``.
"""

from __future__ import annotations

import os

PROFILES = ("smoke", "full")

PROFILE = os.environ.get("FUZZ", "").strip().lower() or "smoke"
if PROFILE not in PROFILES:
    raise RuntimeError(f"FUZZ={os.environ['FUZZ']!r}: expected one of {', '.join(PROFILES)}")

FULL = PROFILE == "full"


def examples(full: int, smoke: int) -> int:
    """A test's example count: ``full`` in the full profile, ``smoke`` (smaller) by default."""
    return full if FULL else smoke
