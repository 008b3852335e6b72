"""Ascendant (the d20 "Game Basics" system): build documents in, reports out."""

import copy
import json
import re
from pathlib import Path

import pytest

from rulesets.engine import registry, validate
from tests.rulesets.report_helpers import example_paths, typical

HERE = Path(__file__).parents[1]  # tests/rulesets (its examples/)
ROOT = HERE.parents[1]
EXAMPLES = example_paths("ascendant")
RULESET = registry.get("ascendant")
BENCH = typical("ascendant")

# A complete level-1 human wizard (valid even on approval); tests change one thing each.
WIZARD = {
    "ruleset": "ascendant",
    "name": "Ysolde",
    "budget": {"xp": 0},
    "level": 1,
    "ancestry": "human",
    "heritage": "versatile_human",
    "background": "scholar",
    "class": "wizard",
    "boosts": {
        "ancestry": ["int", "dex"],
        "background": ["int", "wis", "con"],
        "class": "int",
        "free": ["int", "dex", "con", "wis"],
    },
    "skills": {"crafting": "trained", "medicine": "trained"},
    "lores": ["warfare", "heraldry", "engineering", "astronomy"],
    "levels": {
        "1": {
            "feats": {
                "ancestry": "natural_ambition",
                "class": "familiar",
                "archetype": "linguist_dedication",
                "general": "fleet",
            }
        }
    },
}


def wizard(**changes):
    doc = copy.deepcopy(WIZARD)
    doc.update(copy.deepcopy(changes))
    return doc


def fighter_at(level):
    """The bench dwarf fighter cut down to ``level`` (its choices of later levels dropped)."""
    doc = copy.deepcopy(BENCH)
    doc["level"] = level
    doc["budget"] = {"xp": (level - 1) * 1000}
    doc["levels"] = {k: v for k, v in doc["levels"].items() if int(k) <= level}
    doc["lores"] = doc["lores"][
        : 1 if level < 4 else 2 if level < 10 else 3
    ]  # Intelligence rises at 4 and 10
    return doc


def codes(report, kind="errors"):
    return {(i["code"], i["path"]) for i in report.as_dict()[kind]}


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_shared_examples(path):
    example = json.loads(path.read_text())
    report = validate(example["build"]).as_dict()
    expect = example["expect"]
    assert report["valid"] is expect["valid"], report["errors"]
    for key in ("spent", "remaining"):
        if key in expect:
            assert report[key] == expect[key]
    for key, value in expect.get("derived", {}).items():
        assert report["derived"][key] == value, key
    for error in expect.get("errors", []):
        assert (error["code"], error["path"]) in codes(validate(example["build"]))


def test_the_example_wizard_reports_its_missing_level_one_feats_as_draft_warnings():
    example = json.loads(EXAMPLES[0].read_text())
    report = validate(example["build"])
    assert report.valid
    assert ("ascendant.level_choices_missing", "/levels/1/feats/archetype") in codes(report, "warnings")
    assert report.derived["thresholds"]["clarity"] == 16  # 10 + trained 2 + int 4


def test_the_complete_wizard_is_valid_on_approval_with_its_numbers():
    report = validate(WIZARD, phase="approval")
    assert report.as_dict()["errors"] == [] and report.as_dict()["warnings"] == []
    d = report.derived
    assert d["skills"]["arcana"] == 6 and d["skills"]["society"] == 6 and d["skills"]["athletics"] == 0
    assert d["perception"] == 4  # wizards lag in perception, but never below trained
    assert d["thresholds"]["deflection"] == 14  # 10 + trained 2 (unarmored) + dex 2
    assert d["lores"] == ["academia", "warfare", "heraldry", "engineering", "astronomy"]
    assert set(d["feats"]) >= {"adaptive_mind", "multilingual", "canny_acumen", "familiar"}


