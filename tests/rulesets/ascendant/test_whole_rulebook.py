"""Ascendant's whole rulebook (RULES.md amendment of 2026-12-07, W10–W13, W21), from the seed's own
words (seed 002, "Game Basics") and the shared worked example (examples/ascendant)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rulesets.engine import registry
from rulesets.engine.combat import Fighter
from tests.rulesets import combat_helpers

ROOT = Path(__file__).resolve().parents[3]
RULESET = registry.get("ascendant")
RULES = RULESET.combat()
SHARED = ROOT.parents[1] / "shared" if (ROOT.parents[1] / "shared").is_dir() else ROOT.parent / "shared"


def _json(path: str) -> dict:
    return json.loads((ROOT / path).read_text())


LIRAEL = _json("rulesets/systems/ascendant/demo/lirael.json")  # bard 5, Charisma +5
YSOLDE = _json("rulesets/systems/ascendant/demo/ysolde.json")  # wizard 1, Intelligence +4
WIZARD = {  # the shared worked example, examples/ascendant/human_wizard_level_1.json
    "ruleset": "ascendant",
    "name": "Ysolde",
    "budget": {"xp": 0},
    "level": 1,
    "ancestry": "human",
    "background": "scholar",
    "class": "wizard",
    "boosts": {
        "ancestry": ["int", "dex"],
        "background": ["int", "wis", "con"],
        "class": "int",
        "free": ["int", "dex", "con", "wis"],
    },
    "levels": {},
    "skills": {},
    "lores": [],
}


def report(build: dict, **kw):
    return RULESET.validate(build, **kw)


# ------------------------------------------------------------------ W10 the spell threshold


def test_the_spell_threshold_is_ten_plus_the_casting_modifier():
    """Seed: "Your Deflection and every threshold you set, such as your spell threshold, are 10 plus
    that same modifier" — a wizard (casts: Intelligence) of the worked example: 10 + trained 2 + Int 4."""
    r = report(WIZARD)
    assert r.valid
    assert r.derived["thresholds"]["spell"] == 16
    assert r.derived["spell_attribute"] == "int"
    # A bard casts with Charisma (this folder's decision): level 5 is Expert (+4), Charisma +5.
    bard = report(LIRAEL)
    assert bard.derived["thresholds"]["spell"] == 10 + 4 + bard.derived["attributes"]["cha"] == 19


def test_a_class_that_does_not_cast_has_no_spell_threshold():
    fighter = dict(WIZARD, **{"class": "fighter", "boosts": dict(WIZARD["boosts"], **{"class": "str"})})
    r = report(fighter)
    assert "spell" not in r.derived["thresholds"] and "spell_attribute" not in r.derived


def test_conditions_lower_the_spell_threshold_on_the_party_page():
    """Frightened is a status penalty "to every check and threshold"; Stupefied reaches Intelligence."""
    r = report(WIZARD)
    rows = lambda state: {row["label"]: row["value"] for row in RULESET.summary(WIZARD, r, state)}  # noqa: E731
    assert rows({})["Spell threshold"] == 16
    assert rows({"conditions": [{"id": "frightened", "value": 2}]})["Spell threshold"] == 14
    assert rows({"conditions": [{"id": "stupefied", "value": 1}]})["Spell threshold"] == 15
    fx = RULESET.state_effects(WIZARD, r, {"conditions": [{"id": "frightened", "value": 1}]})
    assert fx["thresholds"]["spell"] == 15


def test_a_spell_threshold_without_a_casting_class_follows_the_house_threshold_base():
    """A non-caster's spark (Arcane Spark) sets its spell threshold as every threshold is set: the
    house ``threshold_base`` (10) + proficiency + its key attribute. The contract's fighter (level 10,
    proficiency +6, Strength +6): 22, and 24 where the campaign's thresholds start at 12."""
    fighter_build = RULESET.contract_data()["build"]
    for settings, expected in ((None, 22), ({"threshold_base": 12}, 24)):
        r = report(fighter_build, settings=settings)
        assert "spell" not in r.derived["thresholds"]
        f = Fighter(
            id=1,
            name="Fighter",
            is_npc=False,
            group="",
            build=fighter_build,
            derived=r.derived,
            state=RULESET.initial_state(fighter_build, r),
            combat={},
            report=r,
        )
        assert RULES._spell_threshold(f)[0] == expected


