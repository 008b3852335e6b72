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
from rulesets.engine import ID_RE, OddsError, registry, words
from rulesets.engine import effects as fx
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
        choices = [{"value": c, "words": words.label(c)} for c in spec.get("choices", [])]
        shown.append({**spec, "value": value, "kind": kind, "options": choices})
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


def _cell(value: Any, names: dict[str, str], labels: dict[str, str]) -> str:
    """A catalogue value in words: an id by its entry's name (or as words), a list joined, a small
    object as "label value" pairs, anything deeper counted ("2 actions"), never JSON."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if value in names:
            return names[value]
        return words.label(value, labels) if ID_RE.match(value) else value
    if isinstance(value, (int, float)):
        return str(value)
    if value is None or value == [] or value == {}:
        return ""
    if isinstance(value, list):
        if all(isinstance(v, (str, int, float)) for v in value):
            return ", ".join(_cell(v, names, labels) for v in value)
        return f"{len(value)} " + ("entry" if len(value) == 1 else "entries")
    if isinstance(value, dict):
        parts = [
            f"{words.label(k, labels)} {_cell(v, names, labels)}".strip()
            for k, v in value.items()
            if isinstance(v, (str, int, float, list)) and _cell(v, names, labels)
        ]
        return ", ".join(parts)
    return ""


def catalogue_tables(
    catalogue: dict[str, list[dict[str, Any]]],
    max_columns: int = 5,
    *,
    labels: dict[str, str] | None = None,
    query: str = "",
    ruleset: Any = None,
) -> list[dict[str, Any]]:
    """Each content kind as a table in words: its name first, then the first keys its entries use
    (never the id; an effect's changes in words, other nested records left out), each cell in
    words; only the rows holding ``query`` when one is given."""
    labels = labels or {}

    def readable(key: str, entries: list[dict[str, Any]]) -> bool:
        if key in ("id", "homebrew"):
            return False
        if key == "changes" and ruleset is not None:
            return True
        if any(isinstance(e.get(key), str) and e[key].startswith("/") for e in entries):
            return False  # where the rules keep something (a pointer into the play state): not the game's
        nested = [
            v
            for e in entries
            if isinstance(v := e.get(key), (list, dict))
            and v
            and (any(isinstance(x, (list, dict)) for x in (v if isinstance(v, list) else v.values())))
        ]
        return not nested

    def cell(key: str, value: Any) -> str:
        if key == "changes" and ruleset is not None and isinstance(value, list):
            return "; ".join(fx.describe_change(ruleset, c) for c in value if isinstance(c, dict))
        return _cell(value, names, labels)

    names = {
        entry["id"]: str(entry["name"])
        for entries in catalogue.values()
        for entry in entries
        if isinstance(entry.get("id"), str) and isinstance(entry.get("name"), str)
    }
    needle = query.strip().lower()
    tables = []
    for kind, entries in catalogue.items():
        keys: list[str] = []
        for entry in entries:
            for key in entry:
                if key not in keys and readable(key, entries):
                    keys.append(key)
        keys.sort(key=lambda k: {"name": 0}.get(k, 1))  # stable: the rest keep their order
        columns = keys[:max_columns]
        rows = []
        for entry in entries:
            row = [cell(k, entry.get(k)) for k in columns]
            if "name" not in entry:
                row = [words.label(entry.get("id", ""), labels), *row]
            if not needle or any(needle in cell.lower() for cell in row):
                rows.append(row)
        headers = [words.label(c, labels) for c in columns]
        if columns[:1] != ["name"]:
            headers = ["Name", *headers]
        tables.append(
            {
                "kind": kind,
                "label": words.label(kind, labels),
                "headers": headers,
                "rows": rows,
                "total": len(entries),
            }
        )
    return tables


def house_rows(ruleset, settings: dict[str, Any]) -> list[dict[str, str]]:
    """The house defaults in words: each rule's label, its value and its help."""
    described = ruleset.house_labels()
    labels = ruleset.labels()
    rows = []
    for key, value in settings.items():
        info = described.get(key) if isinstance(described.get(key), dict) else {}
        choices = {
            repr(c[0]): c[1] for c in info.get("choices", []) if isinstance(c, (list, tuple)) and len(c) == 2
        }
        shown = choices.get(repr(value)) or _cell(value, {}, labels) or ("none" if value is None else "")
        if isinstance(value, dict) and not shown:
            shown = f"a table of {len(value)} rows"
        rows.append(
            {
                "label": info.get("label") or words.label(key, labels),
                "value": shown,
                "help": info.get("help", ""),
            }
        )
    return rows


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
        "caption": ", ".join(
            f"{f['label']} {words.label(f['value']) if f['kind'] == 'choice' else f['value']}" for f in fields
        ),
    }
    if request.htmx:
        return render(request, "rulesets/detail.html#odds-result", context)
    description = ruleset.describe()
    query = str(request.GET.get("q", ""))[:100]
    kinds = [ruleset.entry_form(k) for k in ruleset.homebrew_kinds]
    context.update(
        ruleset=description,
        currencies=[ruleset.currency_label(c) for c in ruleset.currencies],
        tables=catalogue_tables(
            description["catalogue"], labels=ruleset.labels(), query=query, ruleset=ruleset
        ),
        query=query,
        about=ruleset.about,
        house=house_rows(ruleset, description["house_defaults"]),
        homebrew_kinds=[f.label for f in kinds if f is not None],
    )
    return render(request, "rulesets/detail.html", context)