def test_the_typical_level_ten_build_is_valid_and_spends_nine_levels_of_xp():
    report = validate(BENCH, phase="approval").as_dict()
    assert report["valid"], report["errors"]
    assert report["warnings"] == []
    # Full plate, 15 gp of the 15 golden pieces (W11).
    assert report["spent"] == {"xp": 9000, "gp": 15} and report["remaining"] == {"xp": 400, "gp": 0}
    d = report["derived"]
    assert d["class_proficiency"] == "master" and d["attribute_max"] == 6
    assert d["attributes"] == {"str": 6, "dex": 5, "con": 6, "int": 3, "wis": 3, "cha": 2}
    assert d["max_stamina"] == 10 + 10 * (10 + 6) + 10  # the soldier's Toughness: +1 per level (#15)
    assert d["defenses"]["stability"] == 6 + 6 and d["defenses"]["clarity"] == 4 + 3  # clarity lags a rank
    assert d["thresholds"]["deflection"] == 10 + 6 + 5 + 6  # master in heavy armor, dex, full plate
    assert d["skills"]["athletics"] == 6 + 6  # the key skill follows Class Proficiency
    assert d["skill_ranks"]["acrobatics"] == "expert"
    assert d["invest_limit"] == 7 and d["lore_slots"] == 3


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "rulesets" / "systems" / "ascendant" / "demo").glob("*.json")),
    ids=lambda p: p.stem,
)
def test_demo_characters_are_valid_on_approval(path):
    report = validate(json.loads(path.read_text()), phase="approval")
    assert report.as_dict()["errors"] == []


# --------------------------------------------------------------- levels table

# level: (class proficiency, attribute max, ancestry, class, archetype, skill, general slots,
#         skill increases, attribute point levels)
LEVELS = {
    1: ("trained", 4, 1, 1, 1, 0, 1, 0, 0),
    2: ("trained", 4, 1, 2, 2, 1, 1, 0, 1),
    3: ("expert", 5, 2, 2, 2, 1, 2, 1, 1),
    7: ("master", 6, 4, 4, 4, 3, 4, 3, 3),
    11: ("grandmaster", 7, 6, 6, 6, 5, 6, 5, 5),
    19: ("ascendant", 9, 10, 10, 10, 9, 10, 9, 9),
    20: ("ascendant", 9, 10, 11, 11, 10, 10, 9, 10),
}


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_has_its_proficiency_cap_slots_and_increases(level):
    cp, cap, *slots, increases, attribute_levels = LEVELS[level]
    doc = wizard(level=level, budget={"xp": (level - 1) * 1000}, levels={})
    report = validate(doc)
    assert report.valid
    assert report.derived["class_proficiency"] == cp
    assert report.derived["attribute_max"] == cap
    missing = [w.path for w in report.warnings if w.code == "ascendant.level_choices_missing"]
    for kind, count in zip(("ancestry", "class", "archetype", "skill", "general"), slots, strict=True):
        assert sum(p.endswith(f"/feats/{kind}") for p in missing) == count, kind
    assert sum(p.endswith("/skill_increase") for p in missing) == increases
    assert sum(p.endswith("/attributes") for p in missing) == attribute_levels
    assert report.as_dict()["spent"]["xp"] == (level - 1) * 1000


def _homebrew_fillers():
    """Enough trained homebrew feats of every kind to fill twenty levels."""
    feats = []
    for kind, owner in (
        ("ancestry", {"ancestry": "human"}),
        ("class", {"class": "wizard"}),
        ("archetype", {"archetype": "linguist"}),
        ("skill", {"skill": "arcana"}),
        ("general", {}),
    ):
        feats += [
            {
                "id": f"{kind}_drill_{i}",
                "name": f"{kind.title()} Drill {i}",
                "kind": kind,
                "rank": "trained",
                **owner,
            }
            for i in range(12)
        ]
    return {"feats": feats}


