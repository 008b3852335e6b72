"""Pando builds in, reports out (RULES.md section 1, seed 000)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.engine import registry, validate
from tests import fuzz
from tests.rulesets.report_helpers import example_paths, typical

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = example_paths("pando")
DEMOS = sorted((ROOT / "rulesets" / "systems" / "pando" / "demo").glob("*.json"))
PANDO = registry.get("pando")

ALEX = {
    "ruleset": "pando",
    "name": "Alex",
    "budget": {"cp": 40},
    "species": "humanoid",
    "attributes": {
        "strength": 2,
        "endurance": 1,
        "acrobatics": 2,
        "coordination": 3,
        "rationality": 2,
        "perspective": 1,
        "presence": 1,
    },
    "resistances": {"awareness": "presence", "insight": "rationality", "willpower": "perspective"},
    "skills": ["melee", "blades", "shields"],
    "equipment": [
        {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
        {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
        {"item": "leather_cap", "state": "worn"},
        {"item": "bandage", "state": "carried"},
    ],
}


def build(**changes):
    doc = copy.deepcopy(ALEX)
    for key, value in changes.items():
        if value is ...:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def attrs(**changes):
    out = dict(ALEX["attributes"])
    for key, value in changes.items():
        if value is ...:
            out.pop(key)
        else:
            out[key] = value
    return out


def errors(report):
    return [(e.code, e.path) for e in report.errors]


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_builds_give_the_expected_report(path):
    example = json.loads(path.read_text())
    report = validate(example["build"]).as_dict()
    expect = example["expect"]
    assert report["valid"] is expect["valid"], report["errors"]
    for key in ("spent", "remaining"):
        if key in expect:
            assert report[key] == expect[key]
    for key, value in expect.get("derived", {}).items():
        assert report["derived"][key] == value, key
    for err in expect.get("errors", []):
        assert (err["code"], err["path"]) in [(e["code"], e["path"]) for e in report["errors"]]


def test_there_are_pando_examples_to_check():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("path", DEMOS, ids=[p.stem for p in DEMOS])
def test_the_pando_folk_demo_characters_are_valid(path):
    report = validate(json.loads(path.read_text()))
    assert report.valid, report.errors
    assert report.budget == {"cp": 40}
    assert report.remaining["cp"] >= 0


def test_all_four_pando_folk_are_there():
    assert [p.stem for p in DEMOS] == ["alex", "charlotte", "ira", "pablo"]


def test_the_bench_build_is_a_valid_typical_character():
    doc = typical("pando")
    report = validate(doc)
    assert report.valid, report.errors
    assert len(doc["skills"]) == 15 and len(doc["equipment"]) == 6
    assert report.spent == {"cp": 95}
    assert report.derived["encumbrance"] == 1 and report.derived["max_stamina"] == 11


def test_the_bench_build_is_valid():
    # Its speed is measured in bench/run.py, not here.
    report = validate(typical("pando"))
    assert report.valid


# ------------------------------------------------------------- the seed's sums

BLANK_ATTRS = {a: 1 for a in ALEX["attributes"]}


@pytest.mark.parametrize(
    ("changes", "cp"),
    [
        ({}, 0),
        ({"strength": 2}, 4),
        ({"strength": 3}, 10),
        ({"strength": 4}, 18),  # seed: 4 + 6 + 8
        ({"strength": 4, "presence": 2}, 22),
    ],
)
def test_attribute_costs_follow_the_seed(changes, cp):
    report = validate(build(attributes={**BLANK_ATTRS, **changes}, skills=[], equipment=[]))
    assert report.valid
    assert report.spent == {"cp": cp}


@pytest.mark.parametrize(
    ("skills", "cp"),
    [
        (["melee"], 2),
        (["melee", "blades"], 5),
        (["melee", "blades", "longswords"], 9),  # seed: a level 4 skill totals 9 (ERRATUM: cost = level)
        (["melee", "blades", "longswords", "longswords_mastery"], 14),  # and its mastery 14
    ],
)
def test_skill_costs_equal_their_level(skills, cp):
    report = validate(build(attributes=BLANK_ATTRS, skills=skills, equipment=[]))
    assert report.valid
    assert report.spent == {"cp": cp}


def test_each_choice_is_priced_separately_for_the_builder():
    report = validate(build(attributes={**BLANK_ATTRS, "strength": 3}, skills=["melee", "blades"]))
    assert [(c["path"], c["cost"]) for c in report.costs] == [
        ("/attributes/strength", 10),
        ("/skills/0", 2),
        ("/skills/1", 3),
    ]


# ------------------------------------------------------------- error codes

ERROR_CASES = [
    ("unknown attribute", build(attributes=attrs(luck=2)), "attribute.unknown", "/attributes/luck"),
    ("missing attribute", build(attributes=attrs(presence=...)), "attribute.missing", "/attributes/presence"),
    (
        "attribute below 1",
        build(attributes=attrs(strength=0)),
        "attribute.below_minimum",
        "/attributes/strength",
    ),
    ("unknown skill", build(skills=["melee", "swords"]), "skill.unknown", "/skills/1"),
    ("duplicate skill", build(skills=["melee", "blades", "melee"]), "skill.duplicate", "/skills/2"),
    ("prerequisite", build(skills=["blades"]), "skill.prerequisite_missing", "/skills/0"),
    ("attributes not an object", build(attributes=[1, 2]), "build.malformed", "/attributes"),
    ("attributes missing", build(attributes=...), "build.malformed", "/attributes"),
    (
        "attribute not a number",
        build(attributes=attrs(strength="3")),
        "build.malformed",
        "/attributes/strength",
    ),
    ("attribute a bool", build(attributes=attrs(strength=True)), "build.malformed", "/attributes/strength"),
    ("skills not a list", build(skills="melee"), "build.malformed", "/skills"),
    ("skill not an id", build(skills=["melee", 7]), "build.malformed", "/skills/1"),
    ("equipment not a list", build(equipment={"item": "dagger"}), "build.malformed", "/equipment"),
    ("equipment entry not an object", build(equipment=["dagger"]), "build.malformed", "/equipment/0"),
    (
        "item not an id",
        build(equipment=[{"item": 5, "state": "carried"}]),
        "build.malformed",
        "/equipment/0/item",
    ),
    (
        "bad state",
        build(equipment=[{"item": "dagger", "state": "held"}]),
        "build.malformed",
        "/equipment/0/state",
    ),
    (
        "arms not a list",
        build(equipment=[{"item": "dagger", "state": "wielded", "arms": "left_arm"}]),
        "build.malformed",
        "/equipment/0/arms",
    ),
    (
        "custom item bad field",
        build(equipment=[{"custom": {"name": "Club", "encumbrance": -1}, "state": "carried"}]),
        "build.malformed",
        "/equipment/0/custom/encumbrance",
    ),
    ("resistances not an object", build(resistances=["presence"]), "build.malformed", "/resistances"),
    (
        "resistance not an id",
        build(resistances={**ALEX["resistances"], "insight": 2}),
        "build.malformed",
        "/resistances/insight",
    ),
    ("name missing", build(name=...), "build.malformed", "/name"),
    ("budget not a number", build(budget={"cp": "forty"}), "build.malformed", "/budget/cp"),
    ("species not an id", build(species=3), "build.malformed", "/species"),
    ("unknown species", build(species="dragon"), "species.unknown", "/species"),
    (
        "attribute used twice",
        build(resistances={"awareness": "presence", "insight": "presence", "willpower": "perspective"}),
        "resistance.mapping_invalid",
        "/resistances",
    ),
    (
        "not a personality attribute",
        build(resistances={"awareness": "strength", "insight": "rationality", "willpower": "perspective"}),
        "resistance.mapping_invalid",
        "/resistances",
    ),
    (
        "resistance missing",
        build(resistances={"awareness": "presence", "insight": "rationality"}),
        "resistance.mapping_invalid",
        "/resistances",
    ),
    (
        "unknown item",
        build(equipment=[{"item": "vorpal_sword", "state": "carried"}]),
        "equipment.unknown",
        "/equipment/0/item",
    ),
    (
        "bracer without a side",
        build(equipment=[{"item": "leather_bracer", "state": "worn"}]),
        "equipment.unknown",
        "/equipment/0/item",
    ),
    (
        "two-handed bow in one hand",
        build(equipment=[{"item": "compound_bow", "state": "wielded", "arms": ["left_arm"]}]),
        "equipment.arms_invalid",
        "/equipment/0/arms",
    ),
    (
        "no arms said",
        build(equipment=[{"item": "dagger", "state": "wielded"}]),
        "equipment.arms_invalid",
        "/equipment/0/arms",
    ),
    (
        "an arm the species lacks",
        build(equipment=[{"item": "dagger", "state": "wielded", "arms": ["tail"]}]),
        "equipment.arms_invalid",
        "/equipment/0/arms/0",
    ),
    (
        "same arm twice",
        build(
            equipment=[{"item": "warhammer", "state": "wielded", "arms": ["left_arm", "left_arm"]}],
            attributes=attrs(strength=2),
        ),
        "equipment.arms_invalid",
        "/equipment/0/arms/1",
    ),
    (
        "arm already busy",
        build(
            equipment=[
                {"item": "longsword", "state": "wielded", "arms": ["right_arm"]},
                {"item": "dagger", "state": "wielded", "arms": ["right_arm"]},
            ]
        ),
        "equipment.arm_conflict",
        "/equipment/1/arms/0",
    ),
    (
        "two helmets",
        build(equipment=[{"item": "leather_cap", "state": "worn"}, {"item": "steel_helm", "state": "worn"}]),
        "equipment.slot_conflict",
        "/equipment/1",
    ),
    (
        "bracer blocks hauberk",
        build(
            equipment=[
                {"item": "right_leather_bracer", "state": "worn"},
                {"item": "hauberk", "state": "worn"},
            ]
        ),
        "equipment.slot_conflict",
        "/equipment/1",
    ),
    (
        "warhammer without strength",
        build(
            attributes=attrs(strength=1),
            equipment=[{"item": "warhammer", "state": "wielded", "arms": ["left_arm", "right_arm"]}],
        ),
        "equipment.requirement_unmet",
        "/equipment/0",
    ),
    (
        "rapier without coordination",
        build(
            attributes=attrs(coordination=1),
            equipment=[{"item": "rapier", "state": "wielded", "arms": ["right_arm"]}],
        ),
        "equipment.requirement_unmet",
        "/equipment/0",
    ),
    (
        "wielding a cap",
        build(equipment=[{"item": "leather_cap", "state": "wielded", "arms": ["left_arm"]}]),
        "equipment.state_invalid",
        "/equipment/0/state",
    ),
    ("over budget", build(budget={"cp": 10}), "budget.exceeded", "/budget/cp"),
]


@pytest.mark.parametrize(
    ("doc", "code", "path"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES]
)
def test_each_rule_reports_its_code_at_the_offending_path(doc, code, path):
    report = validate(doc)
    assert (code, path) in errors(report), errors(report)
    assert report.valid is False
    issue = next(e for e in report.errors if e.code == code and e.path == path)
    assert len(issue.message) > 20


def test_alex_from_the_rulebook_is_valid():
    report = validate(build())
    assert report.valid, errors(report)
    assert report.spent == {"cp": 30}  # 4 + 4 + 10 + 4 attributes, 2 + 3 + 3 skills


def test_two_skills_missing_their_parents_are_two_errors():
    report = validate(build(skills=["bows", "melee", "lockpicking"]))
    assert errors(report) == [
        ("skill.prerequisite_missing", "/skills/0"),
        ("skill.prerequisite_missing", "/skills/2"),
    ]


def test_the_prerequisite_message_says_how_to_fix_it():
    report = validate(build(skills=["longswords"]))
    assert report.errors[0].message == (
        "Longswords needs Blades, which this character has not learned: "
        "learn Melee (2 CP) then Blades (3 CP) first or remove Longswords."
    )


def test_a_skill_with_a_missing_parent_is_still_priced():
    report = validate(build(attributes=BLANK_ATTRS, skills=["bows"], equipment=[]))
    assert report.spent == {"cp": 3}


def test_a_carried_item_needs_no_requirements_and_no_arms():
    report = validate(
        build(attributes=attrs(strength=1), equipment=[{"item": "warhammer", "state": "carried"}])
    )
    assert report.valid, errors(report)


def test_an_unknown_skill_suggests_the_catalogue_id_for_a_typed_name():
    report = validate(build(skills=["melee", "Blunt Weapons"]))
    assert errors(report) == [("skill.unknown", "/skills/1")]
    assert "'blunt_weapons'" in report.errors[0].message


def test_resistance_mapping_cannot_change_on_advancement():
    old = build()
    new = build(resistances={"awareness": "rationality", "insight": "presence", "willpower": "perspective"})
    report = validate(new, previous=old)
    assert errors(report) == [("resistance.mapping_changed", "/resistances")]
    assert validate(build(skills=["melee", "blades", "shields", "lore"]), previous=old).valid


def test_a_house_rule_attribute_cap_makes_a_high_attribute_an_error():
    doc = build(attributes=attrs(coordination=4))
    assert validate(doc).valid  # HD: no upper limit
    capped = validate(doc, settings={"attribute_max": 3})
    assert errors(capped) == [("attribute.above_maximum", "/attributes/coordination")]
    assert "3" in capped.errors[0].message
    assert validate(doc, settings={"attribute_max": 4}).valid


def test_a_malformed_house_rule_is_a_warning_and_the_default_applies():
    report = validate(build(attributes=attrs(coordination=9)), settings={"attribute_max": "ten"})
    assert ("settings.malformed", "/attribute_max") in [(w.code, w.path) for w in report.warnings]
    assert not report.has_error("attribute.above_maximum")


def test_a_budget_left_out_falls_back_to_the_house_starting_budget():
    report = validate(build(budget=...))
    assert report.budget == {"cp": 40}
    assert report.remaining == {"cp": 10}


def test_an_unknown_top_level_key_is_only_a_warning():
    report = validate(build(hit_points=12))
    assert report.valid
    assert [(w.code, w.path) for w in report.warnings] == [("build.unknown_key", "/hit_points")]


# ------------------------------------------------------------------ derived


def test_derived_values_of_alex():
    derived = validate(build()).derived
    assert derived["max_speed"] == 5
    assert derived["momentum"] == 3
    assert derived["max_stamina"] == 11
    assert derived["encumbrance"] == 0
    assert derived["resistances"] == {"awareness": 1, "insight": 2, "willpower": 1}


def test_protection_is_summed_per_body_part_and_kind():
    doc = build(
        equipment=[
            {"item": "round_shield", "state": "wielded", "arms": ["left_arm"]},
            {"item": "left_leather_bracer", "state": "worn"},
            {"item": "leather_cap", "state": "worn"},
            {"item": "winter_coat", "state": "worn"},
            {"item": "steel_helm", "state": "carried"},  # carried: no protection
        ]
    )
    report = validate(doc)
    assert report.valid, errors(report)
    assert report.derived["protection"] == {
        "head": {"harm": 1},
        "torso": {"exhaustion:cold": 2},
        "left_arm": {"harm": 2},
        "right_arm": {},
        "legs": {},
    }


def test_a_hauberk_protects_everywhere_and_its_encumbrance_lowers_max_stamina():
    report = validate(
        build(equipment=[{"item": "hauberk", "state": "worn"}, {"item": "steel_helm", "state": "carried"}])
    )
    assert report.valid, errors(report)
    assert report.derived["protection"] == {
        p: {"harm": 2} for p in ("head", "torso", "left_arm", "right_arm", "legs")
    }
    assert report.derived["encumbrance"] == 3
    assert report.derived["max_stamina"] == 10 + 1 - 3


def test_wielded_encumbrance_counts_and_carried_does_not():
    wielded = validate(
        build(
            attributes=attrs(strength=2),
            equipment=[
                {"item": "warhammer", "state": "wielded", "arms": ["left_arm", "right_arm"]},
                {"item": "steel_helm", "state": "worn"},
            ],
        )
    )
    carried = validate(
        build(equipment=[{"item": "warhammer", "state": "carried"}, {"item": "hauberk", "state": "carried"}])
    )
    assert (wielded.derived["encumbrance"], wielded.derived["max_stamina"]) == (2, 9)
    assert (carried.derived["encumbrance"], carried.derived["max_stamina"]) == (0, 11)


@pytest.mark.parametrize(
    ("doc", "missing", "kept"),
    [
        (build(attributes=attrs(acrobatics="x")), {"max_speed", "momentum"}, {"max_stamina", "resistances"}),
        (build(attributes=attrs(presence=0)), {"momentum", "resistances"}, {"max_speed"}),
        (build(attributes=attrs(endurance=...)), {"max_stamina"}, {"encumbrance", "max_speed"}),
        (
            build(equipment=[{"item": "mystery_armour", "state": "worn"}]),
            {"max_stamina", "encumbrance", "protection"},
            {"max_speed"},
        ),
        (build(equipment="lots"), {"max_stamina", "encumbrance", "protection"}, {"momentum"}),
        (build(resistances={"awareness": "presence"}), {"resistances"}, {"max_stamina"}),
        (build(species="dragon"), {"protection"}, {"max_stamina"}),
    ],
)
def test_a_derived_value_is_left_out_when_its_inputs_are_broken(doc, missing, kept):
    derived = validate(doc).derived
    assert missing.isdisjoint(derived)
    assert kept <= set(derived)


def test_an_unknown_carried_item_does_not_hide_encumbrance():
    report = validate(build(equipment=[{"item": "mystery_box", "state": "carried"}]))
    assert errors(report) == [("equipment.unknown", "/equipment/0/item")]
    assert report.derived["max_stamina"] == 11


def test_a_custom_item_is_checked_and_used():
    report = validate(
        build(
            equipment=[
                {
                    "custom": {
                        "name": "Tower Shield",
                        "wield": {"arms": 1},
                        "encumbrance": 2,
                        "protection": [{"kind": "harm", "value": 2}],
                    },
                    "state": "wielded",
                    "arms": ["left_arm"],
                }
            ]
        )
    )
    assert report.valid, errors(report)
    assert report.derived["protection"]["left_arm"] == {"harm": 2}
    assert report.derived["max_stamina"] == 9


# ----------------------------------------------------------------- homebrew

HOMEBREW = {
    "skills": [
        {"id": "sabres", "name": "Sabres", "level": 4, "parent": "blades", "attribute": "coordination"},
        {"id": "swords", "name": "Swords", "level": 3, "parent": "melee"},
    ],
    "items": [
        {
            "id": "sabre",
            "name": "Sabre",
            "wield": {"arms": 1},
            "requires": {"skills": ["sabres"]},
            "actions": [
                {"action": "strike", "attribute": "coordination", "skills": ["melee", "blades", "sabres"]}
            ],
        },
    ],
}


def test_homebrew_skills_and_items_are_usable():
    doc = build(
        attributes=BLANK_ATTRS,
        skills=["melee", "blades", "sabres", "sabres_mastery", "swords"],
        equipment=[{"item": "sabre", "state": "wielded", "arms": ["right_arm"]}],
    )
    report = validate(doc, homebrew=HOMEBREW)
    assert report.valid, errors(report)
    assert report.warnings == []
    assert report.spent == {"cp": 2 + 3 + 4 + 5 + 3}
    assert errors(validate(doc)) == [
        ("skill.unknown", "/skills/2"),
        ("skill.unknown", "/skills/3"),
        ("skill.unknown", "/skills/4"),
        ("equipment.unknown", "/equipment/0/item"),
    ]


def test_a_homebrew_item_requirement_is_checked():
    doc = build(equipment=[{"item": "sabre", "state": "wielded", "arms": ["right_arm"]}])
    assert errors(validate(doc, homebrew=HOMEBREW)) == [("equipment.requirement_unmet", "/equipment/0")]


@pytest.mark.parametrize(
    ("homebrew", "path"),
    [
        (
            {"skills": [{"id": "flying", "name": "Flying", "level": 7, "parent": "capability"}]},
            "/skills/0/level",
        ),
        ({"skills": [{"id": "flying", "name": "Flying", "level": 3, "parent": "wings"}]}, "/skills/0/parent"),
        ({"skills": [{"id": "flying", "name": "Flying", "level": 4, "parent": "melee"}]}, "/skills/0/parent"),
        ({"skills": [{"id": "flying", "name": "Flying", "level": 2, "parent": "melee"}]}, "/skills/0/parent"),
        (
            {"skills": [{"id": "second_mastery", "name": "Again", "level": 5, "parent": "fencing"}]},
            "/skills/0/parent",
        ),
        ({"skills": [{"id": "flying", "level": 2, "parent": "capability"}]}, "/skills/0/name"),
        ({"items": [{"id": "halberd", "name": "Halberd", "wield": {"arms": 3}}]}, "/items/0/wield"),
        ({"items": [{"id": "cape", "name": "Cape", "wear": {"body_parts": "back"}}]}, "/items/0/wear"),
        (
            {"items": [{"id": "cape", "name": "Cape", "protection": [{"kind": "harm", "value": "lots"}]}]},
            "/items/0/protection/0",
        ),
        (
            {"items": [{"id": "orb", "name": "Orb", "requires": {"attributes": {"luck": 3}}}]},
            "/items/0/requires/attributes",
        ),
        ({"species": [{"id": "blob", "name": "Blob", "body_parts": []}]}, "/species/0/body_parts"),
        (
            {
                "species": [
                    {"id": "naga", "name": "Naga", "body_parts": ["head", "tail"], "arms": ["left_arm"]}
                ]
            },
            "/species/0/arms",
        ),
    ],
)
def test_a_malformed_homebrew_entry_is_reported_not_raised(homebrew, path):
    report = validate(build(), homebrew=homebrew)
    assert report.valid, errors(report)  # the build itself is fine
    assert ("homebrew.malformed", path) in [(w.code, w.path) for w in report.warnings]


def test_a_homebrew_skill_may_hang_from_a_later_homebrew_skill():
    homebrew = {
        "skills": [
            {"id": "kata", "name": "Kata", "level": 3, "parent": "martial_arts"},
            {"id": "martial_arts", "name": "Martial Arts", "level": 2, "parent": "capability"},
        ]
    }
    report = validate(build(skills=["martial_arts", "kata"]), homebrew=homebrew)
    assert report.valid and report.warnings == []


def test_a_homebrew_species_changes_the_body():
    homebrew = {
        "species": [
            {
                "id": "serpentfolk",
                "name": "Serpentfolk",
                "body_parts": ["head", "torso", "tail"],
                "arms": [],
                "vital": ["head", "torso"],
            }
        ]
    }
    doc = build(
        species="serpentfolk",
        equipment=[
            {"item": "leather_cap", "state": "worn"},
            {"item": "dagger", "state": "wielded", "arms": ["right_arm"]},
            {"item": "winter_coat", "state": "worn"},
            {"item": "left_leather_bracer", "state": "worn"},
        ],
    )
    report = validate(doc, homebrew=homebrew)
    assert errors(report) == [
        ("equipment.arms_invalid", "/equipment/1/arms/0"),
        ("equipment.body_part_missing", "/equipment/3"),
    ]
    assert report.derived["protection"] == {"head": {"harm": 1}, "torso": {"exhaustion:cold": 2}, "tail": {}}


# ---------------------------------------------------------- never raises

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 40)
    | st.text(max_size=8)
    | st.sampled_from(["melee", "left_arm", "worn", "wielded", "presence", "hauberk", "capability"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=fuzz.examples(full=150, smoke=30),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    key=st.sampled_from(["attributes", "resistances", "skills", "equipment", "species", "budget", "name"]),
    inner=st.sampled_from([None, 0, 1, "arms", "state", "item", "strength", "custom"]),
    value=JSON,
)
def test_any_json_gets_a_report_and_never_trips_the_safety_net(key, inner, value):
    doc = build()
    target = doc.get(key)
    if isinstance(target, list) and target and isinstance(inner, int):
        if isinstance(target[inner % len(target)], dict):
            target[inner % len(target)]["arms" if inner else "item"] = value
        else:
            target[inner % len(target)] = value
    elif isinstance(target, dict) and isinstance(inner, str):
        target[inner] = value
    else:
        doc[key] = value
    report = validate(doc)
    assert all("could not read this build" not in e.message for e in report.errors), report.errors
    assert report.valid is (not report.errors)


# -------------------------------------------------------- builder hooks


def test_traits_describe_every_part_of_a_build():
    sections = PANDO.traits(PANDO.context())["sections"]
    kinds = {s["id"]: (s["kind"], s["path"]) for s in sections}
    assert kinds == {
        "species": ("choice", "/species"),
        "attributes": ("numbers", "/attributes"),
        "resistances": ("mapping", "/resistances"),
        "skills": ("tree", "/skills"),
        "equipment": ("items", "/equipment"),
        "body": ("custom", "/equipment"),
    }
    tree = next(s for s in sections if s["id"] == "skills")["nodes"]
    nodes = {n["id"]: n for n in tree}
    assert nodes["melee"]["parent"] == "capability" and nodes["melee"]["cost"] == 2
    assert nodes["fencing_mastery"] == {
        **nodes["fencing_mastery"],
        "level": 5,
        "parent": "fencing",
        "cost": 5,
    }
    assert (nodes["longswords"]["total"], nodes["longswords_mastery"]["total"]) == (9, 14)
    body = next(s for s in sections if s["id"] == "body")
    assert body["widget"] == "pando_body"
    assert {"body_part": "right_arm", "slot": "bracer"} in body["occupies"]["hauberk"]
    fields = next(s for s in sections if s["id"] == "attributes")["fields"]
    assert [f["max"] for f in fields] == [None] * 7
    capped = PANDO.traits(PANDO.context({"attribute_max": 4}))["sections"]
    assert [f["max"] for f in next(s for s in capped if s["id"] == "attributes")["fields"]] == [4] * 7


def test_a_blank_build_is_valid_and_free():
    doc = PANDO.blank_build("Newcomer", {"cp": 25})
    report = validate(doc)
    assert report.valid, errors(report)
    assert report.spent == {"cp": 0} and report.remaining == {"cp": 25}
    assert doc["attributes"] == BLANK_ATTRS and doc["skills"] == [] and doc["equipment"] == []
    assert PANDO.blank_build("X")["budget"] == {"cp": 40}


def test_the_catalogue_has_every_skill_of_the_rules_and_one_mastery_per_level_4_skill():
    skills = PANDO.catalogue["skills"]
    level4 = {s for s, e in skills.items() if e["level"] == 4}
    assert level4 == {
        "evasion",
        "fencing",
        "longswords",
        "warhammers",
        "shield_wall",
        "longbows",
        "surgery",
        "composition",
        "safecracking",
        "oratory",
        "weaponsmithing",
    }
    masteries = {e["parent"]: s for s, e in skills.items() if e["level"] == 5}
    assert masteries == {s: f"{s}_mastery" for s in level4}
    for entry in skills.values():
        parent = skills.get(entry["parent"])
        assert (
            entry["level"] == 2 and entry["parent"] == "capability" or parent["level"] == entry["level"] - 1
        )
    assert len([e for e in skills.values() if e["level"] == 2]) == 11
    assert len([e for e in skills.values() if e["level"] == 3]) == 20
    items = PANDO.catalogue["items"]
    assert set(items) == {
        "longsword",
        "rapier",
        "warhammer",
        "dagger",
        "compound_bow",
        "round_shield",
        "leather_cap",
        "steel_helm",
        "left_leather_bracer",
        "right_leather_bracer",
        "hauberk",
        "winter_coat",
        "lockpicks",
        "bandage",
        "medicine_kit",
    }
    assert all(
        set(i)
        == {
            "id",
            "name",
            "wield",
            "wear",
            "encumbrance",
            "protection",
            "range",
            "requires",
            "actions",
            "outcomes",
            "price",  # W5: what it costs out of the starting money
        }
        for i in items.values()
    )
    assert set(PANDO.catalogue["actions"]) == {
        "move",
        "strike",
        "block",
        "dodge",
        "tough_it_out",
        "catch_breath",
        "aid",
        "use_item",
    }
