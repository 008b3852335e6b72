"""Pando's character rules (RULES.md section 1, seed 000): check, price and derive a build,
the efficiency roll, the builder's traits and the checks of campaign homebrew.

Everything here reads plain data and writes into a ``Report``; nothing raises on a
document. Play state lives in ``state.py``.
"""

from __future__ import annotations

from math import comb
from typing import Any

from rulesets.engine.base import FORMAT, ID_RE, Context, OddsError, is_int, name_key
from rulesets.engine.dice import Roller
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report

ATTRIBUTES: tuple[str, ...] = (
    "strength", "endurance", "acrobatics", "coordination", "rationality", "perspective", "presence",
)
#: The seed calls the last three the personality attributes; the builder groups by this.
ATTRIBUTE_GROUPS = {
    "strength": "body", "endurance": "body", "acrobatics": "body", "coordination": "body",
    "rationality": "personality", "perspective": "personality", "presence": "personality",
}
RESISTANCES: tuple[str, ...] = ("awareness", "insight", "willpower")
RESISTANCE_ATTRIBUTES: tuple[str, ...] = ("rationality", "perspective", "presence")
DEFAULT_RESISTANCES = {"awareness": "presence", "insight": "rationality", "willpower": "perspective"}
EQUIPMENT_STATES: tuple[str, ...] = ("wielded", "worn", "carried")
ITEM_FIELDS: tuple[str, ...] = (
    "id", "name", "wield", "wear", "encumbrance", "protection", "range", "requires", "actions",
)
ENTRY_KEYS = frozenset({"item", "custom", "state", "arms", "notes"})
CAPABILITY = "capability"
HOUSE_NOTE = " (house default; your GM may change it)"
MAX_DICE = 30


def label(ident: str) -> str:
    """``left_arm`` → "Left arm": the words a player reads."""
    return ident.replace("_", " ").capitalize()


def attribute_total_cost(value: int) -> int:
    """CP to raise an attribute from 1 to ``value``: 4 + 6 + … + 2v = v(v+1) − 2 (seed: 1→4 is 18)."""
    return value * (value + 1) - 2 if value > 1 else 0


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
        node = skills.get(node.get("parent"))
    return total


# ---------------------------------------------------------------- settings


def attribute_max(ctx: Context) -> int | None:
    value = ctx.settings.get("attribute_max")
    return value if is_int(value) and value >= 1 else None


def check_settings(settings: dict) -> list[Issue]:
    """Pando-specific house-rule checks on top of the base type checks."""
    issues = []
    cap = settings.get("attribute_max")
    if "attribute_max" in settings and cap is not None and not (is_int(cap) and cap >= 1):
        issues.append(Issue("settings.malformed", "/attribute_max",
                            "attribute_max must be a whole number of 1 or more, or null for no limit."))
    thresholds = settings.get("harm_thresholds")
    if isinstance(thresholds, dict):
        values = [thresholds.get(k) for k in ("wounded", "lame", "maimed") if k in thresholds]
        if not all(is_int(v) and v >= 1 for v in values):
            issues.append(Issue("settings.malformed", "/harm_thresholds",
                                "Harm thresholds (wounded, lame, maimed) must be whole numbers of 1 or more."))
    return issues


# ------------------------------------------------------------------- build


class _Build:
    """What the checks learned about one document, for the derived values and the sheet."""

    __slots__ = ("attrs", "species", "mapping", "learned", "items", "equipment_known", "body")

    def __init__(self) -> None:
        self.attrs: dict[str, int] = {}  # attribute → value, only for well-formed values
        self.species: dict | None = None
        self.mapping: dict[str, str] | None = None
        self.learned: dict[str, dict] = {}  # skill id → catalogue entry
        self.items: list[tuple[int, dict, str, list[str]]] = []  # (index, item, state, arms)
        self.equipment_known = True  # False when a wielded/worn item cannot be read
        self.body: dict[tuple[str, str], int] = {}  # (body part, slot) → equipment index


def check_build(build: dict, report: Report, ctx: Context) -> None:
    b = _Build()
    _check_attributes(build, report, ctx, b)
    _check_species(build, report, ctx, b)
    _check_resistances(build, report, b)
    _check_skills(build, report, ctx, b)
    _check_equipment(build, report, ctx, b)
    _derive(report, b)