def test_a_complete_level_twenty_build_is_valid_on_approval():
    slots = RULESET.house_defaults["feat_slots"]
    doc = wizard(level=20, budget={"xp": 19000}, levels={})
    attrs = {"str": 0, "dex": 2, "con": 2, "int": 4, "wis": 2, "cha": 0}
    # levels 3, 5 … 19; never above Class Proficiency (expert at 3, master at 7, … ascendant at 19)
    increases = iter(
        [
            "crafting",
            "medicine",
            "crafting",
            "medicine",
            "crafting",
            "society",
            "crafting",
            "medicine",
            "society",
        ]
    )
    used = {kind: 0 for kind in slots}
    for n in range(1, 21):
        entry = {"feats": {}}
        for kind, levels in slots.items():
            if n in levels:
                entry["feats"][kind] = f"{kind}_drill_{used[kind]}"
                used[kind] += 1
        if n == 1:
            entry["feats"]["archetype"] = "linguist_dedication"
        if n % 2 == 0:
            lowest = sorted(attrs, key=lambda a: (attrs[a], a))[:3]
            entry["attributes"] = {a: 1 for a in lowest}
            for a in lowest:
                attrs[a] += 1
        elif n >= 3:
            entry["skill_increase"] = next(increases)
        doc["levels"][str(n)] = entry
    doc["lores"] = (
        doc["lores"] + ["sailing", "herbalism", "mining", "legal", "mercantile"][: attrs["int"] - 4]
    )
    report = validate(doc, phase="approval", homebrew=_homebrew_fillers())
    assert report.as_dict()["errors"] == []
    assert report.derived["attributes"] == attrs
    assert report.derived["skill_ranks"]["arcana"] == "ascendant"
    assert report.derived["skill_ranks"]["crafting"] == "legendary"  # trained + 4 increases


# ------------------------------------------------------------- error codes


def _lv(n, **entry):
    return {str(n): entry}