class Table(combat_helpers.Table):
    rules = RULES


def fighter(id: int, build: dict, *, npc: bool) -> Fighter:
    return combat_helpers.make_fighter(RULESET, id, build, npc=npc)


@pytest.fixture
def table() -> Table:
    t = Table(fighter(1, LIRAEL, npc=False), fighter(2, {**YSOLDE, "name": "Cultist"}, npc=True))
    t.start([19, 3])
    return t


def test_a_spell_against_a_defense_rolls_the_targets_defense_against_the_spell_threshold(table):
    """Seed: "you roll a defense check against the threshold of the effect, such as the spell
    threshold of whoever cast the spell". Lirael's spell threshold 19; the Cultist's Spirit +4."""
    table.turn(1)
    spec = table.spec(1, "cast_spell_save")
    assert spec.odds == {"modifier": 4, "threshold": 19}
    assert RULESET.odds(spec.odds)["success"] + RULESET.odds(spec.odds)["critical_success"] == pytest.approx(
        6 / 20
    )  # 15..20 reach 19
    table.act(1, {"action": "cast_spell_save", "target": 2, "defense": "spirit"}, [10, 2, 3, 4])
    assert table.log[-1].startswith(
        "Lirael Windsong casts a spell at Cultist (−2 actions): Cultist rolls Spirit d20 10 +4 = 14 vs "
        "spell threshold 19: failure — 9 damage (3d6 2+3+4)."
    )
    assert table.by_id[2].state["stamina"] == 16 - 9


def test_a_success_halves_the_spell_and_a_critical_success_takes_none(table):
    table.turn(1)
    table.act(1, {"action": "cast_spell_save", "target": 2, "defense": "resolve"}, [18, 3, 3, 4])
    # Resolve: trained 2 + Charisma 0 = +2; 18 + 2 = 20 ≥ 19: success, 10 // 2 = 5.
    assert "rolls Resolve d20 18 +2 = 20 vs spell threshold 19: success — 5 damage" in table.log[-1]
    table.by_id[1].combat["actions"] = 3
    table.act(1, {"action": "cast_spell_save", "target": 2}, [20])  # Spirit by default; a natural 20
    assert table.log[-1].endswith("critical success — no damage.")
    table.by_id[1].combat["actions"] = 3
    exc = table.refused(
        "ascendant.unknown_defense", 1, {"action": "cast_spell_save", "target": 2, "defense": "luck"}
    )
    assert "Spirit" in exc.message


# ------------------------------------------------------------------ W11 money and gear


def with_gear(*items: str, armor: str | None = None, **extra) -> dict:
    return {**WIZARD, "armor": armor, "gear": [{"item": i} for i in items], **extra}


def test_you_begin_with_fifteen_golden_pieces_at_any_level():
    """Seed: "Buy equipment. You begin with 15 golden pieces (gp). Spend them on weapons, armor, and gear"."""
    r = report(WIZARD).as_dict()
    assert r["budget"] == {"xp": 0, "gp": 15} and r["spent"] == {"xp": 0, "gp": 0}
    r = report(with_gear("staff", "dagger", "backpack", "spellbook", armor="padded_armor")).as_dict()
    # Staff 0, dagger 1, backpack 1, spellbook 1, padded armor 1.
    assert r["valid"] and r["spent"]["gp"] == 4 and r["remaining"]["gp"] == 11
    assert RULESET.blank_build("New")["gear"] == []


def test_buying_more_than_the_gold_is_budget_exceeded_on_budget_gp():
    r = report(with_gear("longbow", armor="half_plate")).as_dict()  # 6 + 12 = 18 of 15
    assert r["spent"]["gp"] == 18 and r["remaining"]["gp"] == -3
    assert [(e["code"], e["path"]) for e in r["errors"]] == [("budget.exceeded", "/budget/gp")]
    assert "18 gp but has only 15" in r["errors"][0]["message"]
    # A campaign's house rule gives more gold; a document's own gp budget is read as given.
    assert report(with_gear("longbow", armor="half_plate"), settings={"starting_gp": 40}).valid
    assert report(with_gear("longbow", armor="half_plate", budget={"xp": 0, "gp": 20})).valid


