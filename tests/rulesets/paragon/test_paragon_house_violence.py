"""Paragon's tables of violence as data (RULES.md W21: "Weapon tables, initiative and soak, attack
penalties, outcome lists live in content/ as house defaults, and a campaign overrides them as house
rules like any other"): the weapon table (RULES.md §2: "unarmed 1d6, weak 2d6, strong 3d6, triarma
4d6 or 3d6 unpowered"), the chain ("chained strikes up to 5, each after the first costs 1 stamina")
and killing intent's "5 temporary Morale points"."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from rulesets.systems.paragon.combat import weapons as weapons_of
from tests.rulesets.paragon.test_paragon_combat import AREN, HESK, RULES, Fight, fighter

PARAGON = RULES.ruleset


def campaign_duel(house: dict, es: dict | None = None, faces=(8, 4, 6, 3, 5, 1)) -> Fight:
    """Aren against Old Hesk in a campaign with the house rules ``house``."""
    aren, hesk = fighter(1, AREN), fighter(2, HESK, npc=True)
    aren.report = PARAGON.validate(AREN, settings=house)
    hesk.report = PARAGON.validate(HESK, settings=house, phase="npc")
    return Fight([aren, hesk], es or {}, list(faces))


def test_the_house_defaults_are_the_rulebooks_numbers(db):
    weapons = {k: (v["name"], v["dice"]) for k, v in PARAGON.house_defaults["weapons"].items()}
    assert weapons == {
        "unarmed": ("Unarmed strike", 1),
        "weak": ("Weak weapon", 2),
        "strong": ("Strong weapon", 3),
        "triarma": ("Triarma", 4),
        "triarma_unpowered": ("Triarma (not powered)", 3),
    }
    defaults = APIClient().get("/api/v1/rulesets/paragon/").json()["house_defaults"]
    assert (defaults["max_chain"], defaults["chained_strike_stamina"], defaults["killing_intent_morale"]) == (
        5,
        1,
        5,
    )


def test_a_campaigns_weapon_table_deals_its_own_dice_and_adds_a_weapon():
    house = {"weapons": {"strong": {"dice": 4}, "greatsword": {"name": "Greatsword", "dice": 5}}}
    fight = campaign_duel(house)
    options = {o["id"]: o["label"] for o in fight.spec(1, "strike").params[1]["options"]}
    assert options["strong"] == "Strong weapon (4d6)" and options["greatsword"] == "Greatsword (5d6)"
    fight.act(1, action="engage", target=2, kind="melee")
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="strong")
    # Strong weapon 4d6 under this campaign: 1+1+1+1 = 4 Health; Morale −1.
    fight.act(2, [1, 1, 1, 1, 1], action="take_hit")
    assert fight.pools(2)["health"] == 16
    assert "strong weapon 4d6: 1+1+1+1 = 4" in fight.log[-1]


def test_a_campaigns_chain_and_its_stamina():
    fight = campaign_duel({"max_chain": 2, "chained_strike_stamina": 2})
    fight.act(1, action="engage", target=2, kind="melee")
    assert fight.spec(1, "strike").cost == "free (first strike of up to 2; each after it 2 stamina)"
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="unarmed")
    fight.act(2, action="avoid")
    assert fight.spec(1, "strike").cost == "2 stamina (chained strike 2/2)"
    fight.act(1, [10, 4, 4, 4], action="strike", skill="triarmatura", weapon="unarmed")
    assert fight.pools(1)["stamina"] == 18
    fight.act(2, action="avoid")
    assert fight.spec(1, "strike").code == "paragon.chain_limit"


def test_a_campaigns_killing_intent_morale():
    fight = campaign_duel({"killing_intent_morale": 8}, {"killing_intent": [1]}, (8, 4, 6, 2, 3, 5, 1))
    assert fight.by[1].combat["temp_morale"] == 8


@pytest.mark.parametrize(
    ("weapons", "path"),
    [
        ({"strong": {"dice": 30}}, "/weapons/strong/dice"),
        ({"strong": {"name": ""}}, "/weapons/strong/name"),
        ({"greatsword": {"dice": 3}}, "/weapons/greatsword/name"),
        ({"strong": 3}, "/weapons/strong"),
    ],
)
def test_a_malformed_weapon_house_rule_is_named_and_the_default_kept(weapons, path):
    ctx = PARAGON.context({"weapons": weapons}, None)
    assert ("settings.malformed", path) in {(i.code, i.path) for i in ctx.issues}
    table = weapons_of(ctx)
    assert table["strong"] == ("Strong weapon", 3) and "greatsword" not in table
