"""A stepper never steps past the bound the ruleset gives its number (#38): the "−" of a number at its
minimum is disabled, and a step sent anyway (a queued click, a stale page) changes nothing. Before,
a ruleset's level went 1, 0, −1 … −29 under a held "−"."""

from __future__ import annotations

from characters.builder.forms.binding import apply_steps
from characters.builder.forms.fields import _shape_number

TRAITS = {
    "sections": [
        {"path": "/level", "kind": "number", "min": 1, "max": 20},
        {"path": "/attributes", "kind": "numbers", "fields": [{"id": "str", "min": 8, "max": 15}]},
    ]
}


def test_a_step_past_a_number_or_a_fields_bound_changes_nothing():
    build = {"level": 1, "attributes": {"str": 15}}
    apply_steps(TRAITS, ["/level|-1", "/attributes/str|1"], build)
    assert build == {"level": 1, "attributes": {"str": 15}}
    apply_steps(TRAITS, ["/level|1", "/attributes/str|-1"], build)
    assert build == {"level": 2, "attributes": {"str": 14}}
    apply_steps(TRAITS, ["/level|-1", "/level|-1", "/level|-1"], build)
    assert build["level"] == 1


def test_a_number_at_its_bound_says_so_for_its_buttons():
    def control(path, value, **extra):
        return {"path": path, "value": value, **extra}

    at_min = _shape_number({"path": "/level", "min": 1, "max": 20}, 1, control, {})["field"]
    assert at_min["at_min"] is True and at_min["at_max"] is False
    at_max = _shape_number({"path": "/level", "min": 1, "max": 20}, 20, control, {})["field"]
    assert at_max["at_min"] is False and at_max["at_max"] is True
