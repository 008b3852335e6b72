"""Our D&D's distances through the combat hooks (seed 003 "MOVMENT AND DISTANCE", "THREE KINDS OF
TURNS"; RULES.md §4 "Turns: action only; move near + action; move far. Distances: close, near,
far, very far, out of range"), dice fixed. The bands live on a line of zones in the encounter state
(rulesets/systems/ourdnd/distance.py); where the seed is silent the house defaults decide
(content/house.json: start_distance, reach_by_kind) and a campaign may change them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesets.engine.combat import Fighter
from rulesets.systems.ourdnd import RULESET as OURDND
from rulesets.systems.ourdnd import distance
from tests.rulesets import combat_helpers

ROOT = Path(__file__).resolve().parents[3]
BRAM = json.loads(
    (ROOT / "rulesets/systems/ourdnd/demo/bram_shieldbearer.json").read_text()
)  # STR 2, sword, shield
WREN = json.loads(
    (ROOT / "rulesets/systems/ourdnd/demo/wren_emberhand.json").read_text()
)  # INT 3, fire staff, dagger
ARCHER = {
    "ruleset": "ourdnd",
    "name": "Ash",
    "budget": {"points": 6},
    "stats": {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "longbow"}, {"item": "shortbow"}, {"item": "musket"}, {"item": "dagger"}],
}
GOBLIN = {
    "ruleset": "ourdnd",
    "name": "Goblin",
    "budget": {"points": 3},
    "stats": {"str": 1, "dex": 2, "con": 0, "int": 0, "wis": 0, "cha": 0},
    "hearts": 1,
    "gear": [{"item": "dagger"}],
}
RULES = OURDND.combat()


def fighter(fid: int, build: dict, *, npc: bool = False, house: dict | None = None, **state) -> Fighter:
    """A fighter whose report was checked under the campaign's ``house`` rules (the hooks read them)."""
    report = OURDND.validate(build, settings=house)
    assert report.valid, report.errors
    return Fighter(
        id=fid,
        name=build["name"].split()[0],
        is_npc=npc,
        group="",
        build=build,
        derived=report.derived,
        state={**OURDND.initial_state(build, report), **state},
        combat={},
        report=report,
    )


class Scene(combat_helpers.Scene):
    rules = RULES

    def hp(self, fid: int) -> int:
        return self.by[fid].state["hp"]

    def band(self, a: int, b: int) -> str:
        return distance.between(self.es, self.by[a], self.by[b], OURDND.context())


def scene(*, house: dict | None = None, positions: dict | None = None, first: int = 1) -> Scene:
    """Bram (1), Wren (2), Ash the archer (3) and a goblin (4) at the DM's seat; ``first`` rolls 20."""
    fighters = [
        fighter(1, BRAM, house=house),
        fighter(2, WREN, house=house),
        fighter(3, ARCHER, house=house),
        fighter(4, GOBLIN, npc=True, house=house),
    ]
    faces = [20 if fid == first else 2 for fid in (1, 2, 3, 4)]
    es = {"positions": {str(k): v for k, v in positions.items()}} if positions else {}
    return Scene(fighters, es, faces)


# ------------------------------------------------------------------ the bands


# "CLOSE: from 0 to 1 meter. NEAR: 10 meters approximately. FAR: 20 meters approximately. VERY FAR:
# 40 meters approximately. OUT OF RANGE: beyond 40 or 50 meters." One zone of the line is a NEAR step.
@pytest.mark.parametrize(
    "steps,band",
    [
        (0, "close"),
        (1, "near"),
        (-1, "near"),
        (2, "far"),
        (3, "very_far"),
        (4, "very_far"),
        (5, "out_of_range"),
        (40, "out_of_range"),
    ],
)
def test_the_band_of_a_distance_follows_the_seed_s_measurements(steps, band):
    assert distance.band_of(steps) == band


def test_each_side_starts_together_and_the_sides_start_close_by_house_default():
    s = scene()
    assert s.es["positions"] == {"1": 0, "2": 0, "3": 0, "4": 0}
    assert s.band(1, 4) == "close" and s.band(1, 2) == "close"
    assert (
        "The two sides start CLOSE (house default; the campaign may change it, and the DM places anyone "
        "with Set distance)."
    ) in s.log


def test_a_campaign_s_start_distance_changes_where_the_sides_start():
    s = scene(house={"start_distance": "far"})
    assert s.band(1, 2) == "close" and s.band(1, 4) == "far" and s.band(3, 4) == "far"
    assert "The two sides start FAR (house default;" in " ".join(s.log)


