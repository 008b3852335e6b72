"""Paragon, seizing the offensive (issue #15; RULES.md 2 "exchanges between two combatants, higher
initiative acts first"). Seed 001, the note on exchanges:

    "During a surprise round, a combatant initiating an exchange against a surprised foe acts first
    regardless of Initiative. Hero Points can be expended to seize the offensive: a combatant who
    expends more HP than their opponent always gets to act first, regardless of Initiative and surprise
    assaults."

Either side of an exchange spends Hero Points (``seize_offensive``, ``amount``) before its first strike;
spends add up. The seed is silent on equal spends: the house default ``seize_offensive_tie`` reads
"initiative" (they cancel out; surprise and initiative decide as usual), a campaign may say
"simultaneous".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine.combat import Fighter
from rulesets.systems.paragon import RULESET as PARAGON
from tests.rulesets import combat_helpers
from tests.rulesets.report_helpers import typical

ROOT = Path(__file__).resolve().parents[3]
AREN = typical("paragon")  # paragon, 5 Hero Points
SELA = json.loads(
    (ROOT / "rulesets/systems/paragon/demo/sela_windborn.json").read_text()
)  # paragon, 5 Hero Points
HESK = json.loads(
    (ROOT / "rulesets/systems/paragon/demo/old_hesk.json").read_text()
)  # ordinary: no Hero Points
RULES = PARAGON.combat()


def fighter(fid: int, build: dict, settings: dict | None = None, **pools) -> Fighter:
    """A fighter whose report was checked under the campaign's house rules ``settings``."""
    report = PARAGON.validate(build, settings=settings)
    assert report.valid, report.errors
    state = PARAGON.initial_state(build, report)
    state["pools"].update(pools)
    return Fighter(
        id=fid,
        name=build["name"],
        is_npc=fid != 1,
        group="pcs" if fid == 1 else "npcs",
        build=build,
        derived=report.derived,
        state=state,
        combat={},
        report=report,
    )


class Fight(combat_helpers.Scene):
    rules = RULES

    def heroism(self, fid: int) -> int:
        return self.by[fid].state["pools"]["heroism"]

    def exchange(self) -> dict:
        return self.es["exchange"]


def duel(settings: dict | None = None, foe: dict = SELA, **es) -> Fight:
    """Aren against Sela (or ``foe``). Initiative: Aren d12 8 + 2d6 4,6 + 4 = 22; the foe 3 + 5,1 = 9."""
    fight = Fight([fighter(1, AREN, settings), fighter(2, foe, settings)], es, [8, 4, 6, 3, 5, 1])
    fight.act(1, action="engage", target=2, kind="ranged")
    return fight


# (spends in order as (fighter, Hero Points), who acts first, why): the seed's words as a table.
TABLE = [
    ("no spend: the higher initiative acts first", [], 1, "initiative"),
    ("the lower initiative spends more and acts first", [(2, 1)], 2, "hero_points"),
    ("the spends add up: outbid, then outbid again", [(2, 1), (1, 2), (2, 2)], 2, "hero_points"),
    ("the higher initiative outbids", [(2, 1), (1, 2)], 1, "hero_points"),
    ("equal spends cancel out: initiative decides (house default)", [(2, 2), (1, 2)], 1, "initiative"),
]


@pytest.mark.parametrize(
    ("spends", "first", "why"), [(s, f, w) for _, s, f, w in TABLE], ids=[n for n, *_ in TABLE]
)
def test_the_combatant_who_expends_more_hero_points_acts_first(spends, first, why):
    fight = duel()
    for fid, amount in spends:
        fight.act(fid, action="seize_offensive", amount=amount)
    assert (fight.exchange()["first"], fight.exchange()["first_by"]) == (first, why)
    spent = {fid: sum(a for f, a in spends if f == fid) for fid in (1, 2)}
    assert fight.exchange()["seized"] == {str(f): n for f, n in spent.items() if n}
    assert (fight.heroism(1), fight.heroism(2)) == (5 - spent[1], 5 - spent[2])


def test_the_one_who_seized_strikes_first_and_the_other_waits_in_the_rule_s_words():
    fight = duel()
    fight.act(2, action="seize_offensive", amount=1)
    assert fight.log[-1] == (
        "Sela Windborn spends 1 Hero Point to seize the offensive (1 against Aren of the "
        "Eastern Gate's 0; 4 left): Sela Windborn acts first in this exchange."
    )
    spec = fight.spec(1, "strike")
    assert (spec.allowed, spec.code) == (False, "paragon.acts_second")
    assert (
        spec.reason == "Sela Windborn seized the offensive with 1 Hero Point and acts first in this exchange."
    )
    fight.refused(1, "paragon.acts_second", action="strike", skill="missile")
    assert fight.spec(2, "strike").allowed
    fight.act(2, [1, 1, 1, 1, 1], action="strike", skill="triarmatura")  # a miss: Sela's action is over
    assert fight.spec(1, "strike").allowed


def test_regardless_of_surprise_the_surprised_foe_who_spends_more_acts_first():
    # Round 1 is the surprise round and Sela is surprised: Aren, initiating the exchange, acts first ...
    fight = duel(surprised=[2])
    assert (fight.exchange()["first"], fight.exchange()["first_by"]) == (1, "surprise")
    assert fight.spec(2, "strike").code == "paragon.surprised"
    # ... until Sela expends more Hero Points: she acts first, and may strike in the surprise round.
    assert fight.spec(2, "seize_offensive").allowed
    fight.act(2, action="seize_offensive", amount=2)
    assert (fight.exchange()["first"], fight.exchange()["first_by"]) == (2, "hero_points")
    assert fight.spec(2, "strike").allowed
    assert fight.spec(2, "engage").code == "paragon.surprised"  # still surprised for everything else
    fight.act(1, action="seize_offensive", amount=2)  # equal: surprise decides again (house default)
    assert (fight.exchange()["first"], fight.exchange()["first_by"]) == (1, "surprise")
    assert fight.log[-1].endswith(
        "equal spends cancel out, and by surprise Aren of the Eastern Gate acts first "
        "(house default; your GM may change it)."
    )