ERROR_CASES = [
    # (name, document, code, path)
    (
        "attribute cap at a level-up",
        wizard(
            level=2,
            budget={"xp": 1000},
            levels={
                **WIZARD["levels"],
                **_lv(
                    2,
                    attributes={"int": 1, "dex": 1, "con": 1},
                    feats={"class": "reach_spell", "skill": "recognize_spell", "archetype": "polyglot"},
                ),
            },
        ),
        "ascendant.attribute_cap",
        "/levels/2/attributes/int",
    ),
    (
        "same free boost twice",
        wizard(boosts={**WIZARD["boosts"], "free": ["int", "int", "con", "wis"]}),
        "ascendant.boost_invalid",
        "/boosts/free/1",
    ),
    (
        "a fifth free boost",
        wizard(boosts={**WIZARD["boosts"], "free": ["str", "dex", "con", "wis", "cha"]}),
        "ascendant.boost_invalid",
        "/boosts/free/4",
    ),
    (
        "class boost off its key attributes",
        wizard(boosts={**WIZARD["boosts"], "class": "str"}),
        "ascendant.boost_invalid",
        "/boosts/class",
    ),
    (
        "background without its own attribute",
        wizard(boosts={**WIZARD["boosts"], "background": ["str", "dex", "cha"]}),
        "ascendant.boost_invalid",
        "/boosts/background",
    ),
    (
        "dwarf leaving out wisdom",
        wizard(
            ancestry="dwarf", heritage="rock_dwarf", boosts={**WIZARD["boosts"], "ancestry": ["con", "int"]}
        ),
        "ascendant.boost_invalid",
        "/boosts/ancestry",
    ),
    (
        "attribute points at an odd level",
        wizard(level=3, budget={"xp": 2000}, levels={**WIZARD["levels"], **_lv(3, attributes={"str": 3})}),
        "ascendant.boost_invalid",
        "/levels/3/attributes",
    ),
    (
        "a skill feat at level 1",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "skill": "recognize_spell"})),
        "ascendant.feat_slot_missing",
        "/levels/1/feats/skill",
    ),
    (
        "a general feat in the class slot",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "class": "toughness"})),
        "ascendant.feat_slot_missing",
        "/levels/1/feats/class",
    ),
    (
        "an expert class feat at level 1",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "class": "bond_conservation"})),
        "ascendant.feat_rank_too_high",
        "/levels/1/feats/class",
    ),
    (
        "an expert skill feat while only trained in the skill",
        wizard(level=4, budget={"xp": 3000}, levels={"4": {"feats": {"skill": "continual_recovery"}}}),
        "ascendant.feat_rank_too_high",
        "/levels/4/feats/skill",
    ),
    (
        "first archetype feat not a Dedication",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "archetype": "cipher_reader"})),
        "ascendant.feat_prerequisite_missing",
        "/levels/1/feats/archetype",
    ),
    (
        "a dedication without its skill",
        wizard(
            levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "archetype": "medic_dedication"}),
            skills={"crafting": "trained", "stealth": "trained"},
        ),
        "ascendant.feat_prerequisite_missing",
        "/levels/1/feats/archetype",
    ),
    (
        "a feat without the feat it needs",
        wizard(
            level=3,
            budget={"xp": 2000},
            levels={
                **WIZARD["levels"],
                "3": {"feats": {"ancestry": "clever_improviser"}},
                "1": {"feats": {**WIZARD["levels"]["1"]["feats"], "ancestry": "hardy_traveler"}},
            },
        ),
        "ascendant.feat_prerequisite_missing",
        "/levels/3/feats/ancestry",
    ),
    (
        "another class's feat",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "class": "power_attack"})),
        "ascendant.feat_prerequisite_missing",
        "/levels/1/feats/class",
    ),
    (
        "expert in a skill at level 1",
        wizard(skills={"crafting": "expert", "medicine": "trained"}),
        "ascendant.skill_rank_too_high",
        "/skills/crafting",
    ),
    (
        "raising the key skill",
        wizard(level=3, budget={"xp": 2000}, levels={**WIZARD["levels"], "3": {"skill_increase": "arcana"}}),
        "ascendant.skill_rank_too_high",
        "/levels/3/skill_increase",
    ),
    (
        "a skill above Class Proficiency",
        wizard(
            level=5,
            budget={"xp": 4000},
            levels={
                **WIZARD["levels"],
                "3": {"skill_increase": "crafting"},
                "5": {"skill_increase": "crafting"},
            },
        ),
        "ascendant.skill_rank_too_high",
        "/levels/5/skill_increase",
    ),
    (
        "a fifth lore on Intelligence +4",
        wizard(lores=[*WIZARD["lores"], "sailing"]),
        "ascendant.too_many_lores",
        "/lores/4",
    ),
    (
        "a third chosen skill for a wizard",
        wizard(skills={"crafting": "trained", "medicine": "trained", "stealth": "trained"}),
        "ascendant.too_many_skills",
        "/skills/stealth",
    ),
    (
        "an elf heritage for a human",
        wizard(heritage="woodland_elf"),
        "ascendant.heritage_mismatch",
        "/heritage",
    ),
    (
        "a skill increase at an even level",
        wizard(
            level=2, budget={"xp": 1000}, levels={**WIZARD["levels"], "2": {"skill_increase": "crafting"}}
        ),
        "ascendant.choice_not_due",
        "/levels/2/skill_increase",
    ),
    (
        "an unknown feat",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "general": "flying"})),
        "skill.unknown",
        "/levels/1/feats/general",
    ),
    ("an unknown ancestry", wizard(ancestry="orc"), "skill.unknown", "/ancestry"),
    (
        "an unknown skill",
        wizard(skills={"crafting": "trained", "piloting": "trained"}),
        "skill.unknown",
        "/skills/piloting",
    ),
    ("an unknown lore", wizard(lores=["gossip"]), "skill.unknown", "/lores/0"),
    # RULES.md (settled): the background's own lore may be listed once; listed twice it is a duplicate
    (
        "the background's lore twice",
        wizard(lores=["academia", "warfare", "academia"]),
        "skill.duplicate",
        "/lores/2",
    ),
    (
        "the heritage's feat again",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "ancestry": "adaptive_mind"})),
        "skill.duplicate",
        "/levels/1/feats/ancestry",
    ),
    (
        "an unknown attribute",
        wizard(boosts={**WIZARD["boosts"], "free": ["luck", "dex", "con", "wis"]}),
        "attribute.unknown",
        "/boosts/free/0",
    ),
    ("a level as text", wizard(level="3"), "build.malformed", "/level"),
    (
        "free boosts as one string",
        wizard(boosts={**WIZARD["boosts"], "free": "int"}),
        "build.malformed",
        "/boosts/free",
    ),
    (
        "a feat slot holding a number",
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "class": 7})),
        "build.malformed",
        "/levels/1/feats/class",
    ),
    ("level 3 on 1500 XP", wizard(level=3, budget={"xp": 1500}), "budget.exceeded", "/budget/xp"),
]


