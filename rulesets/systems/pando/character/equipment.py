"""Pando's build: equipment on a body of parts (items, arms, what is worn where, requirements) and
what it costs in money when the campaign gives starting money (W5)."""

from __future__ import annotations

import json

from rulesets.engine.context import Context
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .common import CAPABILITY, ENTRY_KEYS, EQUIPMENT_STATES, MONEY, attribute_total_cost, label, price_of
from .homebrew import item_problems, normalise_item
from .learned import _Build
from .skills import _suggest


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
    # W5: with starting money (a money budget) the equipment is bought: each item costs its price,
    # however it is kept. Without, the game gives the equipment (seed: "Starting resources come in the
    # form of Character Points, Equipment, and currency").
    buying = MONEY in report.budget
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
        if item is not None and buying:
            report.charge(MONEY, price_of(item), path=path, label=item["name"])
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
