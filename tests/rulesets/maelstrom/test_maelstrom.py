"""Maelstrom builds: examples, every error code at its path, pricing, creation, house rules,
homebrew and advancement (RULES.md section 5)."""

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.engine import name_key, registry, validate
from rulesets.systems.maelstrom import RULESET
from tests import fuzz
from tests.rulesets.report_helpers import example_paths, typical

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = example_paths("maelstrom")
DEMOS = sorted((ROOT / "rulesets" / "systems" / "maelstrom" / "demo").glob("*.json"))

KESTREL = json.loads(
    (registry.get("maelstrom").package_dir / "examples" / "kestrel_investigator.json").read_text()
)["build"]


def kestrel(**changes) -> dict:
    """The valid example sheet (20 XP of 30), with top-level changes."""
    build = copy.deepcopy(KESTREL)
    build.update(changes)
    return build


def run(build, **kwargs) -> dict:
    return validate(build, **kwargs).as_dict()


def codes(report, kind="errors") -> set[tuple[str, str]]:
    return {(i["code"], i["path"]) for i in report[kind]}


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example(path):
    example = json.loads(path.read_text())
    expect = example["expect"]
    report = run(example["build"])
    assert report["valid"] is expect["valid"], report["errors"]
    if "spent" in expect:
        assert report["spent"] == expect["spent"]
    if "remaining" in expect:
        assert report["remaining"] == expect["remaining"]
    for key, value in expect.get("derived", {}).items():
        assert report["derived"][key] == value
    for error in expect.get("errors", []):
        assert (error["code"], error["path"]) in codes(report)
    if expect["valid"]:
        assert report["errors"] == []


def test_the_examples_are_found():
    assert len(EXAMPLES) == 2


def test_derived_health_chart_and_willpower():
    report = run(kestrel())
    levels = report["derived"]["health_levels"]
    assert [(lv["label"], lv["penalty"]) for lv in levels] == [
        ("Bruised", 0),
        ("Scratched", -1),
        ("Hurt", -1),
        ("Injured", -2),
        ("Wounded", -2),
        ("Mauled", -3),
        ("Crippled", -5),
        ("Incapacitated", None),
    ]
    assert report["derived"]["willpower"] == 4
    assert report["derived"]["primary"] == "mental"


# -------------------------------------------------------- errors and warnings


def _set(section, key, value):
    def change(build):
        build[section][key] = value

    return change


def _drop(section, key):
    def change(build):
        del build[section][key]

    return change


def _spec(entry, index=None):
    def change(build):
        if index is None:
            build["specialties"].append(entry)
        else:
            build["specialties"][index] = entry

    return change


def _top(key, value):
    def change(build):
        build[key] = value

    return change


def _with_creation(**parts):
    def change(build):
        creation = {
            "primary": "mental",
            "attributes": dict(build["attributes"]),
            "abilities": {**build["abilities"], "investigation": 3},
        }
        creation.update(parts)
        build["creation"] = creation

    return change


