"""Maelstrom's homebrew: specialties and abilities a storyteller adds, checked entry by entry."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import ID_RE
from rulesets.engine.fields import name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue

from .common import CATEGORIES, KINDS


def check_homebrew_entry(kind: str, entry: dict, path: str) -> list[Issue]:
    issues: list[Issue] = []
    name = entry.get("name")
    if not isinstance(name, str) or not name_key(name):
        issues.append(Issue("homebrew.malformed", path + "/name", "Give the entry a name."))
    if kind == "specialties":
        ability = entry.get("ability")
        if not isinstance(ability, str) or not ID_RE.match(ability):
            issues.append(
                Issue(
                    "homebrew.malformed",
                    path + "/ability",
                    'Say which ability the specialty belongs to (an ability id such as "firearms").',
                )
            )
        if entry.get("kind") not in KINDS:
            issues.append(
                Issue(
                    "homebrew.malformed",
                    path + "/kind",
                    'A specialty\'s kind is "general" or "advanced" (the storyteller decides).',
                )
            )
    elif kind == "abilities":
        if entry.get("category") not in CATEGORIES:
            issues.append(
                Issue(
                    "homebrew.malformed",
                    path + "/category",
                    'An ability\'s category is "talent", "skill" or "knowledge".',
                )
            )
        attrs = entry.get("common_attributes", [])
        if not isinstance(attrs, list) or not all(isinstance(a, str) for a in attrs):
            issues.append(
                Issue(
                    "homebrew.malformed",
                    path + "/common_attributes",
                    'common_attributes is a list of attribute ids such as ["wits"].',
                )
            )
        desc = entry.get("description", "")
        if not isinstance(desc, str):
            issues.append(Issue("homebrew.malformed", path + "/description", "The description must be text."))
    return issues


def drop_orphan_specialties(good: dict[str, list[dict]], homebrew: Any, base_abilities: dict) -> list[Issue]:
    """A homebrew specialty must belong to an ability of the rulebook or of the same homebrew."""
    abilities = set(base_abilities) | {e["id"] for e in good.get("abilities", [])}
    raw = homebrew.get("specialties") if isinstance(homebrew, dict) else None
    issues, kept = [], []
    for entry in good.get("specialties", []):
        if entry["ability"] in abilities:
            kept.append(entry)
            continue
        index = next((i for i, e in enumerate(raw or []) if e is entry), entry["id"])
        issues.append(
            Issue(
                "homebrew.malformed",
                ptr("specialties", index, "ability"),
                f"Homebrew specialty {entry['id']!r} belongs to {entry['ability']!r}, which is not an "
                "ability; use one of the 24 abilities or a homebrew ability.",
            )
        )
    if "specialties" in good:
        good["specialties"] = kept
    return issues
