"""Pages of the rules service: the rulesets, each one's catalogue, and an odds calculator.

The calculator is a plain GET form (works without JavaScript); with htmx, changing an input
swaps only the chart (the ``odds-result`` partial) in place.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from config.htmx import HtmxHttpRequest
from rulesets.charts import odds_bars
from rulesets.engine import OddsError, registry
from rulesets.engine import odds as engine_odds
from rulesets.engine.fields import parse_whole_number


def _ruleset_or_404(slug: str):
    ruleset = registry.get(slug)
    if ruleset is None:
        raise Http404("No such ruleset.")
    return ruleset


def odds_request_from_query(slug: str, query) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """The odds request a GET query asks for, the form's fields (with their values) and an error.

    Missing inputs take their defaults; text that is not a whole number is an error, not a 500.
    """
    ruleset = registry.get(slug)
    # The ruleset's calculator inputs (``Ruleset.odds_form``); without them, a JSON text box.
    fields = ruleset.odds_form() if ruleset is not None else None
    if fields is None:
        text = query.get("request", "{}")
        field = {"name": "request", "label": "Odds request (JSON)", "value": text, "kind": "json"}
        try:
            return json.loads(text), [field], ""
        except ValueError:
            return {}, [field], "The odds request must be a JSON object."
    request: dict[str, Any] = {}
    shown: list[dict[str, Any]] = []
    error = ""
    for spec in fields:
        raw = query.get(spec["name"])
        kind = "choice" if "choices" in spec else "int"
        value: Any = spec["default"] if raw in (None, "") else raw
        if kind == "int" and not isinstance(value, int):
            number = parse_whole_number(str(value))  # strictly: "٣", "1_000" or 4,000 digits are not numbers
            if number is None:
                error = error or f"{spec['label']} must be a whole number."
            else:
                value = number
        request[spec["name"]] = value
        shown.append({**spec, "value": value, "kind": kind})
    return request, shown, error


@require_GET
def ruleset_list(request: HtmxHttpRequest) -> HttpResponse:
    rulesets = [
        {
            "slug": rs.slug,
            "name": rs.name,
            "currencies": [rs.currency_label(c) for c in rs.currencies],
            "seed": rs.seed,
            "kinds": sorted(k.replace("_", " ") for k in rs.catalogue),  # "health levels", not the key
        }
        for rs in registry.all_rulesets()
    ]
    return render(request, "rulesets/list.html", {"rulesets": rulesets})


def _cell(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return ", ".join(str(v) for v in value)
    if value is None:
        return ""
    if isinstance(value, dict) and all(isinstance(v, (str, int, float)) for v in value.values()):
        # {"arms": 1} reads as "arms: 1" in a table cell; nested content stays JSON
        return ", ".join(f"{k}: {v}" for k, v in value.items())
    return json.dumps(value, ensure_ascii=False)


def catalogue_tables(
    catalogue: dict[str, list[dict[str, Any]]], max_columns: int = 6
) -> list[dict[str, Any]]:
    """Each content kind as a table: the first ``max_columns`` keys its entries use, id and name first."""
    tables = []
    for kind, entries in catalogue.items():
        keys: list[str] = []
        for entry in entries:
            for key in entry:
                if key not in keys:
                    keys.append(key)
        keys.sort(key=lambda k: {"id": 0, "name": 1}.get(k, 2))  # stable: the rest keep their order
        columns = keys[:max_columns]
        rows = [[_cell(entry.get(k)) for k in columns] for entry in entries]
        label = kind.replace("_", " ").capitalize()
        headers = [c.replace("_", " ") for c in columns]
        tables.append({"kind": kind, "label": label, "columns": columns, "headers": headers, "rows": rows})
    return tables


@require_GET
def ruleset_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    ruleset = _ruleset_or_404(slug)
    odds_request, fields, error = odds_request_from_query(slug, request.GET)
    bars: list[dict[str, Any]] = []
    if not error:
        try:
            bars = odds_bars(slug, engine_odds(slug, odds_request))
        except OddsError as exc:
            error = str(exc)
        except Exception:  # a ruleset without odds yet: the page still shows its catalogue
            error = "This ruleset cannot compute these odds."
    context = {
        "slug": slug,
        "odds_fields": fields,
        "odds_error": error,
        "bars": bars,
        "caption": ", ".join(f"{f['label']} {f['value']}" for f in fields),
    }
    if request.htmx:
        return render(request, "rulesets/detail.html#odds-result", context)
    description = ruleset.describe()
    context.update(
        ruleset=description,
        currencies=[ruleset.currency_label(c) for c in ruleset.currencies],
        tables=catalogue_tables(description["catalogue"]),
        traits_json=json.dumps(description["traits"], indent=2, ensure_ascii=False),
        house_json=json.dumps(description["house_defaults"], indent=2, ensure_ascii=False),
    )
    return render(request, "rulesets/detail.html", context)