def test_an_item_twice_is_two_of_it_and_the_list_says_so():
    r = report(with_gear("dagger", "dagger", "dagger"))
    assert r.spent["gp"] == 3
    assert RULESET.list_allows_duplicates("/gear") and not RULESET.list_allows_duplicates("/lores")


@pytest.mark.parametrize(
    ("gear", "code", "path"),
    [
        ([{"item": "lightsaber"}], "skill.unknown", "/gear/0/item"),
        ([{"item": "fist"}], "skill.unknown", "/gear/0/item"),  # bare hands are never bought
        ([{"item": 3}], "build.malformed", "/gear/0/item"),
        (["dagger"], "build.malformed", "/gear/0"),
        ([{"item": "dagger", "state": "juggled"}], "build.malformed", "/gear/0/state"),
        ({"item": "dagger"}, "build.malformed", "/gear"),
    ],
)
def test_bad_gear_is_reported_at_its_path(gear, code, path):
    r = report({**WIZARD, "gear": gear})
    assert [(e.code, e.path) for e in r.errors] == [(code, path)]


def test_a_homebrew_weapon_is_bought_and_a_bad_one_is_reported():
    blade = {"id": "sunblade", "name": "Sunblade", "price": 9, "bulk": 1, "die": 8, "attribute": "finesse"}
    r = report(with_gear("sunblade"), homebrew={"weapons": [blade]})
    assert r.valid and r.spent["gp"] == 9
    r = report(with_gear("sunblade"), homebrew={"weapons": [{**blade, "price": -1, "bulk": "heavy"}]})
    assert {(w.code, w.path) for w in r.warnings} >= {
        ("homebrew.malformed", "/weapons/0/price"),
        ("homebrew.malformed", "/weapons/0/bulk"),
    }


@pytest.mark.parametrize(
    ("kind", "entry", "paths"),
    [
        ("weapons", {"die": 7, "attribute": "wis", "agile": "yes"}, {"/die", "/attribute", "/agile"}),
        ("weapons", {"name": "Pike", "die": 10, "ranged": 1, "bulk": 11}, {"/ranged", "/bulk"}),
        (
            "armor",
            {"name": "Paper", "category": "paper", "bonus": 30, "price": 1.5},
            {"/category", "/bonus", "/price"},
        ),
        ("gear", {"name": "Rope", "bulk": -1, "price": "cheap"}, {"/bulk", "/price"}),
    ],
)
def test_a_malformed_homebrew_weapon_armor_or_gear_is_named_field_by_field(kind, entry, paths):
    """Each field its form (homebrew_forms.py) refuses, and only those: the entry is left out."""
    r = report(WIZARD, homebrew={kind: [{"id": "odd", **entry}]})
    found = {w.path.removeprefix(f"/{kind}/0") for w in r.warnings if w.code == "homebrew.malformed"}
    expected = paths | ({"/name"} if "name" not in entry else set())
    assert found == expected
    assert "odd" not in RULESET.context(None, {kind: [{"id": "odd", **entry}]}).catalogue.get(kind, {})


def test_the_builder_sells_weapons_armor_and_gear_in_the_games_words():
    sections = {s["id"]: s for s in RULESET.traits(RULESET.context())["sections"]}
    gear = sections["gear"]
    assert gear["kind"] == "items" and gear["path"] == "/gear"
    assert "You begin with 15 golden pieces (gp)" in gear["help"]
    options = {o["id"]: o for o in gear["options"]}
    assert "fist" not in options and {"dagger", "longbow", "backpack", "torch"} <= set(options)
    assert (
        RULESET.item_summary(options["rapier"]) == "2 gp, Bulk 1; d6, finesse. A duellist's thrusting blade."
    )
    assert RULESET.item_summary(options["torch"]) == "free, light. Light for an hour."
    [how] = gear["entry_fields"]  # each item carried or set down, in words
    assert (how["id"], how["default"]) == ("state", "carried")
    assert how["options"] == [{"id": "carried", "label": "Carried"}, {"id": "set_down", "label": "Set down"}]
    armor = {o["id"]: o for o in sections["armor"]["options"]}
    assert armor["full_plate"]["help"] == "15 gp, Bulk 4; heavy armor, +6 Deflection"
    steps = {
        st["id"]: st
        for st in json.loads((ROOT / "rulesets/systems/ascendant/content/builder.json").read_text())["steps"]
    }
    assert steps["equipment"]["sections"] == ["armor", "gear"]