ERRORS = [
    ("attribute.unknown", "/attributes/luck", _set("attributes", "luck", 2)),
    ("attribute.missing", "/attributes/wits", _drop("attributes", "wits")),
    ("attribute.above_maximum", "/attributes/precision", _set("attributes", "precision", 6)),
    ("attribute.below_minimum", "/attributes/strength", _set("attributes", "strength", -1)),
    ("attribute.above_maximum", "/willpower", _top("willpower", 11)),
    ("attribute.below_minimum", "/willpower", _top("willpower", 0)),
    ("skill.unknown", "/abilities/cooking", _set("abilities", "cooking", 1)),
    ("skill.above_maximum", "/abilities/investigation", _set("abilities", "investigation", 6)),
    ("skill.unknown", "/specialties/3/ability", _spec({"ability": "cooking", "name": "Baking"})),
    ("skill.duplicate", "/specialties/3", _spec({"ability": "investigation", "name": "research"})),
    ("skill.duplicate", "/specialties/3", _spec({"ability": "technology", "name": "HACKING!"})),
    (
        "specialty.kind_mismatch",
        "/specialties/0/kind",
        _spec({"ability": "investigation", "name": "Forensics", "kind": "general"}, 0),
    ),
    ("maelstrom.below_creation", "/willpower", _top("willpower", 2)),
    ("maelstrom.creation_abilities", "/abilities", _drop("abilities", "statecraft")),
    ("maelstrom.creation_attributes", "/attributes", _set("attributes", "wits", 2)),
    (
        "maelstrom.creation_attributes",
        "/creation/attributes",
        _with_creation(
            attributes={
                "strength": 2,
                "precision": 3,
                "reflexes": 2,
                "perception": 3,
                "intelligence": 3,
                "wits": 2,
            }
        ),
    ),
    (
        "maelstrom.creation_abilities",
        "/creation/abilities",
        _with_creation(abilities={"investigation": 3, "computer_science": 3}),
    ),
    (
        "maelstrom.below_creation",
        "/abilities/science",
        _with_creation(
            abilities={**KESTREL["abilities"], "investigation": 3, "science": 3, "computer_science": 2}
        ),
    ),
    (
        "maelstrom.below_creation",
        "/attributes/wits",
        _with_creation(
            primary="mental",
            attributes={
                "strength": 2,
                "precision": 3,
                "reflexes": 2,
                "perception": 2,
                "intelligence": 3,
                "wits": 4,
            },
        ),
    ),
    (
        "skill.unknown",
        "/creation/abilities/cooking",
        _with_creation(abilities={**KESTREL["abilities"], "investigation": 3, "cooking": 1}),
    ),
    ("build.malformed", "/attributes", _top("attributes", [2, 3])),
    ("build.malformed", "/attributes/wits", _set("attributes", "wits", "3")),
    ("build.malformed", "/abilities", _top("abilities", ["firearms"])),
    ("build.malformed", "/abilities/firearms", _set("abilities", "firearms", 1.5)),
    ("build.malformed", "/abilities/firearms", _set("abilities", "firearms", -1)),
    ("build.malformed", "/willpower", _top("willpower", "4")),
    ("build.malformed", "/specialties", _top("specialties", {"firearms": "Pistols"})),
    ("build.malformed", "/specialties/3", _spec("Pistols")),
    ("build.malformed", "/specialties/3/name", _spec({"ability": "firearms", "name": 7})),
    ("build.malformed", "/specialties/3/ability", _spec({"name": "Pistols"})),
    (
        "build.malformed",
        "/specialties/3/kind",
        _spec({"ability": "firearms", "name": "Pistols", "kind": "expert"}),
    ),
    ("build.malformed", "/creation", _top("creation", "physical")),
    ("build.malformed", "/creation/primary", _with_creation(primary="brains")),
    ("build.malformed", "/budget/xp", _top("budget", {"xp": "thirty"})),
    ("build.malformed", "/name", _top("name", "")),
    ("budget.exceeded", "/budget/xp", _top("budget", {"xp": 19})),
]


@pytest.mark.parametrize("code, path, change", ERRORS, ids=[f"{c}@{p}" for c, p, _ in ERRORS])
def test_error(code, path, change):
    build = kestrel()
    change(build)
    report = run(build)
    assert report["valid"] is False
    assert (code, path) in codes(report), report["errors"]
    issue = next(e for e in report["errors"] if (e["code"], e["path"]) == (code, path))
    assert len(issue["message"]) > 20


WARNINGS = [
    ("attribute.zero", "/attributes/strength", _set("attributes", "strength", 0)),
    ("specialty.unlisted", "/specialties/3/name", _spec({"ability": "firearms", "name": "Revolvers"})),
    ("build.unknown_key", "/cybernetics", _top("cybernetics", [])),
    (
        "build.unknown_key",
        "/specialties/3/rating",
        _spec({"ability": "firearms", "name": "Pistols", "rating": 2}),
    ),
]


@pytest.mark.parametrize("code, path, change", WARNINGS, ids=[f"{c}@{p}" for c, p, _ in WARNINGS])
def test_warning(code, path, change):
    build = kestrel()
    change(build)
    report = run(build)
    assert (code, path) in codes(report, "warnings"), report["warnings"]


