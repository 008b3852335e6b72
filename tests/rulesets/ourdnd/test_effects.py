"""Our D&D on the GM's screen (issue #22, CONTRACT.md "The GM's screen"): its named effects from the
rulebook (seed 003 "EASY AND HARD", "WHEN YOU REACH 0 HP", "ROLL FOR DYING!"), applied over the API,
reaching the sheet's rolls, the play state and the encounter; easy and hard combining as the rulebook
says; the party page's summary and pools; the help an ally gives a party roll.

Expected odds are worked out here from the dice (closed forms and enumerations of the d20s), not
with the ruleset's odds code."""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from characters.models import Character
from characters.sheet.services import character_state_action
from combat import services
from combat.fight import fighter_actions
from combat.selectors import encounter_fight
from rulesets.engine import effects as fx
from rulesets.engine.dice import FixedRoller, Roller
from rulesets.engine.errors import StateError
from rulesets.systems.ourdnd import RULESET as OURDND
from tests.characters.sheet.test_sheet_fixtures import character_at_table
from tests.factories import api_client
from tests.rulesets import combat_helpers

ROOT = Path(__file__).resolve().parents[3]
BRAM = json.loads((ROOT / "rulesets/systems/ourdnd/demo/bram_shieldbearer.json").read_text())  # str 2, con 2
WREN = json.loads((ROOT / "rulesets/systems/ourdnd/demo/wren_emberhand.json").read_text())  # int 3, con 1
GOBLIN = {
    "ruleset": "ourdnd",
    "name": "Goblin",
    "budget": {"points": 3},
    "stats": {"str": 1, "dex": 2, "con": 0, "int": 0, "wis": 0, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "dagger"}],
}
RULES = OURDND.combat()
CHECKS = [f"check:{s}:normal" for s in ("str", "dex", "con", "int", "wis", "cha")]


# ------------------------------------------------------------------ the dice, by hand


def hand_odds(stat: int, td: int, mode: str) -> dict[str, Fraction]:
    """Every d20 (two when easy or hard) enumerated: the kept die is the natural one; 20 always
    succeeds (critical), 1 always fails (blunder), else d20 + stat ≥ TD."""
    dice = 1 if mode == "normal" else 2
    throws = list(product(range(1, 21), repeat=dice))
    success = critical = blunder = 0
    for faces in throws:
        kept = faces[0] if mode == "normal" else max(faces) if mode == "easy" else min(faces)
        critical += kept == 20
        blunder += kept == 1
        success += kept == 20 or (kept != 1 and kept + stat >= td)
    n = len(throws)
    return {
        "success": Fraction(success, n),
        "critical": Fraction(critical, n),
        "blunder": Fraction(blunder, n),
    }


def assert_odds(answer: dict, expected: dict[str, Fraction]) -> None:
    assert set(answer) == set(expected)
    for key, p in expected.items():
        assert answer[key] == pytest.approx(float(p), abs=1e-12), key


# ------------------------------------------------------------------ API helpers


def rollables(client, character) -> dict[str, dict]:
    got = client.get(f"/api/v1/characters/{character.pk}/rollables/")
    assert got.status_code == 200
    return {r["id"]: r["request"] for r in got.json()}


def apply(client, character, body: dict, status: int = 201) -> dict:
    got = client.post(f"/api/v1/characters/{character.pk}/effects/", body, format="json")
    assert got.status_code == status, got.json()
    return got.json()


def remove(client, character, effect_id: str) -> None:
    assert client.delete(f"/api/v1/characters/{character.pk}/effects/{effect_id}/").status_code == 204


def odds(client, request: dict) -> dict:
    got = client.post("/api/v1/rulesets/ourdnd/odds/", request, format="json")
    assert got.status_code == 200, got.json()
    return got.json()


def sheet_rules(character: Character):
    character.refresh_from_db()
    report = OURDND.validate(character.build)
    assert report.valid
    return character.build, report, character.state