# ------------------------------------------------------------------ W12 Bulk and the carry limit


def test_strength_decides_how_much_weight_you_carry():
    """Seed: Strength "decides how much weight you carry before it slows you down": bulk_limit = 5 +
    Strength (the wizard's +0); ten light items make 1 Bulk, fewer weigh nothing."""
    r = report(with_gear(*["torch"] * 9))
    assert (r.derived["bulk"], r.derived["bulk_limit"]) == (0, 5) and "encumbered" not in r.derived
    r = report(with_gear(*["torch"] * 10, "staff", armor="chain_mail"))  # 1 + 1 + 2
    assert r.derived["bulk"] == 4
    set_down = {**with_gear("greataxe", "greataxe"), "gear": [{"item": "greataxe", "state": "set_down"}] * 2}
    assert report(set_down).derived["bulk"] == 0 and report(set_down).spent["gp"] == 4


def test_above_the_limit_one_is_encumbered_a_native_clumsy_one():
    r = report(with_gear("greataxe", "greataxe", "greataxe"))  # Bulk 6 > 5
    assert r.valid and r.derived["encumbered"] is True
    plain = report(WIZARD)
    rolls = {x["id"]: x["request"] for x in RULESET.rollables(WIZARD, plain, {})}
    heavy = with_gear("greataxe", "greataxe", "greataxe")
    loaded = {x["id"]: x["request"] for x in RULESET.rollables(heavy, r, {})}
    assert loaded["skill.acrobatics"]["modifier"] == rolls["skill.acrobatics"]["modifier"] - 1
    assert loaded["defense.evasion"]["modifier"] == rolls["defense.evasion"]["modifier"] - 1
    assert loaded["skill.arcana"]["modifier"] == rolls["skill.arcana"]["modifier"]
    fx = RULESET.state_effects(WIZARD, r, {})
    assert fx["thresholds"]["deflection"] == r.derived["thresholds"]["deflection"] - 1
    assert any(label.startswith("Clumsy 1 (encumbered") for label in fx["labels"])
    # Clumsy 2 already: status penalties do not stack, the worse applies (−2, not −3).
    fx = RULESET.state_effects(WIZARD, r, {"conditions": [{"id": "clumsy", "value": 2}]})
    assert fx["thresholds"]["deflection"] == r.derived["thresholds"]["deflection"] - 2


def test_above_ten_plus_strength_the_build_is_overloaded_at_the_item_that_crossed():
    rich = {"xp": 0, "gp": 40}
    build = with_gear(
        "greataxe", "greataxe", "greataxe", "greataxe", "greataxe", "dagger", budget=rich
    )  # Bulk 10
    assert report({**build, "gear": build["gear"][:5]}).valid
    build["gear"].insert(5, {"item": "longbow"})
    r = report(build)
    assert [(e.code, e.path) for e in r.errors] == [("ascendant.overloaded", "/gear/5")]
    assert r.errors[0].message.startswith(
        "Bulk 12 is more than you can carry at all (10 + Strength +0 = 10): with the Longbow you are overloaded."
    )


def test_play_sets_gear_down_and_refuses_picking_up_what_overloads():
    build = with_gear("greataxe", "greataxe", "greataxe", "greataxe", "greataxe", budget={"xp": 0, "gp": 40})
    build["gear"].append({"item": "longbow", "state": "set_down"})
    assert report(build).valid
    block = RULESET.equipment(build)
    assert (
        block["rows"][5]["state_label"] == "Set down"
        and block["rows"][5]["detail"] == "6 gp, Bulk 2; d8, ranged"
    )
    picked, words = RULESET.equipment_change(build, 5, "carried")
    assert words == "Longbow carried" and build["gear"][5]["state"] == "set_down"  # never mutated
    assert report(picked).has_error("ascendant.overloaded", "/gear/5")
    dropped, words = RULESET.equipment_change(build, 0, {"state": "set_down"})
    assert words == "Greataxe set down" and report(dropped).derived["bulk"] == 8


