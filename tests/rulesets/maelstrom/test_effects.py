"""Maelstrom's effects on the GM's screen (issue #22, CONTRACT.md "The GM's screen"): Prone (a house
default: two dice fewer) and Wounds (native: bashing levels on the health track, whose wound penalty
the pools carry once) applied through the API change the sheet's rolls as the rules say, the roll
picker's composed roll and the encounter's forms and rolls take them too, and the party page's
headline numbers and pools read the health track and willpower."""

from __future__ import annotations

import itertools

import pytest

from characters.models import Character
from characters.sheet.selectors import PICKED
from characters.sheet.services import character_roll, character_state_action
from combat import services as fight
from combat.fight import fighter_actions
from combat.models import EncounterEvent
from combat.selectors import encounter_fight
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.dice import FixedRoller
from tests.characters.sheet.test_sheet_fixtures import BUILDS, character_at_table
from tests.factories import api_client
from tests.rulesets.report_helpers import typical

pytestmark = pytest.mark.django_db
RULESET = registry.get("maelstrom")
HOUSE = "Not in the rulebook's numbers: a house default."
B = "bashing"
#: The book's chart (RULES.md 5 "Health"): the penalty once the first n boxes hold damage.
PENALTY_AT = {0: 0, 1: 0, 2: -1, 3: -1, 4: -2, 5: -2, 6: -3, 7: -5}


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


def _by_hand(pool: int, difficulty: int, threshold: int = 0) -> dict:
    """Every face of every die (10^pool outcomes), counted as RULES.md 5 says: a success per die ≥
    the difficulty, a botch per 1; the threshold removes successes first; each botch cancels one of
    the rest; more botches than that is a botch, nothing left a failure."""
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, 11), repeat=pool):
        successes = sum(f >= difficulty for f in faces)
        botches = faces.count(1)
        left = max(0, successes - threshold)
        result = -1 if botches > left else left - botches
        counts[result] = counts.get(result, 0) + 1
    total = 10**pool
    return {
        "botch": counts.get(-1, 0) / total,
        "failure": counts.get(0, 0) / total,
        "successes": {str(k): n / total for k, n in sorted(counts.items()) if k > 0},
    }


def _state(character: Character):
    character.refresh_from_db()
    return RULESET.validate(character.build), character.state


# ------------------------------------------------------------------ the catalogue


def test_the_catalogue_has_wounds_from_the_health_chart_and_prone_a_house_default():
    catalogue = RULESET.effect_catalogue()
    assert sorted(catalogue) == [
        "crippled_left_arm",
        "crippled_left_leg",
        "crippled_right_arm",
        "crippled_right_leg",
        "prone",
        "wounds",
    ]  # the crippled limbs: RULES.md W20 (test_crippled_limbs.py)
    wounds, prone = catalogue["wounds"], catalogue["prone"]
    assert wounds.native and wounds.valued and wounds.max == 8 and not wounds.house_default
    assert wounds.actions("apply", 3) == [{"action": "damage", "levels": 3, "type": B, "within_track": True}]
    assert wounds.actions("remove", 3) == [{"action": "heal", "levels": 3, "type": B}]
    # Its changes show the chart's penalty at each value (not the value times a number).
    for levels in range(1, 9):
        penalty = PENALTY_AT[min(levels, 7)]
        assert wounds.changes_at(levels) == ([{"target": "all", "pool": penalty}] if penalty else []), levels
    assert "3 Hurt (−1)" in wounds.text and "8 Incapacitated (cannot act)" in wounds.text
    assert not prone.native and not prone.valued and prone.house_default
    assert prone.changes == ({"target": "all", "pool": -2},) and prone.text.endswith(HOUSE)


def test_a_house_ruled_health_chart_gives_wounds_its_own_levels():
    chart = [
        {"id": "grazed", "label": "Grazed", "penalty": -1},
        {"id": "bloodied", "label": "Bloodied", "penalty": -3},
        {"id": "down", "label": "Down", "penalty": None},
    ]
    ctx = RULESET.context(settings={"health_chart": chart})
    wounds = RULESET.effect_catalogue(ctx)["wounds"]
    assert wounds.max == 3
    assert [wounds.changes_at(n) for n in (1, 2, 3)] == [
        [{"target": "all", "pool": -1}],
        [{"target": "all", "pool": -3}],
        [{"target": "all", "pool": -3}],
    ]
    assert "1 Grazed (−1), 2 Bloodied (−3), 3 Down (cannot act)" in wounds.text


# ------------------------------------------------------------------ Prone


