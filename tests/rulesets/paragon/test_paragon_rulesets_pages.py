"""Paragon's odds bars on the rules reference (moved from tests/rulesets/test_rulesets_pages.py): a lone pass chance gets its complement; the chart
tag renders the partial."""

from __future__ import annotations

import pytest

from rulesets.charts import odds_bars

pytestmark = pytest.mark.django_db


def test_odds_bars_give_a_lone_pass_chance_its_complement():
    bars = odds_bars("paragon", {"pass": 0.625})
    assert [(b["label"], b["percent"]) for b in bars] == [("Pass", 62.5), ("Fail", 37.5)]


def test_the_chart_tag_renders_the_partial():
    from django.template import Context, Template

    html = Template("{% load rulesets_charts %}{% odds_chart 'paragon' answer caption='TN 15' %}").render(
        Context({"answer": {"pass": 0.25}})
    )
    assert "TN 15" in html and 'width="25.0"' in html and 'width="75.0"' in html
