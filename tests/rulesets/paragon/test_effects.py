"""Paragon's effects and the GM's screen (issue #22, CONTRACT.md "The GM's screen", content/effects.json):
tired, exhausted, prone and incapacitated applied through the API change the checks as the rules (and
the house) say, the native ones live in the play state, the fight's odds and rolls take them, and the
party page's numbers are the sheet's."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from characters.effects.services import characters_effects_end
from characters.models import Character
from characters.sheet.services import character_state_action
from combat import services as combat
from combat.fight import fighter_actions
from combat.models import Encounter
from combat.selectors import encounter_fight
from rulesets.engine import effects as fx
from rulesets.engine.dice import FixedRoller
from rulesets.systems.paragon import RULESET as PARAGON
from rulesets.systems.paragon.state import IMPOSABLE
from tests.characters.sheet.test_sheet_fixtures import character_at_table, make_character
from tests.combat.helpers import event_texts
from tests.factories import api_client, make_campaign, make_user
from tests.rulesets.report_helpers import typical

pytestmark = pytest.mark.django_db

HOUSE = "Not in the rulebook's numbers: a house default."
ROOT = Path(__file__).resolve().parents[3]
#: Initiative d12!+2d6+4; triarmatura: wind 3, rank 2.
AREN = typical("paragon")
#: An ordinary person: Defense (Melee) 10 + 3×2 + 2×2 = 20, (Missile) 10 + 3×1 = 13; initiative d12!+2d6.
HESK = json.loads((ROOT / "rulesets/systems/paragon/demo/old_hesk.json").read_text())


# ------------------------------------------------------------------ by hand


def pass_by_hand(force: int, skill: int, tn: int) -> Fraction:
    """P(d12 exploding on 12 + force d6 + 2×skill ≥ tn), exactly, by walking every face: a 12 rolls
    again and adds, until what is rolled already passes whatever the d6 show (then the rest is 1)."""

    def d6_at_least(k: int, n: int) -> Fraction:
        if k <= n:
            return Fraction(1)
        if n == 0:
            return Fraction(0)
        return sum((d6_at_least(k - face, n - 1) for face in range(1, 7)), Fraction(0)) / 6

    def d12(total: int) -> Fraction:
        need = tn - 2 * skill - total  # what this d12 and the d6 must still make
        if need <= force + 1:  # the d12 shows at least 1 and the d6 at least force
            return Fraction(1)
        p = sum((d6_at_least(need - face, force) for face in range(1, 12)), Fraction(0))
        return (p + d12(total + 12)) / 12

    return d12(0)


def test_the_hand_count_agrees_with_a_sum_worked_on_paper():
    # d12! + 1d6 vs 12: a 12 passes (1/12); a face x of 6..11 passes when the d6 shows 12 − x or more,
    # (x − 5)/6 of the time: (1 + 2 + ... + 6)/6 = 21/6 over 12. In all 27/72.
    assert pass_by_hand(1, 0, 12) == Fraction(27, 72)
    # d12! + 1d6 + 4 vs 12: d12 + d6 ≥ 8: faces 2..6 give 1..5 sixths, 7..11 always, 12 always.
    assert pass_by_hand(1, 2, 12) == Fraction(15 + 30 + 6, 72)


@pytest.mark.parametrize(
    "request_",
    [
        {"force": 1, "skill": 0, "tn": 12},
        {"force": 2, "skill": 2, "tn": 12},
        {"force": 0, "skill": 1, "tn": 20},
        {"force": 3, "skill": 2, "tn": 28},
        {"force": 4, "skill": 3, "tn": 40},
    ],
)
def test_success_is_the_chance_to_reach_the_tn(request_):
    """CONTRACT "Success": paragon's is ``pass``; the party's odds use it."""
    got = PARAGON.success(PARAGON.odds(request_))
    assert got == pytest.approx(float(pass_by_hand(**request_)), abs=1e-12)


def test_success_of_an_opposed_roll_the_table_sets_is_the_chance_to_win():
    # The table's numbers of a party roll: a TN, or an opposed roll against the other side's force and skill.
    assert set(PARAGON.table_keys) == {"tn", "against", "opponent_force", "opponent_skill"}
    even = {
        "force": 2,
        "skill": 1,
        "tn": 12,
        "against": "opposed_roll",
        "opponent_force": 2,
        "opponent_skill": 1,
    }
    assert PARAGON.success(PARAGON.odds(even)) == pytest.approx(0.5, abs=1e-12)  # ties rerolled: a coin
    better = {**even, "opponent_skill": 0}
    assert 0.5 < PARAGON.success(PARAGON.odds(better)) < 1


# ------------------------------------------------------------------ the API's helpers


@pytest.fixture
def table(db):
    """A GM, a player, another player (of the same campaign) and a stranger (the sheet tests' table)."""
    return {who: make_user(who) for who in ("gm", "player", "other", "stranger")}


def rows(client, character) -> dict[str, dict]:
    got = client.get(f"/api/v1/characters/{character.pk}/rollables/")
    assert got.status_code == 200
    return {r["id"]: r["request"] for r in got.json()}


def apply(client, character, body: dict, status: int = 201) -> dict:
    got = client.post(f"/api/v1/characters/{character.pk}/effects/", body, format="json")
    assert got.status_code == status, got.json()
    return got.json()


def remove(client, character, effect_id: str) -> None:
    assert client.delete(f"/api/v1/characters/{character.pk}/effects/{effect_id}/").status_code == 204


def fewer_dice(request: dict, n: int) -> dict:
    return {**request, "force": max(0, request["force"] - n)}


def sheet(character: Character) -> tuple[dict, object, dict]:
    character.refresh_from_db()
    report = PARAGON.validate(character.build)
    return character.build, report, character.state


def conditions_section(character: Character) -> list[dict]:
    build, report, state = sheet(character)
    sections = {s["id"]: s for s in PARAGON.state_sections(build, report, state)}
    return sections["conditions"]["items"]


# ------------------------------------------------------------------ the catalogue


def test_the_catalogue_holds_the_four_named_states_and_says_which_numbers_are_the_houses():
    kinds = PARAGON.effect_catalogue()
    assert sorted(kinds) == ["exhausted", "incapacitated", "prone", "tired"]
    for kid in ("tired", "exhausted", "prone"):  # the seed names them without numbers
        assert kinds[kid].house_default and kinds[kid].text.endswith(HOUSE)
    # Incapacitated's numbers are the seed's (p. "Incapacitation"): no action, flat TN 10, no avoiding.
    assert not kinds["incapacitated"].house_default and HOUSE not in kinds["incapacitated"].text
    assert "TN 10" in kinds["incapacitated"].text and "Hero Point" in kinds["incapacitated"].text
    # The play state keeps tired (Stamina 0) and incapacitated (Health below half): those two are native.
    assert {k for k, kind in kinds.items() if kind.native} == set(IMPOSABLE) == {"tired", "incapacitated"}
    assert kinds["exhausted"].valued and kinds["exhausted"].max == 3


# ------------------------------------------------------------------ through the API


def test_tired_takes_a_force_die_from_every_check_lives_in_the_play_state_and_leaves_with_the_effect(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    made = apply(gm, character, {"effect": "tired"})
    assert made["name"] == "Tired" and made["native"] is True and made["house_default"] is True
    assert made["changes"] == [{"target": "all", "force": -1}]
    after = rows(gm, character)
    assert after == {rid: fewer_dice(req, 1) for rid, req in before.items()}
    assert after["skill:missile"] == {"force": 1, "skill": 2, "tn": 12}  # Sela: thunder 2, missile 2
    odds = gm.post("/api/v1/rulesets/paragon/odds/", after["skill:missile"], format="json").json()
    assert odds["pass"] == pytest.approx(float(pass_by_hand(1, 2, 12)), abs=1e-12)
    # Native: the play state holds it, and the sheet's Conditions say so, with what it does.
    build, report, state = sheet(character)
    assert state["imposed"] == {"tired": True}
    assert [(i["id"], i["label"]) for i in conditions_section(character)] == [
        (
            "tired",
            "Tired: worn out, one force die fewer on every check (a house default); catch your breath to end it.",
        )
    ]
    # The sheet's roll button spells out the roll as it now is.
    labels = {r["id"]: r["label"] for r in PARAGON.rollables(build, report, state)}
    assert labels["skill:missile"] == "Missile (d12!+1d6+4)"
    remove(gm, character, made["id"])
    assert rows(gm, character) == before
    _, _, state = sheet(character)
    assert "imposed" not in state and fx.STATE_KEY not in state
    assert conditions_section(character) == []


def test_applying_tired_to_a_tired_character_is_refused_and_changes_nothing(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    apply(gm, character, {"effect": "tired"})
    version = Character.objects.get(pk=character.pk).version
    refused = apply(gm, character, {"effect": "tired"}, status=422)
    assert refused["errors"][0]["code"] == "paragon.already_imposed"
    assert Character.objects.get(pk=character.pk).version == version


def test_exhausted_takes_a_force_die_per_level_up_to_three(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    for level in (1, 2, 3):
        made = apply(gm, character, {"effect": "exhausted", "value": level})
        assert made["name"] == f"Exhausted {level}" and made["changes"] == [
            {"target": "all", "force": -level}
        ]
        assert rows(gm, character) == {rid: fewer_dice(req, level) for rid, req in before.items()}
        remove(gm, character, made["id"])
        assert rows(gm, character) == before
    refused = apply(gm, character, {"effect": "exhausted", "value": 4}, status=400)
    assert refused["errors"][0]["code"] == "effect.bad_value"


def test_prone_takes_a_force_die_from_melee_triarmatura_and_athletics_only(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    made = apply(gm, character, {"effect": "prone"})
    assert made["native"] is False
    hit = {"skill:melee", "skill:triarmatura", "skill:athletics"}
    after = rows(gm, character)
    assert after == {rid: fewer_dice(req, 1) if rid in hit else req for rid, req in before.items()}
    assert after["skill:triarmatura"] == {"force": 3, "skill": 3, "tn": 12}  # Sela: wind 4, triarmatura 3
    remove(gm, character, made["id"])
    assert rows(gm, character) == before


def test_effects_add_up_and_tired_counts_once_however_it_came(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    # Stamina 0 makes Sela tired (and costs 1d6 Morale twice: below 10, then 0).
    character_state_action(
        character_id=character.pk,
        user=table["player"],
        action={"action": "damage", "pool": "stamina", "amount": 20},
        roller=FixedRoller([1, 1]),
    )
    assert rows(gm, character) == {rid: fewer_dice(req, 1) for rid, req in before.items()}
    tired = apply(gm, character, {"effect": "tired"})  # the effect on top: still one die
    prone = apply(gm, character, {"effect": "prone"})
    after = rows(gm, character)
    assert after["skill:intuition"] == fewer_dice(before["skill:intuition"], 1)
    assert after["skill:triarmatura"] == fewer_dice(before["skill:triarmatura"], 2)
    build, report, state = sheet(character)
    names = {r["id"]: r.get("effects") for r in PARAGON.rollables(build, report, state)}
    assert names["skill:triarmatura"] == ["Tired", "Prone"] and names["skill:intuition"] == ["Tired"]
    # Catching one's breath is the seed's rest: Stamina back, tired lifted, its effect ended and said so.
    _, sentence = character_state_action(
        character_id=character.pk, user=table["player"], action={"action": "catch_breath"}
    )
    assert sentence == "Sela sits down and regulates their breathing: stamina 0 → 20. Tired ends."
    _, _, state = sheet(character)
    assert [e["id"] for e in state[fx.STATE_KEY]] == [prone["id"]] and "imposed" not in state
    assert tired["id"] not in {e["id"] for e in state[fx.STATE_KEY]}
    assert rows(gm, character)["skill:intuition"] == before["skill:intuition"]


def test_an_until_rest_effect_ends_when_the_character_catches_their_breath(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    made = apply(gm, character, {"effect": "exhausted", "value": 1, "duration": {"until": "rest"}})
    assert made["remaining"] == "until rest"
    _, sentence = character_state_action(
        character_id=character.pk, user=table["player"], action={"action": "catch_breath"}
    )
    assert sentence.endswith("Exhausted 1 ends.")
    assert rows(gm, character) == before


def test_incapacitated_stops_every_roll_until_a_hero_point_lifts_it_and_ends_the_effect(table):
    character = character_at_table(table, "paragon")
    gm = api_client(table["gm"])
    before = rows(gm, character)
    made = apply(gm, character, {"effect": "incapacitated"})
    assert made["native"] is True and made["changes"] == []
    assert rows(gm, character) == before  # the numbers do not change: no roll may be made at all
    build, report, state = sheet(character)
    assert PARAGON.state_effects(build, report, state)["can_act"] is False
    why = "Incapacitated: unable to move or act. Spend a Hero Point to recover, or receive first aid (Healing vs TN 15)."
    assert {(r["usable"], r["reason"]) for r in PARAGON.rollables(build, report, state)} == {(False, why)}
    assert [i["id"] for i in conditions_section(character)] == ["incapacitated"]
    # The seed: a Hero Point "can also be used to regain capacity on one's own".
    _, sentence = character_state_action(
        character_id=character.pk, user=table["player"], action={"action": "resist_incapacitation"}
    )
    assert sentence == "Sela spends a Hero Point and stays in the fight (4 left). Incapacitated ends."
    build, report, state = sheet(character)
    assert fx.STATE_KEY not in state and "imposed" not in state and state["pools"]["heroism"] == 4
    assert all(r.get("usable") is not False for r in PARAGON.rollables(build, report, state))
    # Applied again and removed by the GM: the play state lets go of it too.
    again = apply(gm, character, {"effect": "incapacitated"})
    remove(gm, character, again["id"])
    assert conditions_section(character) == [] and "imposed" not in sheet(character)[2]


def test_a_malformed_imposed_list_is_a_state_problem():
    build = PARAGON.contract_data()["sheet"]
    report = PARAGON.validate(build)
    state = PARAGON.initial_state(build, report)
    for imposed in ({"asleep": True}, {"tired": 1}, ["tired"], "tired"):
        issues = PARAGON.check_state({**state, "imposed": imposed}, build, report)
        assert [(i.code, i.path) for i in issues] == [("state.malformed", "/imposed")]
    assert (
        PARAGON.check_state({**state, "imposed": {"incapacitated": True, "tired": True}}, build, report) == []
    )


# ------------------------------------------------------------------ the GM's party page


def test_the_summary_and_pools_of_the_sheet_character(table):
    character = character_at_table(table, "paragon")
    build, report, state = sheet(character)
    # Sela: fire 1 melee 1 → 10+3+2; wind 4 missile 2 → 10+12+4; wind 4 triarmatura 3 → 10+12+6.
    assert PARAGON.summary(build, report, state) == [
        {"label": "Defense (melee)", "value": 15},
        {"label": "Defense (missile)", "value": 26},
        {"label": "Defense (triarmatura)", "value": 28},
        {"label": "Initiative", "value": "d12!+2d6"},
        {"label": "Corruption", "value": 0},
        {"label": "Conditions", "value": "none"},
    ]
    full = {"health": 20, "face": 20, "purity": 20, "stamina": 20, "heroism": 5, "dynama": 30, "morale": 12}
    assert PARAGON.pools(build, report, state) == [
        {"id": pool, "label": pool.title(), "current": n, "max": n} for pool, n in full.items()
    ]
    # Hurt, tired, corrupted: the party page reads the state as it is.
    for action in (
        {"action": "damage", "pool": "health", "amount": 12},
        {"action": "corrupt", "amount": 3},
    ):
        character_state_action(character_id=character.pk, user=table["player"], action=action)
    apply(api_client(table["gm"]), character, {"effect": "tired"})
    build, report, state = sheet(character)
    summary = {row["label"]: row["value"] for row in PARAGON.summary(build, report, state)}
    assert summary["Initiative"] == "d12!+1d6"
    assert summary["Corruption"] == 3
    assert summary["Conditions"] == "incapacitated, tired"
    assert PARAGON.pools(build, report, state)[0] == {
        "id": "health",
        "label": "Health",
        "current": 8,
        "max": 20,
    }


def test_an_ordinary_person_has_no_triarmatura_defense_in_the_summary():
    report = PARAGON.validate(HESK)
    assert report.valid, report.errors
    assert PARAGON.summary(HESK, report, None) == [
        {"label": "Defense (melee)", "value": 20},
        {"label": "Defense (missile)", "value": 13},
        {"label": "Initiative", "value": "d12!+2d6"},
    ]
    assert PARAGON.pools(HESK, report, None) == []


# ------------------------------------------------------------------ the encounter


@pytest.fixture
def gatehouse(db):
    """Aren (a player's character) and Old Hesk (an NPC), not yet started."""
    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="paragon", players=[player])
    aren = make_character(ruleset="paragon", owner=player, campaign=campaign, build=AREN)
    e = combat.encounter_create(campaign=campaign, user=gm, name="The gatehouse")
    c_aren = combat.encounter_add_combatant(encounter=e, user=gm, character=aren)[0]
    c_hesk = combat.encounter_add_combatant(encounter=e, user=gm, name="Old Hesk", build=HESK)[0]
    return {"gm": gm, "player": player, "e": e, "aren": c_aren, "hesk": c_hesk, "character": aren}


def strike_odds(g) -> dict:
    running = encounter_fight(encounter=Encounter.objects.get(pk=g["e"].pk))
    spec = next(s for s in fighter_actions(running, running.fighter_by_id[g["aren"].pk]) if s.id == "strike")
    assert spec.allowed, spec.reason
    return spec.odds


def engage(g) -> None:
    combat.encounter_act(
        encounter=g["e"],
        user=g["player"],
        combatant_id=g["aren"].pk,
        action={"action": "engage", "target": g["hesk"].pk, "kind": "melee"},
    )


def strike(g, faces: list[int], skill: str = "triarmatura") -> None:
    combat.encounter_act(
        encounter=g["e"],
        user=g["player"],
        combatant_id=g["aren"].pk,
        action={"action": "strike", "skill": skill, "weapon": "strong"},
        roller=FixedRoller(faces),
    )


def test_an_effect_on_every_roll_reaches_the_initiative_the_strike_odds_and_the_strike_roll(gatehouse):
    g = gatehouse
    gm = api_client(g["gm"])
    shaken = apply(
        gm,
        g["character"],
        {"name": "Shaken", "changes": [{"target": "all", "force": -1}, {"target": "all", "tn": 2}]},
    )
    # Initiative: Aren d12 8 + 1d6 (not 2) 4 + 4 = 16; Hesk 3 + 5,1 = 9.
    combat.encounter_start(encounter=g["e"], user=g["gm"], roller=FixedRoller([8, 4, 3, 5, 1]))
    assert "Aren of the Eastern Gate rolls initiative: d12!+1d6+4: 8 | 4 +4 = 16." in event_texts(g["e"])
    engage(g)
    # Triarmatura (wind 3, rank 2) against Hesk's Defense (Melee) 20: one die fewer, and TN 20 + 2.
    odds = strike_odds(g)
    assert odds == {"force": 2, "skill": 2, "tn": 22}
    assert PARAGON.odds(odds)["pass"] == pytest.approx(float(pass_by_hand(2, 2, 22)), abs=1e-12)
    # The roll is the one the odds showed: two d6, not three (FixedRoller refuses a face left over).
    strike(g, [7, 5, 5])  # 7 + 5 + 5 + 4 = 21: it would threaten Defense 20, not TN 22
    assert event_texts(g["e"])[-1].endswith(
        "d12!+2d6+4: 7 | 5,5 +4 = 21 vs TN 22: fail: a miss, the chain ends."
    )
    e = Encounter.objects.get(pk=g["e"].pk)
    assert e.state["threat"] is None and e.state["exchange"]["done"] == [g["aren"].pk]
    # Removed: Hesk's answer and Aren's next strike are the sheets' again.
    remove(gm, g["character"], shaken["id"])
    combat.encounter_next_turn(encounter=e, user=g["gm"])
    combat.encounter_next_turn(encounter=e, user=g["gm"])  # round 2, Aren's turn
    engage(g)
    assert strike_odds(g) == {"force": 3, "skill": 2, "tn": 20}


def test_prone_and_tired_reach_the_strike_and_tired_counts_once(gatehouse):
    g = gatehouse
    gm = api_client(g["gm"])
    combat.encounter_start(encounter=g["e"], user=g["gm"], roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    apply(gm, g["character"], {"effect": "prone"})
    engage(g)
    assert strike_odds(g) == {"force": 2, "skill": 2, "tn": 20}
    apply(gm, g["character"], {"effect": "tired"})
    character_state_action(  # Stamina 0 as well (1d6 Morale twice): tired once, not twice
        character_id=g["character"].pk,
        user=g["player"],
        action={"action": "set", "pool": "stamina", "value": 0},
        roller=FixedRoller([1, 1]),
    )
    assert strike_odds(g) == {"force": 1, "skill": 2, "tn": 20}
    strike(g, [10, 5])  # 10 + 5 + 4 = 19 vs 20: a miss, with exactly one d6
    assert "d12!+1d6+4: 10 | 5 +4 = 19 vs TN 20: fail" in event_texts(g["e"])[-1]


def test_a_named_effect_for_some_rounds_of_the_encounter_ends_on_its_clock_natively(gatehouse):
    g = gatehouse
    combat.encounter_start(encounter=g["e"], user=g["gm"], roller=FixedRoller([8, 4, 6, 3, 5, 1]))
    made = apply(
        api_client(g["gm"]),
        g["character"],
        {"effect": "incapacitated", "duration": {"rounds": 1}, "encounter": g["e"].pk},
    )
    assert made["duration"] == {"rounds": 1} and made["encounter"] == g["e"].pk
    running = encounter_fight(encounter=Encounter.objects.get(pk=g["e"].pk))
    specs = {s.id: s for s in fighter_actions(running, running.fighter_by_id[g["aren"].pk])}
    assert specs["engage"].code == "paragon.incapacitated"
    assert (
        specs["engage"].reason
        == "Aren of the Eastern Gate is incapacitated: spend a Hero Point to resist first."
    )
    # The clock's round 2: the effect ends, and the play state lets go of the incapacitation with it.
    ended = characters_effects_end(
        character_ids=[g["character"].pk], ending=lambda state: fx.ending_on_round(state, g["e"].pk, 2)
    )
    assert [(c.pk, [e["name"] for e in gone]) for c, gone in ended] == [
        (g["character"].pk, ["Incapacitated"])
    ]
    state = Character.objects.get(pk=g["character"].pk).state
    assert "imposed" not in state and fx.STATE_KEY not in state
    engage(g)
    assert strike_odds(g) == {"force": 3, "skill": 2, "tn": 20}
