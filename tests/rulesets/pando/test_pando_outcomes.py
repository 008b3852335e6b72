"""Pando's outcomes (RULES.md amendment W1) from the rulebook's words, through the catalogue, the
homebrew page and the encounter's ``spend`` action (CONTRACT.md "The whole rulebook").

Seed 000: "Each action has a related list of Outcomes possible for that action … Efficiency is a point
system that lets you choose outcomes for the action, with different outcomes costing different
amounts of Efficiency", and "After rolling, the player taking the action selects an outcome with a
cost equal to or less than the roll's EP. Only one outcome can be selected, even if the roll
generated enough EP to select multiple. The exception to this rule are outcomes marked as
chainable. Those outcomes can be used multiple times, and in addition to other outcomes (even
non-chainable outcomes)."
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from itertools import product

import pytest
from django.urls import reverse

from characters.models import Campaign, RollLog
from combat import services
from combat.models import Combatant, Encounter
from combat.selectors import encounter_fight
from rulesets.engine.dice import FixedRoller
from rulesets.systems.pando import RULESET
from rulesets.systems.pando import outcomes as oc
from rulesets.systems.pando.dice import efficiency_odds
from tests.combat.helpers import event_texts, refused, snapshot
from tests.factories import api_client, make_campaign, make_user
from tests.rulesets.pando.fight_table import GOBLIN, PABLO, table  # noqa: F401 (Pando's combat table)

pytestmark = pytest.mark.django_db

FEINT = {
    "id": "feint",
    "name": "Feint",
    "cost": 2,
    "chainable": False,
    "text": "The foe lunges at nothing: the GM gives the next ally's attack +1 EP.",
    "actions": ["strike"],
}


# ------------------------------------------------------------------ the data


def test_the_catalogue_lists_each_actions_and_items_outcomes_with_the_house_defaults(client):
    """W1: every strike has Hit (1, harm 1, chainable), Knock prone (3, Prone), Disarm (3); Cause
    bleeding (2, Bleeding 1) on "weapons whose harm is slashing or piercing"."""
    body = client.get("/api/v1/rulesets/pando/").json()
    actions = {a["id"]: a for a in body["catalogue"]["actions"]}
    items = {i["id"]: i for i in body["catalogue"]["items"]}
    assert all(isinstance(entry["outcomes"], list) for entry in [*actions.values(), *items.values()])
    strike = [(o["id"], o["name"], o["cost"], o["chainable"]) for o in actions["strike"]["outcomes"]]
    assert strike == [
        ("hit", "Hit", 1, True),
        ("knock_prone", "Knock prone", 3, False),
        ("disarm", "Disarm", 3, False),
    ]
    hit, prone, disarm = actions["strike"]["outcomes"]
    assert hit["harm"] == 1 and prone["effect"] == "prone" and disarm["disarm"] is True
    assert all(o["house_default"] for o in actions["strike"]["outcomes"])
    bleeding = {"id": "cause_bleeding", "cost": 2, "chainable": False, "effect": "bleeding", "value": 1}
    for weapon in ("longsword", "rapier", "dagger", "compound_bow"):  # slashing or piercing
        [o] = items[weapon]["outcomes"]
        assert {k: o[k] for k in bleeding} == bleeding
    assert items["warhammer"]["outcomes"] == []  # crushing: no bleeding
    assert actions["move"]["outcomes"] == [] and items["hauberk"]["outcomes"] == []
    assert "outcomes" in body["homebrew_kinds"]


def test_prone_is_a_named_house_default_effect():
    prone = RULESET.effect_catalogue()["prone"]
    assert prone.name == "Prone" and prone.house_default and not prone.valued
    assert "until a move action stands" in prone.text


def test_homebrew_outcomes_join_the_actions_they_name_and_replace_a_house_default_by_id():
    """ "players and GMs are free (and encouraged) to add their own"."""
    dearer_hit = {"id": "hit", "name": "Hit", "cost": 2, "chainable": True, "harm": 1, "text": "Tough hides."}
    ctx = RULESET.context({}, {"outcomes": [FEINT, dearer_hit, {**FEINT, "id": "bad", "cost": -1}]})
    strike = {o["id"]: o for o in ctx.catalogue["actions"]["strike"]["outcomes"]}
    assert list(strike) == ["hit", "knock_prone", "disarm", "feint"]
    assert strike["hit"]["cost"] == 2 and strike["feint"]["homebrew"] is True
    assert [(i.code, i.path) for i in ctx.issues] == [("homebrew.malformed", "/outcomes/2/cost")]
    assert RULESET.catalogue["actions"]["strike"]["outcomes"][0]["cost"] == 1  # the defaults untouched


def test_the_gm_adds_an_outcome_through_the_homebrew_page_and_a_strike_offers_it(client, fight):
    client.force_login(fight["gm"])
    page = reverse("campaign_homebrew", args=[fight["campaign"].pk])
    response = client.post(page, {"kind-outcomes": json.dumps([FEINT])})
    assert response.status_code in (200, 302)
    fight["campaign"].refresh_from_db()
    assert fight["campaign"].homebrew["outcomes"][0]["id"] == "feint"
    e = strike(fight, [1, 1, 1])
    assert [o["id"] for o in e.state["attack"]["outcomes"]] == [
        "hit",
        "knock_prone",
        "disarm",
        "feint",
        "cause_bleeding",
    ]
    spend(fight, [{"id": "feint"}])
    assert event_texts(e)[-1] == ("Pablo spends 2 EP: Feint (2 EP) on Goblin. 1 EP left to spend.")


# ------------------------------------------------------------------ spending in the encounter


@pytest.fixture
def fight(table):  # noqa: F811
    """Pablo (longsword: coordination 3d6 against blades, the shield on his left) against a Goblin
    (a dagger in its right hand), started; Pablo's turn (Momentum 5 against 3)."""
    gm = table["gm"]
    e = services.encounter_create(campaign=table["campaign"], user=gm, name="Ford")
    pablo = services.encounter_add_combatant(encounter=e, user=gm, character=table["pablo"])[0]
    goblin = services.encounter_add_combatant(encounter=e, user=gm, name="Goblin", build=GOBLIN)[0]
    services.encounter_start(encounter=e, user=gm, roller=FixedRoller([]))
    e.refresh_from_db()
    assert e.order[e.turn] == pablo.pk
    return {**table, "e": e, "c_pablo": pablo, "c_goblin": goblin}


