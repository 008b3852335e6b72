"""Pando's effects on the GM's screen (issue #22, CONTRACT.md "The GM's screen"): the named effects of
``content/effects.json`` applied through the API change the sheet's rolls as the rules say (Stunned,
a house default: one die fewer), or the play state the rules already keep (Bleeding: exhaustion), the
encounter's action forms and rolls take them too, and the party page's headline numbers and pools."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from characters.models import Character
from characters.sheet.services import character_state_action
from combat import services as fight
from combat.fight import fighter_actions
from combat.models import EncounterEvent
from combat.selectors import encounter_fight
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.factories import api_client
from tests.rulesets.pando.fight_table import pando

pytestmark = pytest.mark.django_db
RULESET = registry.get("pando")
HOUSE = "Not in the rulebook's numbers: a house default."


def _rolls(client, character) -> dict[str, dict]:
    got = client.get(f"/api/v1/characters/{character.pk}/rollables/")
    assert got.status_code == 200
    return {r["id"]: r for r in got.json()}


def _apply(client, character, body: dict) -> dict:
    made = client.post(f"/api/v1/characters/{character.pk}/effects/", body, format="json")
    assert made.status_code == 201, made.json()
    return made.json()


def _remove(client, character, effect_id: str) -> None:
    assert client.delete(f"/api/v1/characters/{character.pk}/effects/{effect_id}/").status_code == 204


def _ep_odds(dice: int, skill: int) -> dict[str, float]:
    """Efficiency points by hand: each d6 ≤ the skill level is one EP (seed 000, "Dice mechanics")."""
    p = Fraction(skill, 6)
    return {str(k): float(comb(dice, k) * p**k * (1 - p) ** (dice - k)) for k in range(dice + 1)}


def _rules(character: Character):
    character.refresh_from_db()
    report = RULESET.validate(character.build)
    return report, character.state


# ------------------------------------------------------------------ the catalogue


def test_the_catalogue_has_the_seeds_bleeding_and_stunned_with_stunned_a_house_default():
    catalogue = RULESET.effect_catalogue()
    # Prone is the amendment's (W1 "Knock prone … effect Prone, a new Pando named effect").
    assert sorted(catalogue) == ["bleeding", "prone", "stunned"]
    bleeding, stunned = catalogue["bleeding"], catalogue["stunned"]
    # Bleeding is exhaustion the play state keeps (seed: "2 Exhaustion (Bleeding)"): native, valued.
    assert bleeding.native and bleeding.valued and bleeding.max == 10
    assert bleeding.changes == () and not bleeding.house_default
    assert bleeding.actions("apply", 2) == [{"action": "add_exhaustion", "type": "bleeding", "amount": 2}]
    assert bleeding.actions("remove", 2) == [{"action": "remove_exhaustion", "type": "bleeding", "amount": 2}]
    # Stunned is named by the seed (an obstacle) without numbers: the house's, and it says so.
    assert not stunned.native and not stunned.valued
    assert stunned.changes == ({"target": "all", "dice": -1},)
    assert stunned.house_default and stunned.text.endswith(HOUSE)


# ------------------------------------------------------------------ Stunned


def test_stunned_takes_one_die_off_every_roll_and_removing_it_restores_them(table):
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    assert set(before) == {
        "skill:capability",
        "skill:melee",
        "skill:blades",
        "skill:shields",
        "item:0:strike",
        "item:1:block",
    }
    body = _apply(gm, character, {"effect": "stunned"})
    assert body["name"] == "Stunned" and body["effect"] == "stunned" and body["value"] is None
    assert body["changes"] == [{"target": "all", "dice": -1}]
    assert body["house_default"] is True and body["native"] is False
    assert body["text"] == ["−1 Dice to every roll"]
    after = _rolls(gm, character)
    for rid, row in before.items():
        request = row["request"]
        assert after[rid]["request"] == {**request, "dice": max(1, request["dice"] - 1)}, rid
        assert request["dice"] >= 2  # the sheet character rolls 2 or 3 dice: each loses one
    # The odds of the changed roll are the binomial of one die fewer, computed by hand.
    strike = after["item:0:strike"]["request"]
    assert strike == {"dice": 2, "skill": 3}  # coordination 3 − 1, Blades level 3
    odds = gm.post("/api/v1/rulesets/pando/odds/", strike, format="json").json()
    assert odds["ep"] == pytest.approx(_ep_odds(2, 3), abs=1e-12)
    # The player sees it on their own sheet's list; removing it restores every roll.
    listed = api_client(table["player"]).get(f"/api/v1/characters/{character.pk}/effects/").json()
    assert [(e["name"], e["house_default"]) for e in listed] == [("Stunned", True)]
    _remove(gm, character, body["id"])
    assert _rolls(gm, character) == before


def test_a_changed_roll_says_the_dice_and_level_it_rolls_and_names_what_changed_it(table):
    """Issue #38: the label said "Coordination 3d6" beside "Dice: 2" once an effect took a die off."""
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    assert before["skill:capability"]["label"] == "Capability (Coordination 3d6, level 1)"
    _apply(gm, character, {"effect": "stunned"})
    _apply(gm, character, {"name": "Keen", "changes": [{"target": "item:0:", "skill": 1}]})
    labels = {rid: row["label"] for rid, row in _rolls(gm, character).items()}
    assert labels["skill:capability"] == "Capability (Coordination 2d6, level 1, after Stunned)"
    assert labels["skill:shields"] == "Shields (Strength 1d6, level 3, after Stunned)"
    assert (
        labels["item:0:strike"] == "Longsword: Strike (Coordination 2d6, Blades level 4, after Stunned, Keen)"
    )
    # A label not of the ruleset's shape is left as it is (nothing to read its numbers from).
    odd = {"label": "Odd roll", "request": {"dice": 2, "skill": 1}, "effects": ["Stunned"]}
    assert RULESET.changed_rollable(odd)["label"] == "Odd roll"


