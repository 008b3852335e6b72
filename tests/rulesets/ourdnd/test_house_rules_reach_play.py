"""A campaign's house rules reach play, dice and combat, not only the build (issue #11): what changes
on the sheet (play state, roll buttons, odds) and in a fight, with the campaign's ``Context`` passed to
the hooks and with only the campaign's report."""

from __future__ import annotations

import pytest

from rulesets.engine.dice import FixedRoller
from tests.rulesets.report_helpers import typical
from tests.rulesets.test_house_rules_reach_play import _play, fighter


def ourdnd_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("ourdnd", settings, pass_ctx=pass_ctx)
    state = {**ruleset.initial_state(build, report, **kw), "hp": 1}
    after, _ = ruleset.state_action(state, {"action": "damage", "amount": 7}, build, report, **kw)
    tds = {r["request"]["td"] for r in ruleset.rollables(build, report, state, **kw) if "td" in r["request"]}
    rules = ruleset.combat()
    pc = fighter("ourdnd", 1, build, settings, {"hp": 1})
    start = rules.start([pc], {}, FixedRoller([10]), **kw)
    check = next(
        s for s in rules.actions(pc, [pc], start.encounter_state or {}, current=1, **kw) if s.id == "check"
    )
    return {"dead at −6": after["dead"], "sheet TDs": tds, "fight TD": check.odds["td"]}


SETTINGS, BY_DEFAULT, BY_CAMPAIGN = (
    {"instant_death_hp": -5, "default_td": 15},
    {"dead at −6": False, "sheet TDs": {12}, "fight TD": 12},
    {"dead at −6": True, "sheet TDs": {15}, "fight TD": 15},
)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
def test_a_campaign_house_rule_changes_play_dice_and_combat(pass_ctx):
    assert ourdnd_case(None, pass_ctx) == BY_DEFAULT
    assert ourdnd_case(SETTINGS, pass_ctx) == BY_CAMPAIGN


@pytest.mark.django_db
def test_an_ourdnd_campaign_kills_at_minus_6_and_rolls_at_td_15_on_the_sheet():
    from characters.builder.services import character_create, character_submit
    from characters.sheet.selectors import sheet_rules
    from characters.sheet.services import character_roll, character_state_action
    from tests.factories import make_campaign, make_user

    player = make_user()
    campaign = make_campaign(
        ruleset="ourdnd",
        settings={"house_rules": {"instant_death_hp": -5, "default_td": 15}},
        players=[player],
    )
    character = character_create(
        campaign=campaign, owner=player, name="Pip", build=typical("ourdnd"), budget={"points": 9}
    )
    character_submit(character_id=character.pk, user=player)
    rules = sheet_rules(character=type(character).objects.get(pk=character.pk))
    checks = [r for r in rules.rollables if r["id"].startswith("check:")]
    assert checks and {r["request"]["td"] for r in checks} == {15}
    log = character_roll(
        character_id=character.pk, user=player, rollable_id="check:dex:normal", roller=FixedRoller([11])
    )
    assert log.result["outcome"] == "failure" and log.result["text"].endswith("= 14 vs TD 15: failure")

    character_state_action(character_id=character.pk, user=player, action={"action": "damage", "amount": 19})
    character, sentence = character_state_action(
        character_id=character.pk, user=player, action={"action": "damage", "amount": 7}
    )
    assert character.state["dead"] is True and character.state["hp"] == 0
    assert sentence == "Pip takes 7 damage and is reduced to -6 HP in one blow: dead instantly."
