"""Pando's healing on the campaign's clock (RULES.md C1; HD: "wounded heal 1 per day of rest, lame 1
per week, maimed never"): each new day is a day of rest, each of the campaign's weeks heals lame
parts (rulesets/systems/pando/healing.py, RULINGS.md)."""

from __future__ import annotations

from rulesets.engine.clock import Span
from tests.rulesets.pando.test_pando_state import IRA, PANDO, REPORT, fresh


def passes(state, span):
    return PANDO.clock_passes(state, IRA, REPORT, span=span)


def test_a_day_of_rest_heals_a_wounded_part_by_one_and_fills_stamina():
    hurt = fresh(harm={"left_arm": 2, "legs": 4, "head": 0, "torso": 0, "right_arm": 0}, stamina=1)
    p = passes(hurt, Span(1, 8, 24))  # one midnight: day 2, the same week
    assert p.state["harm"]["left_arm"] == 1  # wounded: 1 per day of rest
    assert p.state["harm"]["legs"] == 4  # lame: only with a week
    assert p.state["stamina"] == fresh()["stamina"]
    assert p.messages == [f"Ira: 1 day of rest: left arm 2→1; stamina {fresh()['stamina']}."]


def test_a_new_week_heals_lame_parts_and_maimed_never_heal():
    hurt = fresh(harm={"left_arm": 0, "legs": 4, "right_arm": 5, "head": 0, "torso": 0})
    p = passes(hurt, Span(7, 20, 12))  # day 7 to day 8: a new week begins
    assert p.state["harm"]["legs"] == 3 and p.state["harm"]["right_arm"] == 5
    assert "(a new week: lame parts heal (house default; your GM may change it))" in p.messages[0]


def test_hours_within_a_day_change_nothing_and_a_healthy_rested_character_gets_no_line():
    hurt = fresh(harm={"left_arm": 2, "legs": 0, "head": 0, "torso": 0, "right_arm": 0})
    assert passes(hurt, Span(1, 8, 6)).messages == []
    assert passes(fresh(), Span(1, 8, 48)).messages == []
