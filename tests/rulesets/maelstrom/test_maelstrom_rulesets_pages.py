"""Maelstrom's odds bars on the rules reference (moved from tests/rulesets/test_rulesets_pages.py): counts in order, successes said."""

from __future__ import annotations

import pytest

from rulesets.charts import odds_bars

pytestmark = pytest.mark.django_db


def test_odds_bars_number_the_counts_in_order_and_say_successes():
    answer = {"botch": 0.1, "failure": 0.3, "successes": {"10": 0.05, "2": 0.15, "1": 0.4}}
    assert odds_bars("maelstrom", answer) == [
        {"label": "Botch", "p": 0.1, "percent": 10.0},
        {"label": "Failure", "p": 0.3, "percent": 30.0},
        {"label": "1 success", "p": 0.4, "percent": 40.0},
        {"label": "2 successes", "p": 0.15, "percent": 15.0},
        {"label": "10 successes", "p": 0.05, "percent": 5.0},
    ]
