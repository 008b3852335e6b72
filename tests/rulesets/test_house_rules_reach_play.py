"""A campaign's house rules reach play, dice and combat, not only the build (issue #11).

For every ruleset of the registry and each campaign's house rules its folder names as changing play
(``house_play`` in ``content/examples.json``): what the play, dice and combat hooks return for the
typical build changes, and is the same with the campaign's ``Context`` passed to the hooks and with
only the campaign's report (the hooks fall back to the context it was checked under). What exactly
changes is each ruleset's own test: tests/rulesets/<slug>/test_house_rules_reach_play.py. Homebrew
abilities and items get their roll buttons (``homebrew_rolls``).
"""

from __future__ import annotations

import json
import random

import pytest

from rulesets.engine import registry
from rulesets.engine.combat import Fighter
from rulesets.engine.dice import Roller


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
    build = ruleset.contract_data()["typical"]
    report = ruleset.validate(build, settings=settings)
    assert report.valid, report.errors
    kw = {"ctx": ruleset.context(settings)} if pass_ctx else {}
    return ruleset, build, report, kw


def observed(slug: str, settings: dict | None, *, pass_ctx: bool) -> str:
    """What play, dice and combat show for the typical build under ``settings``, as one text."""
    ruleset, build, report, kw = _play(slug, settings, pass_ctx=pass_ctx)
    state = ruleset.initial_state(build, report, **kw)
    rollables = ruleset.rollables(build, report, state, **kw)
    odds_ctx = ruleset.context(settings)  # odds have no report to fall back on
    seen = [
        state,
        ruleset.state_effects(build, report, state, **kw),
        ruleset.state_sections(build, report, state, **kw),
        rollables,
        [ruleset.odds(r["request"], ctx=odds_ctx) for r in rollables[:5]],
    ]
    pcs = [fighter(slug, 1, build, settings), fighter(slug, 2, build, settings)]
    rules = ruleset.combat()
    start = rules.start(pcs, {}, Roller(random.Random(3)), **kw)
    es = start.encounter_state or {}
    seen += [es, [s.as_dict() for s in rules.actions(pcs[0], pcs, es, current=start.order[0], **kw)]]
    seen += [rules.summary(f, es, **kw) for f in pcs]
    return json.dumps(seen, sort_keys=True, default=str)


HOUSE_PLAY = [
    (rs.slug, i, settings)
    for rs in registry.all_rulesets()
    for i, settings in enumerate(rs.contract_data()["house_play"])
]


@pytest.mark.parametrize(("slug", "n", "house"), HOUSE_PLAY, ids=[f"{s}:{n}" for s, n, _ in HOUSE_PLAY])
def test_a_campaign_house_rule_changes_play_dice_and_combat(slug, n, house):
    by_campaign = observed(slug, house, pass_ctx=True)
    assert by_campaign != observed(slug, None, pass_ctx=True), f"{slug}: {house} changes nothing in play"
    assert observed(slug, house, pass_ctx=False) == by_campaign, "the report's context differs from ctx"


# --------------------------------------------------------------- homebrew gets its roll buttons

HOMEBREW_ROLLS = [
    (rs.slug, i, case)
    for rs in registry.all_rulesets()
    for i, case in enumerate(rs.contract_data()["homebrew_rolls"])
]


@pytest.mark.parametrize(
    ("slug", "n", "case"), HOMEBREW_ROLLS, ids=[f"{s}:{n}" for s, n, _ in HOMEBREW_ROLLS]
)
def test_homebrew_abilities_and_items_get_their_roll_buttons(slug, n, case):
    ruleset = registry.get(slug)
    homebrew, build = case["homebrew"], case["build"]
    report = ruleset.validate(build, homebrew=homebrew)
    assert report.valid, report.errors
    ctx = ruleset.context(None, homebrew)
    state = ruleset.initial_state(build, report, ctx=ctx)
    buttons = {r["id"]: r for r in ruleset.rollables(build, report, state, ctx=ctx)}
    assert case["rollable"] in buttons
    if "label" in case:
        assert buttons[case["rollable"]]["label"] == case["label"]
    assert ruleset.odds(buttons[case["rollable"]]["request"], ctx=ctx)