@pytest.mark.parametrize(
    ("doc", "code", "path"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_each_rule_reports_its_code_at_the_offending_value(doc, code, path):
    report = validate(doc)
    assert (code, path) in codes(report), report.as_dict()["errors"]
    assert not report.valid
    issue = next(i for i in report.errors if (i.code, i.path) == (code, path))
    assert len(issue.message) > 25  # says what is wrong and how to fix it


def test_missing_level_choices_are_warnings_in_draft_and_errors_on_approval():
    doc = wizard(
        levels=_lv(1, feats={k: v for k, v in WIZARD["levels"]["1"]["feats"].items() if k != "class"})
    )
    draft = validate(doc, phase="draft")
    approval = validate(doc, phase="approval")
    assert draft.valid
    assert ("ascendant.level_choices_missing", "/levels/1/feats/class") in codes(draft, "warnings")
    assert not approval.valid
    assert codes(approval) == {("ascendant.level_choices_missing", "/levels/1/feats/class")}


def test_fewer_boosts_than_given_are_a_missing_choice_not_an_error():
    report = validate(wizard(boosts={**WIZARD["boosts"], "free": ["int", "dex"]}))
    assert report.valid
    assert ("ascendant.level_choices_missing", "/boosts/free") in codes(report, "warnings")


def test_a_blank_build_is_legal_shaped_and_valid_as_a_draft():
    blank = RULESET.blank_build("Newcomer", {"xp": 0})
    report = validate(blank)
    assert report.valid
    assert ("ascendant.level_choices_missing", "/class") in codes(report, "warnings")
    assert not validate(blank, phase="approval").valid


# --------------------------------------------------------------- trade-down


LEVEL_2 = {
    "2": {
        "attributes": {"str": 1, "cha": 1, "wis": 1},
        "feats": {"class": "reach_spell", "skill": "recognize_spell", "archetype": "cipher_reader"},
    }
}


def _general_at_3(value, **house):
    doc = wizard(
        level=3,
        budget={"xp": 2000},
        levels={
            **WIZARD["levels"],
            **LEVEL_2,
            "3": {
                "skill_increase": "crafting",
                "feats": {"ancestry": "cooperative_nature", "general": value},
            },
        },
    )
    return validate(doc, phase="approval", settings=house or None)


def test_an_expert_slot_may_take_two_trained_feats():
    report = _general_at_3(["diehard", "toughness"])
    assert report.as_dict()["errors"] == []
    assert {"diehard", "toughness"} <= set(report.derived["feats"])


@pytest.mark.parametrize(
    ("value", "code", "path"),
    [
        # trading down again: two expert feats never become four trained ones
        # (RULES.md, settled: ascendant.feat_trade_invalid on the slot; was feat_slot_missing on the third feat)
        (
            ["diehard", "toughness", "incredible_initiative", "armor_proficiency"],
            "ascendant.feat_trade_invalid",
            "/levels/3/feats/general",
        ),
        # the pair must be of the rank below the slot's (settled: feat_trade_invalid on the slot)
        (["diehard", "untrained_improvisation"], "ascendant.feat_trade_invalid", "/levels/3/feats/general"),
        # the same feat twice
        (["diehard", "diehard"], "skill.duplicate", "/levels/3/feats/general/1"),
        # a list inside the slot is a traded feat traded again (settled: feat_trade_invalid)
        (["diehard", ["toughness", "fleet"]], "ascendant.feat_trade_invalid", "/levels/3/feats/general"),
    ],
)
def test_a_slot_trades_down_only_once(value, code, path):
    assert (code, path) in codes(_general_at_3(value))


def test_a_trained_slot_cannot_trade_down():
    report = validate(
        wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "general": ["diehard", "toughness"]}))
    )
    assert ("ascendant.feat_trade_invalid", "/levels/1/feats/general") in codes(report)  # settled code


