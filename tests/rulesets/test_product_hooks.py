"""Contract of the hooks that say what the product shows for a ruleset (base.py, "what the product
shows"), over every ruleset of the registry: the shapes they return, and that what they name exists
(a widget's template, an award's currency, a quick NPC that the rules accept). A hook's data file is
optional (its default is checked then), except ``content/examples.json``'s ``build`` and ``odds``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.template.loader import select_template

import rulesets.systems
from rulesets.engine import registry

SLUGS = list(registry.SYSTEMS)


@pytest.fixture(params=SLUGS)
def ruleset(request):
    return registry.get(request.param)


def test_the_registry_finds_every_folder_in_order_then_the_registered_ones():
    root = Path(rulesets.systems.__file__).parent
    folders = [p.name for p in root.iterdir() if (p / "__init__.py").is_file()]
    order = list(rulesets.systems.ORDER)
    folders.sort(key=lambda n: (order.index(n) if n in order else len(order), n))
    assert registry.SYSTEMS[: len(folders)] == tuple(folders)
    assert all(registry.get(s).package_dir == root / s for s in folders)
    assert [rs.slug for rs in registry.all_rulesets()] == list(registry.SYSTEMS)
    assert registry.get("nope") is None and registry.get(None) is None


def test_labels_are_words_for_keys(ruleset):
    labels = ruleset.labels()
    assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in labels.items())


def test_quick_awards_are_awardable_positive_and_say_who(ruleset):
    awards = ruleset.quick_awards()
    assert len({a["id"] for a in awards}) == len(awards)
    for award in awards:
        assert award["currency"] in ruleset.awardable_currencies
        assert isinstance(award["amount"], int) and award["amount"] > 0
        assert award["who"] in ("all", "each") and award["label"]


def test_the_quick_npc_is_a_build_the_rules_accept(ruleset):
    npc = ruleset.quick_npc()
    assert npc["ruleset"] == ruleset.slug and npc["name"]
    if "npc" in ruleset.tables:  # the rulesets whose blank build is not yet a fighter give one
        assert ruleset.validate(npc).errors == []


def test_the_odds_form_asks_for_a_request_the_odds_answer(ruleset):
    form = ruleset.odds_form()
    if form is None:  # no form: the calculator is a JSON box
        return
    request = {f["name"]: f["default"] for f in form}
    answer = ruleset.odds(request)
    assert answer and all(isinstance(v, (int, float, dict)) for v in answer.values())
    for field in form:
        assert field["label"] and ("choices" in field or field["min"] <= field["default"] <= field["max"])


def test_the_api_examples_are_a_valid_build_and_an_answerable_request(ruleset):
    examples = ruleset.api_examples()
    assert ruleset.validate(examples["build"]).errors == []
    assert ruleset.odds(examples["odds"])
    data = ruleset.contract_data()
    for key in ("typical", "sheet"):
        assert ruleset.validate(data[key]).errors == [], key


def test_every_custom_builder_section_has_its_widget_template_and_context(ruleset):
    for section in ruleset.traits(ruleset.context()).get("sections", []):
        if section.get("kind") != "custom":
            continue
        template = select_template([f"{ruleset.slug}/builder/{section['widget']}.html"])
        assert template.origin.name.startswith(str(ruleset.templates_dir))
        assert ruleset._widgets.get(section["widget"]) is not None


def test_a_ruleset_sheet_block_is_found_in_its_own_folder(ruleset):
    own = ruleset.templates_dir / ruleset.slug / "sheet_derived.html"
    if not own.is_file():
        return  # the generic list of numbers
    template = select_template([f"{ruleset.slug}/sheet_derived.html"])
    assert template.origin.name == str(own)


def test_body_diagram_shapes_are_circles_or_rects_of_numbers(ruleset):
    for part, shape in ruleset.body_diagram().items():
        keys = {"circle": {"cx", "cy", "r"}, "rect": {"x", "y", "width", "height", "rx"}}[shape["shape"]]
        assert keys <= set(shape) and all(isinstance(shape[k], int) for k in keys), part


def test_the_demo_characters_are_builds_of_their_ruleset(ruleset):
    demos = ruleset.demo_builds()
    assert all("error" not in d and d["document"]["ruleset"] == ruleset.slug for d in demos)


def test_the_next_point_price_is_shared_by_section_group_and_value_by_default(ruleset):
    numbers = {"id": "attributes", "kind": "numbers"}
    assert ruleset.point_price_key(numbers, {"id": "a", "group": "physical"}, 2) == (
        "attributes",
        "physical",
        2,
    )
    assert ruleset.point_price_key({"id": "skills", "kind": "ranks"}, {"id": "x", "group": "g"}, 0) == (
        "skills",
        "",
        0,
    )


def test_npc_archetypes_are_builds_the_rules_accept_as_npcs(ruleset):
    from rulesets.engine.context import NPC_PHASE

    archetypes = ruleset.npc_archetypes()
    assert archetypes, "at least the quick NPC"
    if "npc_archetypes" in ruleset.tables:
        assert len(archetypes) >= 3, "a library ships a few ready NPCs"
    assert len({a["id"] for a in archetypes}) == len(archetypes)
    for archetype in archetypes:
        assert archetype["name"] and archetype["build"]["ruleset"] == ruleset.slug
        assert ruleset.validate(archetype["build"], phase=NPC_PHASE).errors == [], archetype["id"]


def test_house_labels_word_every_house_default(ruleset):
    labels = ruleset.house_labels()
    if "house_labels" in ruleset.tables:
        assert set(ruleset.house_defaults) <= set(labels)
    assert all(isinstance(v, dict) and v.get("label") for v in labels.values())