def strike(fight, faces) -> Encounter:
    e = fight["e"]
    services.encounter_act(
        encounter=e,
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "strike:0", "target": fight["c_goblin"].pk},
        roller=FixedRoller(list(faces)),
    )
    e.refresh_from_db()
    return e


def spend(fight, outcomes, user=None, **more) -> Encounter:
    e = fight["e"]
    services.encounter_act(
        encounter=e,
        user=user or fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", "outcomes": outcomes, **more},
    )
    e.refresh_from_db()
    return e


def goblin(fight) -> Combatant:
    return Combatant.objects.get(pk=fight["c_goblin"].pk)


def test_a_spend_buys_one_outcome_and_chainable_hits_and_the_log_names_them(fight):
    """A non-chainable outcome "in addition to" a chainable one: Cause bleeding (2) and Hit (1) of 3 EP."""
    e = strike(fight, [1, 1, 1])
    assert e.state["attack"]["ep"] == 3
    e = spend(fight, [{"id": "cause_bleeding"}, {"id": "hit", "body_part": "legs"}])
    g = goblin(fight)
    assert g.state["harm"]["legs"] == 1
    assert g.state["exhaustion"] == [{"type": "bleeding", "amount": 1}]
    assert [(x["effect"], x["name"]) for x in g.state["effects"]] == [("bleeding", "Bleeding 1")]
    assert "attack" not in e.state  # all 3 EP spent
    text = event_texts(e)[-1]
    assert text.startswith("Pablo spends 3 EP: Cause bleeding (2 EP) on Goblin")
    assert "Hit (1 EP) on Goblin: Goblin takes 1 harm to the legs" in text


def test_chainable_hits_are_taken_several_times_and_what_is_left_stays_to_spend(fight):
    strike(fight, [1, 1, 1])
    e = spend(fight, [{"id": "hit", "times": 2, "body_part": "torso"}])
    assert goblin(fight).state["harm"]["torso"] == 2
    assert e.state["attack"]["ep"] == 1 and e.state["attack"]["main_taken"] is False
    assert event_texts(e)[-1].endswith("1 EP left to spend.")