def flags(character: Character) -> dict[str, bool]:
    """The "Dying" flags section of the sheet (the ruleset's own state section)."""
    build, report, state = sheet_rules(character)
    section = next(s for s in OURDND.state_sections(build, report, state) if s["id"] == "dying")
    return {item["id"]: item["on"] for item in section["items"] if item["id"] != "dying_rounds"}


# ------------------------------------------------------------------ the catalogue


def test_the_catalogue_holds_the_rulebook_s_states_with_its_numbers():
    catalogue = OURDND.effect_catalogue()
    assert list(catalogue) == ["easy", "hard", "unconscious", "dying"]
    easy, hard, unconscious, dying = catalogue.values()
    # EASY AND HARD: a mode on every check (effort rolls have none), on or off: no value.
    assert easy.changes == ({"target": "check:", "mode": "easy"},)
    assert hard.changes == ({"target": "check:", "mode": "hard"},)
    assert not easy.native and not hard.native
    assert "keep the higher" in easy.text and "keep the lower" in hard.text
    assert "cancel" in easy.text and "cancel" in hard.text
    # Unconscious and dying live in the play state already: native, no numbers of their own.
    assert unconscious.native and dying.native
    assert unconscious.changes == () and dying.changes == ()
    assert (unconscious.held_by, dying.held_by) == ("/unconscious", "/dying")  # the flags hold them
    assert "1d4" in dying.text and "natural 20" in dying.text
    # Every number is the rulebook's: no house default, nothing valued.
    assert not any(k.house_default or k.valued for k in catalogue.values())
    assert OURDND.effect_modes == ("easy", "hard")
    assert OURDND.effect_keys == {"stat": None, "td": 1}
    assert OURDND.table_keys == ("td", "mode")


# ------------------------------------------------------------------ easy and hard on the sheet's rolls


@pytest.mark.parametrize("mode", ["easy", "hard"])
def test_easy_or_hard_makes_every_check_so_and_its_odds_are_the_two_dice_s(mode, table):
    character = character_at_table(table, "ourdnd")  # the sheet's Bram: STR 2, CON 2, CHA 2
    gm = api_client(table["gm"])
    before = rollables(gm, character)
    body = apply(gm, character, {"effect": mode})
    assert body["name"] == mode.capitalize() and body["native"] is False
    assert body["changes"] == [{"target": "check:", "mode": mode}]
    assert body["text"] == [f"{mode.capitalize()} to every Check roll"]
    after = rollables(gm, character)
    assert set(after) == set(before)
    for rid, request in before.items():
        if rid in CHECKS:
            assert after[rid] == {**request, "mode": mode}
        else:  # effort rolls have no d20 to keep
            assert rid.startswith("effort:") and after[rid] == request
    # The odds: two d20s, the higher (easy) or the lower (hard) kept.
    str_check = after["check:str:normal"]
    assert str_check == {"stat": 2, "td": 12, "mode": mode}
    assert_odds(odds(gm, str_check), hand_odds(2, 12, mode))
    plain = odds(gm, before["check:str:normal"])["success"]
    changed = odds(gm, str_check)["success"]
    # Closed forms: d20 + 2 ≥ 12 needs 10+: normal 11/20; easy 1 − (9/20)²; hard (11/20)².
    assert plain == pytest.approx(11 / 20)
    assert changed == pytest.approx(1 - (9 / 20) ** 2 if mode == "easy" else (11 / 20) ** 2)
    remove(gm, character, body["id"])
    assert rollables(gm, character) == before


