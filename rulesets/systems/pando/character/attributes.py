"""Pando's build, the first stages: attributes (bought with CP), species and resistances."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .common import (
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    RESISTANCE_ATTRIBUTES,
    RESISTANCES,
    attribute_total_cost,
    label,
)
from .learned import _Build
from .settings import attribute_max


def _check_attributes(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    attrs = build.get("attributes")
    if attrs is None:
        report.error(
            "build.malformed",
            "/attributes",
            "Give the character its seven attributes (strength, endurance, acrobatics, "
            "coordination, rationality, perspective, presence), each at least 1.",
        )
        return
    if not isinstance(attrs, dict):
        report.error(
            "build.malformed",
            "/attributes",
            'Attributes must be an object such as {"strength": 2, "endurance": 1, …}.',
        )
        return
    cap = attribute_max(ctx)
    for key, value in attrs.items():
        if key not in ATTRIBUTE_GROUPS:
            report.error(
                "attribute.unknown",
                ptr("attributes", key),
                f"Pando has no attribute {key!r}: remove it. The seven are {', '.join(ATTRIBUTES)}.",
            )
            continue
        path = f"/attributes/{key}"  # a known attribute id needs no escaping
        if not is_int(value):
            report.error("build.malformed", path, f"{label(key)} must be a whole number of 1 or more.")
            continue
        b.attrs[key] = value
        if value < 1:
            report.error(
                "attribute.below_minimum",
                path,
                f"{label(key)} is {value}, but every attribute is at least 1: set it to 1 or more.",
            )
            continue
        if cap is not None and value > cap:
            report.error(
                "attribute.above_maximum",
                path,
                f"{label(key)} is {value}, but this campaign caps attributes at {cap} (house rule): "
                f"lower it to {cap}.",
            )
        if value > 1:
            report.charge("cp", attribute_total_cost(value), path=path, label=f"{label(key)} {value}")
    for key in ATTRIBUTES:
        if key not in attrs:
            report.error(
                "attribute.missing",
                f"/attributes/{key}",
                f"{label(key)} is missing: every character has it, starting at 1.",
            )


def _check_species(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    species = build.get("species", "humanoid")
    catalogue = ctx.catalogue.get("species", {})
    if species is None:
        species = "humanoid"
    if not isinstance(species, str):
        report.error("build.malformed", "/species", 'The species must be an id such as "humanoid".')
        return
    entry = catalogue.get(species)
    if entry is None:
        known = ", ".join(sorted(catalogue)) or "humanoid"
        report.error(
            "species.unknown",
            "/species",
            f"{species!r} is not a species in this campaign: choose one of {known}.",
        )
        return
    b.species = entry


def _check_resistances(build: dict, report: Report, b: _Build) -> None:
    mapping = build.get("resistances")
    fix = (
        "Tie awareness, insight and willpower each to a different one of rationality, perspective "
        "and presence."
    )
    if mapping is None:
        report.error("build.malformed", "/resistances", "The resistances are missing. " + fix)
        return
    if not isinstance(mapping, dict):
        report.error(
            "build.malformed",
            "/resistances",
            'Resistances must be an object such as {"awareness": "presence", …}. ' + fix,
        )
        return
    broken = False
    for key, value in mapping.items():
        if not isinstance(value, str):
            report.error(
                "build.malformed",
                ptr("resistances", key),
                f"{label(key)} must name an attribute: rationality, perspective or presence.",
            )
            broken = True
    if broken:
        return
    if set(mapping) != set(RESISTANCES) or sorted(mapping.values()) != sorted(RESISTANCE_ATTRIBUTES):
        problems = []
        for key in mapping:
            if key not in RESISTANCES:
                problems.append(f"{key!r} is not a resistance")
        for key in RESISTANCES:
            if key not in mapping:
                problems.append(f"{key} is not tied to an attribute")
        for value in sorted(set(mapping.values())):
            if value not in RESISTANCE_ATTRIBUTES:
                problems.append(f"{value!r} cannot back a resistance")
            elif list(mapping.values()).count(value) > 1:
                problems.append(f"{value} is used twice")
        report.error(
            "resistance.mapping_invalid",
            "/resistances",
            f"The resistance mapping is not valid ({'; '.join(problems)}). " + fix,
        )
        return
    b.mapping = {k: mapping[k] for k in RESISTANCES}