def test_the_api_spend_answers_with_the_log_naming_what_was_bought(fight):
    strike(fight, [1, 1, 6])
    player = api_client(fight["player"])
    r = player.post(
        f"/api/v1/encounters/{fight['e'].pk}/actions/",
        {
            "combatant": fight["c_pablo"].pk,
            "action": "spend",
            "outcomes": [{"id": "hit", "times": 2, "body_part": "legs"}],
        },
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["log"][-1]["text"].startswith("Pablo spends 2 EP: Hit ×2 (2 EP) on Goblin")
    assert "attack" not in r.json()["state"]
    # The table's feed has it too, in the same words (a note: no dice were rolled by the spend).
    note = RollLog.objects.filter(campaign=fight["campaign"]).order_by("-pk").first()
    assert note.result["note"] is True and note.result["text"] == r.json()["log"][-1]["text"]


def test_another_player_may_not_spend_pablos_roll_and_the_gm_may(fight):
    strike(fight, [1, 1, 1])
    r = api_client(fight["other"]).post(
        f"/api/v1/encounters/{fight['e'].pk}/actions/",
        {
            "combatant": fight["c_pablo"].pk,
            "action": "spend",
            "outcomes": [{"id": "hit", "body_part": "legs"}],
        },
        format="json",
    )
    assert r.status_code == 403
    e = spend(fight, [{"id": "hit", "body_part": "legs"}], user=fight["gm"])
    assert e.state["attack"]["ep"] == 2


@pytest.mark.parametrize(
    ("outcomes", "code"),
    [
        ([{"id": "fireball"}], "pando.outcome_unknown"),
        ([], "pando.outcome_unknown"),
        ([{"id": "knock_prone"}, {"id": "disarm"}], "pando.outcome_not_chainable"),
        ([{"id": "knock_prone", "times": 2}], "pando.outcome_not_chainable"),
        ([{"id": "hit", "times": 4, "body_part": "legs"}], "pando.ep_exceeded"),
        ([{"id": "knock_prone"}, {"id": "hit", "body_part": "legs"}], "pando.ep_exceeded"),
    ],
)
def test_a_refused_spend_changes_nothing_and_the_ep_stay(fight, outcomes, code):
    strike(fight, [1, 1, 1])
    before = snapshot(fight["e"])
    refused(
        code,
        services.encounter_act,
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", "outcomes": outcomes},
    )
    assert snapshot(fight["e"]) == before
    assert fight["e"].state["attack"]["ep"] == 3


def test_a_second_outcome_that_is_not_chainable_is_refused_after_the_first_was_bought(fight):
    """ "Only one outcome can be selected": spent in two goes, still one."""
    strike(fight, [1, 1, 1])
    spend(fight, [{"id": "cause_bleeding"}])
    refused(
        "pando.outcome_not_chainable",
        services.encounter_act,
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", "outcomes": [{"id": "disarm"}]},
    )
    e = spend(fight, [{"id": "hit", "body_part": "legs"}])  # a chainable one still may
    assert "attack" not in e.state


def test_nothing_to_spend_is_refused_in_the_api_with_422(fight):
    r = api_client(fight["player"]).post(
        f"/api/v1/encounters/{fight['e'].pk}/actions/",
        {"combatant": fight["c_pablo"].pk, "action": "spend", "outcomes": [{"id": "hit"}]},
        format="json",
    )
    assert r.status_code == 422
    assert r.json()["errors"][0]["code"] == "pando.no_roll_to_spend"
    assert "has no EP to spend" in r.json()["detail"]


def test_unspent_ep_are_lost_when_the_roller_acts_again(fight):
    """W1: "EP not spent when the roller takes another action or their turn ends is lost"."""
    strike(fight, [1, 1, 1])
    services.encounter_act(
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "move"},
    )
    e = fight["e"]
    e.refresh_from_db()
    assert "attack" not in e.state
    assert event_texts(e)[-2:] == ["Pablo's unspent 3 EP are lost.", "Pablo moves, −1 speed."]
    refused(
        "pando.no_roll_to_spend",
        services.encounter_act,
        encounter=e,
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "spend", "outcomes": [{"id": "hit", "body_part": "legs"}]},
    )


def test_harm_stays_a_spend_of_hit(fight):
    strike(fight, [1, 1, 6])
    services.encounter_act(
        encounter=fight["e"],
        user=fight["player"],
        combatant_id=fight["c_pablo"].pk,
        action={"action": "harm", "body_part": "legs", "amount": 2},
    )
    assert goblin(fight).state["harm"]["legs"] == 2