def test_prone_takes_two_dice_off_every_roll_and_removing_it_restores_them(table):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    assert len(before) == 51 and before["willpower"]["request"] == {
        "pool": 4,
        "difficulty": 6,
        "threshold": 0,
    }
    body = _apply(gm, character, {"effect": "prone"})
    assert body["name"] == "Prone" and body["changes"] == [{"target": "all", "pool": -2}]
    assert body["house_default"] is True and body["native"] is False
    assert body["text"] == ["−2 Pool to every roll"]
    after = _rolls(gm, character)
    for rid, row in before.items():
        pool = row["request"]["pool"]
        assert after[rid]["request"] == {**row["request"], "pool": max(min(1, pool), pool - 2)}, rid
    assert after["wits"]["request"]["pool"] == 1  # three dice, two fewer
    assert after["strength"]["request"]["pool"] == 1  # two dice: never below one
    assert after["intelligence__investigation"]["request"]["pool"] == 5  # 3 + 4, two fewer
    # The odds of the changed roll, every face counted by hand.
    request = after["perception__alertness"]["request"]
    assert request == {"pool": 3, "difficulty": 6, "threshold": 0}  # 3 + 2, two fewer
    odds = gm.post("/api/v1/rulesets/maelstrom/odds/", request, format="json").json()
    expected = _by_hand(3, 6)
    assert odds["botch"] == pytest.approx(expected["botch"], abs=1e-12)
    assert odds["failure"] == pytest.approx(expected["failure"], abs=1e-12)
    assert odds["successes"] == pytest.approx(expected["successes"], abs=1e-12)
    _remove(gm, character, body["id"])
    assert _rolls(gm, character) == before


def test_a_change_names_one_roll_or_all_of_them_no_prefix_groups_them(table):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    body = _apply(
        gm, character, {"name": "Dazzled", "changes": [{"target": "perception__alertness", "difficulty": 2}]}
    )
    after = _rolls(gm, character)
    assert {rid for rid in before if after[rid] != before[rid]} == {"perception__alertness"}
    assert after["perception__alertness"]["request"]["difficulty"] == 8
    _remove(gm, character, body["id"])
    # A difficulty never goes past 10 (the odds refuse more); a pool of 0 dice never gains one.
    hard = {
        "effects": [
            {"id": "h", "name": "Hard", "native": False, "changes": [{"target": "all", "difficulty": 3}]}
        ]
    }
    assert RULESET.with_effects({"pool": 3, "difficulty": 9, "threshold": 0}, hard)["difficulty"] == 10
    weak = {
        "effects": [{"id": "w", "name": "Weak", "native": False, "changes": [{"target": "all", "pool": -1}]}]
    }
    assert RULESET.with_effects({"pool": 0, "difficulty": 6, "threshold": 0}, weak)["pool"] == 0
    # The ids have no ":" or "." to group them: a prefix reaches no roll and is refused.
    for target in ("perception:", "perception.", "perception__"):
        bad = gm.post(
            f"/api/v1/characters/{character.pk}/effects/",
            {"name": "Odd", "changes": [{"target": target, "pool": 1}]},
            format="json",
        )
        assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "effect.unknown_target", target


# ------------------------------------------------------------------ Wounds (native)


def _health_section(character: Character) -> dict:
    report, state = _state(character)
    return next(s for s in RULESET.state_sections(character.build, report, state) if s["id"] == "health")


def test_wounds_fill_the_health_track_and_its_penalty_comes_off_the_pools_once(table):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    body = _apply(gm, character, {"effect": "wounds", "value": 3})
    assert body["name"] == "Wounds 3" and body["native"] is True and body["value"] == 3
    assert body["changes"] == [{"target": "all", "pool": -1}]  # shown, not applied a second time
    # The track holds them (the sheet's own section) ...
    character.refresh_from_db()
    assert character.state["health"] == [B, B, B, None, None, None, None, None]
    assert _health_section(character)["status"] == "Hurt (-1 dice)"
    # ... and the track's penalty, −1 at Hurt, comes off every action pool once; willpower keeps its dice.
    after = _rolls(gm, character)
    for rid, row in before.items():
        pool = row["request"]["pool"]
        want = pool if rid == "willpower" else max(0, pool - 1)
        assert after[rid]["request"] == {**row["request"], "pool": want}, rid
    _remove(gm, character, body["id"])
    character.refresh_from_db()
    assert character.state["health"] == [None] * 8 and "effects" not in character.state
    assert _rolls(gm, character) == before


