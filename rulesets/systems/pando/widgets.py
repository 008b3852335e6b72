"""Pando's builder widget: the body diagram (worn items per body part and apparel slot, held items per arm).

Each function takes the traits section, the build, the report (as a dict) and the builder's
``ui`` (see ``Ruleset.builder_widget``) and returns what the widget's template
``templates/pando/builder/<widget>.html`` shows besides the section.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import get_as, lookup


def body(raw: dict, build: dict, report: dict, ui: Any) -> dict:
    """Body parts × apparel slots: which worn item sits where, which arm holds what, and clashes.

    Whether two items clash is the rules' call (``character/equipment.py``: ``_check_wear``, ``_check_arms``:
    one item per apparel slot of a body part, one item per arm): a cell or a hand clashes when
    it holds two items and the rules refused one of them with ``equipment.slot_conflict`` /
    ``equipment.arm_conflict``.
    """
    refused = _refused(report)
    species_id = build.get("species") or "humanoid"
    species = (raw.get("species") or {}).get(species_id) or {}
    parts = species.get("body_parts") or []
    slots = raw.get("slots") or []
    occupies = raw.get("occupies") or {}
    equipment = get_as(build, "equipment", list, [])
    names: dict[str, str] = {}
    cells: dict[tuple[str, str], list[str]] = {}
    cells_of: dict[tuple[str, str], list[int]] = {}  # the equipment indexes in each cell
    held: dict[str, list[str]] = {}
    held_of: dict[str, list[int]] = {}
    for i, entry in enumerate(equipment):
        if not isinstance(entry, dict):
            continue
        item_id = entry.get("item")
        name = lookup(names, item_id) or ui.label(
            item_id or (entry.get("custom") or {}).get("name") or f"item {i + 1}"
        )
        if entry.get("state") == "worn":
            custom = entry.get("custom") if isinstance(entry.get("custom"), dict) else None
            spots = occupies.get(item_id)
            if spots is None and custom and isinstance(custom.get("wear"), dict):
                spots = [
                    {"body_part": p, "slot": s}
                    for p in custom["wear"].get("body_parts", [])
                    for s in custom["wear"].get("slots", [])
                ]
            for spot in spots or []:
                cells.setdefault((spot["body_part"], spot["slot"]), []).append(name)
                cells_of.setdefault((spot["body_part"], spot["slot"]), []).append(i)
        elif entry.get("state") == "wielded":
            for arm in entry.get("arms") or []:
                if isinstance(arm, str):
                    held.setdefault(arm, []).append(name)
                    held_of.setdefault(arm, []).append(i)
    used_slots = [s for s in slots if any(key[1] == s["id"] for key in cells)] or slots
    arms = set(species.get("arms") or [])
    rows = []
    for part in parts:
        pid = part["id"]
        row_cells = []
        for slot in used_slots:
            items = cells.get((pid, slot["id"]), [])
            refs = cells_of.get((pid, slot["id"]), [])
            row_cells.append(
                {"slot": slot["label"], "items": items, "clash": _clash(refs, refused[SLOT_CONFLICT])}
            )
        hand = held.get(pid, []) if pid in arms else None
        rows.append(
            {
                "id": pid,
                "label": part["label"],
                "vital": part.get("vital"),
                "cells": row_cells,
                "held": hand,
                "is_arm": pid in arms,
                "clash": _clash(held_of.get(pid, []) if pid in arms else [], refused[ARM_CONFLICT]),
            }
        )
    return {
        "body": {"species": species_id, "slots": used_slots, "rows": rows, "empty": not cells and not held}
    }


SLOT_CONFLICT = "equipment.slot_conflict"
ARM_CONFLICT = "equipment.arm_conflict"


def _clash(indexes: list[int], refused: set[int]) -> bool:
    """Two items in one place, one of them refused by the rules for it."""
    return len(indexes) > 1 and any(i in refused for i in indexes)


def _refused(report: dict) -> dict[str, set[int]]:
    """The equipment indexes the rules refused, per conflict code."""
    out: dict[str, set[int]] = {SLOT_CONFLICT: set(), ARM_CONFLICT: set()}
    for issue in report.get("errors") or []:
        code = issue.get("code")
        if code in out:
            tokens = (issue.get("path") or "").split("/")
            if len(tokens) > 2 and tokens[1] == "equipment" and tokens[2].isdigit():
                out[code].add(int(tokens[2]))
    return out


WIDGETS = {"pando_body": body}