def test_easy_and_hard_cancel_and_never_give_more_than_one_extra_die(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    before = rollables(gm, character)
    first = apply(gm, character, {"effect": "easy"})
    second = apply(gm, character, {"effect": "easy"})  # a second reason to be easy: still one extra d20
    assert {rid: r["mode"] for rid, r in rollables(gm, character).items() if rid in CHECKS} == dict.fromkeys(
        CHECKS, "easy"
    )
    hard = apply(gm, character, {"effect": "hard"})  # easy and hard together: neither, a single d20
    assert rollables(gm, character) == before
    assert_odds(odds(gm, rollables(gm, character)["check:str:normal"]), hand_odds(2, 12, "normal"))
    remove(gm, character, hard["id"])
    assert rollables(gm, character)["check:cha:normal"] == {"stat": 2, "td": 12, "mode": "easy"}
    remove(gm, character, first["id"])
    remove(gm, character, second["id"])
    assert rollables(gm, character) == before
    hard = apply(gm, character, {"effect": "hard"})
    assert rollables(gm, character)["check:con:normal"]["mode"] == "hard"


def test_a_custom_effect_on_every_roll_shifts_the_checks_and_leaves_effort_alone(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    before = rollables(gm, character)
    body = apply(
        gm,
        character,
        {"name": "Smoke in the eyes", "changes": [{"target": "all", "stat": -2}, {"target": "all", "td": 1}]},
    )
    after = rollables(gm, character)
    for rid, request in before.items():
        if rid in CHECKS:
            assert after[rid] == {**request, "stat": request["stat"] - 2, "td": request["td"] + 1}
        else:
            assert after[rid] == request == {"effort": request["effort"]}
    # STR 2 − 2 = 0 against TD 13: 13+ on the d20, 8 faces of 20.
    assert odds(gm, after["check:str:normal"])["success"] == pytest.approx(8 / 20)
    remove(gm, character, body["id"])
    assert rollables(gm, character) == before


def test_an_effect_that_sets_normal_is_refused_it_is_no_circumstance(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    got = gm.post(
        f"/api/v1/characters/{character.pk}/effects/",
        {"name": "Plain", "changes": [{"target": "all", "mode": "normal"}]},
        format="json",
    )
    assert got.status_code == 400
    assert got.json()["errors"][0] == {
        "code": "effect.unknown_key",
        "path": "/changes/0/mode",
        "message": "The mode is one of easy, hard.",
    }


# ------------------------------------------------------------------ unconscious and dying: native


def test_unconscious_is_the_play_state_s_flag_and_removing_it_wakes_the_character(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    before = rollables(gm, character)
    assert flags(character)["unconscious"] is False
    body = apply(gm, character, {"effect": "unconscious"})
    assert body["native"] is True and body["changes"] == []
    assert flags(character) == {"unconscious": True, "dying": False, "stable": False, "dead": False}
    build, report, state = sheet_rules(character)
    assert state["hp"] == 10 and OURDND.state_effects(build, report, state)["can_act"] is False
    assert rollables(gm, character) == before  # no numbers of its own: nothing rolls twice
    listed = api_client(table["player"]).get(f"/api/v1/characters/{character.pk}/effects/").json()
    assert [(e["name"], e["native"]) for e in listed] == [("Unconscious", True)]
    remove(gm, character, body["id"])
    assert flags(character)["unconscious"] is False
    assert "effects" not in Character.objects.get(pk=character.pk).state


def test_dying_drops_to_0_hp_and_removing_it_stops_the_countdown(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    body = apply(gm, character, {"effect": "dying"})
    assert flags(character) == {"unconscious": True, "dying": True, "stable": False, "dead": False}
    build, report, state = sheet_rules(character)
    assert OURDND.pools(build, report, state) == [{"id": "hp", "label": "HP", "current": 0, "max": 10}]
    assert state["dying_rounds"] is None  # rolled on the next turn (1d4)
    remove(gm, character, body["id"])
    assert flags(character) == {"unconscious": True, "dying": False, "stable": True, "dead": False}
    assert Character.objects.get(pk=character.pk).state["hp"] == 0


def test_the_state_s_own_actions_end_the_native_effects_they_clear(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    apply(gm, character, {"effect": "dying"})
    apply(gm, character, {"effect": "unconscious"})
    # First aid stabilises: no longer dying (Dying ends), still unconscious (Unconscious stays).
    _, text = character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "first_aid", "result": "success"}
    )
    assert text.endswith("no longer dying. Dying ends.")
    assert [e["name"] for e in Character.objects.get(pk=character.pk).state["effects"]] == ["Unconscious"]
    # Healing wakes them: Unconscious ends with the flag.
    _, text = character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "heal", "amount": 3}
    )
    assert text == "Bram heals 3: HP 0 → 3. Back on their feet. Unconscious ends."
    state = Character.objects.get(pk=character.pk).state
    assert "effects" not in state and state["unconscious"] is False and state["hp"] == 3


def test_at_0_hp_removing_unconscious_leaves_the_character_unconscious(table):
    character = character_at_table(table, "ourdnd")
    gm = api_client(table["gm"])
    apply(gm, character, {"effect": "dying"})
    knocked = apply(gm, character, {"effect": "unconscious"})
    remove(gm, character, knocked["id"])  # the effect goes; the rules keep a 0 HP character out
    state = Character.objects.get(pk=character.pk).state
    assert [e["name"] for e in state["effects"]] == ["Dying"]
    assert state["unconscious"] is True and state["dying"] is True


def test_set_condition_refuses_what_the_rules_do_not_allow():
    build = copy.deepcopy(BRAM)
    report = OURDND.validate(build)
    state = OURDND.initial_state(build, report)
    down, _ = OURDND.state_action(
        state, {"action": "set_condition", "condition": "dying", "on": True}, build, report
    )
    with pytest.raises(StateError) as err:
        OURDND.state_action(
            down, {"action": "set_condition", "condition": "unconscious", "on": False}, build, report
        )
    assert err.value.code == "ourdnd.unconscious_at_0"
    for bad, path in (
        ({"condition": "asleep", "on": True}, "/condition"),
        ({"condition": "dying", "on": 1}, "/on"),
    ):
        with pytest.raises(StateError) as err:
            OURDND.state_action(state, {"action": "set_condition", **bad}, build, report)
        assert (err.value.code, err.value.path) == ("state.malformed", path)


def test_recover_on_the_sheet_rolls_with_the_character_s_effects(table):
    character = character_at_table(table, "ourdnd")  # CON 2: Recover regains 3
    gm = api_client(table["gm"])
    character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "damage", "amount": 5}
    )
    apply(gm, character, {"effect": "hard"})
    # Hard: 2d20 keep the lower. 15 alone would recover (15 + 2 ≥ 12); the lower, 9, does not.
    # A "check" sent by a client is not the roll: the ruleset makes it from the effects.
    _, text = character_state_action(
        character_id=character.pk,
        user=table["gm"],
        action={"action": "recover", "td": 12, "check": {"stat": 30, "td": 1, "mode": "easy"}},
        roller=FixedRoller([15, 9]),
    )
    assert text == "Bram tries to recover (2d20 (hard) 15, 9 → 9 + 2 vs TD 12) and fails."
    _, text = character_state_action(
        character_id=character.pk,
        user=table["gm"],
        action={"action": "recover", "td": 12},
        roller=FixedRoller([10, 14]),
    )
    assert text == "Bram recovers (2d20 (hard) 10, 14 → 10 + 2 vs TD 12): HP 5 → 8."


