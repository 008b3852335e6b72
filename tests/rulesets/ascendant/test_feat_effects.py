"""Ascendant feats that change numbers (issue #15): effects from each feat's text, stacked by type,
shown with their source, validated when homebrew, played in combat.

Seed 002: "Every bonus has a type ... You only add the highest bonus of each type"; "Some feats grant a
new proficiency or raise one you already have"; feats "improve the things every character shares:
health, senses, movement, and training".
"""

from __future__ import annotations

import copy

import pytest

from rulesets.engine import registry, validate
from rulesets.engine.combat import Fighter
from rulesets.systems.ascendant.feats import check_effect
from tests.rulesets import combat_helpers
from tests.rulesets.ascendant.test_ascendant import BENCH, WIZARD, codes, fighter_at, wizard

RULESET = registry.get("ascendant")
FEATS = RULESET.catalogue["feats"]


def with_general(feat, **changes):
    """The level-1 wizard with ``feat`` in its chosen general slot (instead of Fleet)."""
    doc = wizard(**changes)
    doc["levels"]["1"]["feats"]["general"] = feat
    return doc


def derived(doc, **kw):
    report = validate(doc, phase="approval", **kw)
    assert report.as_dict()["errors"] == [], report.errors
    return report.derived


# ------------------------------------------------------------------ the catalogue


def test_every_sample_feat_has_effects_that_pass_the_homebrew_check():
    for fid, feat in FEATS.items():
        assert isinstance(feat.get("effects"), list), fid
        assert RULESET.check_homebrew_entry("feats", feat, f"/feats/{fid}") == [], fid


# Each feat whose text changes a number, with the number it changes (the text is quoted).
NUMBER_FEATS = {
    "toughness": "+1 maximum Stamina per level",
    "fleet": "Your speed rises by 5 feet",
    "nimble_elf": "Your speed rises by 5 feet",
    "incredible_initiative": "+2 circumstance bonus to initiative",
    "diehard": "You die at dying 5 instead of dying 4",
    "untrained_improvisation": "Untrained skill checks add your level − 2",
    "clever_improviser": "Untrained skill checks add half your level",
    "forge_blooded": "Fire resistance equal to half your level",
    "sentinel_dedication": "Trained in light, medium and heavy armor",
    "armor_proficiency": "Become trained in the next heavier armor category",
    "clan_weapon_training": "Trained with the battle axe, pick and warhammer",
    "additional_lore": "Become trained in one more Lore",
    "power_attack": "Two actions: a Strike that deals an extra weapon die",
    "sudden_charge": "Two actions: Stride twice, then Strike",
    "double_slice": "Two actions: Strike with both of your weapons",
    "whirlwind_strike": "Three actions: Strike every enemy within reach",
    "reactive_shield": "Reaction: Raise a Shield when you are hit",
    "arcane_spark": "Cast one arcane cantrip at will",
    "steady_hands": "+1 circumstance bonus to Crafting and Thievery when not rushed",
    "cooperative_nature": "+4 circumstance bonus when you Aid an ally",
    "rock_steady": "+2 circumstance bonus to Stability against being moved",
    "elven_senses": "+1 circumstance bonus to Perception to notice hidden things",
    "mighty_bulwark": "+4 circumstance bonus to Evasion against area effects in heavy armor",
    "virtuoso_performer": "+1 circumstance bonus with your chosen instrument",
}


@pytest.mark.parametrize("fid", sorted(NUMBER_FEATS))
def test_a_feat_whose_text_changes_a_number_carries_an_effect(fid):
    assert NUMBER_FEATS[fid].lower() in FEATS[fid]["text"].lower()
    assert FEATS[fid]["effects"], fid


def test_feats_whose_text_changes_no_number_carry_none():
    silent = {fid for fid, f in FEATS.items() if not f["effects"]}
    assert silent.isdisjoint(NUMBER_FEATS)
    assert {"stonecunning", "familiar", "polyglot", "pickpocket"} <= silent


# ---------------------------------------------------------------- numbers and sources


def test_toughness_adds_one_stamina_per_level_with_its_source():
    # "You shrug off what drops others: +1 maximum Stamina per level."
    without, with_it = derived(wizard()), derived(with_general("toughness"))
    assert with_it["max_stamina"] == without["max_stamina"] + 1 == 17
    part = with_it["breakdown"]["max_stamina"]
    assert (part["base"], part["total"]) == (16, 17)
    assert [m["text"] for m in part["applied"]] == ["+1 from Toughness (+1 per level)"]
    assert fighter_at(10) and derived(BENCH)["breakdown"]["max_stamina"]["applied"][0]["value"] == 10