def test_an_unlisted_specialty_is_still_valid_and_priced_by_its_kind():
    general = run(
        kestrel(specialties=KESTREL["specialties"] + [{"ability": "firearms", "name": "Revolvers"}])
    )
    advanced = run(
        kestrel(
            specialties=KESTREL["specialties"]
            + [{"ability": "firearms", "name": "Revolvers", "kind": "advanced"}]
        )
    )
    assert general["valid"] and advanced["valid"]
    assert (general["spent"]["xp"], advanced["spent"]["xp"]) == (22, 23)


def test_a_specialty_of_an_ability_with_no_dots_is_allowed():
    report = run(
        kestrel(specialties=KESTREL["specialties"] + [{"ability": "piloting", "name": "Space Flight"}])
    )
    assert report["valid"] and report["spent"]["xp"] == 22


@pytest.mark.parametrize(
    "name, kind, cost",
    [
        ("Space Flight", "general", 2),
        ("spaceflight", "general", 2),
        ("SPACE-FLIGHT", "general", 2),
        ("Atmospheric Flight", "advanced", 3),
    ],
)
def test_specialty_names_compare_without_case_or_punctuation(name, kind, cost):
    build = kestrel(specialties=[{"ability": "piloting", "name": name}])
    report = run(build)
    assert report["warnings"] == []
    assert report["costs"][-1]["cost"] == cost
    assert kind in report["costs"][-1]["label"]


@pytest.mark.parametrize(
    "ability, name, kind",
    [
        ("humanities", "Mandarin Language", "advanced"),  # the seed's own example of a specific language
        ("humanities", "Chinese", "advanced"),
        ("alertness", "Terrain (Urban)", "general"),
        ("performance", "Piano", "advanced"),
    ],
)
def test_template_specialties_recognise_their_examples(ability, name, kind):
    report = run(kestrel(specialties=[{"ability": ability, "name": name}]))
    assert report["warnings"] == []
    assert kind in report["costs"][-1]["label"]


def test_two_specific_languages_are_two_specialties():
    specs = [{"ability": "humanities", "name": "Chinese"}, {"ability": "humanities", "name": "Russian"}]
    report = run(kestrel(specialties=specs))
    assert report["valid"] and report["spent"]["xp"] == 12 + 3 + 3


# ---------------------------------------------------------------- pricing


def _costs_at(report, path):
    return [c["cost"] for c in report["costs"] if c["path"] == path]


@pytest.mark.parametrize(
    "change, path, costs, spent",
    [
        # Kestrel spends 20: Investigation 4 (8), Willpower 4 (4), three specialties (3 + 2 + 3).
        # Investigation has 3 creation dots: the 4th costs 4 × 2, the 5th 5 × 2.
        (_set("abilities", "investigation", 4), "/abilities/investigation", [8], 20),
        (_set("abilities", "investigation", 5), "/abilities/investigation", [8, 10], 30),
        # Willpower starts at 3: 3 → 5 costs 4 + 5.
        (_top("willpower", 5), "/willpower", [4, 5], 25),
        (_top("willpower", 3), "/willpower", [], 16),
        # An attribute dot above creation costs 15.
        (_set("attributes", "wits", 4), "/attributes/wits", [15], 35),
        (_set("attributes", "wits", 5), "/attributes/wits", [15, 15], 50),
        # A thirteenth ability, above every creation slot: its 1st dot costs 2.
        (_set("abilities", "piloting", 1), "/abilities/piloting", [2], 22),
        # Specialties: general 2, advanced 3.
        (_spec({"ability": "firearms", "name": "Pistols"}), "/specialties/3", [2], 22),
        (_spec({"ability": "firearms", "name": "Extreme Range"}), "/specialties/3", [3], 23),
    ],
)
def test_pricing_table(change, path, costs, spent):
    build = kestrel(budget={"xp": 100})
    change(build)
    report = run(build)
    assert _costs_at(report, path) == costs
    assert report["spent"] == {"xp": spent}


def test_the_fourth_dot_says_why_it_costs_eight():
    report = run(kestrel())
    (line,) = [c for c in report["costs"] if c["path"] == "/abilities/investigation"]
    assert line["cost"] == 8
    assert "Investigation 4 costs 8 XP because it is the 4th dot" in line["label"]


