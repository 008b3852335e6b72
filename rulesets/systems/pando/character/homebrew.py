"""Pando's homebrew: items, skills and species a campaign adds, checked entry by entry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from rulesets.engine.context import ID_RE, Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue

from .common import ATTRIBUTE_GROUPS, ATTRIBUTES, CAPABILITY, label, price_of


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
        # The outcomes the item offers (ids of the catalogue's outcomes: outcomes.py).
        "outcomes": [o for o in item.get("outcomes") or [] if isinstance(o, str)],
        "price": price_of(item),
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
    price = item.get("price")
    if price is not None and not (is_int(price) and price >= 0):
        bad("price", "The price is a whole number of money, 0 or more (none: 0).")
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