def test_knock_prone_takes_a_die_off_coordination_until_a_move_stands_up(fight):
    strike(fight, [1, 1, 1])
    spend(fight, [{"id": "knock_prone"}])
    g = goblin(fight)
    assert [x["effect"] for x in g.state["effects"]] == ["prone"]
    e = fight["e"]
    rules = RULESET.combat()
    fighters = encounter_fight(encounter=e).fighters
    me = next(f for f in fighters if f.id == g.pk)
    specs = {s.id: s for s in rules.actions(me, fighters, e.state, current=me.id)}
    assert specs["strike:0"].odds == {"dice": 1, "skill": 2}  # the dagger: coordination 2d6, less one
    assert specs["dodge"].odds["dice"] == 1  # acrobatics 2, less one
    services.encounter_next_turn(encounter=e, user=fight["gm"])
    services.encounter_act(encounter=e, user=fight["gm"], combatant_id=g.pk, action={"action": "move"})
    e.refresh_from_db()
    assert goblin(fight).state.get("effects", []) == []
    assert event_texts(e)[-1] == "Goblin stands up, −1 speed."


def test_disarm_makes_the_wielded_dagger_carried_until_taken_up_again(fight):
    strike(fight, [1, 1, 1])
    e = spend(fight, [{"id": "disarm"}])
    assert goblin(fight).state["disarmed"] == [0]
    assert "Goblin is disarmed: the dagger is carried" in event_texts(e)[-1]
    services.encounter_next_turn(encounter=e, user=fight["gm"])

    def ids():
        e.refresh_from_db()
        fighters = encounter_fight(encounter=e).fighters
        me = next(f for f in fighters if f.id == fight["c_goblin"].pk)
        return {s.id: s for s in RULESET.combat().actions(me, fighters, e.state, current=me.id)}

    assert "strike:0" not in ids() and ids()["take_up:0"].label == "Take up the dagger"
    services.encounter_act(
        encounter=e, user=fight["gm"], combatant_id=fight["c_goblin"].pk, action={"action": "take_up:0"}
    )
    assert "disarmed" not in goblin(fight).state
    assert "strike:0" in ids()
    assert event_texts(e)[-1] == "Goblin takes up the dagger again, −1 speed."


# ------------------------------------------------------------------ before rolling: the chance to afford


def enumerated(dice: int, skill: int, cost: int) -> Fraction:
    """P(EP ≥ cost) by walking every way ``dice`` d6 can fall (each die ≤ ``skill`` is 1 EP)."""
    hits = sum(1 for faces in product(range(1, 7), repeat=dice) if sum(f <= skill for f in faces) >= cost)
    return Fraction(hits, 6**dice)


@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("skill", [0, 1, 2, 3, 6])
def test_the_chance_to_afford_each_outcome_is_the_enumerated_one(dice, skill):
    outcomes = [{"id": f"c{c}", "name": f"Cost {c}", "cost": c} for c in range(0, 7)]
    got = oc.affordable(efficiency_odds(dice, skill), outcomes)
    for row in got:
        exact = enumerated(dice, skill, row["cost"])
        assert row["chance"] == pytest.approx(float(exact), abs=1e-12)
        assert row["pct"] == round(float(exact) * 100)


def test_the_encounter_page_shows_each_outcomes_chance_before_striking(fight, client):
    """Pablo's longsword: coordination 3d6 against blades 3, so P(EP ≥ 3) = (3/6)³ = 1/8 (12%)."""
    client.force_login(fight["player"])
    page = client.get(reverse("encounter_detail", args=[fight["e"].pk])).content.decode()
    [line] = re.findall(r'data-testid="afford">([^<]*)</p>', page)
    one, three, two = (round(float(enumerated(3, 3, c)) * 100) for c in (1, 3, 2))
    assert (one, three, two) == (88, 12, 50)  # blades level 3: each die 1-3 is an EP
    assert line == (
        f"Chance to afford: Hit (1 EP each): {one}%; Knock prone (3 EP): {three}%; "
        f"Disarm (3 EP): {three}%; Cause bleeding (2 EP): {two}%"
    )


def test_the_sheet_shows_the_chance_to_afford_beside_the_weapons_roll(fight, client):
    client.force_login(fight["player"])
    page = client.get(reverse("character_sheet", args=[fight["pablo"].pk])).content.decode()
    found = re.search(r'data-testid="afford-item-0-strike">([^<]*)</span>', page)
    assert found is not None
    assert found.group(1) == (
        "Chance to afford: Hit (1 EP each): 88%; Knock prone (3 EP): 12%; Disarm (3 EP): 12%; "
        "Cause bleeding (2 EP): 50%"
    )


