"""A campaign's house rules reach play, dice and combat, not only the build (issue #11): what changes
on the sheet (play state, roll buttons, odds) and in a fight, with the campaign's ``Context`` passed to
the hooks and with only the campaign's report."""

from __future__ import annotations

import pytest

from tests.rulesets.test_house_rules_reach_play import _play, fighter


def ascendant_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("ascendant", settings, pass_ctx=pass_ctx)
    state = ruleset.initial_state(build, report, **kw)
    thresholds = {r["request"]["threshold"] for r in ruleset.rollables(build, report, state, **kw)}
    rules = ruleset.combat()
    # The typical fighter holds Diehard (#15: it now counts): it dies at the campaign's dying_max + 1.
    dying = fighter(
        "ascendant", 1, build, settings, {"stamina": 0, "conditions": [{"id": "dying", "value": 3}]}
    )
    strike = next(s for s in rules.actions(dying, [dying], {}, current=1, **kw) if s.id == "strike")
    return {
        "hero points": state["hero_points"],
        "sheet thresholds": thresholds,
        "dying 3 in a fight": strike.code,
    }


SETTINGS, BY_DEFAULT, BY_CAMPAIGN = (
    {"hero_points_start": 2, "default_threshold": 18, "dying_max": 2},
    {"hero points": 1, "sheet thresholds": {15}, "dying 3 in a fight": "ascendant.unconscious"},
    {"hero points": 2, "sheet thresholds": {18}, "dying 3 in a fight": "ascendant.dead"},
)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
def test_a_campaign_house_rule_changes_play_dice_and_combat(pass_ctx):
    assert ascendant_case(None, pass_ctx) == BY_DEFAULT
    assert ascendant_case(SETTINGS, pass_ctx) == BY_CAMPAIGN
