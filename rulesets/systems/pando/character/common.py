"""Pando's build: the attributes, resistances and equipment fields, their words and their costs."""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import is_int, lookup

ATTRIBUTES: tuple[str, ...] = (
    "strength",
    "endurance",
    "acrobatics",
    "coordination",
    "rationality",
    "perspective",
    "presence",
)
#: The seed calls the last three the personality attributes; the builder groups by this.
ATTRIBUTE_GROUPS = {
    "strength": "body",
    "endurance": "body",
    "acrobatics": "body",
    "coordination": "body",
    "rationality": "personality",
    "perspective": "personality",
    "presence": "personality",
}
RESISTANCES: tuple[str, ...] = ("awareness", "insight", "willpower")
RESISTANCE_ATTRIBUTES: tuple[str, ...] = ("rationality", "perspective", "presence")
DEFAULT_RESISTANCES = {"awareness": "presence", "insight": "rationality", "willpower": "perspective"}
EQUIPMENT_STATES: tuple[str, ...] = ("wielded", "worn", "carried")
ITEM_FIELDS: tuple[str, ...] = (
    "id",
    "name",
    "wield",
    "wear",
    "encumbrance",
    "protection",
    "range",
    "requires",
    "actions",
    "price",
)
ENTRY_KEYS = frozenset({"item", "custom", "state", "arms", "notes"})
CAPABILITY = "capability"
#: The currency equipment is bought with (W5): a budget of the build only when the campaign gives
#: starting money (or the document's budget names it).
MONEY = "money"
HOUSE_NOTE = " (house default; your GM may change it)"
#: The body of the default species, humanoid (RULES.md 1), and its vital parts.
DEFAULT_PARTS = ["head", "torso", "left_arm", "right_arm", "legs"]
DEFAULT_VITAL = ["head", "torso"]


_LABELS: dict[str, str] = {}


def label(ident: str) -> str:
    """``left_arm`` → "Left arm": the words a player reads."""
    if type(ident) is str:
        text = _LABELS.get(ident)
        if text is None:
            text = ident.replace("_", " ").capitalize()
            if len(_LABELS) > 4096:
                _LABELS.clear()
            _LABELS[ident] = text
        return text
    return ident.replace("_", " ").capitalize()


def attribute_total_cost(value: int) -> int:
    """CP to raise an attribute from 1 to ``value``: 4 + 6 + … + 2v = v(v+1) − 2 (seed: 1→4 is 18)."""
    return value * (value + 1) - 2 if value > 1 else 0


def price_of(item: dict) -> int:
    """What an item costs in money (W5): its ``price``, none (0) when it has none."""
    price = item.get("price")
    return price if is_int(price) and price > 0 else 0


def skill_cost(level: int) -> int:
    """CP to learn one skill. ERRATUM (RULES.md): cost = level, so a level 4 skill totals 9
    (2+3+4) and its mastery 14."""
    return level


def skill_total_cost(skill_id: str, skills: dict[str, dict]) -> int:
    """CP for a skill and every skill above it in the tree (capability is free)."""
    total, node, seen = 0, skills.get(skill_id), set()
    while node is not None and node["id"] not in seen:
        seen.add(node["id"])
        total += skill_cost(node["level"])
        node = lookup(skills, node.get("parent"))
    return total


def amount_field(label: str = "Amount") -> dict[str, Any]:
    """A play action's "how much" field: a whole number of 1 or more, 1 by default (the sheet's pools
    and the money pool alike)."""
    return {"id": "amount", "label": label, "kind": "number", "min": 1, "default": 1}