def test_a_paper_sheet_is_priced_by_the_cheapest_legal_creation():
    sheet = {
        "ruleset": "maelstrom",
        "name": "Paper",
        "budget": {"xp": 75},
        # physical extras 2+2+3 = 7, mental 1+2+2 = 5: physical primary, 2 dots bought = 30
        "attributes": {
            "strength": 3,
            "precision": 3,
            "reflexes": 4,
            "perception": 2,
            "intelligence": 3,
            "wits": 3,
        },
        # Σ f(f+1) = 30 + 12 + 12 + 5×6 + 6×2 = 96; the creation saves 60 → 36
        "abilities": {
            "firearms": 5,
            "athletics": 3,
            "piloting": 3,
            "alertness": 2,
            "melee": 2,
            "driving": 2,
            "stealth": 2,
            "technology": 2,
            "survival": 1,
            "medicine": 1,
            "navigation": 1,
            "engineering": 1,
            "streetwise": 1,
            "tradecraft": 1,
        },
        "willpower": 4,  # 4
        "specialties": [
            {"ability": "firearms", "name": "Sniper Rifles"},  # 2
            {"ability": "piloting", "name": "Fighters"},  # 3
        ],
    }
    report = run(sheet)
    assert report["valid"], report["errors"]
    assert report["spent"] == {"xp": 30 + 36 + 4 + 5}
    assert report["remaining"] == {"xp": 0}
    creation = report["derived"]["creation"]
    assert creation["source"] == "cheapest" and creation["primary"] == "physical"
    assert sum(creation["attributes"][a] - 1 for a in ("strength", "precision", "reflexes")) == 6
    assert sum(creation["attributes"][a] - 1 for a in ("perception", "intelligence", "wits")) == 4
    assert sorted(creation["abilities"].values(), reverse=True) == [3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1]
    assert all(creation["abilities"][k] <= sheet["abilities"][k] for k in creation["abilities"])
    # The XP dots of the attributes are the top ones of the highest attributes.
    assert _costs_at(report, "/attributes/reflexes") == [15]


@pytest.mark.parametrize(
    "attributes, primary, valid, attribute_xp",
    [
        (
            {"strength": 3, "precision": 3, "reflexes": 3, "perception": 3, "intelligence": 2, "wits": 2},
            "physical",
            True,
            0,
        ),
        # 4 and 7: mental primary, 1 bought dot.
        (
            {"strength": 2, "precision": 2, "reflexes": 3, "perception": 3, "intelligence": 3, "wits": 4},
            "mental",
            True,
            15,
        ),
        # 5 and 5 extra dots: physical wins the tie and is one short (the surplus mental dot is still priced).
        (
            {"strength": 3, "precision": 3, "reflexes": 2, "perception": 3, "intelligence": 3, "wits": 2},
            "physical",
            False,
            15,
        ),
        # 8 and 4: legal, 2 bought dots.
        (
            {"strength": 4, "precision": 4, "reflexes": 3, "perception": 2, "intelligence": 2, "wits": 3},
            "physical",
            True,
            30,
        ),
        # 6 and 6: physical primary on the tie, 2 bought dots in mental.
        (
            {"strength": 3, "precision": 3, "reflexes": 3, "perception": 3, "intelligence": 3, "wits": 3},
            "physical",
            True,
            30,
        ),
    ],
)
def test_the_primary_group_is_the_one_with_more_extra_dots(attributes, primary, valid, attribute_xp):
    build = kestrel(attributes=attributes, budget={"xp": 100})
    report = run(build)
    assert report["derived"]["primary"] == primary
    assert report["valid"] is valid
    assert sum(c["cost"] for c in report["costs"] if c["path"].startswith("/attributes/")) == attribute_xp
    if not valid:
        assert ("maelstrom.creation_attributes", "/attributes") in codes(report)


def test_ability_xp_without_creation_is_sum_of_final_times_final_plus_one_minus_sixty():
    abilities = dict(KESTREL["abilities"], investigation=5, science=3, piloting=2)
    report = run(kestrel(abilities=abilities, budget={"xp": 100}))
    expected = sum(v * (v + 1) for v in abilities.values()) - 60
    assert sum(c["cost"] for c in report["costs"] if c["path"].startswith("/abilities/")) == expected