def test_fleet_raises_speed_by_five_feet():
    # "Your speed rises by 5 feet." (the human's speed is 25)
    assert derived(wizard())["speed"] == 30  # the wizard's level-1 general feat is Fleet
    assert [m["text"] for m in derived(wizard())["breakdown"]["speed"]["applied"]] == ["+5 feet from Fleet"]
    assert derived(with_general("diehard"))["speed"] == 25
    assert derived(with_general("diehard"))["breakdown"].get("speed") is None


def test_incredible_initiative_is_a_circumstance_bonus_to_initiative_only():
    # "+2 circumstance bonus to initiative."
    d = derived(with_general("incredible_initiative"))
    assert d["initiative"] == d["perception"] + 2 == 6
    assert [m["text"] for m in d["breakdown"]["initiative"]["applied"]] == [
        "+2 circumstance from Incredible Initiative"
    ]
    assert "perception" not in d["breakdown"]


@pytest.mark.parametrize(
    ("level", "untrained"),
    [(3, 1), (5, 3), (7, 5)],  # level − 2
)
def test_untrained_improvisation_adds_level_minus_two_to_untrained_skills_only(level, untrained):
    doc = fighter_at(level)
    if level < 7:  # the fighter takes it at 7; earlier, in its level-3 slot
        doc["levels"]["3"]["feats"]["general"] = "untrained_improvisation"
    d = derived(doc)
    # religion is untrained for the dwarf fighter (wis): rank 0 + wis
    wis = d["attributes"]["wis"]
    assert d["skills"]["religion"] == wis + untrained
    assert d["skills"]["athletics"] == d["breakdown"].get("skill.athletics", {}).get(
        "total", d["skills"]["athletics"]
    )
    assert "skill.athletics" not in d["breakdown"]  # trained skills are not touched


def test_two_proficiency_bonuses_to_untrained_skills_do_not_stack():
    # Seed: "You only add the highest bonus of each type."  Clever Improviser (half level) and
    # Untrained Improvisation (level − 2) are both proficiency bonuses: at level 9, +4 and +7 give +7.
    hb = {
        "feats": [
            {
                **FEATS["clever_improviser"],
                "id": "quick_study",
                "name": "Quick Study",
                "kind": "general",
                "ancestry": None,
            }
        ]
    }
    hb["feats"][0].pop("ancestry")
    hb["feats"][0].pop("prerequisites", None)
    doc = fighter_at(9)  # Untrained Improvisation at 7
    doc["levels"]["9"]["feats"]["general"] = "quick_study"
    d = derived(doc, homebrew=hb)
    part = d["breakdown"]["skill.religion"]
    assert part["total"] - part["base"] == 7
    assert [m["source"] for m in part["applied"]] == ["Untrained Improvisation"]
    assert [m["source"] for m in part["ignored"]] == ["Quick Study"]
    assert "only one proficiency bonus applies" in part["ignored"][0]["reason"]


def test_sentinel_dedication_trains_heavier_armor_for_deflection():
    # "Trained in light, medium and heavy armor." A wizard is trained in no armor.
    plain = wizard(armor="chain_mail")
    sentinel = wizard(armor="chain_mail")
    sentinel["levels"]["1"]["feats"]["archetype"] = "sentinel_dedication"
    base, trained = derived(plain), derived(sentinel)
    assert trained["thresholds"]["deflection"] == base["thresholds"]["deflection"] + 2  # trained: +2
    assert trained["armor_proficiencies"] == ["unarmored", "light", "medium", "heavy"]


def test_armor_proficiency_trains_the_next_heavier_category():
    # "Become trained in the next heavier armor category." (wizard: unarmored → light)
    d = derived(with_general("armor_proficiency", armor="leather_armor"))
    assert d["armor_proficiencies"] == ["unarmored", "light"]
    assert d["thresholds"]["deflection"] == 10 + 2 + 2 + 1  # trained + dex + leather


def test_diehard_raises_the_dying_maximum_in_play():
    # "You die at dying 5 instead of dying 4."
    doc = with_general("diehard")
    report = validate(doc)
    assert report.derived["dying_max_bonus"] == 1
    assert report.derived["breakdown"]["dying_max"]["total"] == 5
    state = {"stamina": 0, "conditions": [{"id": "dying", "value": 5}, {"id": "unconscious"}]}
    assert RULESET.check_state(state, doc, report) == []
    plain = validate(wizard())
    assert [i.code for i in RULESET.check_state(state, wizard(), plain)] == ["state.above_maximum"]


