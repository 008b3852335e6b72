"""Zero willpower as the rulebook says (RULES.md W18; seed 004 "Zero Willpower").

The seed: "Characters in this state may not make any actions and are considered incapacitated. …
If another character is sufficiently motivating or encouraging, they may spend one dot of their own
willpower to restore nearby incapacitated characters to one dot. … Once a character is longer
directly threatened … they can recover by themselves and act normally. This requires being fully
out of combat for at least one turn … However, this only resolves the incapacitation and does not
recover a dot of willpower."
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import StateError, validate
from tests.rulesets.maelstrom.test_maelstrom_combat import KESTREL, ROOK, RULESET, Table, fighter
from tests.rulesets.maelstrom.test_maelstrom_state import BUILD, REPORT, act, state

B = "bashing"


def effects(s):
    return RULESET.state_effects(BUILD, REPORT, s)


def test_at_zero_willpower_the_character_is_incapacitated_until_out_of_combat_for_a_turn():
    broken = act(state(willpower=1), action="lose_willpower", dots=1)
    assert effects(broken)["incapacitated"] is True
    assert effects(broken)["labels"] == ["No willpower left: incapacitated"]
    calm = act(broken, action="out_of_combat")
    # "they can recover by themselves and act normally … does not recover a dot of willpower"
    assert calm["willpower"] == 0 and calm["acting_normally"] is True
    assert effects(calm)["incapacitated"] is False
    assert effects(calm)["labels"] == ["No willpower left: acting normally (a safe place brings a dot back)"]
    assert RULESET.check_state(calm, BUILD, REPORT) == []


def test_the_character_acting_at_zero_can_roll_again_on_the_sheet():
    calm = act(state(willpower=0), action="out_of_combat")
    rolls = {r["id"]: r for r in RULESET.rollables(BUILD, REPORT, calm)}
    assert not any(r.get("disabled") for r in rolls.values())
    broken_rolls = RULESET.rollables(BUILD, REPORT, state(willpower=0))
    assert rolls["wits__investigation"]["request"]["pool"] == 7
    assert all(r.get("disabled") for r in broken_rolls if r["id"] != "willpower")


def test_losing_the_next_dot_after_a_rally_incapacitates_again():
    calm = act(state(willpower=0), action="out_of_combat")
    rallied = act(calm, action="rallied", by="Rook")
    assert (rallied["willpower"], rallied["acting_normally"]) == (1, False)
    again = act(rallied, action="lose_willpower", dots=1)
    assert again["acting_normally"] is False and effects(again)["incapacitated"] is True


@pytest.mark.parametrize(
    "before, action, code",
    [
        (state(willpower=2), {"action": "out_of_combat"}, "maelstrom.has_willpower"),
        (state(willpower=0, acting_normally=True), {"action": "out_of_combat"}, "maelstrom.already_acting"),
        (state(willpower=1), {"action": "rallied"}, "maelstrom.has_willpower"),
        (state(willpower=0), {"action": "rally"}, "maelstrom.no_willpower"),
        (state(willpower=0, dead=True), {"action": "out_of_combat"}, "maelstrom.dead"),
    ],
)
def test_recovering_and_rallying_are_refused_where_the_seed_does_not_allow_them(before, action, code):
    kept = copy.deepcopy(before)
    with pytest.raises(StateError) as refused:
        RULESET.state_action(before, action, BUILD, REPORT)
    assert refused.value.code == code
    assert before == kept


def test_rallying_spends_one_of_the_allys_dots_and_restores_the_character_to_one():
    ally = act(state(willpower=3), action="rally", target_name="Kestrel")
    assert ally["willpower"] == 2
    restored = act(state(willpower=0), action="rallied", by="Rook")
    assert restored["willpower"] == 1 and effects(restored)["incapacitated"] is False
    new, text = RULESET.state_action(state(willpower=0), {"action": "rallied", "by": "Rook"}, BUILD, REPORT)
    assert text == "Rallied by Rook: back to 1 willpower, and acts again."


def test_the_sheet_offers_out_of_combat_only_at_zero_and_rally_with_a_character_field():
    def actions(s):
        sections = RULESET.state_sections(BUILD, REPORT, s)
        return {a["action"]: a for sec in sections for a in sec.get("actions", [])}

    assert "out_of_combat" in actions(state(willpower=0))
    assert "out_of_combat" not in actions(state(willpower=2))
    assert "rally" not in actions(state(willpower=0))
    assert actions(state(willpower=2))["rally"]["fields"] == [
        {"id": "target", "label": "Who", "kind": "character"}
    ]
    assert RULESET.ally_actions == {"rally": "rallied"}


# ------------------------------------------------------------------ in an encounter


@pytest.fixture
def table() -> Table:
    t = Table(fighter(1, ROOK, npc=False), fighter(3, KESTREL, npc=False))
    t.start([3, 4])
    return t


def test_a_whole_turn_out_of_the_fight_lets_a_fighter_at_zero_act_again(table):
    kestrel = table.by_id[3]
    kestrel.state = {**kestrel.state, "willpower": 0}
    table.turn(3)
    assert table.log[-1] == "Kestrel is incapacitated (no willpower left) and cannot act."
    assert not table.spec(3, "ranged").allowed
    assert table.spec(3, "take_cover").allowed  # the seed's incapacitated still "hide, crawl away"
    out = table.act(3, {"action": "take_cover"})
    assert out.end_turn and table.by_id[3].combat["out_of_fight"] is True
    table.turn(3)  # a whole turn has passed out of the fight
    assert table.log[-1] == (
        "Kestrel: Out of combat for a turn: collects themselves and acts normally again, still at 0 "
        "willpower (a safe place to rest brings a dot back)."
    )
    assert table.by_id[3].state["willpower"] == 0
    assert table.spec(3, "ranged").allowed
    table.act(3, {"action": "roll", "attribute": "wits", "ability": "investigation"}, [6, 6, 2, 2, 2, 2, 2])
    assert table.by_id[3].combat["out_of_fight"] is False


def test_an_ally_rallies_a_fighter_at_zero_on_their_turn(table):
    kestrel = table.by_id[3]
    kestrel.state = {**kestrel.state, "willpower": 0}
    table.turn(1)
    spec = table.spec(1, "rally")
    assert spec.allowed and spec.target == "ally"
    table.act(1, {"action": "rally", "target": 3})
    assert table.by_id[1].state["willpower"] == 2  # Rook's 3 less the dot he spent
    assert table.by_id[3].state["willpower"] == 1
    assert table.log[-1] == (
        "Rook Abara: Spends a willpower dot to rally Kestrel. Kestrel: Rallied by Rook Abara: back to "
        "1 willpower, and acts again."
    )
    assert table.by_id[1].combat["acted"] is True


def test_rallying_one_who_still_has_willpower_is_refused_and_changes_nothing(table):
    table.turn(1)
    table.refused("maelstrom.has_willpower", 1, {"action": "rally", "target": 3})


def test_the_gm_marks_a_fighter_out_of_combat_for_a_turn(table):
    kestrel = table.by_id[3]
    kestrel.state = {**kestrel.state, "willpower": 0}
    assert table.spec(3, "gm_out_of_combat").allowed
    table.act(3, {"action": "gm_out_of_combat"}, gm=True)
    assert table.by_id[3].state["acting_normally"] is True
    effects_now = RULESET.state_effects(KESTREL, validate(KESTREL), table.by_id[3].state)
    assert effects_now["incapacitated"] is False
    assert table.spec(3, "gm_out_of_combat").code == "maelstrom.already_acting"


def test_a_full_track_is_not_lifted_by_leaving_the_fight(table):
    kestrel = table.by_id[3]
    kestrel.state = {**kestrel.state, "health": [B] * 8}
    table.turn(3)
    spec = table.spec(3, "take_cover")
    assert not spec.allowed and spec.code == "maelstrom.incapacitated"