def test_the_row_shows_the_band_to_every_other_combatant():
    s = scene(positions={1: 0, 2: 0, 3: -2, 4: 1})
    details = RULES.summary(s.by[1], s.es)["details"]
    assert [(d["label"], d["value"]) for d in details] == [
        ("Wren", "CLOSE"),
        ("Ash", "FAR"),
        ("Goblin", "NEAR"),
    ]
    assert RULES.summary(s.by[3], s.es)["details_label"] == "Distances"
    assert [d["value"] for d in RULES.summary(s.by[3], s.es)["details"]] == ["FAR", "FAR", "VERY FAR"]


# ------------------------------------------------------------------ what reaches how far

# "CLOSE ... Melee range, sword-fighting distance"; "NEAR ... it's the distance of a hand thrown
# weapon too"; "FAR ... The distance of a basic bowshot"; "VERY FAR ... Longbows or heavy crossbows
# could reach this distance, but hit the target would be HARD"; "OUT OF RANGE ... none of your
# effects can reach."
REACH = [
    # attacker, gear, zones apart, allowed (or the refusal's code)
    (1, "sword", 0, True),
    (1, "sword", 1, "ourdnd.out_of_reach"),
    (1, "bare_hands", 1, "ourdnd.out_of_reach"),
    (2, "dagger", 1, True),
    (2, "dagger", 2, "ourdnd.out_of_reach"),
    (3, "shortbow", 2, True),
    (3, "shortbow", 3, "ourdnd.out_of_reach"),
    (3, "longbow", 4, True),
    (3, "longbow", 5, "ourdnd.out_of_range"),
    (3, "musket", 2, True),
    (3, "musket", 3, "ourdnd.out_of_reach"),  # gunpowder: FAR (house default)
    (2, "fire_staff", 2, True),
    (2, "fire_staff", 4, "ourdnd.out_of_reach"),  # magic: FAR (house default)
]


@pytest.mark.parametrize("who,gear,apart,allowed", REACH)
def test_an_attack_reaches_as_far_as_its_gear_and_no_farther(who, gear, apart, allowed):
    s = scene(positions={1: 0, 2: 0, 3: 0, 4: apart}, first=who)
    stat = {1: "str", 2: "int", 3: "dex"}[who]
    if allowed is True:
        s.act(who, [19, 1] if apart < 3 else [19, 19, 1], action="attempt", stat=stat, target=4, gear=gear)
        assert s.hp(4) == 9
    else:
        s.refused(who, allowed, action="attempt", stat=stat, target=4, gear=gear)


def test_melee_needs_close_and_says_so():
    s = scene(positions={1: 0, 4: 1})
    message = s.refused(1, "ourdnd.out_of_reach", action="attempt", stat="str", target=4, gear="sword")
    assert message == (
        "Melee needs CLOSE (Sword reach no farther), and Goblin is NEAR Bram: move closer first, "
        "or use something that reaches farther."
    )
    message = s.refused(1, "ourdnd.out_of_reach", action="attempt", stat="str", target=4, gear="bare_hands")
    assert message.startswith("Melee needs CLOSE (bare hands reach no farther), and Goblin is NEAR Bram")


def test_a_reach_from_the_house_default_says_so_and_a_campaign_changes_it():
    s = scene(positions={3: 0, 4: 2}, first=3)
    s.act(3, [19, 1], action="attempt", stat="dex", target=4, gear="musket")
    other = scene(house={"reach_by_kind": {"gunpowder": "near"}}, positions={3: 0, 4: 2}, first=3)
    message = other.refused(3, "ourdnd.out_of_reach", action="attempt", stat="dex", target=4, gear="musket")
    assert message.startswith(
        "Musket reaches NEAR (house default; the campaign may change it), and Goblin is FAR from Ash"
    )
    labels = [o["label"] for o in other.spec(3, "attempt").params[2]["options"]]
    assert "Musket (d8, reaches NEAR)" in labels and "Longbow (d8, reaches VERY FAR)" in labels


def test_nothing_reaches_out_of_range():
    s = scene(positions={3: 0, 4: 5}, first=3)
    message = s.refused(3, "ourdnd.out_of_range", action="attempt", stat="dex", target=4, gear="longbow")
    assert message == "Goblin is OUT OF RANGE of Ash: none of Ash's effects can reach OUT OF RANGE."