def test_a_recorded_creation_prices_from_its_dots():
    creation = {
        "primary": "mental",
        "attributes": {
            "strength": 2,
            "precision": 3,
            "reflexes": 2,
            "perception": 3,
            "intelligence": 3,
            "wits": 3,
        },
        "abilities": {**KESTREL["abilities"], "investigation": 3},
    }
    build = kestrel(
        creation=creation,
        attributes=dict(KESTREL["attributes"], wits=4),
        abilities=dict(KESTREL["abilities"], investigation=5),
        budget={"xp": 100},
    )
    report = run(build)
    assert report["valid"], report["errors"]
    # wits 3 → 4: 15; investigation 3 → 5: 8 + 10; willpower 4; specialties 3 + 2 + 3
    assert report["spent"] == {"xp": 15 + 18 + 4 + 8}
    assert report["derived"]["creation"]["source"] == "document"
    assert report["derived"]["creation"]["abilities"]["investigation"] == 3


def test_a_recorded_creation_fixes_which_dots_are_free():
    # Creation put a 3 in science, a 2 in computer science: computer science 3 now costs its 3rd dot.
    abilities = {**KESTREL["abilities"], "investigation": 3, "science": 3, "computer_science": 2}
    build = kestrel(
        creation={"attributes": dict(KESTREL["attributes"]), "abilities": abilities},
        abilities=dict(KESTREL["abilities"], science=3),
        budget={"xp": 100},
    )
    report = run(build)
    assert report["valid"], report["errors"]
    assert _costs_at(report, "/abilities/computer_science") == [6]
    assert report["spent"] == {"xp": 20 + 6}
    assert _costs_at(report, "/abilities/investigation") == [8]


def test_a_creation_with_only_abilities_allocates_the_attributes_itself():
    build = kestrel(creation={"abilities": {**KESTREL["abilities"], "investigation": 3}})
    report = run(build)
    assert report["valid"] and report["spent"] == {"xp": 20}
    assert report["derived"]["primary"] == "mental"


def test_a_campaign_house_rule_overrides_a_cost():
    build = kestrel(attributes=dict(KESTREL["attributes"], wits=4))
    report = run(build, settings={"xp_costs": {"attribute": 10}})
    assert _costs_at(report, "/attributes/wits") == [10]
    assert "house rule" in next(c["label"] for c in report["costs"] if c["path"] == "/attributes/wits")
    assert run(build)["spent"]["xp"] - report["spent"]["xp"] == 5


def test_a_campaign_house_rule_overrides_the_starting_budget():
    build = kestrel()
    del build["budget"]
    assert run(build)["budget"] == {"xp": 30}
    assert run(build, settings={"starting_budget": {"xp": 45}})["budget"] == {"xp": 45}


def test_a_malformed_house_rule_is_reported_and_the_default_kept():
    report = run(kestrel(), settings={"xp_costs": {"attribute": "cheap"}})
    assert ("settings.malformed", "/xp_costs/attribute") in codes(report, "warnings")
    assert report["spent"] == {"xp": 20}


# ---------------------------------------------------------------- homebrew


def test_a_homebrew_specialty_is_listed_and_priced_by_its_kind():
    homebrew = {
        "specialties": [
            {"id": "firearms_revolvers", "ability": "firearms", "name": "Revolvers", "kind": "advanced"}
        ]
    }
    build = kestrel(specialties=KESTREL["specialties"] + [{"ability": "firearms", "name": "revolvers"}])
    report = run(build, homebrew=homebrew)
    assert report["valid"] and report["warnings"] == []
    assert _costs_at(report, "/specialties/3") == [3]


def test_a_homebrew_ability_counts_for_creation_and_pricing():
    homebrew = {
        "abilities": [{"id": "zero_g_combat", "name": "Zero-G Combat", "category": "skill"}],
        "specialties": [
            {
                "id": "zero_g_combat_boarding",
                "ability": "zero_g_combat",
                "name": "Boarding",
                "kind": "general",
            }
        ],
    }
    build = kestrel(
        abilities=dict(KESTREL["abilities"], zero_g_combat=2),
        specialties=KESTREL["specialties"] + [{"ability": "zero_g_combat", "name": "Boarding"}],
    )
    report = run(build, homebrew=homebrew)
    assert report["valid"], report["errors"]
    assert report["spent"]["xp"] == 20 + 2 + 4 + 2
    assert ("skill.unknown", "/abilities/zero_g_combat") in codes(run(build))