# ------------------------------------------------------------------ W21 house defaults as data


def test_the_weapon_table_and_attack_penalties_are_house_defaults_in_content():
    """RULES.md W21: "Weapon tables … attack penalties … live in content/ as house defaults"."""
    house = json.loads((ROOT / "rulesets/systems/ascendant/content/house.json").read_text())
    assert house["weapon_table"]["longsword"] == {
        "die": 8,
        "attribute": "str",
        "agile": False,
        "ranged": False,
    }
    assert house["multiple_attack_penalty"] == [5, 10] and house["agile_attack_penalty"] == [4, 8]
    assert (house["dying_max"], house["hero_points_max"], house["hero_points_start"]) == (4, 3, 1)
    import rulesets.systems.ascendant.combat as combat_module

    assert not hasattr(combat_module, "WEAPONS")  # no constant in code any more


def _fighter(fid: int, build: dict, *, npc: bool, settings: dict | None) -> Fighter:
    """A fighter whose report is the campaign's (its house rules reach the fight through it)."""
    r = RULESET.validate(build, settings=settings)
    assert r.valid, r.errors
    return Fighter(
        id=fid,
        name=build["name"],
        is_npc=npc,
        group="",
        build=build,
        derived=r.derived,
        state=RULESET.initial_state(build, r),
        combat={},
        report=r,
    )


def _fighters(settings: dict | None = None, gear: list | None = None) -> Table:
    brannoc = json.loads((ROOT / "rulesets/systems/ascendant/content/examples.json").read_text())["build"]
    if gear is not None:
        brannoc = {**brannoc, "gear": gear}
    t = Table(
        _fighter(1, brannoc, npc=False, settings=settings),
        _fighter(2, {**YSOLDE, "name": "Cultist"}, npc=True, settings=settings),
    )
    t.start([19, 3])
    t.turn(1)
    return t


def test_a_house_rule_changes_a_weapons_die_and_the_multiple_attack_penalty():
    plain = _fighters()
    plain.act(1, {"action": "strike", "target": 2, "weapon": "longsword"}, [15, 5])
    assert "1d8 5" in plain.log[-1]
    assert plain.spec(1, "strike").cost == "1 action (2nd attack: −5, house default)"
    ruled = _fighters({"weapon_table": {"longsword": {"die": 10}}, "multiple_attack_penalty": [3, 6]})
    ruled.act(1, {"action": "strike", "target": 2, "weapon": "longsword"}, [15, 9])
    assert "1d10 9" in ruled.log[-1]
    spec = ruled.spec(1, "strike")
    assert spec.cost == "1 action (2nd attack: −3, house rule)"
    assert spec.odds["modifier"] == plain.spec(1, "strike").odds["modifier"] + 2


def test_a_fighter_strikes_with_the_weapons_it_carries_or_its_fist():
    t = _fighters(
        {"starting_gp": 30},
        gear=[{"item": "warhammer"}, {"item": "dagger", "state": "set_down"}, {"item": "rope"}],
    )
    params = t.spec(1, "strike").params[0]
    assert [o["id"] for o in params["options"]] == ["fist", "warhammer"] and params["default"] == "warhammer"
    exc = t.refused("ascendant.unknown_weapon", 1, {"action": "strike", "target": 2, "weapon": "longsword"})
    assert exc.message == "Brannoc Stonehelm strikes with one of: Fist, Warhammer."
    # Nothing carried (everything set down, or no gear): any weapon, the class's longsword first.
    idle = _fighters({"starting_gp": 30}, gear=[{"item": "warhammer", "state": "set_down"}])
    params = idle.spec(1, "strike").params[0]
    assert len(params["options"]) == 10 and params["default"] == "longsword"


# ------------------------------------------------------------------ W13 a second Class Proficiency