def test_a_longbow_at_very_far_is_hard_and_easy_cancels_it():
    s = scene(positions={3: 0, 4: 4}, first=3)
    s.act(3, [15, 8], action="attempt", stat="dex", target=4, gear="longbow")  # the lower, 8 + 3 = 11 vs 12
    assert s.hp(4) == 10
    assert s.log[-1] == (
        "Ash's DEX attempt on Goblin (Goblin is VERY FAR: hitting is HARD): 2d20 (hard) 15, 8 → 8 "
        "+ 3 = 11 vs TD 12: failure."
    )
    s.turn(3)
    s.act(3, [9, 6], action="attempt", stat="dex", target=4, gear="longbow", mode="easy")  # one d20: 12, d8 6
    assert s.hp(4) == 4
    assert s.log[-2].endswith("d20 9 + 3 = 12 vs TD 12: success.")
    s.turn(3)
    s.act(
        3, [2, 17], action="attempt", stat="dex", target=4, gear="longbow", mode="hard"
    )  # never a third die
    assert s.log[-1].endswith("2d20 (hard) 2, 17 → 2 + 3 = 5 vs TD 12: failure.")


def test_an_npc_is_held_to_the_same_distances():
    s = scene(positions={1: 0, 4: 2}, first=4)
    s.refused(4, "ourdnd.out_of_reach", action="attempt", stat="str", target=1, gear="dagger")


def test_first_aid_needs_an_ally_who_can_reach_them():
    s = scene(positions={1: 0, 2: 1}, first=2)
    s.act(1, gm=True, action="gm_damage", amount=10)
    message = s.refused(2, "ourdnd.out_of_reach", action="first_aid", target=1, stat="int")
    assert message == (
        "First aid needs an ally who can reach Bram with their hands, and Wren is NEAR Bram: "
        "move CLOSE first."
    )
    s.act(2, action="move_near", target=1, to="close")
    s.act(2, [9], action="first_aid", target=1, stat="int")
    assert s.by[1].state["stable"] is True


# ------------------------------------------------------------------ moves

# "MOVE NEAR + ACTION: Move to get where you're needed at a NEAR distance, then make a roll";
# "MOVE FAR: Use your ENTIRE TURN just to move twice as far as normal"; "VERY FAR: It's impossible
# to get a VERY FAR distance in a turn by normal ways"; "OUT OF RANGE: ... a distance you can't
# reach by any ways in one TURN of movement".
MOVES = [
    # zones apart, move, to, allowed (or the refusal's code), zones apart after
    (1, "near", "close", True, 0),
    (2, "near", "near", True, 1),
    (2, "near", "close", "ourdnd.too_far_to_move", 2),
    (2, "far", "close", True, 0),
    (4, "far", "far", True, 2),
    (4, "far", "near", "ourdnd.too_far_to_move", 4),
    (0, "near", "near", True, 1),
    (0, "far", "far", True, 2),
    (0, "far", "very_far", "ourdnd.too_far_to_move", 0),
    (1, "far", "out_of_range", "ourdnd.too_far_to_move", 1),
    (5, "far", "very_far", True, 4),
]


@pytest.mark.parametrize("apart,move,to,allowed,after", MOVES)
def test_a_move_covers_a_near_or_a_far_distance(apart, move, to, allowed, after):
    s = scene(positions={1: 0, 2: 0, 3: 0, 4: apart})
    if allowed is True:
        out = s.act(1, action=f"move_{move}", target=4, to=to)
        assert out.end_turn is (move == "far")
    else:
        s.refused(1, allowed, action=f"move_{move}", target=4, to=to)
    assert abs(s.es["positions"]["1"] - s.es["positions"]["4"]) == after


def test_the_refusals_of_a_move_say_the_seed_s_words():
    s = scene(positions={1: 0, 4: 2})
    assert s.refused(1, "ourdnd.too_far_to_move", action="move_near", target=4, to="close") == (
        "A NEAR move is a few big steps; getting CLOSE to Goblin is a FAR move for Bram. Move far (the whole "
        "turn) instead, or move near to a nearer spot."
    )
    near = scene(positions={1: 0, 4: 1})
    assert near.refused(1, "ourdnd.too_far_to_move", action="move_far", target=4, to="very_far") == (
        "It's impossible to get a VERY FAR distance in a turn by normal ways: getting VERY FAR from Goblin is a "
        "VERY FAR move for Bram, and moving FAR is as far as a turn goes."
    )
    close = scene()
    assert close.refused(1, "ourdnd.too_far_to_move", action="move_far", target=4, to="out_of_range") == (
        "Getting OUT OF RANGE of Goblin is OUT OF RANGE for Bram: a distance you can't reach by any ways in one "
        "TURN of movement."
    )