@pytest.mark.parametrize(
    "homebrew, path",
    [
        (
            {"specialties": [{"id": "x_y", "ability": "firearms", "name": "Y", "kind": "expert"}]},
            "/specialties/0/kind",
        ),
        ({"specialties": [{"id": "x_y", "ability": "firearms", "kind": "general"}]}, "/specialties/0/name"),
        (
            {"specialties": [{"id": "x_y", "ability": "cooking", "name": "Y", "kind": "general"}]},
            "/specialties/0/ability",
        ),
        ({"specialties": ["revolvers"]}, "/specialties/0"),
        (
            {"specialties": [{"id": "Bad Id", "ability": "firearms", "name": "Y", "kind": "general"}]},
            "/specialties/0/id",
        ),
        (
            {"abilities": [{"id": "hacking2", "name": "Hacking", "category": "spell"}]},
            "/abilities/0/category",
        ),
        ({"abilities": "lots"}, "/abilities"),
    ],
)
def test_malformed_homebrew_is_reported_not_raised(homebrew, path):
    report = run(kestrel(), homebrew=homebrew)
    assert report["valid"] is True
    assert any(w["path"] == path and w["code"].startswith("homebrew.") for w in report["warnings"]), report[
        "warnings"
    ]


# ------------------------------------------------------------- advancement


def test_an_advancement_that_only_adds_is_accepted():
    new = kestrel(willpower=5, abilities=dict(KESTREL["abilities"], piloting=1), budget={"xp": 40})
    report = run(new, previous=kestrel())
    assert report["valid"], report["errors"]


@pytest.mark.parametrize(
    "change, code, path",
    [
        (_set("attributes", "wits", 2), "advancement.decrease", "/attributes/wits"),
        (_set("abilities", "investigation", 3), "advancement.decrease", "/abilities/investigation"),
        (_drop("abilities", "statecraft"), "advancement.decrease", "/abilities/statecraft"),
        (_top("willpower", 3), "advancement.decrease", "/willpower"),
        (lambda b: b["specialties"].pop(1), "advancement.decrease", "/specialties"),
    ],
)
def test_advancement_decreases_are_refused(change, code, path):
    new = kestrel()
    change(new)
    report = run(new, previous=kestrel())
    assert (code, path) in codes(report)


def test_renaming_a_specialty_only_in_case_is_not_a_loss():
    new = kestrel(specialties=[dict(s, name=s["name"].upper()) for s in KESTREL["specialties"]])
    assert run(new, previous=kestrel())["valid"]


def test_recorded_creation_dots_are_fixed():
    creation = {
        "primary": "mental",
        "attributes": dict(KESTREL["attributes"]),
        "abilities": {**KESTREL["abilities"], "investigation": 3},
    }
    old = kestrel(creation=creation)
    new = kestrel(creation={**creation, "abilities": {**KESTREL["abilities"], "computer_science": 2}})
    assert ("maelstrom.creation_changed", "/creation") in codes(run(new, previous=old))
    assert run(kestrel(creation=copy.deepcopy(creation)), previous=old)["valid"]


# ------------------------------------------------------- builder and content


def test_content_catalogues():
    cat = RULESET.catalogue
    assert [a["group"] for a in cat["attributes"].values()] == ["physical"] * 3 + ["mental"] * 3
    assert len(cat["abilities"]) == 24
    assert {
        c: sum(1 for a in cat["abilities"].values() if a["category"] == c)
        for c in ("talent", "skill", "knowledge")
    } == {"talent": 8, "skill": 8, "knowledge": 8}
    specs = cat["specialties"]
    assert len(specs) == 186
    assert specs["investigation_forensics"]["kind"] == "advanced"
    assert specs["investigation_research"]["kind"] == "general"
    assert specs["piloting_space_flight"] == {
        "id": "piloting_space_flight",
        "ability": "piloting",
        "name": "Space Flight",
        "kind": "general",
    }
    assert sum(1 for s in specs.values() if name_key(s["name"]) == "powerarmor") == 8
    assert all(s["ability"] in cat["abilities"] for s in specs.values())
    assert [h["id"] for h in cat["health_levels"].values()] == [
        h["id"] for h in RULESET.house_defaults["health_chart"]
    ]
    assert {a["id"]: a["scope"] for a in cat["awards"].values()} == {
        "participation": "chapter",
        "creativity": "chapter",
        "roleplaying": "chapter",
        "heroism": "chapter",
        "victory": "story",
        "hazard": "story",
        "ingenuity": "story",
    }


