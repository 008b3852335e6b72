"""A campaign's house rules reach play, dice and combat, not only the build (issue #11): what changes
on the sheet (play state, roll buttons, odds) and in a fight, with the campaign's ``Context`` passed to
the hooks and with only the campaign's report."""

from __future__ import annotations

import pytest

from tests.rulesets.test_house_rules_reach_play import _play, fighter


def pando_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("pando", settings, pass_ctx=pass_ctx)
    state = ruleset.initial_state(build, report, **kw)
    hurt, _ = ruleset.state_action(
        state, {"action": "harm", "body_part": "left_arm", "amount": 2}, build, report, **kw
    )
    arm = ruleset.state_effects(build, report, hurt, **kw)["body"]["left_arm"]
    f = fighter("pando", 1, build, settings, {"harm": hurt["harm"]})
    return {
        "arm status": arm["status"],
        "arm usable": arm["usable"],
        "fight row": ruleset.combat().summary(f, {}, **kw)["status"],
    }


SETTINGS, BY_DEFAULT, BY_CAMPAIGN = (
    {"harm_thresholds": {"wounded": 1, "lame": 2, "maimed": 5}},
    {"arm status": "wounded", "arm usable": True, "fight row": ["wounded left arm (2)"]},
    {"arm status": "lame", "arm usable": False, "fight row": ["lame left arm (2)"]},
)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
def test_a_campaign_house_rule_changes_play_dice_and_combat(pass_ctx):
    assert pando_case(None, pass_ctx) == BY_DEFAULT
    assert pando_case(SETTINGS, pass_ctx) == BY_CAMPAIGN
