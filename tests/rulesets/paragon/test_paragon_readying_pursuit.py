"""Paragon's readying weapons (RULES.md W7) and pursuit after a retreat (W8), from the seed's words,
through the combat hooks with fixed dice, the odds door (exact: every face enumerated) and the
encounter page."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from combat import services
from rulesets.engine import FixedRoller
from tests.rulesets.paragon.test_paragon_combat import AREN, HESK, RULES, Fight, duel, fighter
from tests.rulesets.paragon.test_paragon_powers import duel as page_duel  # noqa: F401 (a fixture)
from tests.rulesets.test_cli import rules

# ------------------------------------------------------------------ W7: readying weapons


def test_alert_combatants_begin_at_the_ready_and_the_surprised_sheathed():
    # "alert combatants may begin a battle with their weapons at the ready"; the surprised "may be
    # forced to begin the battle without readied weapons" (house default: they are).
    fight = duel(surprised=[2])
    assert fight.by[1].combat["drawn"] is True and fight.by[2].combat["drawn"] is False
    assert "Old begins the battle with weapons sheathed." in fight.log
    assert "weapon sheathed" in RULES.summary(fight.by[2], fight.es)["status"]


def test_the_house_rule_lets_the_surprised_begin_at_the_ready():
    house = {"surprised_start_sheathed": False}
    aren, hesk = fighter(1, AREN), fighter(2, HESK, npc=True)
    aren.report = RULES.ruleset.validate(AREN, settings=house)
    hesk.report = RULES.ruleset.validate(HESK, settings=house, phase="npc")
    fight = Fight([aren, hesk], {"surprised": [2]}, [8, 4, 6, 3, 5, 1])
    assert fight.by[2].combat["drawn"] is True


def test_a_sheathed_weapon_cannot_strike_until_drawn_and_drawing_is_free_once_a_round():
    fight = duel(sheathed=[1])
    assert fight.by[1].combat["drawn"] is False
    fight.act(1, action="engage", target=2, kind="melee")
    fight.refused(1, "paragon.weapon_sheathed", action="strike", skill="melee", weapon="strong")
    # "without it counting as their action for the round": the exchange is still Aren's to strike in.
    out = fight.act(1, action="ready")
    assert not out.end_turn and fight.by[1].combat["drawn"] is True
    assert fight.log[-1] == "Aren draws their weapon (free, once a round)."
    fight.act(1, [10, 4, 4], action="strike", skill="melee", weapon="strong")
    assert fight.es["threat"]["weapon"] == "strong"


def test_draw_and_sheathe_once_each_a_round_even_outside_the_turn():
    fight = duel()
    # "They may even do so outside their own turn": Hesk sheathes and draws on Aren's turn.
    assert fight.spec(2, "ready").label == "Sheathe the weapon"
    fight.act(2, action="ready")
    fight.act(2, action="ready")
    assert fight.by[2].combat["drawn"] is True and fight.by[2].combat["readied"] == ["draw", "sheathe"]
    assert fight.spec(2, "ready").code == "paragon.readied_this_round"
    fight.refused(2, "paragon.readied_this_round", action="ready")
    fight.apply(RULES.round_start(fight.fighters, fight.es, 2, FixedRoller([])))
    assert fight.by[2].combat["readied"] == [] and fight.spec(2, "ready").allowed


def test_the_gm_sets_a_weapon_sheathed_in_the_opening_only():
    fight = duel()
    fight.act(2, gm=True, action="gm_sheathed")
    assert fight.by[2].combat["drawn"] is False
    assert fight.log[-1] == "GM: Old begins the battle with their weapon sheathed."
    fight.act(1, action="engage", target=2, kind="melee")
    assert fight.spec(2, "gm_sheathed").code == "paragon.not_opening"


def test_a_surprised_fighter_cannot_draw_in_the_surprise_round():
    fight = duel(surprised=[2])
    assert fight.spec(2, "ready").code == "paragon.surprised"


# ------------------------------------------------------------------ W8: pursuit


def _hesk_retreats() -> Fight:
    fight = duel(footing={"2": "rearward"})
    fight.turn(2)
    fight.act(2, action="retreat")
    fight.turn(1)
    return fight


def test_pursuit_is_opposed_athletics_ties_rerolled_and_the_pursuer_catches():
    fight = _hesk_retreats()
    spec = fight.spec(1, "pursue")
    assert spec.allowed
    # Aren: Fire 2, Athletics 1 (d12!+2d6+2); Hesk: Fire 2, Athletics 0 (d12!+2d6).
    assert spec.odds == {
        "force": 2,
        "skill": 1,
        "against": "opposed",
        "opponent_force": 2,
        "opponent_skill": 0,
    }
    # A tie first (Aren 5+1,1+2 = 9, Hesk 5+2,2 = 9): rolled again, Aren 8+3,3+2 = 16 vs Hesk 4+1,1 = 6.
    out = fight.act(1, [5, 1, 1, 5, 2, 2, 8, 3, 3, 4, 1, 1], action="pursue", target=2)
    assert out.end_turn
    assert "(after 1 tie rerolled): wins" in fight.log[-2]
    assert fight.log[-1] == "Aren catches Old: the retreat fails and they fight on."
    assert fight.by[2].combat["retreating"] is False and not fight.by[2].combat.get("retreated")
    assert not fight.by[1].combat.get("retreated")


def test_an_escaped_quarry_and_its_pursuer_both_quit_the_field():
    # "Enemies may choose to pursue a retreating character, though that requires them to retreat
    # from battle themselves."
    fight = _hesk_retreats()
    fight.act(1, [1, 1, 1, 9, 6, 6], action="pursue", target=2, skill="athletics", quarry_skill="cavalry")
    assert "Athletics (on foot) against Cavalry (mounted)" in fight.log[-2]
    assert fight.log[-1] == "Old escapes Aren: both have quit the field."
    assert fight.by[1].combat["retreated"] is True and fight.by[2].combat["retreated"] is True


def test_a_much_faster_side_wins_outright_by_the_gms_word():
    # "The contest of a pursuit is automatically won by a character that moves significantly faster."
    fight = _hesk_retreats()
    fight.act(1, gm=True, action="gm_pursuit", target=2, winner="quarry")
    assert fight.log[-2] == "GM: Old moves much faster and wins the pursuit outright."
    assert fight.by[2].combat["retreated"] is True


def test_there_is_no_pursuit_without_a_retreat():
    fight = duel()
    assert fight.spec(1, "pursue").code == "paragon.no_retreat"
    fight.refused(1, "paragon.no_retreat", action="pursue", target=2)
    assert fight.spec(1, "gm_pursuit").code == "paragon.no_retreat"


def _exploding_d12(depth: int = 9) -> dict[int, Fraction]:
    """d12 exploding on 12, every face to ``depth`` rolls (the rest below 12**-9)."""
    out: dict[int, Fraction] = {}
    for n in range(depth):
        for face in range(1, 12):
            out[12 * n + face] = Fraction(1, 12 ** (n + 1))
    return out


def _check(force: int, skill: int) -> dict[int, Fraction]:
    dist = _exploding_d12()
    for _ in range(force):
        nxt: dict[int, Fraction] = {}
        for t, p in dist.items():
            for face in range(1, 7):
                nxt[t + face] = nxt.get(t + face, Fraction(0)) + p / 6
        dist = nxt
    return {t + 2 * skill: p for t, p in dist.items()}


def _win(mine: dict[int, Fraction], theirs: dict[int, Fraction]) -> float:
    win = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a > b)
    tie = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a == b)
    return float(win / (1 - tie))


@pytest.mark.parametrize(("mine", "theirs"), [((2, 1), (2, 0)), ((2, 0), (2, 3)), ((1, 0), (4, 2))])
def test_the_odds_door_answers_a_pursuit_exactly(db, mine, theirs):
    request = {
        "force": mine[0],
        "skill": mine[1],
        "against": "opposed",
        "opponent_force": theirs[0],
        "opponent_skill": theirs[1],
    }
    expected = _win(_check(*mine), _check(*theirs))
    body = APIClient().post("/api/v1/rulesets/paragon/odds/", request, format="json").json()
    assert body["pass"] == pytest.approx(expected, abs=1e-9)
    code, [answer] = rules("odds", "paragon", __import__("json").dumps(request))
    assert code == 0 and answer["pass"] == pytest.approx(expected, abs=1e-9)


def test_the_encounter_page_offers_pursuit_with_its_odds(client, page_duel):  # noqa: F811
    e, gm, hesk, aren = page_duel["e"], page_duel["gm"], page_duel["hesk"], page_duel["aren"]
    services.encounter_next_turn(encounter=e, user=gm)
    services.encounter_act(
        encounter=e, user=gm, combatant_id=hesk.pk, action={"action": "footing", "forgo": False}
    )
    services.encounter_act(encounter=e, user=gm, combatant_id=hesk.pk, action={"action": "retreat"})
    e.refresh_from_db()
    client.force_login(page_duel["player"])
    html = client.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    assert "Pursue a retreating foe" in html and "Cavalry (mounted)" in html
    assert "Sheathe the weapon" in html and "Draw the weapon" not in html  # Aren began alert: drawn
    services.encounter_act(
        encounter=e,
        user=page_duel["player"],
        combatant_id=aren.pk,
        action={"action": "pursue", "target": hesk.pk},
        roller=FixedRoller([11, 6, 6, 1, 1, 1]),
    )
    hesk.refresh_from_db()
    assert hesk.combat["retreating"] is False


def test_the_party_odds_answer_who_would_win_a_pursuit(table):
    """The GM's screen: every character's Athletics against a fleeing foe's (2 force dice, rank 0),
    exactly, as the party's odds door puts the table's numbers in."""
    from tests.characters.sheet.test_sheet_fixtures import character_at_table
    from tests.factories import api_client
    from tests.rulesets.paragon.test_paragon_powers import AREN as BUILD

    character = character_at_table(table, "paragon", build=BUILD)
    body = (
        api_client(table["gm"])
        .post(
            f"/api/v1/campaigns/{character.campaign_id}/party-odds/",
            {
                "rollable": "skill:athletics",
                "table": {"against": "opposed", "opponent_force": 2, "opponent_skill": 0},
            },
            format="json",
        )
        .json()
    )
    assert "characters" in body, body
    [row] = body["characters"]
    # CONTRACT.md's "opposed" is the form's "opposed_roll" (content/odds_form.json "aliases").
    assert row["request"] == {
        "force": 2,
        "skill": 1,
        "tn": 12,  # the roll's own TN, which an opposed roll leaves aside
        "against": "opposed_roll",
        "opponent_force": 2,
        "opponent_skill": 0,
    }
    assert row["success"] == pytest.approx(_win(_check(2, 1), _check(2, 0)), abs=1e-9)