# ------------------------------------------------------------------ the encounter


def fighter(
    fid: int, build: dict, *, npc: bool = False, effects: list[dict] = (), **state
) -> combat_helpers.Fighter:
    f = combat_helpers.make_fighter(OURDND, fid, build, npc=npc, name=build["name"].split()[0], state=state)
    if effects:
        ids = [r["id"] for r in OURDND.rollables(f.build, f.report, f.state)]
        entries = [fx.resolve(OURDND, spec, ids)[0] for spec in effects]
        f.state = {**f.state, "effects": entries}
    return f


class Scene(combat_helpers.Scene):
    rules = RULES


SHAKEN = {"name": "Shaken", "changes": [{"target": "all", "stat": -2}]}


def scene(*effects: dict, wren: tuple[dict, ...] = (), **bram_state) -> Scene:
    """Bram (first: initiative 20), Wren, a goblin; Bram's and Wren's effects as given."""
    return Scene(
        [
            fighter(1, BRAM, effects=list(effects), **bram_state),
            fighter(2, WREN, effects=list(wren)),
            fighter(3, GOBLIN, npc=True),
        ],
        faces=[20, 5, 2],
    )


def test_an_effect_on_every_roll_reaches_every_action_s_odds_and_roll():
    plain, shaken = scene(), scene(SHAKEN)
    for sid, request in (
        ("check", {"stat": 2, "td": 12, "mode": "normal"}),  # STR, Bram's best
        ("attempt", {"stat": 2, "td": 12, "mode": "normal"}),
        ("recover", {"stat": 2, "td": 12, "mode": "normal"}),  # CON
    ):
        assert plain.spec(1, sid).odds == request
        assert shaken.spec(1, sid).odds == {**request, "stat": 0}
    # The roll agrees: the same seeded dice, 2 less with the effect.
    a, b = (
        RULES.perform(
            {"action": "check", "stat": "str"},
            s.by[1],
            s.fighters,
            s.es,
            Roller(random.Random(22)),
            current=s.current,
            by_gm=False,
        ).events[0]
        for s in (plain, shaken)
    )
    assert a.data["faces"] == b.data["faces"] and b.data["total"] == a.data["total"] - 2
    assert a.data["odds"] == {"stat": 2, "td": 12, "mode": "normal"}
    assert b.data["odds"] == {"stat": 0, "td": 12, "mode": "normal"}
    # Fixed dice: 10 + 2 meets TD 12; shaken, 10 + 0 does not.
    plain.act(1, [10], action="check", stat="str")
    shaken.act(1, [10], action="check", stat="str")
    assert plain.log[-1] == "Bram's STR check: d20 10 + 2 = 12 vs TD 12: success."
    assert shaken.log[-1] == "Bram's STR check: d20 10 + 0 = 10 vs TD 12: failure."