def test_a_campaign_may_make_equal_spends_simultaneous():
    settings = {"seize_offensive_tie": "simultaneous"}
    fight = duel(settings)
    assert "equal spends make both sides act simultaneously" in fight.spec(1, "seize_offensive").cost
    fight.act(2, action="seize_offensive", amount=1)
    fight.act(1, action="seize_offensive", amount=1)
    assert (fight.exchange()["first"], fight.exchange()["first_by"]) == (None, "hero_points")
    assert fight.log[-1].endswith(
        "equal spends, both act simultaneously (house default; your GM may change it)."
    )
    assert fight.spec(1, "strike").allowed and fight.spec(2, "strike").allowed
    # The house default (initiative) on the page, and the same spends without the house rule:
    assert (
        "equal spends cancel out, and surprise and initiative decide as usual (house default; "
        "your GM may change it)" in duel().spec(1, "seize_offensive").cost
    )


def test_an_unknown_tie_rule_is_a_settings_warning_and_the_default_applies():
    report = PARAGON.validate(AREN, settings={"seize_offensive_tie": "coin flip"})
    assert [(w.code, w.path) for w in report.warnings] == [("settings.malformed", "/seize_offensive_tie")]
    fight = duel({"seize_offensive_tie": "coin flip"})
    fight.act(2, action="seize_offensive", amount=1)
    fight.act(1, action="seize_offensive", amount=1)
    assert fight.exchange()["first"] == 1


@pytest.mark.parametrize(
    ("who", "amount", "code", "words"),
    [
        (
            2,
            6,
            "paragon.no_hero_points",
            "Seizing the offensive with 6 Hero Points needs 6, but Sela Windborn has 5.",
        ),
        (2, 0, "paragon.invalid_amount", "Spend a whole number of Hero Points, 1 or more."),
        (2, "lots", "paragon.invalid_amount", "Spend a whole number of Hero Points, 1 or more."),
    ],
)
def test_a_spend_the_combatant_cannot_make_is_refused_and_changes_nothing(who, amount, code, words):
    fight = duel()
    assert fight.refused(who, code, action="seize_offensive", amount=amount) == words
    assert fight.heroism(2) == 5 and fight.exchange()["seized"] == {}


def test_without_hero_points_the_offensive_cannot_be_seized():
    # Old Hesk is no paragon: no Heroism, no Hero Points (seed: "ranging from zero to the Heroism score").
    fight = duel(foe=HESK)
    spec = fight.spec(2, "seize_offensive")
    assert (spec.allowed, spec.code) == (False, "paragon.no_hero_points")
    assert spec.reason == "Hero Points can be expended to seize the offensive, but Old Hesk has none left."
    fight.refused(2, "paragon.no_hero_points", action="seize_offensive", amount=1)


def test_the_offensive_is_seized_before_the_exchange_s_first_strike_only():
    fight = Fight([fighter(1, AREN), fighter(2, SELA)], {}, [8, 4, 6, 3, 5, 1])
    assert fight.spec(1, "seize_offensive").code == "paragon.no_exchange"
    fight.act(1, action="engage", target=2, kind="ranged")
    fight.act(1, [10, 4, 4], action="strike", skill="missile")  # a threat: the exchange is under way
    assert fight.spec(2, "seize_offensive").code == "paragon.offensive_closed"
    fight.refused(2, "paragon.offensive_closed", action="seize_offensive", amount=1)


def test_the_row_shows_the_spend():
    fight = duel()
    fight.act(2, action="seize_offensive", amount=3)
    assert "spent 3 Hero Points to seize the offensive" in RULES.summary(fight.by[2], fight.es)["status"]
    assert RULES.summary(fight.by[2], fight.es)["stats"][3] == {
        "label": "Hero Points",
        "value": "2",
        "key": "heroism",
    }


@pytest.mark.parametrize(
    ("amount", "left", "refusal"),
    [
        (1, 4, None),
        (3, 2, None),
        (5, 0, None),
        (6, 5, "Only 5 Hero Points left, not the 6 to spend; spend fewer, or act boldly to regain them."),
    ],
)
def test_the_sheet_s_spend_of_hero_points_takes_an_amount_and_never_goes_below_zero(amount, left, refusal):
    from rulesets.engine import StateError

    report = PARAGON.validate(AREN)
    state = PARAGON.initial_state(AREN, report)
    action = {"action": "spend_hero_point", "amount": amount, "reason": "seizing the offensive"}
    if refusal:
        with pytest.raises(StateError) as exc:
            PARAGON.state_action(state, action, AREN, report)
        assert (exc.value.code, exc.value.message) == ("paragon.no_hero_points", refusal)
        assert state["pools"]["heroism"] == left
    else:
        new, text = PARAGON.state_action(state, action, AREN, report)
        assert new["pools"]["heroism"] == left and state["pools"]["heroism"] == 5
        points = "a Hero Point" if amount == 1 else f"{amount} Hero Points"
        assert text == f"Aren of the Eastern Gate spends {points} (seizing the offensive); {left} left."
