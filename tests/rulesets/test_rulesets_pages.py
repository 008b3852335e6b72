"""The rulesets pages: the list, each ruleset's catalogue, and the odds calculator (htmx and plain GET)."""

from __future__ import annotations

import re

import pytest
from django.utils.html import escape

from rulesets.charts import odds_bars
from rulesets.engine import registry, words

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
        first = next(iter(entries.values()))
        # Each row starts with the entry's name in words, never its id.
        shown = escape(first.get("name") or words.label(first["id"]))
        assert f'<th scope="row">{shown}</th>' in html
    assert "<code>" not in html and (not ruleset.seed or ruleset.seed not in html)
    assert not re.search(r"<td>/[a-z]", html)  # no pointer into the play state ("/imposed/tired")
    assert 'id="odds-chart"' in html and "<svg" in html, "the default odds request should draw a chart"
    assert 'hx-get="/rulesets/' in html and 'method="get"' in html


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_the_search_box_keeps_the_rows_that_hold_the_words(client, slug):
    ruleset = registry.get(slug)
    kind, entries = next(
        (k, e) for k, e in ruleset.catalogue.items() if len(e) > 1 and all("name" in x for x in e.values())
    )
    name = str(next(iter(entries.values()))["name"])
    html = client.get(f"/rulesets/{slug}/", {"q": name}).content.decode()
    rows = re.findall(
        r'<th scope="row">([^<]*)</th>', html.split(f'id="catalogue-{kind}"')[1].split("</section>")[0]
    )
    assert escape(name) in rows and len(rows) < len(entries)
    assert f'value="{escape(name)}"' in html  # the box keeps what was asked


def test_an_unknown_ruleset_page_is_a_404(client):
    assert client.get("/rulesets/gurps/").status_code == 404


@pytest.mark.parametrize("slug", registry.SYSTEMS)
def test_htmx_gets_only_the_odds_fragment_with_the_rules_odds(client, slug):
    """Each ruleset's calculator asked its contract odds request (content/examples.json ``odds``):
    the fragment alone, one bar per outcome of the rules' own answer. One game's calculator:
    tests/rulesets/<slug>/test_*_rulesets_pages.py."""
    ruleset = registry.get(slug)
    request = ruleset.contract_data()["odds"]
    query = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in request.items()}
    response = client.get(f"/rulesets/{slug}/", query, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode().strip()
    assert html.startswith('<div id="odds-result"')
    assert "<html" not in html and "catalogue-" not in html
    bars = odds_bars(slug, ruleset.odds(request))
    assert bars and all(f"{escape(b['label'])}: {b['percent']}%" in html for b in bars)
