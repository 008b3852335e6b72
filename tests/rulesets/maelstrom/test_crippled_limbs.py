"""Crippled limbs (RULES.md W20; seed: "Crippled limbs cannot be used to perform actions and willpower does
not remove this effect"): damage that reaches Crippled lets the GM cripple a limb (a native effect naming
it); a crippled arm refuses two-handed rolls (and, both arms, the abilities that need a hand), a crippled
leg athletics and stealth; each refusal says why, until healed (limbs.py, RULINGS.md)."""

from __future__ import annotations

import pytest

from rulesets.engine import StateError, entry_from_form
from rulesets.engine.errors import RollInputError
from rulesets.systems.maelstrom import limbs
from tests.rulesets.maelstrom.test_maelstrom_combat import KESTREL, ROOK, Table, fighter
from tests.rulesets.maelstrom.test_maelstrom_state import BUILD, REPORT, RULESET, act, state

B, L = "bashing", "lethal"
CRIPPLED = [L] * 7  # the seventh box, Crippled, holds damage


def rolls(s):
    return {r["id"]: r for r in RULESET.rollables(BUILD, REPORT, s)}


def test_a_limb_is_crippled_only_once_the_track_reaches_crippled():
    with pytest.raises(StateError) as refused:
        act(state([L] * 6), action="cripple", limb="left_arm")
    assert (refused.value.code, refused.value.message) == (
        "maelstrom.not_crippled",
        "The damage has not reached Crippled on the health track: no limb can be crippled yet.",
    )
    lame = act(state(CRIPPLED), action="cripple", limb="left_leg")
    assert lame["crippled"] == {"left_leg": True}
    assert "Crippled left leg" in RULESET.state_effects(BUILD, REPORT, lame)["labels"]


def test_a_crippled_leg_refuses_athletics_and_stealth_saying_why():
    lame = act(state(CRIPPLED), action="cripple", limb="right_leg")
    shown = rolls(lame)
    for rid in ("strength__athletics", "precision__stealth"):
        assert shown[rid]["disabled"] is True
    assert shown["strength__athletics"]["reason"] == "Athletics needs both legs: the right leg is crippled."
    assert not shown["wits__investigation"].get("disabled")
    with pytest.raises(RollInputError) as refused:
        RULESET.picked_roll(BUILD, REPORT, lame, {"attribute": ["precision"], "ability": ["stealth"]})
    assert refused.value.field == "ability" and "the right leg is crippled" in str(refused.value)


def test_one_crippled_arm_refuses_heavy_weapons_and_leaves_the_other_hand_for_the_rest():
    lame = act(state(CRIPPLED), action="cripple", limb="left_arm")
    shown = rolls(lame)
    assert shown["strength__heavy_weapons"]["reason"] == (
        "Heavy Weapons needs both hands: the left arm is crippled."
    )
    assert not shown["precision__firearms"].get("disabled")
    assert "with the right hand (the left arm is crippled)" in shown["precision__firearms"]["note"]
    both = act(lame, action="cripple", limb="right_arm")
    assert rolls(both)["precision__firearms"]["reason"] == "Firearms needs a hand: both arms are crippled."


def test_healing_the_limb_lifts_the_refusal():
    lame = act(state(CRIPPLED), action="cripple", limb="left_leg")
    healed = act(lame, action="heal_limb", limb="left_leg")
    assert healed["crippled"] == {} and not rolls(healed)["strength__athletics"].get("disabled")
    with pytest.raises(StateError) as refused:
        act(healed, action="heal_limb", limb="left_leg")
    assert refused.value.code == "maelstrom.not_crippled"


def test_the_gm_cripples_a_limb_with_its_named_effect():
    kinds = RULESET.effect_catalogue()
    kind = kinds["crippled_left_arm"]
    assert kind.native and kind.held_by == "/crippled/left_arm" and kind.name == "Crippled left arm"


def test_in_a_fight_both_arms_crippled_refuse_the_attacks_saying_why():
    table = Table(fighter(1, ROOK, npc=False), fighter(3, KESTREL, npc=False))
    table.start([3, 4])
    rook = table.by_id[1]
    rook.state = {
        **rook.state,
        "health": CRIPPLED + [None],
        "crippled": {"left_arm": True, "right_arm": True},
    }
    table.turn(1)
    spec = table.spec(1, "ranged")
    assert not spec.allowed and spec.code == "maelstrom.crippled"
    assert spec.reason == "Rook Abara: Firearms needs a hand: both arms are crippled."
    table.refused("maelstrom.crippled", 1, {"action": "ranged", "target": 3})


def test_the_storyteller_s_ability_editor_says_what_a_homebrew_ability_needs():
    """RULINGS.md: "What a limb refuses is the abilities catalogue's `uses` (house default, homebrew
    may set it)" — the homebrew editor's form has the field, and a value it does not know is refused."""
    form = RULESET.homebrew_forms["abilities"]
    (field,) = [f for f in form.fields if f.name == "uses"]
    assert [words for _, words in field.choices] == [
        "No limb in particular",
        "A hand",
        "Both hands",
        "Both legs",
    ]
    base = {"id": "swordplay", "name": "Swordplay", "category": "talent"}
    entry, problems = entry_from_form(
        form, {"name": ["Swordplay"], "category": ["1"], "uses": ["2"]}, base=base
    )
    assert problems == {} and entry["uses"] == "two_hands"
    kept, issues = RULESET.split_homebrew({"abilities": [entry]})
    assert issues == [] and kept["abilities"][0]["uses"] == "two_hands"
    lame = act(state(CRIPPLED), action="cripple", limb="left_arm")
    assert (
        limbs.refusal(entry, limbs.crippled(lame)) == "Swordplay needs both hands: the left arm is crippled."
    )
    _, issues = RULESET.split_homebrew({"abilities": [{**base, "uses": "tail"}]})
    assert [(i.code, i.path) for i in issues] == [("homebrew.malformed", "/abilities/0/uses")]
