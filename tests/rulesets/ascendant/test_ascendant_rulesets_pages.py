"""Ascendant's odds bars on the rules reference (moved from tests/rulesets/test_rulesets_pages.py):
the contract's answers labelled."""

from __future__ import annotations

from rulesets.charts import odds_bars


def test_odds_bars_label_the_contract_answers():
    answer = {"critical_success": 0.05, "success": 0.5, "failure": 0.4, "critical_failure": 0.05}
    bars = odds_bars("ascendant", answer)
    assert [b["label"] for b in bars] == ["Critical success", "Success", "Failure", "Critical failure"]