def _check_attributes(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    attrs = build.get("attributes")
    if attrs is None:
        report.error("build.malformed", "/attributes",
                     "Give the character its seven attributes (strength, endurance, acrobatics, coordination, "
                     "rationality, perspective, presence), each at least 1.")
        return
    if not isinstance(attrs, dict):
        report.error("build.malformed", "/attributes",
                     'Attributes must be an object such as {"strength": 2, "endurance": 1, …}.')
        return
    cap = attribute_max(ctx)
    for key, value in attrs.items():
        path = ptr("attributes", key)
        if key not in ATTRIBUTE_GROUPS:
            report.error("attribute.unknown", path,
                         f"Pando has no attribute {key!r}: remove it. The seven are {', '.join(ATTRIBUTES)}.")
            continue
        if not is_int(value):
            report.error("build.malformed", path, f"{label(key)} must be a whole number of 1 or more.")
            continue
        b.attrs[key] = value
        if value < 1:
            report.error("attribute.below_minimum", path,
                         f"{label(key)} is {value}, but every attribute is at least 1: set it to 1 or more.")
            continue
        if cap is not None and value > cap:
            report.error("attribute.above_maximum", path,
                         f"{label(key)} is {value}, but this campaign caps attributes at {cap} (house rule): "
                         f"lower it to {cap}.")
        if value > 1:
            report.charge("cp", attribute_total_cost(value), path=path, label=f"{label(key)} {value}")
    for key in ATTRIBUTES:
        if key not in attrs:
            report.error("attribute.missing", ptr("attributes", key),
                         f"{label(key)} is missing: every character has it, starting at 1.")


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
        report.error("species.unknown", "/species",
                     f"{species!r} is not a species in this campaign: choose one of {known}.")
        return
    b.species = entry


def _check_resistances(build: dict, report: Report, b: _Build) -> None:
    mapping = build.get("resistances")
    fix = ("Tie awareness, insight and willpower each to a different one of rationality, perspective "
           "and presence.")
    if mapping is None:
        report.error("build.malformed", "/resistances", "The resistances are missing. " + fix)
        return
    if not isinstance(mapping, dict):
        report.error("build.malformed", "/resistances",
                     'Resistances must be an object such as {"awareness": "presence", …}. ' + fix)
        return
    broken = False
    for key, value in mapping.items():
        if not isinstance(value, str):
            report.error("build.malformed", ptr("resistances", key),
                         f"{label(key)} must name an attribute: rationality, perspective or presence.")
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
        report.error("resistance.mapping_invalid", "/resistances",
                     f"The resistance mapping is not valid ({'; '.join(problems)}). " + fix)
        return
    b.mapping = {k: mapping[k] for k in RESISTANCES}


def _suggest(value: str, entries: dict[str, dict]) -> str | None:
    key = name_key(value)
    for entry in entries.values():
        if name_key(entry["id"]) == key or name_key(str(entry.get("name", ""))) == key:
            return entry["id"]
    return None


def _check_skills(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    skills = build.get("skills", [])
    catalogue = ctx.catalogue.get("skills", {})
    if skills is None:
        skills = []
    if not isinstance(skills, list):
        report.error("build.malformed", "/skills", 'Skills must be a list of skill ids such as ["melee", "blades"].')
        return
    positions: list[tuple[int, dict]] = []
    for i, sid in enumerate(skills):
        path = ptr("skills", i)
        if not isinstance(sid, str):
            report.error("build.malformed", path, 'Each skill must be a skill id such as "melee".')
            continue
        if sid == CAPABILITY:
            report.warn("skill.capability_listed", path,
                        "Capability is always known and free; it need not be listed.")
            continue
        entry = catalogue.get(sid)
        if entry is None:
            guess = _suggest(sid, catalogue)
            hint = f" Did you mean {guess!r}?" if guess else (
                " Pick one from the skill tree, or ask your GM to add it as homebrew.")
            report.error("skill.unknown", path, f"{sid!r} is not a Pando skill here.{hint}")
            continue
        if sid in b.learned:
            report.error("skill.duplicate", path,
                         f"{entry['name']} is listed twice: remove this one (a skill is learned once).")
            continue
        b.learned[sid] = entry
        positions.append((i, entry))
        report.charge("cp", skill_cost(entry["level"]), path=path, label=entry["name"])
    for i, entry in positions:
        parent = entry.get("parent")
        if parent == CAPABILITY or parent in b.learned:
            continue
        report.error("skill.prerequisite_missing", ptr("skills", i),
                     _prerequisite_message(entry, catalogue, b.learned))


def _prerequisite_message(entry: dict, catalogue: dict[str, dict], learned: dict[str, dict]) -> str:
    parent = catalogue.get(entry.get("parent"))
    if parent is None:
        return (f"{entry['name']} needs {entry.get('parent')!r}, which is not in this campaign's skill tree: "
                f"remove {entry['name']} or ask your GM to fix the homebrew.")
    chain = []
    node = parent
    while node is not None and node["id"] not in learned and node["id"] != CAPABILITY and len(chain) < 5:
        chain.append(f"{node['name']} ({skill_cost(node['level'])} CP)")
        node = catalogue.get(node.get("parent"))
    learn = " then ".join(reversed(chain))
    return (f"{entry['name']} needs {parent['name']}, which this character has not learned: "
            f"learn {learn} first or remove {entry['name']}.")


def resolve_item(entry: dict, path: str, report: Report, ctx: Context) -> dict | None:
    """The item an equipment entry stands for: a catalogue item or a one-off ``custom`` one."""
    if "custom" in entry:
        custom = entry["custom"]
        if not isinstance(custom, dict):
            report.error("build.malformed", path + "/custom", "A custom item must be an object with the item fields.")
            return None
        custom = {"id": "custom", **custom}
        problems = item_problems(custom, path + "/custom", code="build.malformed", ctx=ctx)
        for issue in problems:
            report.errors.append(issue)
        return None if problems else normalise_item(custom)
    item_id = entry.get("item")
    if not isinstance(item_id, str):
        report.error("build.malformed", path + "/item",
                     'Each equipment entry needs an "item" id (or a "custom" item).')
        return None
    items = ctx.catalogue.get("items", {})
    item = items.get(item_id)
    if item is None:
        sides = [s for s in (f"left_{item_id}", f"right_{item_id}") if s in items]
        guess = _suggest(item_id, items)
        if sides:
            hint = f" It comes as {' and '.join(sides)}: pick the one for the arm it goes on."
        elif guess:
            hint = f" Did you mean {guess!r}?"
        else:
            hint = " Pick an item from the list, describe it as a custom item, or ask your GM for homebrew."
        report.error("equipment.unknown", path + "/item", f"{item_id!r} is not an item here.{hint}")
        return None
    return item


