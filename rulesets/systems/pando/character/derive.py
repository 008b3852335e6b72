"""Pando's build: the derived values (protection of each body part, totals)."""

from __future__ import annotations

from rulesets.engine.report import Report

from .common import RESISTANCE_ATTRIBUTES, RESISTANCES
from .learned import _Build


def _derive(report: Report, b: _Build) -> None:
    a = b.attrs
    if a.get("acrobatics", 0) >= 1:
        report.derived["max_speed"] = 3 + a["acrobatics"]
        if a.get("presence", 0) >= 1:
            report.derived["momentum"] = a["acrobatics"] + a["presence"]
    if b.mapping is not None and all(a.get(attr, 0) >= 1 for attr in RESISTANCE_ATTRIBUTES):
        report.derived["resistances"] = {r: a[b.mapping[r]] for r in RESISTANCES}
    if not b.equipment_known:
        return
    encumbrance = sum(item["encumbrance"] for _, item, state, _ in b.items if state != "carried")
    if a.get("endurance", 0) >= 1:
        report.derived["max_stamina"] = 10 + a["endurance"] - encumbrance
    report.derived["encumbrance"] = encumbrance
    if b.species is not None:
        report.derived["protection"] = protection_of(b.items, b.species["body_parts"])


def protection_of(
    items: list[tuple[int, dict, str, list[str]]], parts: list[str]
) -> dict[str, dict[str, int]]:
    """Σ protection per body part and kind (RULES.md "Protection"): a protection entry's
    ``body_parts``, when given, say which parts it covers, for wielded and worn items alike (a tower
    shield held in the left arm may cover the left arm and the torso); without them a worn item
    protects the parts it is worn on and a wielded item the arm or arms that hold it."""
    out: dict[str, dict[str, int]] = {p: {} for p in parts}
    for _, item, state, arms in items:
        if state == "wielded" and item["wield"]:
            held_or_worn = arms
        elif state == "worn" and item["wear"]:
            held_or_worn = item["wear"]["body_parts"]
        else:
            continue
        for prot in item["protection"]:
            named = prot.get("body_parts")
            for part in held_or_worn if named is None else named:
                if part in out:  # a part this species lacks is protected by nothing
                    out[part][prot["kind"]] = out[part].get(prot["kind"], 0) + prot["value"]
    return out


# ------------------------------------------------------------- advancement
