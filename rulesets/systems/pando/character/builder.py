"""Pando's builder hooks: the traits the builder shows and a blank build."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.ruleset import FORMAT

from .common import (
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    DEFAULT_RESISTANCES,
    EQUIPMENT_STATES,
    MONEY,
    RESISTANCE_ATTRIBUTES,
    RESISTANCES,
    label,
    skill_cost,
    skill_total_cost,
)
from .settings import attribute_max, starting_money


def traits(ctx: Context) -> dict[str, Any]:
    """The sections the generic builder renders (``Ruleset.traits``, rulesets/engine/ruleset.py)."""
    cap = attribute_max(ctx)
    skills = ctx.catalogue.get("skills", {})
    items = ctx.catalogue.get("items", {})
    species = ctx.catalogue.get("species", {})
    arms = sorted(
        {a for s in species.values() for a in s.get("arms", [])}, key=lambda a: (a != "left_arm", a)
    )
    slots = sorted({s for it in items.values() if it.get("wear") for s in it["wear"]["slots"]})
    return {
        "sections": [
            _species(species),
            _attributes(cap),
            _resistances(),
            _skills(skills),
            _equipment(items, arms, starting_money(ctx)),
            _body(species, items, slots),
        ]
    }


def _species(species: dict) -> dict[str, Any]:
    """The species: their body parts."""
    return {
        "id": "species",
        "label": "Species",
        "kind": "choice",
        "path": "/species",
        "nullable": False,
        "default": "humanoid",
        "options": [
            {
                "id": s["id"],
                "label": s["name"],
                "help": f"Body parts: {', '.join(label(p).lower() for p in s['body_parts'])}.",
            }
            for s in species.values()
        ],
    }


def _attributes(cap: int | None) -> dict[str, Any]:
    """The attributes and their costs (``cap``: the campaign's, or None)."""
    return {
        "id": "attributes",
        "label": "Attributes",
        "kind": "numbers",
        "path": "/attributes",
        "help": "Every attribute starts at 1. Raising one to the next value costs twice that value in CP "
        "(1→2 is 4 CP, 2→3 is 6 CP; 1→4 is 18 CP in all)."
        + ("" if cap is None else f" This campaign caps attributes at {cap}."),
        "cost": {"per_point": "2 × new value", "total": "v(v+1) − 2 from 1", "currency": "cp"},
        "fields": [
            {
                "id": a,
                "label": label(a),
                "min": 1,
                "max": cap,
                "default": 1,
                "group": ATTRIBUTE_GROUPS[a],
            }
            for a in ATTRIBUTES
        ],
    }


def _resistances() -> dict[str, Any]:
    """The resistances, each tied to a personality attribute."""
    return {
        "id": "resistances",
        "label": "Resistances",
        "kind": "mapping",
        "path": "/resistances",
        "help": "Tie each resistance to a different personality attribute. This is chosen at creation "
        "and cannot change later.",
        "keys": [{"id": r, "label": label(r)} for r in RESISTANCES],
        "options": [{"id": a, "label": label(a)} for a in RESISTANCE_ATTRIBUTES],
        "default": dict(DEFAULT_RESISTANCES),
    }


def _skills(skills: dict) -> dict[str, Any]:
    """The skill tree and its costs."""
    return {
        "id": "skills",
        "label": "Skills",
        "kind": "tree",
        "path": "/skills",
        "help": "Capability (level 1) is always known. Learning a skill costs CP equal to its level, "
        "and its parent skill must be learned first: a level 4 skill costs 9 CP with its "
        "parents, its mastery 14.",
        "nodes": [
            {
                "id": s["id"],
                "label": s["name"],
                "level": s["level"],
                "parent": s["parent"],
                "cost": skill_cost(s["level"]),
                "total": skill_total_cost(s["id"], skills),
                "attribute": s.get("attribute"),
                "help": s.get("description", ""),
            }
            for s in skills.values()
        ],
    }


def _equipment(items: dict, arms: list[str], money: int) -> dict[str, Any]:
    """The equipment: how each item is carried, which arms wield it, and (W5) what it costs out of
    the starting money when the campaign gives some (``currency``: the builder says what is left)."""
    bought = (
        f"You start with {money} money: each item costs its price, and what you do not spend stays "
        "on your sheet to spend in play. "
        if money
        else ""
    )
    return {
        "id": "equipment",
        "label": "Equipment",
        "kind": "items",
        "path": "/equipment",
        "currency": MONEY,
        "help": bought + "Wielded items take one or two arms, one item per arm. Worn items take their "
        "apparel slot on every body part they cover. Only wielded and worn items encumber "
        "(−max stamina).",
        "options": [{**it, "label": it["name"]} for it in items.values()],
        "entry_fields": [
            {
                "id": "state",
                "label": "How",
                "kind": "choice",
                "default": "carried",
                "options": [{"id": s, "label": label(s)} for s in EQUIPMENT_STATES],
            },
            {
                "id": "arms",
                "label": "Arms",
                "kind": "multi",
                "when": {"state": "wielded"},
                "options": [{"id": a, "label": label(a)} for a in arms],
            },
        ],
    }


def _body(species: dict, items: dict, slots: list[str]) -> dict[str, Any]:
    """The body (the ruleset's own widget): what each item occupies."""
    return {
        "id": "body",
        "label": "Body",
        "kind": "custom",
        "widget": "pando_body",
        "path": "/equipment",
        "species": {
            s["id"]: {
                "body_parts": [
                    {"id": p, "label": label(p), "vital": p in s.get("vital", [])} for p in s["body_parts"]
                ],
                "arms": s.get("arms", []),
            }
            for s in species.values()
        },
        "slots": [{"id": s, "label": label(s)} for s in slots],
        "occupies": {
            it["id"]: [
                {"body_part": p, "slot": s} for p in it["wear"]["body_parts"] for s in it["wear"]["slots"]
            ]
            for it in items.values()
            if it.get("wear")
        },
        "wields": {it["id"]: it["wield"]["arms"] for it in items.values() if it.get("wield")},
    }


def blank_build(name: str, budget: dict | None, ctx: Context) -> dict:
    starting = ctx.settings.get("starting_budget") or {"cp": 40}
    return {
        "format": FORMAT,
        "ruleset": "pando",
        "name": name,
        "budget": dict(budget) if budget else dict(starting),
        "species": "humanoid",
        "attributes": {a: 1 for a in ATTRIBUTES},
        "resistances": dict(DEFAULT_RESISTANCES),
        "skills": [],
        "equipment": [],
    }