def test_an_easy_effect_rolls_two_dice_and_cancels_with_a_hard_roll():
    easy = scene({"effect": "easy"})
    assert easy.spec(1, "check").odds == {"stat": 2, "td": 12, "mode": "easy"}
    easy.act(1, [3, 11], action="check", stat="str")  # keeps 11: 13 ≥ 12
    assert easy.log[-1] == "Bram's STR check: 2d20 (easy) 3, 11 → 11 + 2 = 13 vs TD 12: success."
    # The player calls the roll hard too: easy and hard cancel, one d20.
    again = scene({"effect": "easy"})
    again.act(1, [9], action="check", stat="str", mode="hard")
    assert again.log[-1] == "Bram's STR check: d20 9 + 2 = 11 vs TD 12: failure."


def test_a_very_far_target_is_hard_and_an_easy_effect_cancels_it():
    archer = {**copy.deepcopy(BRAM), "gear": [{"item": "longbow"}]}  # reaches VERY FAR
    s = Scene([fighter(1, archer, effects=[{"effect": "easy"}]), fighter(3, GOBLIN, npc=True)], faces=[20, 2])
    s.es = {**s.es, "positions": {"1": 0, "3": 3}}  # the goblin VERY FAR from Bram
    assert s.spec(1, "attempt").odds == {"stat": 2, "td": 12, "mode": "easy"}  # no target chosen yet
    s.act(1, [13, 4], action="attempt", stat="dex", target=3, gear="longbow")  # one d20: easy and hard cancel
    assert s.log[-2] == (
        "Bram's DEX attempt on Goblin (Goblin is VERY FAR: hitting is HARD): d20 13 + 0 = 13 vs TD 12: success."
    )
    # Without the effect the very far shot is hard: two d20s, the lower kept.
    t = Scene([fighter(1, archer), fighter(3, GOBLIN, npc=True)], faces=[20, 2])
    t.es = {**t.es, "positions": {"1": 0, "3": 3}}
    t.act(1, [13, 4], action="attempt", stat="dex", target=3, gear="longbow")
    assert t.log[-1] == (
        "Bram's DEX attempt on Goblin (Goblin is VERY FAR: hitting is HARD): 2d20 (hard) 13, 4 → 4 + 0 = 4 vs TD 12: "
        "failure."
    )


