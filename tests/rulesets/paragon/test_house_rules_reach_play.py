"""A campaign's house rules reach play, dice and combat, not only the build (issue #11): what changes
on the sheet (play state, roll buttons, odds) and in a fight, with the campaign's ``Context`` passed to
the hooks and with only the campaign's report."""

from __future__ import annotations

import pytest

from tests.rulesets.test_house_rules_reach_play import _play


def paragon_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("paragon", settings, pass_ctx=pass_ctx)
    tns = {r["request"]["tn"] for r in ruleset.rollables(build, report, None, **kw)}
    plain = {k: v for k, v in build.items() if k != "resources"}  # maxima left to the house defaults
    plain_report = ruleset.validate(plain, settings=settings)
    health = ruleset.initial_state(plain, plain_report, **kw)["pools"]["health"]
    return {"sheet TNs": tns, "opening health": health}


SETTINGS, BY_DEFAULT, BY_CAMPAIGN = (
    {"default_tn": 9, "resources": {"paragon": {"health": 25}}},
    {"sheet TNs": {12}, "opening health": 20},
    {"sheet TNs": {9}, "opening health": 25},
)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
def test_a_campaign_house_rule_changes_play_dice_and_combat(pass_ctx):
    assert paragon_case(None, pass_ctx) == BY_DEFAULT
    assert paragon_case(SETTINGS, pass_ctx) == BY_CAMPAIGN
