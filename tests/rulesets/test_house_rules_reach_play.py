"""A campaign's house rules reach play, dice and combat, not only the build (issue #11).

One row per ruleset: a house default its play uses, overridden by a campaign, and what changes
on the sheet (play state, roll buttons, odds) and in a fight. Each row is checked twice: with
the campaign's ``Context`` passed to the hooks, and with only the campaign's report (the hooks
fall back to the context it was checked under). A last test walks the Our D&D case of the issue
through the sheet's services.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine import registry
from rulesets.engine.combat import Fighter
from rulesets.engine.dice import FixedRoller

BUILDS = Path(__file__).resolve().parents[2] / "bench" / "builds"


def typical(slug: str) -> dict:
    return json.loads((BUILDS / f"{slug}_typical.json").read_text())


def fighter(slug: str, fid: int, build: dict, settings: dict | None, state: dict | None = None) -> Fighter:
    """A fighter as the combat service makes one for a campaign with ``settings``."""
    ruleset = registry.get(slug)
    report = ruleset.validate(build, settings=settings)
    assert report.valid, report.errors
    opening = ruleset.initial_state(build, report, ctx=ruleset.context(settings))
    return Fighter(
        id=fid,
        name=f"{build['name']} {fid}",
        is_npc=fid > 1,
        group="",
        build=build,
        derived=report.derived,
        state={**opening, **(state or {})},
        combat={},
        report=report,
    )


def _play(slug: str, settings: dict | None, *, pass_ctx: bool):
    ruleset = registry.get(slug)
    build = typical(slug)
    report = ruleset.validate(build, settings=settings)
    assert report.valid, report.errors
    kw = {"ctx": ruleset.context(settings)} if pass_ctx else {}
    return ruleset, build, report, kw


# --------------------------------------------------------------- per ruleset: what the house rule changes


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


def paragon_case(settings, pass_ctx):
    ruleset, build, report, kw = _play("paragon", settings, pass_ctx=pass_ctx)
    tns = {r["request"]["tn"] for r in ruleset.rollables(build, report, None, **kw)}
    plain = {k: v for k, v in build.items() if k != "resources"}  # maxima left to the house defaults
    plain_report = ruleset.validate(plain, settings=settings)
    health = ruleset.initial_state(plain, plain_report, **kw)["pools"]["health"]
    return {"sheet TNs": tns, "opening health": health}


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


CASES = {
    "ourdnd": (
        ourdnd_case,
        {"instant_death_hp": -5, "default_td": 15},
        {"dead at −6": False, "sheet TDs": {12}, "fight TD": 12},
        {"dead at −6": True, "sheet TDs": {15}, "fight TD": 15},
    ),
    "paragon": (
        paragon_case,
        {"default_tn": 9, "resources": {"paragon": {"health": 25}}},
        {"sheet TNs": {12}, "opening health": 20},
        {"sheet TNs": {9}, "opening health": 25},
    ),
    "pando": (
        pando_case,
        {"harm_thresholds": {"wounded": 1, "lame": 2, "maimed": 5}},
        {"arm status": "wounded", "arm usable": True, "fight row": ["wounded left arm (2)"]},
        {"arm status": "lame", "arm usable": False, "fight row": ["lame left arm (2)"]},
    ),
    "ascendant": (
        ascendant_case,
        {"hero_points_start": 2, "default_threshold": 18, "dying_max": 2},
        {"hero points": 1, "sheet thresholds": {15}, "dying 3 in a fight": "ascendant.unconscious"},
        {"hero points": 2, "sheet thresholds": {18}, "dying 3 in a fight": "ascendant.dead"},
    ),
    "maelstrom": (
        maelstrom_case,
        {"default_difficulty": 8},
        # an untrained ability rolls at one more (7, then 9)
        {"sheet difficulties": {6, 7}, "odds without a difficulty": True, "fight difficulty": 6},
        {"sheet difficulties": {8, 9}, "odds without a difficulty": True, "fight difficulty": 8},
    ),
}


def test_every_ruleset_has_a_row():
    assert set(CASES) == set(registry.SYSTEMS)


@pytest.mark.parametrize("pass_ctx", [True, False], ids=["ctx passed", "ctx from the report"])
@pytest.mark.parametrize("slug", sorted(CASES))
def test_a_campaign_house_rule_changes_play_dice_and_combat(slug, pass_ctx):
    case, settings, by_default, by_campaign = CASES[slug]
    assert case(None, pass_ctx) == by_default
    assert case(settings, pass_ctx) == by_campaign


# --------------------------------------------------------------- the case, through the sheet


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


# --------------------------------------------------------------- homebrew gets its roll buttons

HOMEBREW_ROLLS = {
    "maelstrom": (
        {"abilities": [{"id": "zero_g_combat", "name": "Zero-G Combat", "category": "skill"}]},
        lambda b: {**b, "budget": {"xp": 40}, "abilities": {**b["abilities"], "zero_g_combat": 1}},
        "precision__zero_g_combat",
        "Precision + Zero-G Combat",
    ),
    "ourdnd": (
        {"gear": [{"id": "war_pick", "name": "War pick", "effort": "d8"}]},
        lambda b: {**b, "gear": [{"item": "war_pick"}]},
        "effort:war_pick",
        "War pick effort (d8)",
    ),
    "pando": (
        {"skills": [{"id": "slings", "name": "Slings", "level": 3, "parent": "ranged"}]},
        lambda b: {**b, "budget": {"cp": 120}, "skills": [*b.get("skills", []), "slings"]},
        "skill:slings",
        None,
    ),
}


@pytest.mark.parametrize("slug", sorted(HOMEBREW_ROLLS))
def test_homebrew_abilities_and_items_get_their_roll_buttons(slug):
    homebrew, change, rollable_id, label = HOMEBREW_ROLLS[slug]
    ruleset = registry.get(slug)
    build = change(typical(slug))
    report = ruleset.validate(build, homebrew=homebrew)
    assert report.valid, report.errors
    ctx = ruleset.context(None, homebrew)
    state = ruleset.initial_state(build, report, ctx=ctx)
    buttons = {r["id"]: r for r in ruleset.rollables(build, report, state, ctx=ctx)}
    assert rollable_id in buttons
    if label is not None:
        assert buttons[rollable_id]["label"] == label
    assert ruleset.odds(buttons[rollable_id]["request"], ctx=ctx)