def test_additional_lore_gives_one_more_lore_slot():
    # "Become trained in one more Lore of your choice."
    # the scholar wizard (Society trained, Intelligence +4) at level 2
    doc = wizard(
        level=2,
        budget={"xp": 1000},
        levels={
            **WIZARD["levels"],
            "2": {
                "attributes": {"str": 1, "cha": 1, "wis": 1},
                "feats": {"class": "reach_spell", "skill": "additional_lore", "archetype": "cipher_reader"},
            },
        },
    )
    report = validate(doc, phase="approval")
    assert report.derived["lore_slots"] == 4 + 1
    assert [m["text"] for m in report.derived["breakdown"]["lore_slots"]["applied"]] == [
        "+1 from Additional Lore"
    ]
    assert ("ascendant.lore_slots_unused", "/lores") in codes(report, "warnings")  # one more Lore to choose
    doc["lores"].append("sailing")
    assert derived(doc)["lores"][-1] == "sailing"
    doc["lores"].append("legal")
    assert ("ascendant.too_many_lores", "/lores/5") in codes(validate(doc))


def test_forge_blooded_resists_fire_by_half_the_level():
    # "Fire resistance equal to half your level."
    doc = fighter_at(5)
    doc["heritage"] = "forge_dwarf"
    assert derived(doc)["resistances"] == {"fire": 2}


def test_situational_bonuses_are_shown_and_not_added():
    # "+2 circumstance bonus to Stability against being moved." (the rock dwarf's heritage feat)
    d = derived(BENCH)
    assert {
        "text": "+2 circumstance from Rock Steady against being moved",
        "selector": "defense.stability",
        "value": 2,
        "type": "circumstance",
        "source": "Rock Steady",
        "when": "against being moved",
    } in d["situational"]
    assert "defense.stability" not in d.get("breakdown", {})


def test_lores_rise_with_skill_increases():
    # Seed: "you raise one skill by one rank"; RULES.md (#15): lores can be raised like other skills.
    doc = fighter_at(3)
    doc["levels"]["3"]["skill_increase"] = "warfare"  # the soldier's lore
    d = derived(doc)
    assert d["lore_ranks"]["warfare"] == "expert"
    assert d["lore_modifiers"]["warfare"] == 4 + d["attributes"]["int"]
    doc["levels"]["3"]["skill_increase"] = "sailing"  # not a lore this character knows
    assert ("skill.unknown", "/levels/3/skill_increase") in codes(validate(doc))
    doc5 = fighter_at(5)
    doc5["levels"]["3"]["skill_increase"] = "warfare"
    doc5["levels"]["5"]["skill_increase"] = "warfare"  # master at level 5, above Expert
    assert ("ascendant.skill_rank_too_high", "/levels/5/skill_increase") in codes(validate(doc5))


# ------------------------------------------------------------------ homebrew feats

IRON_GRIP = {
    "id": "iron_grip",
    "name": "Iron Grip",
    "kind": "general",
    "rank": "trained",
    "text": "+2 circumstance bonus to Athletics.",
    "effects": [{"kind": "modifier", "selector": "skill.athletics", "type": "circumstance", "value": 2}],
}


def test_a_homebrew_feat_with_an_effect_changes_the_derived_number():
    plain = derived(wizard())
    d = derived(with_general("iron_grip"), homebrew={"feats": [IRON_GRIP]})
    assert d["skills"]["athletics"] == plain["skills"]["athletics"] + 2
    assert [m["text"] for m in d["breakdown"]["skill.athletics"]["applied"]] == [
        "+2 circumstance from Iron Grip"
    ]
    assert d["breakdown"]["skill.athletics"]["label"] == "Athletics"


def test_a_homebrew_feat_grants_a_combat_action():
    feat = {
        "id": "twin_fang",
        "name": "Twin Fang",
        "kind": "general",
        "rank": "trained",
        "text": "Double Slice.",
        "effects": [{"kind": "action", "action": "double_slice"}],
    }
    hb = {"feats": [feat]}
    doc = with_general("twin_fang")
    report = validate(doc, homebrew=hb)
    assert report.derived["actions"] == [
        {"id": "double_slice", "label": "Double Slice", "source": "Twin Fang"}
    ]
    me = Fighter(
        id=1,
        name="Ysolde",
        is_npc=False,
        group="",
        build=doc,
        derived=report.derived,
        state=RULESET.initial_state(doc, report),
        combat={},
        report=report,
    )
    foe = combat_helpers.make_fighter(RULESET, 2, copy.deepcopy(WIZARD), npc=True, name="Cultist")
    ids = [s.id for s in RULESET.combat().actions(me, [me, foe], {}, current=None)]
    assert "double_slice" in ids
    plain = combat_helpers.make_fighter(RULESET, 3, copy.deepcopy(WIZARD), npc=False)
    assert "double_slice" not in [
        s.id for s in RULESET.combat().actions(plain, [plain, foe], {}, current=None)
    ]