def test_recover_and_first_aid_roll_with_the_actor_s_effects():
    s = scene({"effect": "hard"}, hp=4)
    assert s.spec(1, "recover").odds == {"stat": 2, "td": 12, "mode": "hard"}
    s.act(1, [20, 6], action="recover")  # the lower, 6: 8 < 12, and no natural 20 kept
    assert (
        s.log[-1] == "Bram the Shield-Bearer tries to recover (2d20 (hard) 20, 6 → 6 + 2 vs TD 12) and fails."
    )
    assert s.by[1].state["hp"] == 4 and s.by[1].state["inspiration"] is False
    # Wren (INT 3, easy) gives first aid to a dying Bram, CLOSE: she keeps the higher die, a 20.
    t = scene(wren=({"effect": "easy"},), hp=0, unconscious=True, dying=True)
    t.turn(2)
    assert t.spec(2, "first_aid").odds == {"stat": 3, "td": 12, "mode": "easy"}
    t.act(2, [2, 20], action="first_aid", target=1, stat="int")
    assert "2d20 (easy) 2, 20 → 20 + 3 vs TD 12" in t.log[-2]
    assert t.by[1].state["stable"] is True and t.by[2].state["inspiration"] is True  # the kept die: 20


def test_effects_reach_the_encounter_through_the_services(table):
    character = character_at_table(table, "ourdnd", build=copy.deepcopy(BRAM))
    gm = table["gm"]
    e = services.encounter_create(campaign=character.campaign, user=gm, name="The bridge")
    mine = services.encounter_add_combatant(encounter=e, user=gm, character=character)[0]
    services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([15, 9]))

    def check_odds() -> dict:
        e.refresh_from_db()
        fight = encounter_fight(encounter=e)
        me = next(f for f in fight.fighters if f.id == mine.pk)
        return next(s for s in fighter_actions(fight, me) if s.id == "check").odds

    assert check_odds() == {"stat": 2, "td": 12, "mode": "normal"}
    body = apply(api_client(gm), character, {**SHAKEN, "duration": {"rounds": 1}, "encounter": e.pk})
    assert check_odds() == {"stat": 0, "td": 12, "mode": "normal"}
    services.encounter_act(
        encounter=e,
        user=table["player"],
        combatant_id=mine.pk,
        action={"action": "check", "stat": "str"},
        roller=FixedRoller([11]),
    )
    last = e.events.order_by("-id").first()
    assert last.text == "Bram the Shield-Bearer's STR check: d20 11 + 0 = 11 vs TD 12: failure."
    assert last.data["odds"] == {"stat": 0, "td": 12, "mode": "normal"}  # the roll feed's chance
    remove(api_client(gm), character, body["id"])
    assert check_odds() == {"stat": 2, "td": 12, "mode": "normal"}
    services.encounter_next_turn(encounter=e, user=gm)  # the DM's turn
    services.encounter_next_turn(encounter=e, user=gm)  # round 2: Bram's turn again
    services.encounter_act(
        encounter=e,
        user=table["player"],
        combatant_id=mine.pk,
        action={"action": "check", "stat": "str"},
        roller=FixedRoller([11]),
    )
    last = e.events.order_by("-id").first()
    assert last.text == "Bram the Shield-Bearer's STR check: d20 11 + 2 = 13 vs TD 12: success."


# ------------------------------------------------------------------ the party page