def test_a_campaign_can_allow_only_one_trade_down_per_character():
    doc = fighter_at(5)
    doc["levels"]["5"]["feats"]["general"] = ["canny_acumen", "armor_proficiency"]
    assert validate(doc, phase="approval").valid  # two trade-downs (levels 3 and 5) by default
    limited = validate(doc, phase="approval", settings={"trade_downs_max": 1})
    assert codes(limited) == {("ascendant.feat_trade_invalid", "/levels/5/feats/general")}  # settled code


# ------------------------------------------------------------------- lores


@pytest.mark.parametrize(("int_points", "slots"), [(0, 4), (1, 5), (2, 6)])
def test_lore_slots_follow_intelligence(int_points, slots):
    points = {"int": int_points, "dex": 3 - int_points} if int_points < 3 else {"int": 3}
    if int_points == 0:
        points = {"dex": 1, "con": 1, "wis": 1}
    doc = wizard(level=2, budget={"xp": 1000}, levels={**WIZARD["levels"], "2": {"attributes": points}})
    doc["lores"] = ["warfare", "heraldry", "engineering", "astronomy", "sailing", "herbalism", "mining"][
        :slots
    ]
    report = validate(doc, settings={"attribute_max": {"trained": 6}, "creation_attribute_max": 4})
    assert report.derived["lore_slots"] == slots
    assert not any(e.code == "ascendant.too_many_lores" for e in report.errors)
    doc["lores"].append("legal")
    assert ("ascendant.too_many_lores", f"/lores/{slots}") in codes(
        validate(doc, settings={"attribute_max": {"trained": 6}})
    )


def test_negative_intelligence_gives_no_lores_and_no_error():
    doc = wizard(lores=[])
    report = validate(doc)
    assert report.derived["lore_slots"] == 4
    doc = copy.deepcopy(BENCH)
    doc["boosts"]["free"] = ["str", "dex", "wis", "cha"]
    doc["levels"]["4"]["attributes"] = {"str": 1, "dex": 1, "wis": 1}
    doc["levels"]["10"]["attributes"] = {"wis": 1, "cha": 1, "dex": 1}
    doc["lores"] = []
    report = validate(doc)
    assert report.derived["attributes"]["int"] == 0 and report.derived["lore_slots"] == 0
    assert not any(w.code == "ascendant.lore_slots_unused" for w in report.warnings)


# ------------------------------------------------------------- house rules


def test_house_rules_override_the_defaults():
    # a campaign that starts attributes at most at +3
    report = validate(WIZARD, settings={"creation_attribute_max": 3})
    assert codes(report) == {("ascendant.attribute_cap", "/boosts/free/0")}
    # a campaign that renames nothing but moves the Class Proficiency levels
    report = validate(
        wizard(level=2, budget={"xp": 1000}, levels={}),
        settings={"class_proficiency_levels": [1, 2, 7, 11, 15, 19]},
    )
    assert report.derived["class_proficiency"] == "expert" and report.derived["attribute_max"] == 5
    # the XP a level costs is a house default too
    report = validate(wizard(level=3, budget={"xp": 1000}), settings={"xp_per_level": 500})
    assert report.as_dict()["spent"]["xp"] == 1000


def test_an_unknown_house_rule_is_a_warning_and_changes_nothing():
    report = validate(WIZARD, settings={"flanking": True})
    assert report.valid
    assert ("settings.unknown", "/flanking") in codes(report, "warnings")


# ---------------------------------------------------------------- homebrew