@pytest.mark.parametrize("levels", [1, 2, 4, 6, 7])
def test_a_wounds_value_scales_along_the_chart(table, levels):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    before = _rolls(gm, character)
    body = _apply(gm, character, {"effect": "wounds", "value": levels})
    penalty = PENALTY_AT[levels]
    assert body["changes"] == ([{"target": "all", "pool": penalty}] if penalty else [])
    after = _rolls(gm, character)
    pool = before["intelligence__investigation"]["request"]["pool"]
    assert pool == 7 and after["intelligence__investigation"]["request"]["pool"] == pool + penalty
    assert after["willpower"]["request"] == before["willpower"]["request"]


def test_wounds_never_overflow_the_track_and_healing_on_the_sheet_ends_them(table):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    character_state_action(
        character_id=character.pk,
        user=table["gm"],
        action={"action": "damage", "levels": 6, "type": "lethal"},
    )
    version = Character.objects.get(pk=character.pk).version
    refused = gm.post(
        f"/api/v1/characters/{character.pk}/effects/", {"effect": "wounds", "value": 3}, format="json"
    )
    assert refused.status_code == 422 and refused.json()["errors"][0]["code"] == "maelstrom.track_full"
    assert Character.objects.get(pk=character.pk).version == version
    too_many = gm.post(
        f"/api/v1/characters/{character.pk}/effects/", {"effect": "wounds", "value": 9}, format="json"
    )
    assert too_many.status_code == 400 and too_many.json()["errors"][0]["code"] == "effect.bad_value"
    _apply(gm, character, {"effect": "wounds", "value": 2})
    _apply(gm, character, {"effect": "prone"})
    character.refresh_from_db()
    assert character.state["health"] == ["lethal"] * 6 + [B, B]
    character, sentence = character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "heal", "levels": 2, "type": B}
    )
    assert sentence == "Heals 2 levels of bashing."
    assert [e["name"] for e in fx.active_entries(character.state)] == ["Prone"]


# ------------------------------------------------------------------ the roll picker


def test_the_roll_pickers_roll_takes_the_effects_of_the_sheets_roll_of_the_same_traits(table):
    character = character_at_table(table, "maelstrom")
    gm = api_client(table["gm"])
    picks = {"attribute": ["intelligence"], "ability": ["investigation"]}
    _apply(
        gm, character, {"name": "Sharp", "changes": [{"target": "intelligence__investigation", "pool": 1}]}
    )
    _apply(gm, character, {"effect": "prone"})
    # 3 + 4 dice, +1 for Sharp, −2 for Prone: six dice rolled, the odds of those six.
    log = character_roll(
        character_id=character.pk,
        user=table["player"],
        rollable_id=PICKED,
        inputs=picks,
        roller=FixedRoller([6] * 6),
    )
    assert log.request == {"pool": 6, "difficulty": 6, "threshold": 0}
    assert log.result["faces"] == [6] * 6 and log.result["total"] == 6
    assert log.result["odds"] == RULESET.odds({"pool": 6, "difficulty": 6, "threshold": 0})
    # Another pair takes Prone only; two attributes (no roll button of the sheet) too.
    for ability, pool in (("alertness", 3), ("wits", 4)):
        other = character_roll(
            character_id=character.pk,
            user=table["player"],
            rollable_id=PICKED,
            inputs={"attribute": ["perception"], "ability": [ability]},
            roller=FixedRoller([2] * pool),
        )
        assert other.request["pool"] == pool, ability  # perception 3 + 2 − 2; 3 + 3 − 2


# ------------------------------------------------------------------ the encounter


def test_the_encounters_action_forms_and_rolls_take_an_effect_on_every_roll(table):
    character = character_at_table(table, "maelstrom")  # Kestrel: reflexes 2 + wits 3
    gm = api_client(table["gm"])
    e = fight.encounter_create(campaign=character.campaign, user=table["gm"], name="Dock 9")
    pc = fight.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    npc = fight.encounter_add_combatant(
        encounter=e, user=table["gm"], name="Vasquez", build=typical("maelstrom")
    )[0]
    # Initiative d10s: Kestrel 5 + 10, Vasquez 5 + 1: Kestrel acts first.
    e = fight.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([10, 1]))
    assert e.order[0] == pc.pk

    def specs() -> dict:
        board = encounter_fight(encounter=e)
        return {s.id: s.odds for s in fighter_actions(board, board.fighter_by_id[pc.pk]) if s.odds}

    plain = specs()
    assert plain == {
        "melee": {"pool": 2, "difficulty": 6, "threshold": 0},  # strength 2 + melee 0 (a talent)
        "ranged": {"pool": 4, "difficulty": 6, "threshold": 0},  # precision 3 + firearms 1
        "roll": {"pool": 2, "difficulty": 6, "threshold": 0},  # reflexes 2 + athletics 0
        "willpower_roll": {"pool": 4, "difficulty": 6, "threshold": 0},
    }
    _apply(gm, character, {"effect": "prone"})
    prone = specs()
    assert prone == {k: {**v, "pool": max(min(1, v["pool"]), v["pool"] - 2)} for k, v in plain.items()}
    # The real shot rolls the two dice shown (2 and 3: no success, a miss; no soak is rolled).
    roller = FixedRoller([2, 3, 10])
    fight.encounter_act(
        encounter=e,
        user=table["player"],
        combatant_id=pc.pk,
        action={"action": "ranged", "target": npc.pk, "weapon": "pistol"},
        roller=roller,
    )
    assert roller.faces == [10]
    event = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first()
    assert event.data["odds"] == {"pool": 2, "difficulty": 6, "threshold": 0} and event.data["faces"] == [
        2,
        3,
    ]
    assert event.text.startswith("Kestrel attacks Vasquez with the pistol: 2 dice (Prone).")
    assert event.text.endswith("Miss.")


