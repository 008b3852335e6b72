"""Opposed rolls (RULES.md W15; seed "THE TARGET DIFFICULTY": "THE EXCEPTIONS are … confronted / opposed
rolls: higer result wins"; CONTRACT.md: ``{"stat", "against": "opposed", "opponent_stat", "mode"?,
"opponent_mode"?}`` → ``{"win", "lose"}``, each side d20 + stat in its own mode, ties rerolled, exact)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

import pytest

from rulesets.engine import FixedRoller, OddsError, odds
from rulesets.systems.ourdnd import RULESET as OURDND
from tests.rulesets.ourdnd.test_ourdnd_combat import party


def kept(mode):
    """Each kept d20 face with its chance, by listing every roll (1 die, or 2 for easy and hard)."""
    if mode == "normal":
        return {f: Fraction(1, 20) for f in range(1, 21)}
    out: dict[int, Fraction] = {}
    for a, b in itertools.product(range(1, 21), repeat=2):
        face = max(a, b) if mode == "easy" else min(a, b)
        out[face] = out.get(face, 0) + Fraction(1, 400)
    return out


def by_listing(stat, mode, other, other_mode):
    win = lose = Fraction(0)
    for (a, p), (b, q) in itertools.product(kept(mode).items(), kept(other_mode).items()):
        if a + stat > b + other:
            win += p * q
        elif a + stat < b + other:
            lose += p * q
    return win / (win + lose)


@pytest.mark.parametrize(
    "stat, mode, other, other_mode",
    [
        (2, "normal", 2, "normal"),
        (3, "normal", 0, "normal"),
        (3, "hard", 0, "easy"),
        (0, "easy", 6, "normal"),
        (-2, "hard", 1, "hard"),
        (10, "normal", -10, "normal"),
    ],
)
def test_the_odds_are_exact_and_ties_are_rolled_again(stat, mode, other, other_mode):
    answer = odds(
        "ourdnd",
        {
            "stat": stat,
            "mode": mode,
            "against": "opposed",
            "opponent_stat": other,
            "opponent_mode": other_mode,
        },
    )
    assert set(answer) == {"win", "lose"}
    assert answer["win"] == pytest.approx(float(by_listing(stat, mode, other, other_mode)), abs=1e-12)
    assert answer["win"] + answer["lose"] == pytest.approx(1, abs=1e-12)


def test_plus_three_against_nothing_wins_247_of_383():
    # 400 pairs of d20s: 247 where d20 + 3 is higher, 17 ties (rolled again), 136 lower.
    answer = odds("ourdnd", {"stat": 3, "against": "opposed", "opponent_stat": 0})
    assert answer["win"] == pytest.approx(247 / 383, abs=1e-12)
    assert OURDND.success(answer) == answer["win"]  # CONTRACT.md: its Success is win


@pytest.mark.parametrize(
    "request_",
    [
        {"stat": 1, "against": "opposed"},
        {"stat": 1, "against": "opposed", "opponent_stat": "two"},
        {"stat": 1, "against": "opposed", "opponent_stat": 2, "opponent_mode": "lucky"},
        {"stat": 1, "against": "versus", "opponent_stat": 2},
    ],
)
def test_a_bad_opposed_request_is_refused(request_):
    with pytest.raises(OddsError):
        odds("ourdnd", request_)


def test_the_command_line_answers_it():
    got = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "rules",
            "odds",
            "ourdnd",
            '{"stat": 3, "against": "opposed", "opponent_stat": 0}',
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(got.stdout)["win"] == pytest.approx(247 / 383, abs=1e-12)


def test_a_roll_rerolls_a_tie_and_the_higher_total_wins():
    roll = OURDND.roll({"stat": 2, "against": "opposed", "opponent_stat": 1}, FixedRoller([10, 11, 5, 3]))
    assert roll["faces"] == [10, 11, 5, 3]
    assert roll["outcome"] == "win"
    assert (
        roll["text"]
        == "10 + 2 = 12 against 11 + 1 = 12; tie, rolled again: 5 + 2 = 7 against 3 + 1 = 4: wins."
    )


def test_two_combatants_roll_against_each_other_on_the_encounter_page():
    scene = party()  # Bram (str 2) on his turn; the goblin (str 1)
    spec = next(
        s for s in scene.rules.actions(scene.by[1], scene.fighters, scene.es, current=1) if s.id == "opposed"
    )
    assert spec.allowed and spec.target == "any"
    assert [p["id"] for p in spec.params] == ["stat", "mode", "opponent_stat", "opponent_mode"]
    scene.act(1, [4, 9], action="opposed", target=3, stat="str", opponent_stat="str")
    assert scene.log[-1] == (
        "Bram (STR) against Goblin (STR), higher result wins: 4 + 2 = 6 against 9 + 1 = 10. "
        f"Goblin wins ({round(by_listing(2, 'normal', 1, 'normal') * 100)}% for Bram)."
    )
    assert scene.by[1].combat["acted"] is True
    scene.refused(1, "ourdnd.already_acted", action="opposed", target=3)


@pytest.mark.django_db
def test_the_odds_door_answers_an_opposed_request(client):
    got = client.post(
        "/api/v1/rulesets/ourdnd/odds/",
        {"stat": 3, "against": "opposed", "opponent_stat": 0, "opponent_mode": "hard"},
        content_type="application/json",
    )
    assert got.status_code == 200, got.content
    assert got.json()["win"] == pytest.approx(float(by_listing(3, "normal", 0, "hard")), abs=1e-12)


def _arm_wrestle():
    """Bram (the player's, STR 2) and a goblin (STR 1) in a running encounter, Bram's turn."""
    from combat import services
    from tests.characters.sheet.test_sheet_fixtures import make_character
    from tests.factories import make_campaign, make_user
    from tests.rulesets.ourdnd.test_ourdnd_fight import BRAM, GOBLIN

    gm, player = make_user("gm"), make_user("player")
    campaign = make_campaign(gm=gm, ruleset="ourdnd", players=[player])
    bram = make_character(ruleset="ourdnd", owner=player, campaign=campaign, build=BRAM)
    e = services.encounter_create(campaign=campaign, user=gm, name="The arm-wrestle")
    c_bram = services.encounter_add_combatant(encounter=e, user=gm, character=bram)[0]
    (goblin,) = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([15, 9]))
    return gm, player, bram, e, c_bram, goblin


@pytest.mark.django_db
def test_the_encounter_page_offers_the_opposed_roll_and_the_player_rolls_it(client):
    from combat import services
    from tests.combat.helpers import event_texts

    gm, player, bram, e, c_bram, goblin = _arm_wrestle()
    client.force_login(player)
    page = client.get(f"/encounters/{e.pk}/").content.decode()
    assert "Opposed roll (higher result wins)" in page
    services.encounter_act(
        encounter=e,
        user=player,
        combatant_id=c_bram.pk,
        action={"action": "opposed", "target": goblin.pk, "stat": "str", "opponent_stat": "str"},
        roller=FixedRoller([12, 13, 15, 3]),
    )
    e.refresh_from_db()
    win = round(by_listing(2, "normal", 1, "normal") * 100)
    assert event_texts(e)[-1] == (
        f"{bram.name} (STR) against Goblin (STR), higher result wins: 12 + 2 = 14 against 13 + 1 = 14; "
        f"tie, rolled again: 15 + 2 = 17 against 3 + 1 = 4. {bram.name} wins ({win}% for {bram.name})."
    )


@pytest.mark.django_db
def test_their_stat_left_as_the_form_offers_it_is_the_same_as_the_actors_on_the_page_and_the_api(client):
    """The page's "Their stat" and the API's absent ``opponent_stat`` mean one thing: the actor's
    stat (a DEX contest is DEX against DEX). The page offered the actor's best stat instead, so a
    player who picked DEX rolled DEX against the goblin's STR, where the API rolled DEX against DEX."""
    import re

    from django.urls import reverse

    from combat import services
    from tests.combat.helpers import event_texts
    from tests.factories import api_client

    gm, player, bram, e, c_bram, goblin = _arm_wrestle()
    client.force_login(player)
    page = client.get(reverse("encounter_detail", args=[e.pk])).content.decode()
    start = page.index(f'data-action="opposed" data-fighter="{c_bram.pk}"')
    form = page[start : page.index("</form>", start)]
    their = re.search(r'<select name="opponent_stat"[^>]*>(.*?)</select>', form, re.S).group(1)
    assert re.findall(r"<option[^>]*>([^<]*)</option>", their)[:2] == ["The same as yours", "STR"]
    assert re.search(r'<option value="" selected>The same as yours</option>', their)

    # The page's form as the player sends it: DEX chosen, their stat left as offered.
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', form))
    fields.update(
        {"target": goblin.pk, "stat": "dex", "mode": "normal", "opponent_stat": "", "opponent_mode": "normal"}
    )
    answer = client.post(reverse("encounter_act", args=[e.pk]), fields, HTTP_HX_REQUEST="true")
    assert answer.status_code == 204, answer.content
    e.refresh_from_db()
    assert event_texts(e)[-1].startswith(f"{bram.name} (DEX) against Goblin (DEX), higher result wins:")

    # The API, on the next round: the same action with no opponent_stat reads the same.
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([]))
    services.encounter_next_turn(encounter=e, user=gm, roller=FixedRoller([15, 9]))
    e.refresh_from_db()
    got = api_client(player).post(
        f"/api/v1/encounters/{e.pk}/actions/",
        {"combatant": c_bram.pk, "action": "opposed", "target": goblin.pk, "stat": "dex"},
        format="json",
    )
    assert got.status_code in (200, 201), got.content
    e.refresh_from_db()
    assert event_texts(e)[-1].startswith(f"{bram.name} (DEX) against Goblin (DEX), higher result wins:")
