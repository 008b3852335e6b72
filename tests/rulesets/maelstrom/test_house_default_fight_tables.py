"""Maelstrom's initiative, soak and weapon table are house-default data (RULES.md W21: "Weapon tables,
initiative and soak … live in content/ as house defaults, and a campaign overrides them as house rules
like any other"; Maelstrom: "Record as HD, as the product computes them today")."""

from __future__ import annotations

import copy

from rulesets.engine.combat import Fighter
from tests.rulesets import combat_helpers
from tests.rulesets.maelstrom.test_maelstrom_combat import KESTREL, ROOK, RULESET, Table

DEFAULTS = RULESET.house_defaults


class Fight(Table):
    rules = RULESET.combat()


def fighters(settings=None) -> list[Fighter]:
    ctx = RULESET.context(settings)
    out = []
    for fid, build in ((1, ROOK), (3, KESTREL)):
        f = combat_helpers.make_fighter(RULESET, fid, build, npc=False)
        f.report = RULESET.validate(build, settings=settings)
        f.report.context = ctx
        out.append(f)
    return out


def test_the_house_defaults_are_the_numbers_the_product_computed():
    assert DEFAULTS["initiative_traits"] == ["reflexes", "wits"] and DEFAULTS["initiative_die"] == 10
    assert DEFAULTS["soak_attribute"] == "strength"
    pistol = next(
        w for a in DEFAULTS["attacks"] if a["id"] == "ranged" for w in a["weapons"] if w["id"] == "pistol"
    )
    assert pistol == {"id": "pistol", "name": "Pistol", "damage": 2, "type": "lethal"}
    t = Fight(*fighters())
    t.start([3, 4])
    assert t.log[0] == "Initiative (Reflexes + Wits + d10): Rook Abara 9 (6 + 3), Kestrel 9 (5 + 4)."


def test_a_campaign_s_house_rules_change_initiative_and_the_weapon_table():
    attacks = copy.deepcopy(DEFAULTS["attacks"])
    attacks[1]["weapons"].append({"id": "railgun", "name": "Railgun", "damage": 6, "type": "aggravated"})
    settings = {"initiative_traits": ["perception"], "initiative_die": 6, "attacks": attacks}
    assert RULESET.check_settings(settings) == []
    t = Fight(*fighters(settings))
    t.start([3, 4])
    assert t.log[0].startswith("Initiative (Perception + d6): ")
    spec = t.spec(1, "ranged")
    assert {"id": "railgun", "label": "Railgun (6 aggravated)"} in spec.params[0]["options"]


def test_a_malformed_override_is_reported_and_the_house_default_applies():
    bad = {
        "attacks": [{"id": "ranged", "attribute": "precision", "ability": "firearms", "weapons": []}],
        "soak_attribute": "luck",
    }
    issues = RULESET.check_settings(bad)
    assert [(i.code, i.path) for i in issues] == [
        ("settings.malformed", "/attacks"),
        ("settings.malformed", "/soak_attribute"),
    ]
    t = Fight(*fighters(bad))
    t.start([3, 4])
    assert {"id": "pistol", "label": "Pistol (2 lethal)"} in t.spec(1, "ranged").params[0]["options"]


def test_each_malformed_fight_number_is_said_once_in_the_game_s_words():
    """A die the fight cannot roll is reported (it was taken silently, and the d10 used); a value of
    the wrong type is said once, in words, not a second time quoting the whole default table."""
    for die in (1, 0, 101):
        assert [(i.code, i.path, i.message) for i in RULESET.check_settings({"initiative_die": die})] == [
            ("settings.malformed", "/initiative_die", "The initiative die has 2 to 100 sides, e.g. 10.")
        ]
    assert RULESET.check_settings({"initiative_die": 100}) == []
    said = RULESET.check_settings({"attacks": "x", "soak_attribute": 3, "initiative_traits": "wits"})
    assert [(i.path, i.message) for i in said] == [
        ("/attacks", "The weapon table: attacks is a list; the house default applies."),
        (
            "/initiative_traits",
            "Initiative adds one or more of the game's attributes, e.g. Reflexes and Wits.",
        ),
        ("/soak_attribute", 'Soak rolls an attribute of the game, e.g. "strength".'),
    ]
    t = Fight(*fighters({"initiative_die": 1}))
    t.start([3, 4])
    assert t.log[0].startswith("Initiative (Reflexes + Wits + d10): ")
