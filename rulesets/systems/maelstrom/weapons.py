"""Maelstrom's fight numbers as house-default data (RULES.md W21; the seed's Health section "isn't
ready yet", so the product's initiative, soak and weapon table are house defaults): read from the
campaign's settings (``content/house.json``: ``initiative_traits``, ``initiative_die``,
``soak_attribute``, ``attacks``), which a campaign overrides as house rules like any other. A
malformed override is reported by ``check_settings`` and the house default is used instead.
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue

from .state import DAMAGE_TYPES

#: The sides an initiative die may have (house_labels.json's min and max of ``initiative_die``).
MIN_DIE, MAX_DIE = 2, 100


def _attack_problem(entry: Any, attributes: dict, abilities: dict) -> str:
    """Why one ``attacks`` entry is unusable, or ""."""
    if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
        return "each attack is an object with an id"
    if entry.get("attribute") not in attributes or entry.get("ability") not in abilities:
        return f"attack {entry['id']!r} names an attribute and an ability of the game"
    weapons = entry.get("weapons")
    if not isinstance(weapons, list) or not weapons:
        return f"attack {entry['id']!r} lists its weapons"
    for w in weapons:
        if not (
            isinstance(w, dict)
            and isinstance(w.get("id"), str)
            and isinstance(w.get("name"), str)
            and is_int(w.get("damage"))
            and 0 <= w["damage"] <= 20
            and w.get("type") in DAMAGE_TYPES
        ):
            return f"each weapon of {entry['id']!r} has an id, a name, damage 0–20 and a type ({', '.join(DAMAGE_TYPES)})"
    if entry.get("default") not in [w["id"] for w in weapons]:
        return f"attack {entry['id']!r}'s default is one of its weapons"
    return ""


def check_settings(settings: dict, catalogue: dict) -> list[Issue]:
    """The house-rule overrides of the fight's numbers, checked (each problem a ``settings.malformed``)."""
    attributes, abilities = catalogue.get("attributes", {}), catalogue.get("abilities", {})
    issues = []
    if "attacks" in settings:
        raw = settings["attacks"]
        why = "attacks is a list" if not isinstance(raw, list) or not raw else ""
        for entry in raw if isinstance(raw, list) else []:
            why = why or _attack_problem(entry, attributes, abilities)
        if why:
            issues.append(
                Issue(
                    "settings.malformed",
                    ptr("attacks"),
                    f"The weapon table: {why}; the house default applies.",
                )
            )
    if "initiative_traits" in settings:
        traits = settings["initiative_traits"]
        if not isinstance(traits, list) or not traits or any(t not in attributes for t in traits):
            issues.append(
                Issue(
                    "settings.malformed",
                    ptr("initiative_traits"),
                    "Initiative adds one or more of the game's attributes, e.g. Reflexes and Wits.",
                )
            )
    if "initiative_die" in settings and not (
        is_int(settings["initiative_die"]) and MIN_DIE <= settings["initiative_die"] <= MAX_DIE
    ):
        issues.append(
            Issue(
                "settings.malformed",
                ptr("initiative_die"),
                f"The initiative die has {MIN_DIE} to {MAX_DIE} sides, e.g. 10.",
            )
        )
    if "soak_attribute" in settings and settings["soak_attribute"] not in attributes:
        issues.append(
            Issue(
                "settings.malformed",
                ptr("soak_attribute"),
                'Soak rolls an attribute of the game, e.g. "strength".',
            )
        )
    return issues


def attacks(ctx: Context, defaults: dict) -> dict[str, dict[str, Any]]:
    """{attack id: {"label", "attribute", "ability", "default", "weapons": {id: {"name", "damage",
    "type"}}}} of the campaign (its house rules, else the house default)."""
    raw = ctx.settings.get("attacks")
    cat = ctx.catalogue
    if (
        not isinstance(raw, list)
        or not raw
        or any(_attack_problem(e, cat.get("attributes", {}), cat.get("abilities", {})) for e in raw)
    ):
        raw = defaults["attacks"]
    return {
        e["id"]: {
            "label": e.get("label") or e["id"].replace("_", " ").capitalize(),
            "attribute": e["attribute"],
            "ability": e["ability"],
            "default": e["default"],
            "weapons": {
                w["id"]: {"name": w["name"], "damage": w["damage"], "type": w["type"]} for w in e["weapons"]
            },
        }
        for e in raw
    }


def initiative(ctx: Context, defaults: dict) -> tuple[list[str], int]:
    """(the traits added, the die's sides) of the campaign's initiative."""
    attributes = ctx.catalogue.get("attributes", {})
    traits = ctx.settings.get("initiative_traits")
    if not isinstance(traits, list) or not traits or any(t not in attributes for t in traits):
        traits = defaults["initiative_traits"]
    die = ctx.settings.get("initiative_die")
    return list(traits), die if is_int(die) and MIN_DIE <= die <= MAX_DIE else defaults["initiative_die"]


def soak_attribute(ctx: Context, defaults: dict) -> str:
    soak = ctx.settings.get("soak_attribute")
    return soak if soak in ctx.catalogue.get("attributes", {}) else defaults["soak_attribute"]
