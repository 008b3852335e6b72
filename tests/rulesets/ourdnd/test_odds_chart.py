"""Our D&D's odds chart on the encounter page's action forms shows every outcome."""

from __future__ import annotations

import pytest

from combat.presenters import odds_rows
from rulesets.engine import registry


def test_our_dnd_check_odds_show_the_failure_bar():
    rows = odds_rows(registry.get("ourdnd"), {"stat": 2, "td": 12, "mode": "normal"})
    assert [r["label"] for r in rows] == ["Blunder", "Failure", "Success", "Critical"]
    assert [r["pct"] for r in rows] == [5, 40, 50, 5]  # d20 + 2 vs 12: 2–9 fail
    assert sum(r["p"] for r in rows) == pytest.approx(1.0)