@pytest.mark.parametrize(
    ("effect", "path"),
    [
        ({"kind": "teleport"}, "/feats/0/effects/0/kind"),
        (
            {"kind": "modifier", "selector": "skill.piloting", "type": "circumstance", "value": 1},
            "/feats/0/effects/0/selector",
        ),
        ({"kind": "modifier", "selector": "luck", "value": 1}, "/feats/0/effects/0/selector"),
        ({"kind": "modifier", "selector": "perception", "value": "2"}, "/feats/0/effects/0/value"),
        ({"kind": "modifier", "selector": "perception"}, "/feats/0/effects/0/value"),
        (
            {"kind": "modifier", "selector": "perception", "value": 1, "type": "Holy Power"},
            "/feats/0/effects/0/type",
        ),
        (
            {"kind": "modifier", "selector": "perception", "value": 1, "colour": "red"},
            "/feats/0/effects/0/colour",
        ),
        ({"kind": "stamina_per_level"}, "/feats/0/effects/0/value"),
        ({"kind": "action", "action": "fireball"}, "/feats/0/effects/0/action"),
        ({"kind": "proficiency", "armor": ["mithral"]}, "/feats/0/effects/0/armor"),
        ({"kind": "proficiency", "skill": "stealth", "rank": "godlike"}, "/feats/0/effects/0/rank"),
        ({"kind": "speed", "value": 5, "level_divisor": 0}, "/feats/0/effects/0/level_divisor"),
        ("fast", "/feats/0/effects/0"),
    ],
)
def test_a_homebrew_feat_with_a_bad_effect_is_reported_and_left_out(effect, path):
    feat = {**IRON_GRIP, "effects": [effect]}
    report = validate(with_general("iron_grip"), homebrew={"feats": [feat]})
    assert ("homebrew.malformed", path) in codes(report, "warnings")
    message = next(w.message for w in report.warnings if w.path == path)
    assert "{" not in message or "kind" in message  # words, with an example where one helps
    assert report.derived["skills"]["athletics"] == validate(wizard()).derived["skills"]["athletics"]


def test_effects_that_are_not_a_list_are_reported():
    issues = RULESET.check_homebrew_entry("feats", {**IRON_GRIP, "effects": {"kind": "speed"}}, "/feats/0")
    assert [(i.code, i.path) for i in issues] == [("homebrew.malformed", "/feats/0/effects")]


def test_check_effect_accepts_every_kind_in_its_documented_shape():
    good = [
        {"kind": "modifier", "selector": "defense.resolve", "type": "status", "value": 1},
        {"kind": "modifier", "selector": "lores", "type": None, "value": 1, "when": "in a library"},
        {"kind": "stamina_per_level", "value": 2},
        {"kind": "speed", "value": 10},
        {"kind": "lore", "value": 1},
        {"kind": "proficiency", "skill": "stealth", "rank": "expert"},
        {"kind": "proficiency", "perception": "expert"},
        {"kind": "action", "action": "whirlwind_strike"},
        {"kind": "dying_max", "value": 1},
        {"kind": "resistance", "damage": "cold", "value": 1, "level_divisor": 2},
    ]
    for effect in good:
        assert check_effect(effect, "/e", {}) == [], effect


# ------------------------------------------------------------------ play: typed stacking