def test_a_homebrew_feat_can_be_taken():
    homebrew = {
        "feats": [
            {
                "id": "spell_scholar",
                "name": "Spell Scholar",
                "kind": "class",
                "class": "wizard",
                "rank": "trained",
                "prerequisites": [{"attribute": "int", "min": 4}],
            }
        ]
    }
    doc = wizard(levels=_lv(1, feats={**WIZARD["levels"]["1"]["feats"], "class": "spell_scholar"}))
    assert ("skill.unknown", "/levels/1/feats/class") in codes(validate(doc))
    report = validate(doc, homebrew=homebrew, phase="approval")
    assert report.as_dict()["errors"] == []
    assert "spell_scholar" in report.derived["feats"]


def test_homebrew_ancestries_heritages_and_backgrounds():
    homebrew = {
        "ancestries": [
            {"id": "goblin", "name": "Goblin", "stamina": 6, "boosts": ["dex", "cha"], "free_boosts": 0}
        ],
        "heritages": [
            {"id": "snow_goblin", "name": "Snow Goblin", "ancestry": "goblin", "feat": "cold_blood"}
        ],
        "feats": [
            {
                "id": "cold_blood",
                "name": "Cold Blood",
                "kind": "ancestry",
                "ancestry": "goblin",
                "rank": "trained",
                "heritage": "snow_goblin",
            },
            {
                "id": "burn_it",
                "name": "Burn It!",
                "kind": "ancestry",
                "ancestry": "goblin",
                "rank": "trained",
            },
        ],
        "backgrounds": [
            {
                "id": "tinker",
                "name": "Tinker",
                "boosts": ["int", "dex"],
                "skill": "crafting",
                "lore": "mining",
                "skill_feat": "recognize_spell",
                "general_feat": "fleet",
            }
        ],
    }
    doc = wizard(
        ancestry="goblin",
        heritage="snow_goblin",
        background="tinker",
        boosts={**WIZARD["boosts"], "ancestry": ["dex", "cha"]},
        skills={"medicine": "trained", "stealth": "trained"},
        lores=["warfare", "heraldry", "astronomy"],
        levels=_lv(
            1, feats={**WIZARD["levels"]["1"]["feats"], "ancestry": "burn_it", "general": "toughness"}
        ),
    )
    report = validate(doc, homebrew=homebrew, phase="approval")
    assert report.as_dict()["errors"] == []
    # goblin 6 + level × (wizard 6 + con 2), + 1 per level from the Toughness taken at level 1 (#15: it now counts)
    assert report.derived["max_stamina"] == 6 + 1 * (6 + 2) + 1
    assert {"cold_blood", "recognize_spell", "fleet"} <= set(report.derived["feats"])


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        ({"id": "x", "name": "X", "kind": "heroic", "rank": "trained"}, "/feats/0/kind"),
        ({"id": "x", "name": "X", "kind": "general", "rank": "godlike"}, "/feats/0/rank"),
        ({"id": "x", "name": "X", "kind": "skill", "rank": "trained", "skill": "piloting"}, "/feats/0/skill"),
        ({"id": "x", "name": "X", "kind": "class", "rank": "trained"}, "/feats/0/class"),
        (
            {"id": "x", "name": "X", "kind": "general", "rank": "trained", "prerequisites": [{"level": 3}]},
            "/feats/0/prerequisites/0",
        ),
    ],
)
def test_a_malformed_homebrew_feat_is_reported_and_left_out(entry, path):
    report = validate(WIZARD, homebrew={"feats": [entry]})
    assert report.valid
    assert ("homebrew.malformed", path) in codes(report, "warnings")


# -------------------------------------------------------------- advancement