def test_traits_describe_the_sections_for_the_builder():
    sections = {s["id"]: s for s in RULESET.traits(RULESET.context())["sections"]}
    assert [s["kind"] for s in sections.values()] == ["numbers", "ranks", "number", "records", "custom"]
    assert sections["attributes"]["path"] == "/attributes" and len(sections["attributes"]["fields"]) == 6
    assert sections["abilities"]["max"] == 5 and len(sections["abilities"]["options"]) == 24
    assert (sections["willpower"]["default"], sections["willpower"]["max"]) == (3, 10)
    assert {"name": "Forensics", "kind": "advanced"} in sections["specialties"]["suggestions"][
        "investigation"
    ]
    creation = sections["creation"]
    assert creation["widget"] == "maelstrom_creation"
    assert creation["ability_slots"] == [3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1]
    assert creation["attribute_dots"] == {"primary": 6, "secondary": 4}


def test_a_blank_build_has_the_right_shape_and_costs_nothing():
    blank = RULESET.blank_build("New", {"xp": 30})
    report = run(blank)
    assert blank["attributes"] == dict.fromkeys(RULESET.catalogue["attributes"], 1)
    assert report["spent"] == {"xp": 0}
    assert {e["code"] for e in report["errors"]} == {
        "maelstrom.creation_attributes",
        "maelstrom.creation_abilities",
    }


@pytest.mark.parametrize("path", DEMOS, ids=lambda p: p.stem)
def test_demo_characters_are_valid(path):
    report = run(json.loads(path.read_text()))
    assert report["valid"], report["errors"]
    assert report["remaining"]["xp"] >= 0


def test_bench_build_is_valid():
    # Its speed is measured in bench/run.py, not here.
    doc = typical("maelstrom")
    assert len(doc["abilities"]) == 15 and len(doc["specialties"]) == 10 and "creation" not in doc
    first = run(doc)
    assert first["valid"] and first["spent"] == {"xp": 29} and first["warnings"] == []
    report = validate(doc)
    assert report.valid


SAFETY_NET = "could not read this build"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
TRAIT_KEYS = st.sampled_from(
    ["attributes", "abilities", "willpower", "specialties", "creation", "budget", "name"]
)


@settings(max_examples=fuzz.examples(full=150, smoke=30), deadline=None)
@given(st.dictionaries(TRAIT_KEYS, json_values, max_size=5), st.data())
def test_any_document_gets_a_report_without_tripping_the_safety_net(overrides, data):
    build = kestrel(**overrides)
    if data.draw(st.booleans()):
        build["specialties"] = data.draw(
            st.lists(
                st.dictionaries(
                    st.sampled_from(["ability", "name", "kind"]),
                    json_values | st.sampled_from(["firearms", "general"]),
                    max_size=3,
                ),
                max_size=3,
            )
        )
    report = validate(build).as_dict()
    assert report["valid"] is (report["errors"] == [])
    assert all(SAFETY_NET not in e["message"] for e in report["errors"]), report["errors"]


@pytest.mark.parametrize(
    "doc",
    [
        {"ruleset": "maelstrom"},
        {
            "ruleset": "maelstrom",
            "name": "X",
            "attributes": {"strength": None},
            "abilities": None,
            "specialties": [None],
            "willpower": None,
            "creation": {"attributes": 3, "abilities": []},
        },
    ],
)
def test_garbage_gets_a_precise_report(doc):
    report = validate(doc).as_dict()
    assert report["valid"] is False
    assert ("build.malformed", "/name") in codes(report) or (
        "build.malformed",
        "/attributes/strength",
    ) in codes(report)
    assert all(SAFETY_NET not in e["message"] for e in report["errors"])
