"""Half a heart (RULES.md W14; seed "HALF HEART ♡": "Some tasks, not so strong enemies and most world's
common people (farmers, traders, nobles) have just HALF HEART ♡. Of course, HALF HEART is equal to 5
points of EFFORT (or DAMAGE) needed"): ``hearts`` may be 0.5, ``max_hp`` = hearts × HP per heart."""

from __future__ import annotations

import copy

import pytest

from characters.models import Character
from rulesets.engine import registry, validate
from tests.characters.builder.test_builder import start
from tests.characters.conftest import make_table

OURDND = registry.get("ourdnd")
SHEET = OURDND.contract_data()["sheet"]


def with_hearts(hearts, **settings):
    build = {**copy.deepcopy(SHEET), "hearts": hearts}
    return validate(build, settings=settings or None), build


def test_a_half_heart_is_5_hp_and_costs_nothing():
    report, build = with_hearts(0.5)
    assert report.valid and report.derived["max_hp"] == 5
    assert report.spent == validate(SHEET).spent  # the sheet character's one heart is free too
    assert OURDND.initial_state(build, report)["hp"] == 5


def test_the_house_rule_s_hp_per_heart_halves_too():
    report, _ = with_hearts(0.5, hp_per_heart=12)
    assert report.derived["max_hp"] == 6


@pytest.mark.parametrize(
    "hearts, code, message",
    [
        (1.5, "build.malformed", "Hearts are a whole number, 1 or more, or 0.5 for a half heart."),
        (0.25, "build.malformed", "Hearts are a whole number, 1 or more, or 0.5 for a half heart."),
        (
            0,
            "attribute.below_minimum",
            "A character has at least half a heart; set hearts to 0.5 (common folk) or 1 or more.",
        ),
    ],
)
def test_only_the_one_half_exists(hearts, code, message):
    report, _ = with_hearts(hearts)
    assert [(i.code, i.path, i.message) for i in report.errors] == [(code, "/hearts", message)]


@pytest.mark.django_db
def test_the_builder_steps_from_one_heart_down_to_a_half_and_back(client):
    table = make_table("ourdnd")
    character, s = start(client, table, "Tomas the farmer")
    s.change(("_step", "/hearts|-1"))
    assert Character.objects.get(pk=character.pk).build["hearts"] == 0.5
    (lower,) = s.root.find_all("button", **{"aria-label": "Lower Hearts"})
    assert "disabled" in lower.attrs  # nothing below a half
    (box,) = s.root.find_all("input", name="/hearts")
    assert (box.attrs["value"], box.attrs["step"], box.attrs["min"]) == ("0.5", "any", "0.5")
    s.change(("_step", "/hearts|-1"))  # nothing below a half
    assert Character.objects.get(pk=character.pk).build["hearts"] == 0.5
    s.change(("_step", "/hearts|1"))
    assert Character.objects.get(pk=character.pk).build["hearts"] == 1
    s.set("/hearts", "0.5").change()
    assert Character.objects.get(pk=character.pk).build["hearts"] == 0.5
    exported = client.get(f"/api/v1/characters/{character.pk}/export/").json()
    assert exported["hearts"] == 0.5


def test_the_builder_s_help_names_the_half_heart_s_hp_under_the_house_rule():
    (hearts,) = [
        s for s in OURDND.traits(OURDND.context({"hp_per_heart": 7}))["sections"] if s["id"] == "hearts"
    ]
    assert hearts["help"].endswith("Common folk have half a heart (0.5: 3 HP).")
    assert with_hearts(0.5, hp_per_heart=7)[0].derived["max_hp"] == 3  # the same number the build gets