def test_feat_and_condition_modifiers_stack_by_type_on_the_sheets_checks():
    hb = {"feats": [IRON_GRIP]}
    doc = with_general("iron_grip")
    report = validate(doc, homebrew=hb)
    base = report.derived["breakdown"]["skill.athletics"]["base"]
    state = {**RULESET.initial_state(doc, report), "conditions": [{"id": "frightened", "value": 1}]}
    roll = next(r for r in RULESET.rollables(doc, report, state) if r["id"] == "skill.athletics")
    assert roll["request"]["modifier"] == base + 2 - 1
    assert [m["source"] for m in roll["modifiers"]] == ["Iron Grip", "Frightened 1"]
    # A circumstance bonus and a circumstance penalty both apply (seed: one of each type).
    guard = {
        "id": "guarded",
        "name": "Guarded",
        "kind": "general",
        "rank": "trained",
        "text": "+1 Deflection.",
        "effects": [{"kind": "modifier", "selector": "deflection", "type": "circumstance", "value": 1}],
    }
    doc2 = with_general("guarded")
    report2 = validate(doc2, homebrew={"feats": [guard]})
    state2 = {**RULESET.initial_state(doc2, report2), "conditions": [{"id": "off_guard"}]}
    fx = RULESET.state_effects(doc2, report2, state2)
    assert fx["thresholds"]["deflection"] == report2.derived["thresholds"]["deflection"] - 2


def test_a_feats_defense_bonus_moves_the_defenses_threshold_once():
    feat = {
        "id": "iron_will",
        "name": "Iron Will",
        "kind": "general",
        "rank": "trained",
        "text": "+1 status Resolve.",
        "effects": [{"kind": "modifier", "selector": "defense.resolve", "type": "status", "value": 1}],
    }
    doc = with_general("iron_will")
    report = validate(doc, homebrew={"feats": [feat]})
    plain = validate(wizard()).derived
    assert report.derived["defenses"]["resolve"] == plain["defenses"]["resolve"] + 1
    assert report.derived["thresholds"]["resolve"] == plain["thresholds"]["resolve"] + 1
    state = RULESET.initial_state(doc, report)
    fx = RULESET.state_effects(doc, report, state)
    assert fx["thresholds"]["resolve"] == report.derived["thresholds"]["resolve"]
    # inspired (+1 status) does not stack with Iron Will's +1 status
    fx2 = RULESET.state_effects(doc, report, {**state, "conditions": [{"id": "inspired"}]})
    assert fx2["checks"]["defense.resolve"]["modifier"] == report.derived["defenses"]["resolve"]


# ------------------------------------------------------------------ combat


def test_incredible_initiative_reaches_the_initiative_roll_through_its_effect():
    feat = {
        **IRON_GRIP,
        "id": "sharp",
        "name": "Sharp Ears",
        "effects": [{"kind": "modifier", "selector": "initiative", "type": "circumstance", "value": 3}],
    }
    doc = with_general("sharp")
    report = validate(doc, homebrew={"feats": [feat]})
    me = Fighter(
        id=1,
        name="Ysolde",
        is_npc=False,
        group="",
        build=doc,
        derived=report.derived,
        state=RULESET.initial_state(doc, report),
        combat={},
        report=report,
    )
    t = combat_helpers.Table(me)
    t.rules = RULESET.combat()
    t.start([10])
    assert me.combat["initiative"] == 10 + report.derived["perception"] + 3
    assert me.combat["initiative_applied"] == ["Sharp Ears"]


def test_whirlwind_strike_strikes_every_enemy_standing():
    class Table(combat_helpers.Table):
        rules = RULESET.combat()

    doc = fighter_at(8)
    doc["levels"]["8"]["feats"]["class"] = "whirlwind_strike"
    cultist = copy.deepcopy(WIZARD)
    t = Table(
        combat_helpers.make_fighter(RULESET, 1, doc, npc=False),
        combat_helpers.make_fighter(RULESET, 2, cultist, npc=True, name="Cultist"),
        combat_helpers.make_fighter(RULESET, 3, cultist, npc=True, name="Cultist 2"),
    )
    t.start([20, 1, 1])
    t.turn(1)
    t.act(1, {"action": "whirlwind_strike"}, [15, 3, 15, 4])
    assert sum("Whirlwind Strike at Cultist with" in line for line in t.log) == 1
    assert sum("Whirlwind Strike at Cultist 2 with" in line for line in t.log) == 1
    assert t.by_id[1].combat["actions"] == 0 and t.by_id[1].combat["attacks"] == 2


def test_the_builder_offers_the_known_lores_as_skill_increases():
    from characters.builder.forms import builder_form

    doc = fighter_at(3)
    report = validate(doc).as_dict()
    form = builder_form(RULESET.traits(RULESET.context()), doc, report, ruleset=RULESET)
    levels = next(s for s in form["sections"] if s.get("id") == "levels")
    step = next(st for st in levels["steps"] if st["level"] == 3)
    labels = [o["label"] for o in step["increase"]["options"]]
    assert "Warfare Lore" in labels and "Athletics" in labels  # the soldier's lore, and the skills
    assert "Sailing Lore" not in labels  # not a lore this character knows
