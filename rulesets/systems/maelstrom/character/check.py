"""Maelstrom's build check: the document read, then priced stage by stage."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .abilities import (
    _creation_abilities_cheapest,
    _creation_abilities_from_document,
    _price_abilities,
    _price_willpower,
)
from .attributes import _creation_attributes_cheapest, _creation_attributes_from_document, _price_attributes
from .common import CREATION_KEYS
from .house import House, house
from .sheet import Sheet
from .specialties import _check_specialties


def check(build: dict, report: Report, ctx: Context, defaults: dict) -> None:
    h = house(ctx, defaults)
    sheet = Sheet()
    _read_attributes(build, report, ctx, h, sheet)
    _read_abilities(build, report, ctx, h, sheet)
    _read_willpower(build, report, h, sheet)

    creation = build.get("creation")
    if creation is not None and not isinstance(creation, dict):
        report.error(
            "build.malformed",
            "/creation",
            "creation must be an object such as "
            '{"primary": "physical", "attributes": {...}, "abilities": {...}}, or left out.',
        )
        creation = None
    allocation: dict[str, Any] = {"source": "document" if creation is not None else "cheapest"}
    if creation is not None:
        for key in creation:
            if key not in CREATION_KEYS:
                report.warn(
                    "build.unknown_key",
                    ptr("creation", key),
                    f"creation records primary, attributes and abilities; {key!r} is ignored.",
                )

    if sheet.attributes_complete:
        if creation is not None and "attributes" in creation:
            ok = _creation_attributes_from_document(creation, report, ctx, h, sheet, allocation)
        else:
            ok = _creation_attributes_cheapest(report, ctx, h, sheet, allocation)
        if ok:
            _price_attributes(report, ctx, h, sheet, allocation["attributes"])
            report.derived["primary"] = allocation["primary"]

    if creation is not None and "abilities" in creation:
        ok = _creation_abilities_from_document(creation, report, ctx, h, sheet, allocation)
    else:
        ok = _creation_abilities_cheapest(report, ctx, h, sheet, allocation)
    if ok:
        _price_abilities(report, ctx, h, sheet, allocation["abilities"])

    if sheet.willpower is not None:
        _price_willpower(report, h, sheet.willpower)
        report.derived["willpower"] = (
            sheet.willpower if sheet.willpower <= h.willpower_max else h.willpower_max
        )  # noqa: FURB136 (hot path: no call)

    _check_specialties(build, report, ctx, h)

    report.derived["health_levels"] = [
        {"id": level["id"], "label": level["label"], "penalty": level.get("penalty")}
        for level in h.health_chart
    ]
    if "attributes" in allocation and "abilities" in allocation:
        allocation["text"] = _creation_text(allocation)
        report.derived["creation"] = allocation


def _read_attributes(build: dict, report: Report, ctx: Context, h: House, sheet: Sheet) -> None:
    known = ctx.catalogue.get("attributes", {})
    raw = build.get("attributes")
    if raw is None:
        report.error(
            "build.malformed",
            "/attributes",
            "List the six attributes (strength, precision, reflexes, "
            "perception, intelligence, wits) with their dots, 1–5.",
        )
        return
    if not isinstance(raw, dict):
        report.error(
            "build.malformed", "/attributes", 'attributes must be an object such as {"strength": 2, ...}.'
        )
        return
    complete = True
    for key, value in raw.items():
        if key not in known:
            path = ptr("attributes", key)
            report.error(
                "attribute.unknown",
                path,
                f"Maelstrom has no attribute {key!r}; the attributes are "
                f"{', '.join(known)}. Remove it or rename it.",
            )
            continue
        path = "/attributes/" + key  # catalogue ids need no escaping
        label = known[key]["name"]
        if not is_int(value):
            report.error(
                "build.malformed", path, f"{label} must be a whole number of dots (0–{h.attribute_max})."
            )
            complete = False
            continue
        if value < h.attribute_min:
            report.error(
                "attribute.below_minimum",
                path,
                f"{label} {value} is below {h.attribute_min}; "
                f"attributes run from {h.attribute_min} to {h.attribute_max}.",
            )
            complete = False
            continue
        if value > h.attribute_max:
            report.error(
                "attribute.above_maximum",
                path,
                f"{label} {value} is above the maximum of {h.attribute_max}; lower it to {h.attribute_max}.",
            )
            # Still priced (RULES.md "Out-of-range values are priced"), in closed form: a rank of
            # a billion costs no more work than a rank of five.
        elif value == 0:
            report.warn(
                "attribute.zero",
                path,
                f"{label} 0 is only for extreme exceptions (every character "
                "normally has at least 1 dot); check with the storyteller or raise it to 1.",
            )
        sheet.attributes[key] = value
    for key, entry in known.items():
        if key not in raw:
            complete = False
            report.error(
                "attribute.missing",
                ptr("attributes", key),
                f"{entry['name']} is missing: every character has it (1 dot at least); add it.",
            )
    sheet.attributes_complete = complete


def _read_abilities(build: dict, report: Report, ctx: Context, h: House, sheet: Sheet) -> None:
    known = ctx.catalogue.get("abilities", {})
    raw = build.get("abilities", {})
    if not isinstance(raw, dict):
        report.error(
            "build.malformed",
            "/abilities",
            'abilities must be an object such as {"firearms": 3}; leave out abilities with no dots.',
        )
        return
    for key, value in raw.items():
        if key not in known:
            report.error(
                "skill.unknown",
                ptr("abilities", key),
                f"{key!r} is not a Maelstrom ability (nor one of this campaign's "
                "homebrew abilities); pick one of the 24 abilities or remove it.",
            )
            continue
        path = "/abilities/" + key
        label = known[key]["name"]
        if not is_int(value) or value < 0:
            report.error(
                "build.malformed", path, f"{label} must be a whole number of dots, 0–{h.ability_max}."
            )
            continue
        if value > h.ability_max:
            report.error(
                "skill.above_maximum",
                path,
                f"{label} {value} is above the maximum of {h.ability_max}; lower it to {h.ability_max}.",
            )  # still priced (see attributes)
        sheet.abilities[key] = value


def _read_willpower(build: dict, report: Report, h: House, sheet: Sheet) -> None:
    value = build.get("willpower", h.willpower_start)
    if not is_int(value):
        report.error(
            "build.malformed",
            "/willpower",
            f"Willpower must be a whole number of dots ({h.willpower_min}–{h.willpower_max}).",
        )
        return
    if value < h.willpower_min:
        report.error(
            "attribute.below_minimum",
            "/willpower",
            f"Willpower {value} is below {h.willpower_min}; "
            f"every character starts with {h.willpower_start} dots.",
        )
        return
    if value < h.willpower_start:
        report.error(
            "maelstrom.below_creation",
            "/willpower",
            f"Willpower {value} is below the "
            f"{h.willpower_start} dots every character starts with; raise it to {h.willpower_start}.",
        )
    elif value > h.willpower_max:
        report.error(
            "attribute.above_maximum",
            "/willpower",
            f"Willpower {value} is above the maximum of {h.willpower_max}; lower it to {h.willpower_max}.",
        )  # still priced (see attributes)
    sheet.willpower = value


def _creation_text(allocation: dict[str, Any]) -> str:
    """Which dots were the free creation dots, in the table's words (the builder's Derived panel
    says this, never "source: cheapest"; the creation section lists the dots themselves)."""
    primary = allocation.get("primary")
    group = f", {primary.capitalize()} the primary group" if isinstance(primary, str) and primary else ""
    if allocation.get("source") == "document":
        return f"Creation dots as recorded in this build{group}."
    return f"Creation dots worked out from the sheet: the cheapest legal allocation{group}."
