"""Items with CRITICAL ULTIMATE! EFFORT (RULES.md W16; seed: "If something is indicated to do CRITICAL
ULTIMATE! EFFORT means that its regular EFFORT die is replaced by a D12 die. The D12 ADDED as an extra to
another EFFORT die applies only when a Critical Scess is rolled")."""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import entry_from_form, validate
from rulesets.systems.ourdnd import RULESET as OURDND
from tests.rulesets.ourdnd.test_ourdnd_combat import BRAM, GOBLIN, Scene, fighter

SHEET = OURDND.contract_data()["sheet"]


def with_gear(*items, homebrew=None):
    build = {**copy.deepcopy(SHEET), "gear": [{"item": i} for i in items]}
    return validate(build, homebrew=homebrew)


def test_a_critical_ultimate_item_rolls_a_d12_for_effort():
    report = with_gear("starforged_blade", "sword")
    assert report.valid
    assert report.derived["effort"] == {"bare_hands": "d4", "starforged_blade": "d12", "sword": "d6"}
    rolls = {r["id"]: r["request"] for r in OURDND.rollables(SHEET, report)}
    assert rolls["effort:starforged_blade"] == {"effort": "d12"}


def test_a_homebrew_item_may_be_critical_ultimate_and_says_so_with_a_yes_or_no():
    relic = {
        "id": "relic",
        "name": "Relic hammer",
        "kind": "weapon",
        "effort": "d8",
        "critical_ultimate": True,
    }
    report = with_gear("relic", homebrew={"gear": [relic]})
    assert report.derived["effort"]["relic"] == "d12"
    bad = OURDND.check_homebrew_entry("gear", {**relic, "critical_ultimate": "yes"}, "/gear/0")
    assert [(i.code, i.path) for i in bad] == [("homebrew.malformed", "/gear/0/critical_ultimate")]


def test_on_a_natural_20_the_d12_is_added_to_the_d12():
    odds = OURDND.odds({"effort": "d12", "critical": True})["effort"]
    assert (min(map(int, odds)), max(map(int, odds))) == (2, 24)
    assert odds["13"] == pytest.approx(12 / 144)


def test_an_attempt_with_it_rolls_the_d12_in_a_fight():
    bram = {**copy.deepcopy(BRAM), "gear": [{"item": "starforged_blade"}]}
    scene = Scene([fighter(1, bram), fighter(3, GOBLIN, npc=True)], {}, [20, 2])
    scene.act(1, [15, 11], action="attempt", stat="str", target=3, gear="starforged_blade")
    assert scene.log[-1].startswith("Effort (starforged blade): Effort d12: 11 = 11. Goblin takes 11 damage")


def test_the_gm_s_gear_editor_marks_an_item_critical_ultimate():
    """RULINGS.md: "A campaign's homebrew gear may be marked critical_ultimate: true too" — through the
    homebrew editor's form (drawn from ``homebrew_forms``), not only through a JSON import."""
    form = OURDND.homebrew_forms["gear"]
    (field,) = [f for f in form.fields if f.name == "critical_ultimate"]
    assert (field.label, field.type) == ("CRITICAL ULTIMATE! EFFORT", "flag")
    base = {"id": "relic", "name": "Relic hammer", "kind": "weapon", "effort": "d8"}
    filled = {"name": ["Relic hammer"], "kind": ["1"], "effort": ["3"]}  # a weapon, d8
    entry, problems = entry_from_form(form, {**filled, "critical_ultimate": ["1"]}, base=base)
    assert problems == {} and entry["critical_ultimate"] is True
    assert with_gear("relic", homebrew={"gear": [entry]}).derived["effort"]["relic"] == "d12"
    plain, _ = entry_from_form(form, filled, base=base)
    assert plain["critical_ultimate"] is False
    assert with_gear("relic", homebrew={"gear": [plain]}).derived["effort"]["relic"] == "d8"
    kept, issues = OURDND.split_homebrew({"gear": [{**base, "critical_ultimate": "yes"}]})
    assert kept == {}
    assert [(i.code, i.path, i.message) for i in issues] == [
        ("homebrew.malformed", "/gear/0/critical_ultimate", "CRITICAL ULTIMATE! EFFORT is yes or no.")
    ]