def test_move_near_then_strike_in_melee():
    s = scene(positions={1: 0, 4: 1})
    s.act(1, action="move_near", target=4, to="close")
    assert s.log[-1] == "Bram moves near: now CLOSE to Goblin."
    assert s.band(1, 4) == "close" and s.band(1, 2) == "near"  # Wren stayed where she was
    s.act(1, [15, 4], action="attempt", stat="str", target=4, gear="sword")
    assert s.hp(4) == 6


def test_a_move_away_from_someone_sharing_the_zone_goes_towards_one_s_own_side():
    s = scene()
    s.act(1, action="move_far", target=4, to="far")
    assert s.es["positions"]["1"] == -2 and s.band(1, 4) == "far"


def test_a_move_without_anyone_to_measure_from_changes_no_band():
    s = scene(positions={1: 0, 4: 1})
    s.act(1, action="move_near")
    assert s.log[-1] == "Bram moves near." and s.es["positions"] == {"1": 0, "2": 0, "3": 0, "4": 1}
    s.refused(1, "ourdnd.already_moved", action="move_near", target=4, to="close")


def test_a_bad_distance_or_oneself_is_refused():
    s = scene()
    s.refused(1, "ourdnd.invalid_distance", action="move_near", target=4, to="next door")
    s.refused(1, "combat.invalid_target", action="move_near", target=1, to="near")


def test_the_dm_places_a_combatant_and_every_band_follows():
    s = scene()
    assert s.spec(4, "set_distance").gm
    s.act(4, gm=True, action="set_distance", target=1, to="very_far")
    assert s.log[-1] == "DM: Goblin is now VERY FAR from Bram."
    assert s.band(4, 1) == "very_far" and s.band(4, 2) == "very_far" and s.band(1, 2) == "close"


def test_a_newcomer_joins_its_side():
    s = scene(positions={1: 0, 2: 0, 3: 0, 4: 3})
    rat = fighter(5, {**GOBLIN, "name": "Rat"}, npc=True)
    out = RULES.join(rat, [*s.fighters, rat], s.es, combat_helpers.FixedRoller([]))
    assert out.encounter_state["positions"]["5"] == 3 and out.encounter_state["names"]["5"] == "Rat"


def test_a_combatant_taken_out_is_forgotten_at_the_next_turn():
    s = scene()
    s.fighters.pop()  # the DM removes the goblin
    s.turn(1)
    assert "4" not in s.es["positions"] and "4" not in s.es["names"]
    assert [d["label"] for d in RULES.summary(s.by[1], s.es)["details"]] == ["Wren", "Ash"]


# ------------------------------------------------------------------ homebrew


def test_homebrew_gear_names_its_reach_or_takes_its_kind_s():
    from rulesets.engine import validate
    from tests.rulesets.report_helpers import warnings

    bad = {"gear": [{"id": "sling", "name": "Sling", "effort": "d6", "reach": "miles"}]}
    report = validate({**ARCHER, "gear": [{"item": "sling"}]}, homebrew=bad)
    assert ("homebrew.malformed", "/gear/0/reach") in warnings(report)
    ctx = OURDND.context(
        None,
        {
            "gear": [
                {"id": "sling", "name": "Sling", "effort": "d6", "reach": "near"},
                {"id": "wand", "name": "Wand", "kind": "magic", "effort": "d10"},
            ]
        },
    )
    assert distance.reach(ctx.catalogue["gear"]["sling"], ctx) == ("near", False)
    assert distance.reach(ctx.catalogue["gear"]["wand"], ctx) == ("far", True)


# ------------------------------------------------------------------ house rules


@pytest.mark.parametrize(
    "house,paths",
    [
        ({"start_distance": "near", "reach_by_kind": {"magic": "very_far"}}, []),
        ({"start_distance": "next door"}, ["/start_distance"]),
        (
            {"reach_by_kind": {"magic": "out_of_range", "gunpowder": "miles"}},
            ["/reach_by_kind/magic", "/reach_by_kind/gunpowder"],
        ),
    ],
)
def test_a_campaign_s_distance_house_rules_name_bands_the_rules_know(house, paths):
    assert [(i.code, i.path) for i in OURDND.check_settings(house)] == [
        ("settings.malformed", p) for p in paths
    ]