def test_an_effect_reaches_the_soak_roll_of_a_fighter(table):
    character = character_at_table(table, "maelstrom")  # strength 2
    gm = api_client(table["gm"])
    e = fight.encounter_create(campaign=character.campaign, user=table["gm"], name="Dock 9")
    pc = fight.encounter_add_combatant(encounter=e, user=table["gm"], character=character)[0]
    fight.encounter_add_combatant(encounter=e, user=table["gm"], name="Vasquez", build=typical("maelstrom"))
    e = fight.encounter_start(encounter=e, user=table["gm"], roller=FixedRoller([10, 1]))
    _apply(gm, character, {"name": "Braced", "changes": [{"target": "strength", "pool": 1}]})
    roller = FixedRoller([6, 7, 8])
    fight.encounter_act(
        encounter=e,
        user=table["gm"],
        combatant_id=pc.pk,
        action={"action": "gm_damage", "levels": 4, "type": "lethal", "soak": True},
        roller=roller,
    )
    assert roller.faces == []  # Strength 2 + 1: three dice, three successes
    event = EncounterEvent.objects.filter(encounter=e).order_by("-seq").first()
    assert event.text.startswith("GM: Kestrel soaks 3 (Strength 3, Braced: 6, 7, 8).")
    character.refresh_from_db()
    assert character.state["health"] == ["lethal"] + [None] * 7


# ------------------------------------------------------------------ the party page


def test_the_summary_and_pools_of_the_sheet_character(table):
    character = character_at_table(table, "maelstrom")
    assert BUILDS["maelstrom"]["willpower"] == 4
    report, state = _state(character)
    assert RULESET.summary(character.build, report, state) == [
        {"label": "Health", "value": "Unhurt"},
        {"label": "Wound penalty", "value": 0},
        {"label": "Willpower", "value": 4},
    ]
    assert RULESET.pools(character.build, report, state) == [
        {"id": "health", "label": "Health", "current": 8, "max": 8},
        {"id": "willpower", "label": "Willpower", "current": 4, "max": 4},
    ]
    _apply(api_client(table["gm"]), character, {"effect": "wounds", "value": 4})
    character_state_action(
        character_id=character.pk,
        user=table["player"],
        action={"action": "spend_willpower", "purpose": "ignore_wounds"},
    )
    report, state = _state(character)
    # Injured, −2: the track's penalty (a willpower dot ignores it for one action, not on the track).
    assert RULESET.summary(character.build, report, state) == [
        {"label": "Health", "value": "Injured"},
        {"label": "Wound penalty", "value": -2},
        {"label": "Willpower", "value": 4},
    ]
    assert RULESET.pools(character.build, report, state) == [
        {"id": "health", "label": "Health", "current": 4, "max": 8},
        {"id": "willpower", "label": "Willpower", "current": 3, "max": 4},
    ]


def test_party_success_is_the_chance_of_at_least_the_successes_needed():
    answer = RULESET.odds({"pool": 2, "difficulty": 6, "threshold": 0})
    # Each d10: a success 5/10, a botch 1/10, else 4/10. Two successes 0.25; one success and a blank
    # 2·0.5·0.4 = 0.4 (one success and a botch cancel: a failure).
    assert RULESET.success(answer) == pytest.approx(0.65, abs=1e-12)
    assert RULESET.success(answer, 1) == pytest.approx(0.65, abs=1e-12)
    assert RULESET.success(answer, 2) == pytest.approx(0.25, abs=1e-12)
    assert RULESET.success(answer, 3) == 0
    assert RULESET.success_needs is True and RULESET.table_keys == ("difficulty", "threshold")
