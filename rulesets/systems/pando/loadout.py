"""Pando's loadout on the sheet (the engine's equipment hooks, engine/equipment.py): each entry
wielded (in which arms), worn or carried; a change of state is a change of the build, which the
product re-validates (slot and arm conflicts are the build's rules, character/equipment.py)."""

from __future__ import annotations

import copy
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.errors import StateError
from rulesets.engine.fields import get_as

from .character import entry_item
from .character.common import EQUIPMENT_STATES, label, price_of

#: The state an entry's arms go with (any other state frees them).
WIELDED = "wielded"


def equipment(ruleset: Any, build: dict, ctx: Context) -> dict[str, Any] | None:
    """The sheet's Equipment block: every entry by name, its state and the arms that hold it."""
    gear = build.get("equipment") if isinstance(build, dict) else None
    if not isinstance(gear, list):
        return None
    items = ctx.catalogue.get("items", {})
    rows = []
    for i, entry in enumerate(gear):
        if not isinstance(entry, dict):
            continue
        state = entry.get("state")
        arms = [a for a in entry.get("arms") or () if isinstance(a, str)]
        rows.append(
            {
                "index": i,
                "name": ruleset.item_name(entry, items, i),
                "state": state if isinstance(state, str) else None,
                "state_label": state if isinstance(state, str) else "",
                "detail": ", ".join(label(a) for a in arms),
                "keep": {"arms": arms} if arms else {},
                "has_state": "state" in entry,
            }
        )
    return {"label": "Equipment", "states": [(s, s) for s in EQUIPMENT_STATES], "rows": rows}


def _fields_of(change: Any) -> dict[str, Any]:
    """``"wielded"`` or ``{"state": "wielded", "arms": ["right_arm"]}`` → the fields to set."""
    if isinstance(change, str):
        return {"state": change}
    if isinstance(change, dict) and isinstance(change.get("state"), str):
        out: dict[str, Any] = {"state": change["state"]}
        if "arms" in change:
            out["arms"] = change["arms"]
        return out
    raise StateError("equipment.malformed", "Say whether the item is wielded, worn or carried.")


def equipment_change(ruleset: Any, build: dict, index: int, change: Any, ctx: Context) -> tuple[dict, str]:
    """Wield, wear or carry entry ``index``; putting it down (worn, carried) frees its arms."""
    where = f"/equipment/{index}"
    gear = build.get("equipment") if isinstance(build, dict) else None
    if not isinstance(gear, list) or not 0 <= index < len(gear):
        raise StateError("equipment.unknown", "There is no such equipment entry.", where)
    if not isinstance(gear[index], dict) or "state" not in gear[index]:
        raise StateError("equipment.malformed", "This entry has no wield/wear/carry state.", where)
    fields = _fields_of(change)
    new = copy.deepcopy(build)
    entry = new["equipment"][index]
    entry.update(fields)
    if entry["state"] != WIELDED and "arms" not in fields:
        entry.pop("arms", None)
    name = ruleset.item_name(entry, ctx.catalogue.get("items", {}), index)
    return new, f"{name} {entry['state']}"


def item_summary(option: dict[str, Any]) -> str:
    """What a catalogue item costs (W5), how it is held or worn, what it protects and weighs, for the
    builder's list: "8 money; one hand"."""
    price = price_of(option)
    bits = [f"{price} money"] if price else []
    wield = option.get("wield")
    if isinstance(wield, dict) and wield.get("arms"):
        bits.append(f"{wield['arms']}-handed" if wield["arms"] > 1 else "one hand")
    wear = option.get("wear")
    if isinstance(wear, dict):
        bits.append("worn: " + ", ".join(label(p).lower() for p in wear.get("body_parts", [])))
    for p in option.get("protection") or []:
        if isinstance(p, dict):
            # The data's "exhaustion:cold" is cold exhaustion in words.
            kind = str(p.get("kind", ""))
            bits.append(f"protection {' '.join(reversed(kind.split(':', 1)))} {p.get('value')}")
    if option.get("encumbrance"):
        bits.append(f"encumbrance {option['encumbrance']}")
    if option.get("summary"):
        bits.append(str(option["summary"]))
    return "; ".join(bits)


def item_rows(build: dict, catalogue: dict) -> dict[str, list[str]]:
    """Which wielded or worn item sits on, or protects, which body part, for the body diagram."""
    rows: dict[str, list[str]] = {}
    equipment = get_as(build, "equipment", list, [])
    for entry in equipment:
        if not isinstance(entry, dict):
            continue
        item = entry_item(entry, catalogue)
        if item is None:
            continue
        if entry.get("state") == "wielded" and isinstance(entry.get("arms"), list):
            parts = [a for a in entry["arms"] if isinstance(a, str)]
        elif entry.get("state") == "worn" and item.get("wear"):
            parts = item["wear"]["body_parts"]
        else:
            continue
        # A protection entry's body_parts cover those parts too (RULES.md "Protection").
        named = [
            p
            for prot in item.get("protection") or []
            if isinstance(prot, dict)
            for p in prot.get("body_parts") or []
            if isinstance(p, str)
        ]
        for part in dict.fromkeys([*parts, *named]):
            rows.setdefault(part, []).append(item["name"])
    return rows
