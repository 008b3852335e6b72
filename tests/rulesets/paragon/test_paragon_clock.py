"""Paragon's Dynama on the campaign's clock (RULES.md W6: "Regeneration HD: 1 per hour of rest on
the clock (C1)"; 0 Dynama paralyses)."""

from __future__ import annotations

from rulesets.engine import registry, validate
from rulesets.engine.clock import Span

PARAGON = registry.get("paragon")
BUILD = PARAGON.contract_data()["sheet"]
REPORT = validate(BUILD)


def state_with(dynama):
    s = PARAGON.initial_state(BUILD, REPORT)
    return {**s, "pools": {**s["pools"], "dynama": dynama}}


def test_dynama_regenerates_one_an_hour_up_to_its_maximum():
    top = PARAGON.initial_state(BUILD, REPORT)["pools"]["dynama"]
    p = PARAGON.clock_passes(state_with(0), BUILD, REPORT, span=Span(1, 8, 5))
    assert p.state["pools"]["dynama"] == 5
    assert p.messages == [f"{BUILD['name']}: 5 hours of rest: Dynama 0 → 5. No longer paralysed."]
    full = PARAGON.clock_passes(state_with(top - 2), BUILD, REPORT, span=Span(1, 8, 24))
    assert full.state["pools"]["dynama"] == top
    assert PARAGON.clock_passes(state_with(top), BUILD, REPORT, span=Span(1, 8, 24)).messages == []


def test_the_house_rule_sets_the_rate():
    ctx = PARAGON.context({"dynama_per_hour_of_rest": 3}, None)
    p = PARAGON.clock_passes(state_with(1), BUILD, REPORT, span=Span(1, 8, 2), ctx=ctx)
    assert p.state["pools"]["dynama"] == 7
