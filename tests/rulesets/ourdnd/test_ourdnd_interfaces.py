"""Our D&D's dice and play state through the typed interfaces (moved from tests/rulesets/test_interfaces.py):
a refused action and an unknown request raise through them; the default hooks call its folder's
modules with the campaign; a subclass defined elsewhere still finds its parent's folder."""

from __future__ import annotations

import pytest

from rulesets.engine import validate
from rulesets.engine.dice import FixedRoller
from rulesets.engine.errors import OddsError, StateError
from rulesets.systems import ourdnd
from rulesets.systems.ourdnd import dice as ourdnd_dice
from rulesets.systems.ourdnd import state as ourdnd_state
from tests.rulesets.report_helpers import typical


def test_a_refused_action_and_an_unknown_request_raise_through_the_interfaces():
    rs = ourdnd.RULESET
    build = typical("ourdnd")
    report = validate(build)
    with pytest.raises(StateError) as refused:
        rs.state_action(rs.initial_state(build, report), {"action": "fly"}, build, report)
    assert refused.value.code == "state.unknown_action"
    with pytest.raises(OddsError):
        rs.odds({"stat": "ten"})


def test_the_default_hooks_call_the_folder_modules_with_the_campaign():
    rs = ourdnd.RULESET
    ctx = rs.context({"default_td": 15, "instant_death_hp": -5})
    build = typical("ourdnd")
    report = validate(build, settings={"default_td": 15, "instant_death_hp": -5})
    assert report.valid
    state = rs.initial_state(build, report, ctx=ctx)
    assert state == ourdnd_state.initial_state(build, report, ctx)
    assert rs.state_sections(build, report, state, ctx=ctx) == ourdnd_state.state_sections(
        build, report, ctx, state
    )
    rolls = rs.rollables(build, report, state, ctx=ctx)
    assert rolls == ourdnd_dice.rollables(build, report, ctx, state)
    checks = [r["request"] for r in rolls if "td" in r["request"]]
    assert checks and {c["td"] for c in checks} == {15}  # the house default reached the sheet
    assert rs.odds(checks[0]) == ourdnd_dice.odds(checks[0])
    roll = rs.roll(checks[0], FixedRoller([6, 6, 6, 6]))
    assert roll == ourdnd_dice.roll(checks[0], FixedRoller([6, 6, 6, 6]))


def test_a_subclass_defined_elsewhere_still_finds_its_parents_folder():
    class HouseOurDnD(type(ourdnd.RULESET)):  # type: ignore[misc]
        pass

    rs = HouseOurDnD()
    assert rs.play_state is ourdnd.RULESET.play_state
    assert rs.dice is ourdnd.RULESET.dice
    build = typical("ourdnd")
    report = validate(build)
    assert rs.initial_state(build, report) == ourdnd_state.initial_state(build, report, report.context)
    request = {"stat": 2, "td": 12, "mode": "easy"}
    assert rs.odds(request) == ourdnd_dice.odds(request)
