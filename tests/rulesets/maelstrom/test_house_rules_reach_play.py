"""A campaign's house rules reach play, dice and combat, not only the build (issue #11): what changes
on the sheet (play state, roll buttons, odds) and in a fight, with the campaign's ``Context`` passed to
the hooks and with only the campaign's report."""

from __future__ import annotations

import pytest

from rulesets.engine.dice import FixedRoller
from tests.rulesets.test_house_rules_reach_play import _play, fighter


def maelstrom_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("maelstrom", settings, pass_ctx=pass_ctx)
    state = ruleset.initial_state(build, report, **kw)
    difficulties = {
        r["request"]["difficulty"]
        for r in ruleset.rollables(build, report, state, **kw)
        if "difficulty" in r["request"]
    }
    odds_ctx = kw.get("ctx") or ruleset.context(settings)  # odds have no report to fall back on
    unstated = ruleset.odds({"pool": 3}, ctx=odds_ctx)
    stated = ruleset.odds({"pool": 3, "difficulty": settings.get("default_difficulty", 6) if settings else 6})
    f = fighter("maelstrom", 1, build, settings)
    start = ruleset.combat().start([f], {}, FixedRoller([5]), **kw)
    return {
        "sheet difficulties": difficulties,
        "odds without a difficulty": unstated == stated,
        "fight difficulty": start.encounter_state["difficulty"],
    }


SETTINGS, BY_DEFAULT, BY_CAMPAIGN = (
    {"default_difficulty": 8},
    # an untrained ability rolls at one more (7, then 9)
    {"sheet difficulties": {6, 7}, "odds without a difficulty": True, "fight difficulty": 6},
    {"sheet difficulties": {8, 9}, "odds without a difficulty": True, "fight difficulty": 8},
)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
def test_a_campaign_house_rule_changes_play_dice_and_combat(pass_ctx):
    assert maelstrom_case(None, pass_ctx) == BY_DEFAULT
    assert maelstrom_case(SETTINGS, pass_ctx) == BY_CAMPAIGN