def _lirael_learns(*feats: str) -> dict:
    """Lirael (bard 5) with her archetype feats at levels 1, 2 and 4 replaced."""
    build = copy.deepcopy(LIRAEL)
    for n, fid in zip(("1", "2", "4"), feats, strict=True):
        build["levels"][n]["feats"]["archetype"] = fid
    return build


def test_a_character_can_hold_more_than_one_class_proficiency():
    """Seed: "A character can hold more than one Class Proficiency, by learning a second class through
    an archetype." Trained at the Dedication (1), still Trained at 2 (never above the level's Class
    Proficiency, Trained), Expert at 4; her key skill Arcana trained."""
    r = report(_lirael_learns("wizard_dedication", "basic_arcana", "advanced_arcana"))
    assert r.valid, r.errors
    assert r.derived["class_proficiencies"] == [
        {"class": "bard", "name": "Bard", "rank": "expert", "source": "class"},
        {"class": "wizard", "name": "Wizard", "rank": "expert", "source": "Student of the Arcane"},
    ]
    assert r.derived["skill_ranks"]["arcana"] == "trained"
    assert r.derived["thresholds"]["spell"] == 19  # she casts as a bard: Charisma is the better
    at_two = report({**_lirael_learns("wizard_dedication", "basic_arcana", "advanced_arcana"), "level": 2})
    assert at_two.derived["class_proficiencies"][1]["rank"] == "trained"


def test_a_class_is_not_learned_twice_by_its_own_members():
    r = report(_lirael_learns("bard_dedication", "basic_muse", "advanced_muse"))
    assert ("ascendant.feat_prerequisite_missing", "/levels/1/feats/archetype") in [
        (e.code, e.path) for e in r.errors
    ]
    assert "A Bard already holds the Bard's Class Proficiency" in r.errors[0].message


def test_a_second_class_brings_its_armor_and_its_spells():
    strong = {
        **copy.deepcopy(WIZARD),
        "boosts": {**WIZARD["boosts"], "ancestry": ["int", "str"], "free": ["int", "dex", "con", "str"]},
        "armor": "chain_mail",
        "levels": {"1": {"feats": {"archetype": "fighter_dedication"}}},
    }
    plain = report({**strong, "levels": {}})
    fighter = report(strong)
    assert fighter.derived["thresholds"]["deflection"] == plain.derived["thresholds"]["deflection"] + 2
    assert fighter.derived["skill_ranks"]["athletics"] == "trained"
    caster = {
        **copy.deepcopy(WIZARD),
        "class": "fighter",
        "boosts": {**WIZARD["boosts"], "class": "str"},
        "levels": {"1": {"feats": {"archetype": "wizard_dedication"}}},
    }
    r = report(caster)
    assert r.derived["attributes"]["int"] == 3 and r.derived["thresholds"]["spell"] == 10 + 2 + 3
    assert "spell" not in report({**caster, "levels": {}}).derived["thresholds"]


def test_the_builder_offers_no_dedication_to_ones_own_class():
    sections = {s["id"]: s for s in RULESET.traits(RULESET.context())["sections"]}
    feats = sections["levels"]["data"]["feats"]
    assert feats["wizard_dedication"]["teaches"] == "wizard"
    assert "wizard_dedication" in sections["levels"]["data"]["levels"][0]["feats"]["archetype"]


def test_an_empty_dedication_slot_never_suggests_ones_own_class():
    warning = next(w for w in report(WIZARD).warnings if w.path == "/levels/1/feats/archetype")
    assert "Wizard Dedication" not in warning.message and "Dedication" in warning.message


def test_the_encounter_counts_an_encumbered_fighter_clumsy():
    light = _fighters({"starting_gp": 40})
    heavy = _fighters(
        {"starting_gp": 40}, gear=[{"item": "greataxe"}] * 5
    )  # full plate 4 + 10 = 14 > 5 + Str
    assert heavy.by_id[1].derived["encumbered"] and not light.by_id[1].derived.get("encumbered")
    status = RULES.summary(heavy.by_id[1], {})["status"]
    assert "encumbered (clumsy 1)" in status

    def deflection(t: Table) -> int:
        return int(
            next(s["value"] for s in RULES.summary(t.by_id[1], {})["stats"] if s["key"] == "deflection")
        )

    assert deflection(heavy) == deflection(light) - 1