def test_an_effect_keeps_a_roll_within_its_bounds():
    state = {
        "effects": [
            {"id": "a", "name": "Stunned", "native": False, "changes": [{"target": "all", "dice": -1}]}
        ]
    }
    assert RULESET.with_effects({"dice": 1, "skill": 2}, state) == {"dice": 1, "skill": 2}  # never below 1
    assert RULESET.with_effects({"dice": 4, "skill": 2}, state) == {"dice": 3, "skill": 2}
    keen = {
        "effects": [{"id": "b", "name": "Keen", "native": False, "changes": [{"target": "all", "skill": 2}]}]
    }
    assert RULESET.with_effects({"dice": 2, "skill": 5}, keen) == {"dice": 2, "skill": 6}  # a d6: at most 6
    assert RULESET.odds(RULESET.with_effects({"dice": 2, "skill": 5}, keen)) == {"ep": _ep_odds(2, 6)}


def test_a_target_reaches_a_skill_or_every_roll_of_an_item_by_its_prefix(table):
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    body = _apply(
        gm,
        character,
        {
            "name": "Shield arm numb",
            "changes": [{"target": "item:1:", "skill": -1}, {"target": "skill:blades", "dice": 1}],
        },
    )
    after = _rolls(gm, character)
    changed = {rid for rid in before if after[rid]["request"] != before[rid]["request"]}
    assert changed == {"item:1:block", "skill:blades"}
    block = before["item:1:block"]["request"]
    assert after["item:1:block"]["request"] == {**block, "skill": block["skill"] - 1}
    blades = before["skill:blades"]["request"]
    assert after["skill:blades"]["request"] == {**blades, "dice": blades["dice"] + 1}
    _remove(gm, character, body["id"])
    bad = gm.post(
        f"/api/v1/characters/{character.pk}/effects/",
        {"name": "Odd", "changes": [{"target": "spell:", "dice": 1}]},
        format="json",
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "effect.unknown_target"


# ------------------------------------------------------------------ Bleeding (native)


def _exhaustion_section(character: Character) -> dict:
    report, state = _rules(character)
    sections = RULESET.state_sections(character.build, report, state)
    return next(s for s in sections if s["id"] == "exhaustion")


def test_bleeding_is_exhaustion_in_the_play_state_scaled_by_its_value_and_removed_with_it(table):
    character = character_at_table(table, "pando")  # endurance 1
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    two = _apply(gm, character, {"effect": "bleeding", "value": 2})
    assert two["name"] == "Bleeding 2" and two["native"] is True and two["value"] == 2
    assert two["changes"] == [] and two["house_default"] is False
    character.refresh_from_db()
    assert character.state["exhaustion"] == [{"type": "bleeding", "amount": 2}]
    # The sheet's own section shows it; it changes no roll (it drains stamina, not dice).
    section = _exhaustion_section(character)
    assert [i["label"] for i in section["items"]] == ["Bleeding 2"]
    assert section["status"] == (
        "Loses 1 stamina at the start of each round (total exhaustion 2 − endurance 1)."
    )
    assert _rolls(gm, character) == before
    # A valued effect scales: Bleeding 4 adds 4 exhaustion; the loss a round is 2 + 4 − 1.
    four = _apply(gm, character, {"effect": "bleeding", "value": 4})
    report, state = _rules(character)
    assert state["exhaustion"] == [{"type": "bleeding", "amount": 2}, {"type": "bleeding", "amount": 4}]
    assert RULESET.state_effects(character.build, report, state)["stamina_loss_per_round"] == 5
    # Removing one takes its own source out, and only that one.
    _remove(gm, character, two["id"])
    character.refresh_from_db()
    assert character.state["exhaustion"] == [{"type": "bleeding", "amount": 4}]
    assert [e["name"] for e in fx.active_entries(character.state)] == ["Bleeding 4"]
    _remove(gm, character, four["id"])
    character.refresh_from_db()
    assert character.state["exhaustion"] == [] and "effects" not in character.state
    assert _exhaustion_section(character)["items"] == []
    # Out of range: a 400 with the reason.
    bad = gm.post(
        f"/api/v1/characters/{character.pk}/effects/", {"effect": "bleeding", "value": 11}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "effect.bad_value"


def test_a_bandage_ends_the_bleeding_effect_with_the_exhaustion_it_removes(table):
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    _apply(gm, character, {"effect": "bleeding", "value": 3})
    _apply(gm, character, {"effect": "stunned"})
    character, sentence = character_state_action(
        character_id=character.pk, user=table["player"], action={"action": "bandage"}
    )
    assert sentence == "Alex is bandaged: removed bleeding 3."
    assert character.state["exhaustion"] == []
    assert [e["name"] for e in fx.active_entries(character.state)] == ["Stunned"]


# ------------------------------------------------------------------ the encounter


def test_the_encounters_action_forms_and_rolls_take_an_effect_on_every_roll(table):
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    e = fight.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    pc = fight.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    fight.encounter_add_combatant(
        encounter=e, user=table["gm"], name="Bandit", build=pando("Bandit", acrobatics=1)
    )
    # Alex's Momentum 3 goes before the Bandit's 2: no tie, no dice.
    e = fight.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([]))

    def specs() -> dict:
        board = encounter_fight(encounter=e)
        me = board.fighter_by_id[pc.pk]
        return {s.id: s.odds for s in fighter_actions(board, me) if s.odds is not None}

    plain = specs()
    # Strike with the longsword (coordination 3, Blades 3), block with it (its strike roll) or with the
    # shield (strength 2, Shields 3), dodge (acrobatics 2, Capability), tough it out (endurance 1).
    assert plain == {
        "strike:0": {"dice": 3, "skill": 3},
        "block:0": {"dice": 3, "skill": 3},
        "block:1": {"dice": 2, "skill": 3},
        "dodge": {"dice": 2, "skill": 1},
        "tough_it_out": {"dice": 1, "skill": 1},
    }
    _apply(gm, character, {"effect": "stunned"})
    stunned = specs()
    assert stunned == {k: {**v, "dice": max(1, v["dice"] - 1)} for k, v in plain.items()}
    # The real roll is the request shown: two dice, not three (faces 3 and 5 against skill 3: 1 EP).
    roller = FixedRoller([3, 5, 1])
    fight.encounter_act(
        encounter=e, user=table["player"], combatant_id=pc.pk, action={"action": "strike:0"}, roller=roller
    )
    assert roller.faces == [1]  # the third face was never rolled
    event = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first()
    assert event.data["odds"] == {"dice": 2, "skill": 3} and event.data["faces"] == [3, 5]
    assert event.data["ep"] == 1


def test_the_sheet_and_the_fight_name_the_same_roll_for_a_targeted_effect(table):
    character = character_at_table(table, "pando")
    gm = api_client(table["gm"])
    e = fight.encounter_create(campaign=character.campaign, user=table["gm"], name="Ford")
    pc = fight.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    fight.encounter_add_combatant(
        encounter=e, user=table["gm"], name="Bandit", build=pando("Bandit", acrobatics=1)
    )
    e = fight.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([]))
    _apply(gm, character, {"name": "Steady grip", "changes": [{"target": "item:0:strike", "skill": 1}]})
    board = encounter_fight(encounter=e)
    odds = {s.id: s.odds for s in fighter_actions(board, board.fighter_by_id[pc.pk]) if s.odds}
    assert odds["strike:0"] == {"dice": 3, "skill": 4}
    assert odds["block:0"] == {"dice": 3, "skill": 4}  # the longsword blocks with its strike roll
    assert odds["block:1"] == {"dice": 2, "skill": 3}
    rolls = _rolls(gm, character)
    assert rolls["item:0:strike"]["request"] == odds["strike:0"]
    assert rolls["item:1:block"]["request"] == odds["block:1"]


