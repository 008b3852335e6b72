"""RULES.md, common section: "A value outside its range is still priced by the ruleset's cost
formula, so that spent, remaining and budget.exceeded stay true beside the range error"."""

import copy
import json
import time

import pytest

from rulesets.engine import registry, validate

EXAMPLES = registry.get("maelstrom").package_dir / "examples"
BASE = json.loads((EXAMPLES / "kestrel_investigator.json").read_text())["build"]


def _with(section, key, value):
    doc = copy.deepcopy(BASE)
    if key is None:
        doc[section] = value
    else:
        doc[section][key] = value
    return doc


def test_the_base_build_is_valid_and_spends_what_it_spends():
    report = validate(BASE)
    assert report.valid, report.errors
    assert report.spent == {"xp": 20}


@pytest.mark.parametrize(
    "section, key, value, code, extra",
    [
        # Seed cost table: "Attribute | 15 Points": Wits 3 → 6 is three dots at 15, one above the maximum.
        ("attributes", "wits", 6, "attribute.above_maximum", 45),
        ("attributes", "wits", 8, "attribute.above_maximum", 75),
        # "Ability | New Rank x 2 Points": Investigation 4 → 6 is 2×5 + 2×6 = 22, the 6th dot 12 of them.
        ("abilities", "investigation", 6, "skill.above_maximum", 22),
        ("abilities", "investigation", 7, "skill.above_maximum", 36),
        # "Willpower | New Rank x 1 Point": 4 → 11 is 5 + 6 + … + 11 = 56.
        ("willpower", None, 11, "attribute.above_maximum", 56),
    ],
)
def test_a_value_above_its_maximum_is_still_priced(section, key, value, code, extra):
    report = validate(_with(section, key, value))
    path = f"/{section}" + (f"/{key}" if key else "")
    assert report.has_error(code, path)
    assert report.spent == {"xp": 20 + extra}
    over = report.spent["xp"] > 30
    assert report.has_error("budget.exceeded", "/budget/xp") is over
    assert report.as_dict()["remaining"] == {"xp": 30 - 20 - extra}


def test_the_dots_above_the_maximum_show_as_one_line_of_the_costs():
    report = validate(_with("abilities", "investigation", 7))
    lines = [c for c in report.costs if c["path"] == "/abilities/investigation"]
    assert [c["cost"] for c in lines] == [8, 10, 26]
    assert lines[-1]["label"] == (
        "Investigation 6–7 would cost 26 XP: 2 dots above the maximum of 5, priced so the total stays true."
    )


def test_a_huge_value_is_priced_in_closed_form():
    started = time.process_time()
    report = validate(_with("attributes", "wits", 10**9))
    assert time.process_time() - started < 0.5
    assert report.spent["xp"] == 20 + 15 * (10**9 - 3)
    assert report.has_error("budget.exceeded", "/budget/xp")
    # The cheapest creation still takes the surplus off the highest attribute only.
    assert report.derived["creation"]["attributes"]["wits"] == 3


def test_permanent_willpower_in_play_stays_within_its_range():
    report = validate(_with("willpower", None, 12))
    assert report.derived["willpower"] == 10


def test_a_campaign_that_raises_the_maximum_prices_the_dot_as_an_ordinary_one():
    doc = _with("abilities", "investigation", 6)
    report = validate(doc, settings={"ability_range": {"max": 6}})
    assert not report.has_error("skill.above_maximum")
    assert report.spent == {"xp": 20 + 22}  # the same XP: only the range moved
    assert [c["label"] for c in report.costs if c["path"] == "/abilities/investigation"][-1] == (
        "Investigation 6 costs 12 XP because it is the 6th dot (new rank × 2, the Maelstrom cost table)."
    )
