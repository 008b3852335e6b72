"""Pando's build (RULES.md section 1, seed 000): check, price and derive a build, the builder's
traits and blank build, and the checks of campaign homebrew (skills, items, species).

Everything here reads plain data and writes into a ``Report``; nothing raises on a document. The
efficiency roll is in ``dice.py``, the play state in ``state.py``, action rounds in ``combat.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeGuard

from rulesets.engine.context import ID_RE, Context
from rulesets.engine.fields import is_int, lookup, name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import FORMAT

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
)
ENTRY_KEYS = frozenset({"item", "custom", "state", "arms", "notes"})
CAPABILITY = "capability"
HOUSE_NOTE = " (house default; your GM may change it)"


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


# ---------------------------------------------------------------- settings


def attribute_max(ctx: Context) -> int | None:
    value = ctx.settings.get("attribute_max")
    return value if is_int(value) and value >= 1 else None


def check_settings(settings: dict) -> list[Issue]:
    """Pando-specific house-rule checks on top of the base type checks."""
    issues = []
    cap = settings.get("attribute_max")
    if "attribute_max" in settings and cap is not None and not (is_int(cap) and cap >= 1):
        issues.append(
            Issue(
                "settings.malformed",
                "/attribute_max",
                "attribute_max must be a whole number of 1 or more, or null for no limit.",
            )
        )
    thresholds = settings.get("harm_thresholds")
    if isinstance(thresholds, dict):
        values = [thresholds.get(k) for k in ("wounded", "lame", "maimed") if k in thresholds]
        if not all(is_int(v) and v >= 1 for v in values):
            issues.append(
                Issue(
                    "settings.malformed",
                    "/harm_thresholds",
                    "Harm thresholds (wounded, lame, maimed) must be whole numbers of 1 or more.",
                )
            )
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
        self.body: dict[tuple[str, str], tuple[int, str]] = {}  # (body part, slot) → (index, item name)


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
        report.error(
            "build.malformed",
            "/attributes",
            "Give the character its seven attributes (strength, endurance, acrobatics, "
            "coordination, rationality, perspective, presence), each at least 1.",
        )
        return
    if not isinstance(attrs, dict):
        report.error(
            "build.malformed",
            "/attributes",
            'Attributes must be an object such as {"strength": 2, "endurance": 1, …}.',
        )
        return
    cap = attribute_max(ctx)
    for key, value in attrs.items():
        if key not in ATTRIBUTE_GROUPS:
            report.error(
                "attribute.unknown",
                ptr("attributes", key),
                f"Pando has no attribute {key!r}: remove it. The seven are {', '.join(ATTRIBUTES)}.",
            )
            continue
        path = f"/attributes/{key}"  # a known attribute id needs no escaping
        if not is_int(value):
            report.error("build.malformed", path, f"{label(key)} must be a whole number of 1 or more.")
            continue
        b.attrs[key] = value
        if value < 1:
            report.error(
                "attribute.below_minimum",
                path,
                f"{label(key)} is {value}, but every attribute is at least 1: set it to 1 or more.",
            )
            continue
        if cap is not None and value > cap:
            report.error(
                "attribute.above_maximum",
                path,
                f"{label(key)} is {value}, but this campaign caps attributes at {cap} (house rule): "
                f"lower it to {cap}.",
            )
        if value > 1:
            report.charge("cp", attribute_total_cost(value), path=path, label=f"{label(key)} {value}")
    for key in ATTRIBUTES:
        if key not in attrs:
            report.error(
                "attribute.missing",
                f"/attributes/{key}",
                f"{label(key)} is missing: every character has it, starting at 1.",
            )


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
        report.error(
            "species.unknown",
            "/species",
            f"{species!r} is not a species in this campaign: choose one of {known}.",
        )
        return
    b.species = entry


def _check_resistances(build: dict, report: Report, b: _Build) -> None:
    mapping = build.get("resistances")
    fix = (
        "Tie awareness, insight and willpower each to a different one of rationality, perspective "
        "and presence."
    )
    if mapping is None:
        report.error("build.malformed", "/resistances", "The resistances are missing. " + fix)
        return
    if not isinstance(mapping, dict):
        report.error(
            "build.malformed",
            "/resistances",
            'Resistances must be an object such as {"awareness": "presence", …}. ' + fix,
        )
        return
    broken = False
    for key, value in mapping.items():
        if not isinstance(value, str):
            report.error(
                "build.malformed",
                ptr("resistances", key),
                f"{label(key)} must name an attribute: rationality, perspective or presence.",
            )
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
        report.error(
            "resistance.mapping_invalid",
            "/resistances",
            f"The resistance mapping is not valid ({'; '.join(problems)}). " + fix,
        )
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
        report.error(
            "build.malformed", "/skills", 'Skills must be a list of skill ids such as ["melee", "blades"].'
        )
        return
    positions: list[tuple[int, dict]] = []
    for i, sid in enumerate(skills):
        path = f"/skills/{i}"
        if not isinstance(sid, str):
            report.error("build.malformed", path, 'Each skill must be a skill id such as "melee".')
            continue
        if sid == CAPABILITY:
            report.warn(
                "skill.capability_listed", path, "Capability is always known and free; it need not be listed."
            )
            continue
        entry = catalogue.get(sid)
        if entry is None:
            guess = _suggest(sid, catalogue)
            hint = (
                f" Did you mean {guess!r}?"
                if guess
                else (" Pick one from the skill tree, or ask your GM to add it as homebrew.")
            )
            report.error("skill.unknown", path, f"{sid!r} is not a Pando skill here.{hint}")
            continue
        if sid in b.learned:
            report.error(
                "skill.duplicate",
                path,
                f"{entry['name']} is listed twice: remove this one (a skill is learned once).",
            )
            continue
        b.learned[sid] = entry
        positions.append((i, entry))
        report.charge("cp", skill_cost(entry["level"]), path=path, label=entry["name"])
    for i, entry in positions:
        parent = entry.get("parent")
        if parent == CAPABILITY or parent in b.learned:
            continue
        report.error(
            "skill.prerequisite_missing", ptr("skills", i), _prerequisite_message(entry, catalogue, b.learned)
        )


def _prerequisite_message(entry: dict, catalogue: dict[str, dict], learned: dict[str, dict]) -> str:
    parent = lookup(catalogue, entry.get("parent"))
    if parent is None:
        return (
            f"{entry['name']} needs {entry.get('parent')!r}, which is not in this campaign's skill tree: "
            f"remove {entry['name']} or ask your GM to fix the homebrew."
        )
    chain: list[str] = []
    node: dict | None = parent
    while node is not None and node["id"] not in learned and node["id"] != CAPABILITY and len(chain) < 5:
        chain.append(f"{node['name']} ({skill_cost(node['level'])} CP)")
        node = lookup(catalogue, node.get("parent"))
    learn = " then ".join(reversed(chain))
    return (
        f"{entry['name']} needs {parent['name']}, which this character has not learned: "
        f"learn {learn} first or remove {entry['name']}."
    )


def resolve_item(entry: dict, path: str, report: Report, ctx: Context) -> dict | None:
    """The item an equipment entry stands for: a catalogue item or a one-off ``custom`` one."""
    if "custom" in entry:
        custom = entry["custom"]
        if not isinstance(custom, dict):
            report.error(
                "build.malformed", path + "/custom", "A custom item must be an object with the item fields."
            )
            return None
        custom = {"id": "custom", **custom}
        problems = item_problems(custom, path + "/custom", code="build.malformed", ctx=ctx)
        for issue in problems:
            report.errors.append(issue)
        return None if problems else normalise_item(custom)
    item_id = entry.get("item")
    if not isinstance(item_id, str):
        report.error(
            "build.malformed", path + "/item", 'Each equipment entry needs an "item" id (or a "custom" item).'
        )
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


def _check_equipment(build: dict, report: Report, ctx: Context, b: _Build) -> None:
    equipment = build.get("equipment", [])
    if equipment is None:
        equipment = []
    if not isinstance(equipment, list):
        report.error(
            "build.malformed",
            "/equipment",
            'Equipment must be a list of entries such as {"item": "dagger", "state": "carried"}.',
        )
        b.equipment_known = False
        return
    arms_of = b.species.get("arms", []) if b.species else None
    parts_of = b.species.get("body_parts", []) if b.species else None
    held: dict[str, tuple[int, str]] = {}  # arm → (equipment index, item name)
    for i, entry in enumerate(equipment):
        path = f"/equipment/{i}"
        if not isinstance(entry, dict):
            report.error(
                "build.malformed", path, 'Each equipment entry must be an object with "item" and "state".'
            )
            b.equipment_known = False
            continue
        for key in entry:
            if key not in ENTRY_KEYS:
                report.warn(
                    "build.unknown_key",
                    ptr("equipment", i, key),
                    f"Equipment entries do not use {key!r}; it is kept but ignored.",
                )
        item = resolve_item(entry, path, report, ctx)
        state = entry.get("state")
        if state not in EQUIPMENT_STATES:
            report.error(
                "build.malformed",
                path + "/state",
                'Say how the item is kept: state is "wielded", "worn" or "carried".',
            )
            b.equipment_known = False
            continue
        if item is None:
            if state != "carried":
                b.equipment_known = False
            continue
        name = item["name"]
        arms: list[str] = []
        if state == "wielded":
            if not item["wield"]:
                other = " or wear it" if item["wear"] else ""
                report.error(
                    "equipment.state_invalid",
                    path + "/state",
                    f"The {name} cannot be wielded: carry it{other} instead.",
                )
            elif arms_of is not None:
                arms = _check_arms(entry, item, i, report, arms_of, held)
        elif state == "worn":
            if not item["wear"]:
                other = " or wield it" if item["wield"] else ""
                report.error(
                    "equipment.state_invalid",
                    path + "/state",
                    f"The {name} cannot be worn: carry it{other} instead.",
                )
            elif parts_of is not None:
                _check_wear(item, i, report, parts_of, b.body)
        if state != "carried":
            _check_requirements(item, path, report, b, ctx)
        b.items.append((i, item, state, arms))


def _check_arms(
    entry: dict, item: dict, i: int, report: Report, arms_of: list[str], held: dict[str, tuple[int, str]]
) -> list[str]:
    need = item["wield"]["arms"]
    name = item["name"]
    word = "arm" if need == 1 else "arms"
    arms = entry.get("arms")
    if arms is None:
        choices = ", ".join(arms_of) if arms_of else "nothing (this species has no arms)"
        report.error(
            "equipment.arms_invalid",
            ptr("equipment", i, "arms"),
            f"Say which {word} {'holds' if need == 1 else 'hold'} the {name}: "
            f"it needs {need} {word} (of {choices}), "
            f'e.g. "arms": {json.dumps(arms_of[:need])}.',
        )
        return []
    if not isinstance(arms, list) or not all(isinstance(a, str) for a in arms):
        report.error(
            "build.malformed", ptr("equipment", i, "arms"), 'Arms must be a list such as ["right_arm"].'
        )
        return []
    good: list[str] = []
    for k, arm in enumerate(arms):
        if arm not in arms_of:
            choices = ", ".join(arms_of) if arms_of else "nothing (this species has no arms)"
            report.error(
                "equipment.arms_invalid",
                ptr("equipment", i, "arms", k),
                f"This character has no arm {arm!r}: wield the {name} with one of {choices}.",
            )
        elif arm in good:
            report.error(
                "equipment.arms_invalid",
                ptr("equipment", i, "arms", k),
                f"{label(arm)} is listed twice: the {name} needs {need} different {word}.",
            )
        else:
            good.append(arm)
    if len(good) != len(arms):
        return []
    if len(arms) != need:
        choices = ", ".join(arms_of) if arms_of else "nothing (this species has no arms)"
        report.error(
            "equipment.arms_invalid",
            ptr("equipment", i, "arms"),
            f"The {name} is wielded with {need} {word}, not {len(arms)}: list exactly {need} of {choices}.",
        )
        return []
    out = []
    for k, arm in enumerate(arms):
        if arm in held:
            j, other = held[arm]
            report.error(
                "equipment.arm_conflict",
                ptr("equipment", i, "arms", k),
                f"The {label(arm).lower()} already holds the {other} (equipment {j}), and an "
                f"arm holds one item: carry one of them or wield the {name} with another arm.",
            )
            continue
        out.append(arm)
    for arm in out:
        held[arm] = (i, name)
    return out


def _check_wear(
    item: dict, i: int, report: Report, parts_of: list[str], body: dict[tuple[str, str], tuple[int, str]]
) -> None:
    name = item["name"]
    wear = item["wear"]
    path = ptr("equipment", i)
    missing = [p for p in wear["body_parts"] if p not in parts_of]
    if missing:
        report.error(
            "equipment.body_part_missing",
            path,
            f"The {name} is worn on {', '.join(label(p).lower() for p in missing)}, which this "
            "character does not have: carry it instead, or pick an item made for this body.",
        )
    cells = [(p, s) for p in wear["body_parts"] if p in parts_of for s in wear["slots"]]
    clashes = [(p, s, body[(p, s)]) for p, s in cells if (p, s) in body]
    if clashes:
        seen: dict[tuple[int, str], list[str]] = {}
        for p, s, who in clashes:
            seen.setdefault(who, []).append(f"{s} on the {label(p).lower()}")
        what = "; ".join(
            f"the {other} (equipment {j}) already takes the {', '.join(where)}"
            for (j, other), where in seen.items()
        )
        report.error(
            "equipment.slot_conflict",
            path,
            f"The {name} cannot be worn: {what}. Each body part wears one item per apparel slot: "
            f"take one off (carry it) or pick another item.",
        )
        return
    for cell in cells:
        body[cell] = (i, name)


def _check_requirements(item: dict, path: str, report: Report, b: _Build, ctx: Context) -> None:
    requires = item["requires"]
    unmet, fixes = [], []
    for attr, minimum in requires["attributes"].items():
        value = b.attrs.get(attr)
        if value is not None and value < minimum:
            unmet.append(f"{label(attr)} {minimum} (this character has {value})")
            cost = attribute_total_cost(minimum) - attribute_total_cost(value)
            fixes.append(f"raise {label(attr)} to {minimum} ({cost} CP)")
    skills = ctx.catalogue.get("skills", {})
    for sid in requires["skills"]:
        if sid != CAPABILITY and sid not in b.learned:
            entry = skills.get(sid)
            unmet.append(f"the skill {entry['name'] if entry else sid}")
            fixes.append(f"learn {entry['name'] if entry else sid}")
    if unmet:
        report.error(
            "equipment.requirement_unmet",
            path,
            f"Using the {item['name']} needs {' and '.join(unmet)}: {' and '.join(fixes)}, "
            "or carry it instead of wielding or wearing it.",
        )


# ------------------------------------------------------------------ derived


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


def check_advancement(old: dict, new: dict, report: Report) -> None:
    before, after = old.get("resistances"), new.get("resistances")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return
    if any(before.get(r) != after.get(r) for r in RESISTANCES):
        was = ", ".join(f"{r} ← {before.get(r)}" for r in RESISTANCES)
        report.error(
            "resistance.mapping_changed",
            "/resistances",
            f"Resistances are tied to their attributes at creation and never change: put back {was}.",
        )


# ----------------------------------------------------------- items, homebrew


def normalise_item(item: dict) -> dict:
    """An item with every field present (custom and homebrew items may leave some out)."""
    requires = item.get("requires") or {}
    return {
        "id": item["id"],
        "name": item.get("name") or label(item["id"]),
        "wield": item.get("wield") or None,
        "wear": item.get("wear") or None,
        "encumbrance": item.get("encumbrance") or 0,
        "protection": item.get("protection") or [],
        "range": item.get("range"),
        "requires": {"attributes": requires.get("attributes") or {}, "skills": requires.get("skills") or []},
        "actions": item.get("actions") or [],
    }


def entry_item(entry: dict, catalogue: dict) -> dict | None:
    """The item an equipment entry of a build stands for, read without a report: its catalogue item
    (homebrew included), or its well-formed ``custom`` item with every field filled in; else None."""
    if isinstance(entry.get("custom"), dict):
        custom = {"id": "custom", **entry["custom"]}
        return None if item_problems(custom, "") else normalise_item(custom)
    item_id = entry.get("item")
    return catalogue.get("items", {}).get(item_id) if isinstance(item_id, str) else None


def _ids(value: Any) -> TypeGuard[list[str]]:
    return (
        isinstance(value, list) and bool(value) and all(isinstance(v, str) and ID_RE.match(v) for v in value)
    )


def item_problems(
    item: dict, path: str, *, code: str = "homebrew.malformed", ctx: Context | None = None
) -> list[Issue]:
    """Field checks of an item (homebrew or a build's custom item); one issue per bad field."""
    out: list[Issue] = []

    def bad(key: str, message: str) -> None:
        out.append(Issue(code, f"{path}/{key}", message))

    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        bad("name", "Give the item a name.")
    wield = item.get("wield")
    if wield is not None and not (
        isinstance(wield, dict) and wield.get("arms") in (1, 2) and not isinstance(wield.get("arms"), bool)
    ):
        bad("wield", 'wield is null or {"arms": 1} / {"arms": 2}.')
    wear = item.get("wear")
    if wear is not None and not (
        isinstance(wear, dict) and _ids(wear.get("body_parts")) and _ids(wear.get("slots"))
    ):
        bad(
            "wear", 'wear is null or {"body_parts": ["head"], "slots": ["helmet"]} (ids in lower_snake_case).'
        )
    enc = item.get("encumbrance", 0)
    if not (is_int(enc) and enc >= 0):
        bad("encumbrance", "Encumbrance is a whole number of 0 or more.")
    protection = item.get("protection", [])
    if protection is None:
        protection = []
    if not isinstance(protection, list):
        bad("protection", 'Protection is a list such as [{"kind": "harm", "value": 1}].')
    else:
        for k, prot in enumerate(protection):
            ok = (
                isinstance(prot, dict)
                and isinstance(prot.get("kind"), str)
                and prot["kind"]
                and is_int(prot.get("value"))
                and prot["value"] >= 0
                and (prot.get("body_parts") is None or _ids(prot.get("body_parts")))
            )
            if not ok:
                bad(
                    f"protection/{k}",
                    'Each protection is {"kind": "harm" or "exhaustion:<type>", '
                    '"value": n, "body_parts": [...] (optional)}.',
                )
    rng = item.get("range")
    if rng is not None and not (isinstance(rng, (int, float)) and not isinstance(rng, bool) and rng >= 0):
        bad("range", "Range is a number of 0 or more, or null when the item does not reach.")
    requires = item.get("requires")
    if requires is not None:
        if not isinstance(requires, dict):
            bad("requires", 'requires is {"attributes": {"strength": 2}, "skills": ["melee"]}.')
        else:
            attrs = requires.get("attributes") or {}
            if not isinstance(attrs, dict) or not all(
                k in ATTRIBUTE_GROUPS and is_int(v) for k, v in attrs.items()
            ):
                bad(
                    "requires/attributes",
                    f"Required attributes map attributes ({', '.join(ATTRIBUTES)}) to numbers.",
                )
            skills = requires.get("skills") or []
            if not isinstance(skills, list) or not all(isinstance(s, str) for s in skills):
                bad("requires/skills", "Required skills are a list of skill ids.")
            elif ctx is not None:
                known = ctx.catalogue.get("skills", {})
                for k, sid in enumerate(skills):
                    if sid != CAPABILITY and sid not in known:
                        bad(f"requires/skills/{k}", f"{sid!r} is not a skill here.")
    actions = item.get("actions", [])
    if actions is not None and not isinstance(actions, list):
        bad("actions", "Actions are a list.")
    return out


def homebrew_problems(kind: str, entry: dict, path: str) -> list[Issue]:
    """The field checks of one homebrew entry of ``kind`` (skills, items, species)."""
    checks: dict[str, Callable[[dict, str], list[Issue]]] = {
        "skills": skill_problems,
        "items": item_problems,
        "species": species_problems,
    }
    check = checks.get(kind)
    return check(entry, path) if check is not None else []


def finish_homebrew(
    good: dict[str, list[dict]], issues: list[Issue], homebrew: Any, catalogue: dict[str, dict[str, dict]]
) -> tuple[dict[str, list[dict]], list[Issue]]:
    """After the per-entry checks: the skill tree across the whole homebrew (a parent may be another
    homebrew skill, ``tree_problems``), and homebrew items with every field filled in."""
    if "skills" in good:
        listed = homebrew["skills"]
        indexed = [(next(i for i, e in enumerate(listed) if e is entry), entry) for entry in good["skills"]]
        good["skills"], tree_issues = tree_problems(indexed, catalogue.get("skills", {}))
        issues = [*issues, *tree_issues]
    if "items" in good:
        good["items"] = [normalise_item(entry) for entry in good["items"]]
    return good, issues


def skill_problems(entry: dict, path: str) -> list[Issue]:
    """Field checks of a homebrew skill; the tree itself is checked by ``tree_problems``."""
    out: list[Issue] = []
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        out.append(Issue("homebrew.malformed", path + "/name", "Give the skill a name."))
    level = entry.get("level")
    if not (is_int(level) and 2 <= level <= 5):
        out.append(
            Issue(
                "homebrew.malformed",
                path + "/level",
                "A homebrew skill has level 2, 3, 4 or 5 (capability is the only level 1 skill).",
            )
        )
    parent = entry.get("parent")
    if not isinstance(parent, str):
        out.append(
            Issue(
                "homebrew.malformed",
                path + "/parent",
                'Name the parent skill ("capability" for a level 2 skill).',
            )
        )
    elif is_int(level) and level == 2 and parent != CAPABILITY:
        out.append(
            Issue("homebrew.malformed", path + "/parent", 'A level 2 skill has the parent "capability".')
        )
    attr = entry.get("attribute")
    if attr is not None and attr not in ATTRIBUTE_GROUPS:
        out.append(
            Issue(
                "homebrew.malformed",
                path + "/attribute",
                f"The usual attribute of a skill is one of {', '.join(ATTRIBUTES)} (or leave it out).",
            )
        )
    return out


def species_problems(entry: dict, path: str) -> list[Issue]:
    out: list[Issue] = []
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        out.append(Issue("homebrew.malformed", path + "/name", "Give the species a name."))
    parts = entry.get("body_parts")
    if not _ids(parts) or len(set(parts)) != len(parts):
        out.append(
            Issue(
                "homebrew.malformed",
                path + "/body_parts",
                'List the body parts once each, e.g. ["head", "torso", "tail"].',
            )
        )
        return out
    for key in ("arms", "vital"):
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(v in parts for v in value):
            out.append(
                Issue(
                    "homebrew.malformed",
                    f"{path}/{key}",
                    f"{key} lists some of the species' own body parts ({', '.join(parts)}).",
                )
            )
    return out


def tree_problems(skills: list[tuple[int, dict]], base: dict[str, dict]) -> tuple[list[dict], list[Issue]]:
    """Keep the homebrew skills (index in the homebrew list, entry) whose parent is one level up,
    in the content or earlier/later in the same homebrew, and whose level 4 parent has no other
    mastery. A new level 4 skill without a mastery gets one, since each leads to exactly one."""
    brewed = {entry["id"]: entry for _, entry in skills}
    tree = {**base, **brewed}
    ok: set[str] = set()
    changed = True
    while changed:  # a parent may come later in the same list
        changed = False
        for _, entry in skills:
            sid = entry["id"]
            if sid in ok:
                continue
            parent = tree.get(entry["parent"])
            if entry["level"] == 2 or (
                parent is not None
                and parent.get("level") == entry["level"] - 1
                and (parent["id"] not in brewed or parent["id"] in ok)
            ):
                ok.add(sid)
                changed = True
    issues: list[Issue] = []
    for i, entry in skills:
        if entry["id"] in ok:
            continue
        parent = tree.get(entry["parent"])
        if parent is None:
            why = f"its parent {entry['parent']!r} is not in the skill tree: add that skill or fix the parent"
        elif parent.get("level") != entry["level"] - 1:
            why = (
                f"a level {entry['level']} skill hangs from a level {entry['level'] - 1} skill, "
                f"but {parent.get('name', parent['id'])} is level {parent.get('level')}"
            )
        else:
            why = f"its parent {entry['parent']!r} is itself unusable (see its own problem)"
        issues.append(Issue("homebrew.malformed", ptr("skills", i, "parent"), f"{entry['name']}: {why}."))
    kept = [entry for _, entry in skills if entry["id"] in ok]
    masteries = {e["parent"]: e["id"] for e in base.values() if e.get("level") == 5 and e["id"] not in brewed}
    out = []
    for i, entry in skills:
        if entry["id"] not in ok:
            continue
        if entry["level"] == 5:
            other = masteries.get(entry["parent"])
            if other is not None and other != entry["id"]:
                issues.append(
                    Issue(
                        "homebrew.malformed",
                        ptr("skills", i, "parent"),
                        f"{entry['parent']} already leads to its mastery {other!r}; a level 4 "
                        "skill leads to exactly one level 5 skill.",
                    )
                )
                continue
            masteries[entry["parent"]] = entry["id"]
        out.append(entry)
    for entry in kept:
        mastery = f"{entry['id']}_mastery"
        if entry["level"] == 4 and entry["id"] not in masteries and mastery not in tree:
            out.append(
                {
                    "id": mastery,
                    "name": f"{entry['name']} Mastery",
                    "level": 5,
                    "parent": entry["id"],
                    "attribute": entry.get("attribute"),
                    "description": f"Mastery of {entry['name']}.",
                }
            )
            masteries[entry["id"]] = mastery
    return out, issues


# ------------------------------------------------------------ builder hooks


def traits(ctx: Context) -> dict[str, Any]:
    """The sections the generic builder renders (the hook contract in base.py)."""
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
            {
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
            },
            {
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
            },
            {
                "id": "resistances",
                "label": "Resistances",
                "kind": "mapping",
                "path": "/resistances",
                "help": "Tie each resistance to a different personality attribute. This is chosen at creation "
                "and cannot change later.",
                "keys": [{"id": r, "label": label(r)} for r in RESISTANCES],
                "options": [{"id": a, "label": label(a)} for a in RESISTANCE_ATTRIBUTES],
                "default": dict(DEFAULT_RESISTANCES),
            },
            {
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
            },
            {
                "id": "equipment",
                "label": "Equipment",
                "kind": "items",
                "path": "/equipment",
                "help": "Wielded items take one or two arms, one item per arm. Worn items take their apparel "
                "slot on every body part they cover. Only wielded and worn items encumber "
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
            },
            {
                "id": "body",
                "label": "Body",
                "kind": "custom",
                "widget": "pando_body",
                "path": "/equipment",
                "species": {
                    s["id"]: {
                        "body_parts": [
                            {"id": p, "label": label(p), "vital": p in s.get("vital", [])}
                            for p in s["body_parts"]
                        ],
                        "arms": s.get("arms", []),
                    }
                    for s in species.values()
                },
                "slots": [{"id": s, "label": label(s)} for s in slots],
                "occupies": {
                    it["id"]: [
                        {"body_part": p, "slot": s}
                        for p in it["wear"]["body_parts"]
                        for s in it["wear"]["slots"]
                    ]
                    for it in items.values()
                    if it.get("wear")
                },
                "wields": {it["id"]: it["wield"]["arms"] for it in items.values() if it.get("wield")},
            },
        ]
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