def test_a_level_up_that_keeps_earlier_choices_passes():
    old, new = fighter_at(4), fighter_at(5)
    report = validate(new, previous=old, phase="approval")
    assert report.as_dict()["errors"] == []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["levels"]["2"]["feats"].update({"class": "reactive_shield"}), "/levels/2/feats/class"),
        (lambda d: d["levels"]["3"].update(skill_increase="stealth"), "/levels/3/skill_increase"),
        (
            lambda d: d["levels"]["4"].update(attributes={"str": 1, "dex": 1, "cha": 1}),
            "/levels/4/attributes",
        ),
        (lambda d: d.update(heritage="forge_dwarf"), "/heritage"),
        (lambda d: d["boosts"].update(free=["str", "dex", "int", "wis"]), "/boosts/free"),
        (lambda d: d["lores"].remove("mining"), "/lores/0"),
    ],
)
def test_a_level_up_may_not_silently_change_an_earlier_level(change, path):
    old, new = fighter_at(4), fighter_at(5)
    change(new)
    report = validate(new, previous=old)
    assert ("ascendant.history_changed", path) in codes(report)


def test_a_level_may_not_go_down_in_an_advancement():
    report = validate(fighter_at(4), previous=fighter_at(5))
    assert ("ascendant.history_changed", "/level") in codes(report)


# ------------------------------------------------------------------ traits


def test_traits_list_what_each_level_up_asks_for():
    traits = RULESET.traits(RULESET.context())
    sections = {s["id"]: s for s in traits["sections"]}
    assert sections["level"]["kind"] == "number" and sections["level"]["max"] == 20
    assert sections["ancestry"]["kind"] == "choice" and sections["lores"]["kind"] == "multi"
    levels = sections["levels"]
    assert (levels["kind"], levels["widget"], levels["path"]) == ("custom", "ascendant_levels", "/levels")
    plan = {p["level"]: p for p in levels["data"]["levels"]}
    assert set(plan[1]["feats"]) == {"ancestry", "class", "archetype", "general"}
    assert all(levels["data"]["feats"][f].get("dedication") for f in plan[1]["feats"]["archetype"])
    assert "bond_conservation" not in plan[2]["feats"]["class"]  # expert: not before level 3
    assert "bond_conservation" in plan[4]["feats"]["class"]
    assert "adaptive_mind" not in plan[1]["feats"]["ancestry"]  # heritage feats are granted, not chosen
    assert (plan[2]["attribute_points"], plan[3]["attribute_points"]) == (3, 0)
    assert (plan[2]["skill_increase"], plan[3]["skill_increase"]) == (False, True)
    assert plan[3]["trade_down"] is True and plan[1]["trade_down"] is False


# -------------------------------------------------------------------- speed


def test_the_typical_level_ten_build_is_valid():
    # Its speed is measured in bench/run.py, not here.
    report = validate(BENCH)
    assert report.valid


@pytest.mark.parametrize("xp, reachable", [(9400, 10), (9999, 10), (10000, 11), (12500, 13), (99999, 20)])
def test_level_reachable_is_the_level_the_earned_xp_pays_for(xp, reachable):
    build = {**copy.deepcopy(BENCH), "budget": {"xp": xp}}
    report = validate(build)
    assert report.derived["level"] == 10
    assert report.derived["level_reachable"] == reachable


# ------------------------------------------------------------------ hints name what can be picked


@pytest.mark.parametrize("background", ["soldier", "scholar"])
def test_the_empty_general_feat_hint_names_only_feats_that_fit_the_slot(background):
    """The soldier background grants Toughness and the scholar Canny Acumen: the hint for an empty
    general feat names neither, and every feat it names fills the slot without an error there."""
    doc = wizard(background=background)
    doc["levels"]["1"]["feats"]["general"] = None
    path = "/levels/1/feats/general"
    report = validate(doc).as_dict()
    hint = next(i for i in report["errors"] + report["warnings"] if i["path"] == path)["message"]
    named = re.search(r"\(e\.g\. (.*?)(?:, …)?\)\.$", hint).group(1).split(", ")
    granted = {"soldier": "Toughness", "scholar": "Canny Acumen"}[background]
    assert granted not in named and len(named) >= 3, hint
    feats = {f["name"]: fid for fid, f in RULESET.catalogue["feats"].items()}
    for name in named:
        doc["levels"]["1"]["feats"]["general"] = feats[name]
        report = validate(doc).as_dict()
        at_slot = [i["message"] for i in report["errors"] + report["warnings"] if i["path"] == path]
        assert at_slot == [], (name, at_slot)
