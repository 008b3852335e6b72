"""The rulesets pages: the list, each ruleset's catalogue, and the odds calculator (htmx and plain GET)."""

from __future__ import annotations

import pytest
from django.utils.html import escape

from rulesets.charts import odds_bars
from rulesets.engine import registry

pytestmark = pytest.mark.django_db


def test_the_list_shows_every_ruleset_with_a_link(client):
    response = client.get("/rulesets/")
    assert response.status_code == 200
    html = response.content.decode()
    for ruleset in registry.all_rulesets():
        assert escape(ruleset.name) in html
        assert f'href="/rulesets/{ruleset.slug}/"' in html


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_a_ruleset_page_shows_its_catalogue_and_the_odds_chart(client, slug):
    response = client.get(f"/rulesets/{slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    ruleset = registry.get(slug)
    assert escape(ruleset.name) in html
    for kind, entries in ruleset.catalogue.items():
        assert f'id="catalogue-{kind}"' in html
        first = next(iter(entries))
        assert f"<code>{first}</code>" in html
    assert 'id="odds-chart"' in html and "<svg" in html, "the default odds request should draw a chart"
    assert 'hx-get="/rulesets/' in html and 'method="get"' in html


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


def test_an_unknown_ruleset_page_is_a_404(client):
    assert client.get("/rulesets/gurps/").status_code == 404


def test_odds_bars_number_the_counts_in_order_and_say_successes():
    answer = {"botch": 0.1, "failure": 0.3, "successes": {"10": 0.05, "2": 0.15, "1": 0.4}}
    assert odds_bars("maelstrom", answer) == [
        {"label": "Botch", "p": 0.1, "percent": 10.0},
        {"label": "Failure", "p": 0.3, "percent": 30.0},
        {"label": "1 success", "p": 0.4, "percent": 40.0},
        {"label": "2 successes", "p": 0.15, "percent": 15.0},
        {"label": "10 successes", "p": 0.05, "percent": 5.0},
    ]


def test_odds_bars_give_a_lone_pass_chance_its_complement():
    bars = odds_bars("paragon", {"pass": 0.625})
    assert [(b["label"], b["percent"]) for b in bars] == [("Pass", 62.5), ("Fail", 37.5)]


def test_odds_bars_label_the_contract_answers():
    answer = {"critical_success": 0.05, "success": 0.5, "failure": 0.4, "critical_failure": 0.05}
    bars = odds_bars("ascendant", answer)
    assert [b["label"] for b in bars] == ["Critical success", "Success", "Failure", "Critical failure"]
    assert [b["label"] for b in odds_bars("pando", {"ep": {"0": 0.5, "1": 0.5}})] == ["0 EP", "1 EP"]
    assert odds_bars("pando", "not an answer") == []


def test_the_chart_tag_renders_the_partial():
    from django.template import Context, Template

    html = Template("{% load rulesets_charts %}{% odds_chart 'paragon' answer caption='TN 15' %}").render(
        Context({"answer": {"pass": 0.25}})
    )
    assert "TN 15" in html and 'width="25.0"' in html and 'width="75.0"' in html