def test_prone_lowers_the_chance_to_afford_on_the_sheet():
    report = RULESET.validate(PABLO)
    state = RULESET.initial_state(PABLO, report)
    prone = {
        **state,
        "effects": [{"id": "x", "effect": "prone", "name": "Prone", "changes": [], "native": False}],
    }
    [strike] = [r for r in RULESET.rollables(PABLO, report, prone) if r["id"] == "item:0:strike"]
    assert strike["request"] == {"dice": 2, "skill": 3} and "Prone" in strike["effects"]
    assert [o["pct"] for o in strike["outcomes"]] == [75, 0, 0, 25]
    assert [o["chance"] for o in strike["outcomes"]] == [float(enumerated(2, 3, c)) for c in (1, 3, 3, 2)]


# ------------------------------------------------------------------ the encounter page's spend form


def test_the_spend_form_names_each_choices_cost_and_what_is_left_and_buys(fight, client):
    strike(fight, [1, 1, 1])
    client.force_login(fight["player"])
    page = client.get(reverse("encounter_detail", args=[fight["e"].pk])).content.decode()
    assert "Spend EP on outcomes against Goblin" in page
    assert "no speed (3 EP left to spend)" in page
    for words in (
        "Knock prone — 3 EP",
        "Disarm — 3 EP",
        "Cause bleeding — 2 EP",
        "Hit — 1 EP each, chainable",
    ):
        assert words in page
    assert "knock_prone" not in re.sub(r'(value|name|id)="[^"]*"', "", page)  # no ids in the words
    r = client.post(
        reverse("encounter_act", args=[fight["e"].pk]),
        {
            "combatant": fight["c_pablo"].pk,
            "action": "spend",
            "outcome": "cause_bleeding",
            "times_hit": "1",
            "body_part": "left_arm",
        },
        HTTP_HX_REQUEST="true",
    )
    assert r.status_code == 204
    g = goblin(fight)
    assert g.state["harm"]["left_arm"] == 1 and g.state["exhaustion"] == [{"type": "bleeding", "amount": 1}]
    r = client.post(
        reverse("encounter_act", args=[fight["e"].pk]),
        {"combatant": fight["c_pablo"].pk, "action": "spend", "outcome": "", "times_hit": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert "has no EP to spend" in r.content.decode()


def test_the_campaign_catalogue_is_the_rulesets_with_its_homebrew_and_house_rules_for_members_only():
    """CONTRACT.md: "A campaign's homebrew outcomes show where the campaign's catalogue shows (…;
    `GET /api/v1/campaigns/<id>/catalogue/`)". Pando: a homebrew outcome joins the strike it names,
    marked, and a house rule the campaign set is the one in force; the ruleset's own catalogue is
    untouched; a stranger gets 404 and nobody signed in 401."""
    gm, player, stranger = make_user("gcat"), make_user("pcat"), make_user("scat")
    feint = {
        "id": "feint",
        "name": "Feint",
        "cost": 2,
        "chainable": False,
        "actions": ["strike"],
        "text": "A feint.",
    }
    campaign = make_campaign(
        gm=gm, ruleset="pando", players=[player], settings={"house_rules": {"starting_money": 20}}
    )
    Campaign.objects.filter(pk=campaign.pk).update(homebrew={"outcomes": [feint]})
    url = f"/api/v1/campaigns/{campaign.pk}/catalogue/"
    for who in (gm, player):
        response = api_client(who).get(url)
        assert response.status_code == 200
        body = response.json()
        strike = next(a for a in body["catalogue"]["actions"] if a["id"] == "strike")
        assert [o["id"] for o in strike["outcomes"]] == ["hit", "knock_prone", "disarm", "feint"]
        assert strike["outcomes"][-1]["homebrew"] is True and strike["outcomes"][-1]["cost"] == 2
        assert body["house_rules"]["starting_money"] == 20 and body["house_defaults"]["starting_money"] == 0
        assert body["slug"] == "pando" and "outcomes" in body["homebrew_kinds"]
    plain = api_client(gm).get("/api/v1/rulesets/pando/").json()
    assert "feint" not in [
        o["id"] for o in next(a for a in plain["catalogue"]["actions"] if a["id"] == "strike")["outcomes"]
    ]
    assert api_client(stranger).get(url).status_code == 404
    assert api_client(None).get(url).status_code == 401