# ------------------------------------------------------------------ the party page


def test_the_summary_and_pools_of_the_sheet_character(table):
    character = character_at_table(table, "pando")
    build = BUILDS["pando"]  # Alex: acrobatics 2, presence 1, endurance 1, rationality 2, perspective 1
    assert build["attributes"]["acrobatics"] == 2 and build["attributes"]["presence"] == 1
    report, state = _rules(character)
    assert RULESET.summary(character.build, report, state) == [
        {"label": "Momentum", "value": 3},  # acrobatics + presence
        {"label": "Speed", "value": 5},  # 3 + acrobatics: stamina 11 does not limit it
        {"label": "Awareness", "value": 1},  # presence
        {"label": "Insight", "value": 2},  # rationality
        {"label": "Willpower", "value": 1},  # perspective
        {"label": "Exhaustion", "value": 0},
    ]
    # Stamina is the pool (10 + endurance, nothing encumbering); the resistances are not pools.
    assert RULESET.pools(character.build, report, state) == [
        {"id": "stamina", "label": "Stamina", "current": 11, "max": 11}
    ]
    # Tired and bleeding: stamina 4, Bleeding 3 − endurance 1 = 2 lost at the round's start: speed 2.
    character_state_action(
        character_id=character.pk, user=table["player"], action={"action": "spend_stamina", "amount": 7}
    )
    _apply(api_client(table["gm"]), character, {"effect": "bleeding", "value": 3})
    report, state = _rules(character)
    summary = {s["label"]: s["value"] for s in RULESET.summary(character.build, report, state)}
    assert summary["Speed"] == 2 and summary["Exhaustion"] == 3
    assert RULESET.pools(character.build, report, state)[0] == {
        "id": "stamina",
        "label": "Stamina",
        "current": 4,
        "max": 11,
    }


def test_party_success_is_the_chance_of_at_least_the_effect_points_needed():
    answer = RULESET.odds({"dice": 3, "skill": 2})
    # Each die gives an EP with chance 1/3: P(≥1) = 1 − (2/3)³ = 19/27; P(≥2) = 3·(1/3)²·(2/3) + (1/3)³ = 7/27.
    assert RULESET.success(answer) == pytest.approx(19 / 27, abs=1e-12)
    assert RULESET.success(answer, 1) == pytest.approx(19 / 27, abs=1e-12)
    assert RULESET.success(answer, 2) == pytest.approx(7 / 27, abs=1e-12)
    assert RULESET.success(answer, 3) == pytest.approx(1 / 27, abs=1e-12)
    assert RULESET.success(answer, 4) == 0
    assert RULESET.success_needs is True and RULESET.table_keys == ()
