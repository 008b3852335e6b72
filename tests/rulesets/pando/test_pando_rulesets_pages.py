"""Pando's page of the rules reference (moved from tests/rulesets/test_rulesets_pages.py): its odds calculator works without JavaScript and through
htmx, refuses bad input with a message, and labels its answers' bars."""

from __future__ import annotations

import pytest

from rulesets.charts import odds_bars

pytestmark = pytest.mark.django_db


def test_the_calculator_works_without_javascript(client):
    html = client.get("/rulesets/pando/", {"dice": "2", "skill": "3"}).content.decode()
    # 2d6, each die ≤ 3 gives 1 EP: 0 EP 25 %, 1 EP 50 %, 2 EP 25 %.
    assert ">1 EP<" in html and ">50.0%<" in html and ">25.0%<" in html
    assert 'width="50.0"' in html


def test_htmx_gets_only_the_odds_fragment(client):
    response = client.get("/rulesets/pando/", {"dice": "2", "skill": "3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode().strip()
    assert html.startswith('<div id="odds-result"')
    assert "<html" not in html and "catalogue-" not in html
    assert ">50.0%<" in html


@pytest.mark.parametrize("query", [{"dice": "many"}, {"dice": "-3"}, {"dice": "1000"}])
def test_a_bad_calculator_input_is_a_message_not_an_error_page(client, query):
    response = client.get("/rulesets/pando/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="odds-error"' in html and "<svg" not in html


def test_odds_bars_label_the_contract_answers():
    assert [b["label"] for b in odds_bars("pando", {"ep": {"0": 0.5, "1": 0.5}})] == ["0 EP", "1 EP"]
    assert odds_bars("pando", "not an answer") == []