def test_the_summary_and_pools_of_the_sheet_character(table):
    character = character_at_table(table, "ourdnd")  # examples.json "sheet": Bram, sword and shield
    build, report, state = sheet_rules(character)
    assert build["name"] == "Bram"
    assert OURDND.summary(build, report, state) == [
        {"label": "Defense", "value": 3},  # CON 2 + shield 1
        {"label": "STR", "value": 2},
        {"label": "DEX", "value": 0},
        {"label": "CON", "value": 2},
        {"label": "INT", "value": 0},
        {"label": "WIS", "value": 0},
        {"label": "CHA", "value": 2},
        {"label": "Heroic Inspiration", "value": "No"},
    ]
    assert OURDND.pools(build, report, state) == [{"id": "hp", "label": "HP", "current": 10, "max": 10}]
    character_state_action(
        character_id=character.pk, user=table["gm"], action={"action": "damage", "amount": 4}
    )
    character_state_action(character_id=character.pk, user=table["gm"], action={"action": "gain_inspiration"})
    build, report, state = sheet_rules(character)
    assert OURDND.summary(build, report, state)[-1] == {"label": "Heroic Inspiration", "value": "Yes"}
    assert OURDND.pools(build, report, state) == [{"id": "hp", "label": "HP", "current": 6, "max": 10}]


def test_success_is_the_chance_to_succeed_criticals_included():
    # d20 + 2 vs TD 12: faces 10–20 succeed (20 critical): 11/20; TD 25: only a natural 20.
    assert OURDND.success(OURDND.odds({"stat": 2, "td": 12, "mode": "normal"})) == pytest.approx(11 / 20)
    assert OURDND.success(OURDND.odds({"stat": 2, "td": 25, "mode": "normal"})) == pytest.approx(1 / 20)
    # TD 2 with STR 2: every face but the natural 1.
    assert OURDND.success(OURDND.odds({"stat": 2, "td": 2, "mode": "hard"})) == pytest.approx((19 / 20) ** 2)
    # No successes to count: a need changes nothing.
    answer = OURDND.odds({"stat": 2, "td": 12, "mode": "normal"})
    assert OURDND.success_needs is False and OURDND.success(answer, 3) == answer["success"]
    # A party of two: at least one succeeds = 1 − Π(1 − success).
    a = OURDND.success(OURDND.odds({"stat": 2, "td": 12, "mode": "normal"}))
    b = OURDND.success(OURDND.odds({"stat": 0, "td": 12, "mode": "easy"}))  # 12+ on the higher of two
    assert b == pytest.approx(1 - (11 / 20) ** 2)
    assert 1 - (1 - a) * (1 - b) == pytest.approx(1 - (9 / 20) * (11 / 20) ** 2)


def test_an_ally_s_help_makes_the_check_easy_and_cancels_a_hard_one():
    (aid,) = OURDND.roll_aids()
    assert aid["id"] == "help" and aid["label"] == "Another character helps"
    assert aid["changes"] == [{"target": "all", "mode": "easy"}]
    assert "EASY" in aid["text"] and "cancel" in aid["text"]
    helped = {
        mode: fx.apply_changes(
            OURDND, {"stat": 1, "td": 12, "mode": mode}, aid["changes"], "check:str:normal"
        )
        for mode in ("normal", "easy", "hard")
    }
    assert helped == {
        "normal": {"stat": 1, "td": 12, "mode": "easy"},
        "easy": {"stat": 1, "td": 12, "mode": "easy"},  # never more than one extra d20
        "hard": {"stat": 1, "td": 12, "mode": "normal"},  # easy and hard cancel
    }
    # An effort roll has no d20 to keep: the help leaves it alone.
    assert fx.apply_changes(OURDND, {"effort": "d6"}, aid["changes"], "effort:sword") == {"effort": "d6"}
    # Helped, d20 + 1 ≥ 12 on the higher of two d20s: 1 − (10/20)².
    assert OURDND.success(OURDND.odds(helped["normal"])) == pytest.approx(1 - (10 / 20) ** 2)
    assert_odds(OURDND.odds(helped["normal"]), hand_odds(1, 12, "easy"))
