"""Maelstrom's builder hooks: the traits the builder shows and a blank build."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.ruleset import FORMAT

from .abilities import _slots_text
from .common import GROUPS
from .house import House, house


def traits(ctx: Context, defaults: dict) -> dict[str, Any]:
    h = house(ctx, defaults)
    attributes = ctx.catalogue.get("attributes", {})
    abilities = ctx.catalogue.get("abilities", {})
    suggestions: dict[str, list[dict]] = {key: [] for key in abilities}
    for spec in ctx.catalogue.get("specialties", {}).values():
        if spec["ability"] in suggestions:
            suggestions[spec["ability"]].append({"name": spec["name"], "kind": spec["kind"]})
    return {
        "sections": [
            _attributes(h, attributes),
            _abilities(h, abilities),
            _willpower(h),
            _specialties(h, abilities, suggestions),
            _creation(h, attributes),
        ]
    }


def _attributes(h: House, attributes: dict) -> dict[str, Any]:
    """The attributes section."""
    c = h.costs
    return {
        "id": "attributes",
        "label": "Attributes",
        "kind": "numbers",
        "path": "/attributes",
        "help": f"Every attribute starts at {h.creation_start}. Creation adds {h.creation_primary} dots in "
        f"the primary group and {h.creation_secondary} in the secondary; each further dot costs "
        f"{c['attribute']} XP.",
        "fields": [
            {
                "id": key,
                "label": e["name"],
                "min": h.attribute_min,
                "max": h.attribute_max,
                "default": h.creation_start,
                "group": e["group"],
            }
            for key, e in attributes.items()
        ],
    }


def _abilities(h: House, abilities: dict) -> dict[str, Any]:
    """The abilities section: their ranks."""
    c = h.costs
    return {
        "id": "abilities",
        "label": "Abilities",
        "kind": "ranks",
        "path": "/abilities",
        "help": f"Creation: twelve different abilities, {_slots_text(h.creation_abilities)} dots. Each "
        f"further dot costs its new rank × {c['ability_per_rank']} XP.",
        "options": [
            {
                "id": key,
                "label": e["name"],
                "group": e.get("category", "talent"),
                "max": h.ability_max,
            }
            for key, e in abilities.items()
        ],
        "min": 0,
        "max": h.ability_max,
    }


def _willpower(h: House) -> dict[str, Any]:
    """The willpower section."""
    c = h.costs
    return {
        "id": "willpower",
        "label": "Willpower",
        "kind": "number",
        "path": "/willpower",
        "help": f"Every character starts with {h.willpower_start}; each further dot costs its new rank × "
        f"{c['willpower_per_rank']} XP.",
        "min": h.willpower_start,
        "max": h.willpower_max,
        "default": h.willpower_start,
        "nullable": False,
    }


def _specialties(h: House, abilities: dict, suggestions: dict[str, list[dict]]) -> dict[str, Any]:
    """The specialties section, with the catalogue's suggestions per ability."""
    c = h.costs
    return {
        "id": "specialties",
        "label": "Specialties",
        "kind": "records",
        "path": "/specialties",
        "help": f"A general specialty costs {c['general_specialty']} XP, an advanced one "
        f"{c['advanced_specialty']}. Unlisted specialties need the storyteller's approval.",
        "fields": [
            {
                "id": "ability",
                "label": "Ability",
                "kind": "choice",
                "options": [{"id": key, "label": e["name"]} for key, e in abilities.items()],
            },
            {"id": "name", "label": "Specialty", "kind": "text"},
            {
                "id": "kind",
                "label": "Kind",
                "kind": "choice",
                "options": [
                    {"id": "general", "label": "General"},
                    {"id": "advanced", "label": "Advanced"},
                ],
            },
        ],
        "suggestions": suggestions,
    }


def _creation(h: House, attributes: dict) -> dict[str, Any]:
    """The free dots of creation (the ruleset's own widget)."""
    return {
        "id": "creation",
        "label": "Creation dots",
        "kind": "custom",
        "widget": "maelstrom_creation",
        "path": "/creation",
        "optional": True,
        "help": "The free dots of character creation. Leave them out and the sheet is priced with the "
        "cheapest legal allocation (the Derived panel shows it).",
        "groups": {g: [k for k, e in attributes.items() if e["group"] == g] for g in GROUPS},
        "attribute_start": h.creation_start,
        "attribute_dots": {"primary": h.creation_primary, "secondary": h.creation_secondary},
        "ability_slots": [s for s in h.creation_abilities if s],
        "willpower_start": h.willpower_start,
        "allocation": "derived.creation",
    }


def blank_build(name: str, budget: dict[str, int] | None, ctx: Context, defaults: dict) -> dict:
    h = house(ctx, defaults)
    start = ctx.settings.get("starting_budget", {}) if isinstance(ctx.settings, dict) else {}
    return {
        "format": FORMAT,
        "ruleset": "maelstrom",
        "name": name,
        "budget": dict(budget) if budget else {"xp": start.get("xp", 30)},
        "attributes": {key: h.creation_start for key in ctx.catalogue.get("attributes", {})},
        "abilities": {},
        "willpower": h.willpower_start,
        "specialties": [],
    }
