"""Maelstrom's own character sheets → ``sheetforge.build/1`` (and back, for the round trip).

The Maelstrom project keeps its players' characters as JSON files of this shape (issue #15)::

    {"name": "...", "concept": "...", "campaign": "...",
     "experience": {"earned": 30, "free": 3},              optional; budget = earned (HD 30 when absent)
     "attributes": {"physical": [{"name": "Strength", "dots": 2}, ...], "mental": [...]},
     "abilities": {"talents": [{"name": "Melee", "dots": 2,
                                "specialties": ["Surprise Attack", "Swords (Adv)"]}, ...],
                   "skills": [...], "knowledges": [...]},
     "willpower": {"spent": 0, "max": 3},                  max → willpower; spent → the notes
     "flaws": [{"name": "...", "description": "..."}]}     optional; kept in the notes

Players write these by hand, so they are read as a person wrote them:

- Attribute and ability names are matched as RULES.md says (case and everything but letters
  and digits ignored: "Heavy-Weapons" is Heavy Weapons). The group or category a trait is
  listed under does not matter; its name does.
- A name the game does not have is kept in the build under an id made from it, so that the
  build's report says ``attribute.unknown`` / ``skill.unknown`` where it stands, and it is
  reported here too (``import.unknown_attribute`` / ``import.unknown_ability``): never dropped.
- Specialties: one string may hold several, separated by commas outside parentheses
  ("Mechanical Design (Adv), Electronics (Adv)"); quotes around a name are not part of it; a
  name ending in "(Adv)" ("(Advanced)", "(adv.)") is advanced, "(Gen)" general; an unmarked one
  takes the kind the seed's list gives it, general when it is not listed.
- The concept, the campaign, the flaws, spent willpower and the free XP the sheet claims go
  to the notes: a draft's play state is made when it is submitted, so a spent dot is a note
  for the storyteller, not state.
- The sheet lists final dots only, so the build has no ``creation`` section: it is priced by
  the cheapest legal creation (RULES.md 5).

``import_sheet`` never raises: what it cannot read is an issue (path into the sheet).
"""

from __future__ import annotations

import re
from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import get_as, name_key, whole_number
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue
from rulesets.engine.ruleset import FORMAT

from .character import find_specialty

SHEET_KEYS = frozenset(
    {"name", "concept", "campaign", "experience", "attributes", "abilities", "willpower", "flaws", "notes"}
)
ABILITY_SECTIONS = {"talent": "talents", "skill": "skills", "knowledge": "knowledges"}
ATTRIBUTE_SECTIONS = ("physical", "mental")
DEFAULT_XP = 30  # issue #15: "budget = earned, HD 30 when absent" (the campaign's starting budget wins)
_MARK_RE = re.compile(r"\s*\(\s*(adv(?:anced)?|gen(?:eral)?)\s*\.?\s*\)\s*$", re.IGNORECASE)
_QUOTES = "\"'“”‘’«»`"
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def looks_like_sheet(data: Any) -> bool:
    """A Maelstrom sheet: an object (not a build document) with attribute groups or ability lists."""
    if not isinstance(data, dict) or "ruleset" in data or "format" in data:
        return False
    attributes, abilities = data.get("attributes"), data.get("abilities")
    return (
        isinstance(attributes, dict) and any(isinstance(attributes.get(g), list) for g in ATTRIBUTE_SECTIONS)
    ) or (
        isinstance(abilities, dict)
        and any(isinstance(abilities.get(c), list) for c in ABILITY_SECTIONS.values())
    )


def import_sheet(data: Any, *, ctx: Context) -> tuple[dict | None, list[Issue]]:
    """(the build, issues) of a Maelstrom sheet; (None, [why]) when ``data`` is not one."""
    if not looks_like_sheet(data):
        return None, [
            Issue(
                "import.not_a_sheet",
                "",
                "This is not a Maelstrom character sheet: it needs "
                '"attributes" with "physical" and "mental" lists or "abilities" with "talents", '
                '"skills" and "knowledges" lists.',
            )
        ]
    issues: list[Issue] = []
    notes: list[str] = []
    for key in data:
        if key not in SHEET_KEYS:
            issues.append(
                Issue(
                    "import.unknown_key",
                    ptr(key),
                    f"The sheet's {key!r} is not part of a Maelstrom sheet; it was not imported.",
                )
            )
    build: dict[str, Any] = {"format": FORMAT, "ruleset": "maelstrom"}
    name = _text(data.get("name"))
    if name:
        build["name"] = name
    else:
        issues.append(Issue("import.malformed", "/name", "The sheet has no name; give the character one."))
    build["budget"] = {"xp": _budget(data, ctx, issues, notes)}
    build["attributes"] = _attributes(data.get("attributes"), ctx, issues)
    build["abilities"], build["specialties"] = _abilities(data.get("abilities"), ctx, issues)
    willpower = _willpower(data.get("willpower"), issues, notes)
    if willpower is not None:
        build["willpower"] = willpower
    build["notes"] = _notes(data, issues, notes)
    if not build["notes"]:
        del build["notes"]
    return build, issues


# ---------------------------------------------------------------- the steps


def _text(value: Any) -> str:
    """A name as a person wrote it: whitespace and surrounding quotes are not part of it."""
    if not isinstance(value, str):
        return ""
    text = value.strip()
    while len(text) >= 2 and text[0] in _QUOTES and text[-1] in _QUOTES:
        text = text[1:-1].strip()
    return text


def _slug(name: str) -> str:
    return _SLUG_RE.sub("_", name.lower()).strip("_") or "unnamed"


def _budget(data: dict, ctx: Context, issues: list[Issue], notes: list[str]) -> int:
    start = ctx.settings.get("starting_budget", {}) if isinstance(ctx.settings, dict) else {}
    default = start.get("xp", DEFAULT_XP) if isinstance(start, dict) else DEFAULT_XP
    raw = data.get("experience")
    if raw is None:
        return default
    if not isinstance(raw, dict):
        issues.append(
            Issue(
                "import.malformed",
                "/experience",
                f'experience is {{"earned": n, "free": n}}; the starting {default} XP are used.',
            )
        )
        return default
    earned = whole_number(raw.get("earned"))
    if earned is None or earned < 0:
        issues.append(
            Issue(
                "import.malformed",
                "/experience/earned",
                f"Earned experience must be a whole number of XP; the starting {default} XP are used.",
            )
        )
        earned = default
    free = whole_number(raw.get("free"))
    if free is not None:
        notes.append(f"The imported sheet listed {free} XP free of {earned} earned.")
    return earned


def _entries(section: Any, path: str, issues: list[Issue]) -> list[tuple[str, dict]]:
    """The (path, entry) of each object in a list of traits; what is not one is reported."""
    if not isinstance(section, list):
        issues.append(
            Issue(
                "import.malformed",
                path,
                'A list of traits such as [{"name": ..., "dots": 2}] was expected here.',
            )
        )
        return []
    out = []
    for i, entry in enumerate(section):
        here = f"{path}/{i}"
        if isinstance(entry, dict) and _text(entry.get("name")):
            out.append((here, entry))
        else:
            issues.append(
                Issue(
                    "import.malformed",
                    here,
                    "Each trait is an object with a name and its dots; this one was not imported.",
                )
            )
    return out


def _dots(entry: dict, path: str, label: str, issues: list[Issue]) -> Any:
    raw = entry.get("dots", 0)
    dots = whole_number(raw)
    if dots is None:
        issues.append(
            Issue(
                "import.malformed",
                path + "/dots",
                f"{label}: {raw!r} is not a number of dots; it was kept as written, for the check to report.",
            )
        )
        return raw
    return dots


def _index(ctx: Context, kind: str) -> dict[str, str]:
    """name key → id of the catalogue's attributes or abilities (names and ids both match)."""

    def make() -> dict[str, str]:
        out: dict[str, str] = {}
        for key, entry in ctx.catalogue.get(kind, {}).items():
            out.setdefault(name_key(key), key)
            if isinstance(entry.get("name"), str):
                out[name_key(entry["name"])] = key
        return out

    return ctx.memo(f"maelstrom.import_index.{kind}", make)


def _attributes(raw: Any, ctx: Context, issues: list[Issue]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if not isinstance(raw, dict):
        issues.append(
            Issue("import.malformed", "/attributes", 'attributes is {"physical": [...], "mental": [...]}.')
        )
        return out
    index = _index(ctx, "attributes")
    names = ctx.catalogue.get("attributes", {})
    for group, section in raw.items():
        for path, entry in _entries(section, ptr("attributes", group), issues):
            written = _text(entry["name"])
            key = index.get(name_key(written))
            if key is None:
                key = _slug(written)
                issues.append(
                    Issue(
                        "import.unknown_attribute",
                        path + "/name",
                        f"Maelstrom has no attribute "
                        f"{written!r}; it is kept under that name for the storyteller to rename or remove.",
                    )
                )
            if key in out:
                issues.append(
                    Issue("import.duplicate", path, f"{written} is listed twice; the later dots are kept.")
                )
            out[key] = _dots(entry, path, names.get(key, {}).get("name", written), issues)
    return out


def _abilities(raw: Any, ctx: Context, issues: list[Issue]) -> tuple[dict[str, Any], list[dict[str, str]]]:
    abilities: dict[str, Any] = {}
    specialties: list[dict[str, str]] = []
    if raw is None:
        return abilities, specialties
    if not isinstance(raw, dict):
        issues.append(
            Issue(
                "import.malformed",
                "/abilities",
                'abilities is {"talents": [...], "skills": [...], "knowledges": [...]}.',
            )
        )
        return abilities, specialties
    index = _index(ctx, "abilities")
    catalogue = ctx.catalogue.get("abilities", {})
    for category, section in raw.items():
        for path, entry in _entries(section, ptr("abilities", category), issues):
            written = _text(entry["name"])
            key = index.get(name_key(written))
            if key is None:
                key = _slug(written)
                issues.append(
                    Issue(
                        "import.unknown_ability",
                        path + "/name",
                        f"Maelstrom has no ability {written!r}; "
                        "it is kept under that name for the storyteller to rename or remove (or to add as "
                        "a homebrew ability).",
                    )
                )
            label = catalogue.get(key, {}).get("name", written)
            if key in abilities:
                issues.append(
                    Issue("import.duplicate", path, f"{written} is listed twice; the later dots are kept.")
                )
            dots = _dots(entry, path, label, issues)
            if dots != 0:
                abilities[key] = dots
            for name, kind in _specialties(entry.get("specialties"), path + "/specialties", label, issues):
                if kind is None:
                    listed = find_specialty(ctx, key, name)
                    kind = listed["kind"] if listed is not None else "general"
                specialties.append({"ability": key, "name": name, "kind": kind})
    return abilities, specialties


def _specialties(raw: Any, path: str, ability: str, issues: list[Issue]) -> list[tuple[str, str | None]]:
    """(name, "advanced" | "general" | None when unmarked) of each specialty a person wrote."""
    if raw is None:
        return []
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        issues.append(Issue("import.malformed", path, f"{ability}: specialties is a list of names."))
        return []
    out: list[tuple[str, str | None]] = []
    for i, item in enumerate(raw):
        text = item.get("name") if isinstance(item, dict) else item
        if not isinstance(text, str):
            issues.append(
                Issue(
                    "import.malformed",
                    f"{path}/{i}",
                    f"{ability}: a specialty is a name; {item!r} was not imported.",
                )
            )
            continue
        for part in _split(text):
            mark = _MARK_RE.search(part)
            kind = None
            if mark:
                kind = "advanced" if mark.group(1).lower().startswith("adv") else "general"
                part = part[: mark.start()]
            name = _text(part)
            if name:
                out.append((name, kind))
    return out


def _split(text: str) -> list[str]:
    """Comma-separated names, keeping commas inside parentheses ("Terrain (Urban, Forest)")."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        if ch in ",;" and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _willpower(raw: Any, issues: list[Issue], notes: list[str]) -> Any:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        value = whole_number(raw)
        if value is None:
            issues.append(Issue("import.malformed", "/willpower", 'willpower is {"spent": n, "max": n}.'))
        return value
    top = whole_number(raw.get("max"))
    if top is None:
        issues.append(
            Issue(
                "import.malformed",
                "/willpower/max",
                "The sheet's willpower has no max dots; the starting willpower is used.",
            )
        )
        return None
    spent = whole_number(raw.get("spent", 0))
    if spent is None or spent < 0:
        issues.append(
            Issue(
                "import.malformed",
                "/willpower/spent",
                "Spent willpower is a whole number of dots; it was not imported.",
            )
        )
    elif spent:
        notes.append(
            f"Willpower: {spent} of {top} dots spent on the imported sheet (current willpower "
            f"{max(0, top - spent)}); mark them spent on the sheet once the character is in play."
        )
    return top


def _notes(data: dict, issues: list[Issue], extra: list[str]) -> str:
    lines: list[str] = []
    own = data.get("notes")
    if isinstance(own, str) and own.strip():
        lines.append(own.strip())
    concept = _text(data.get("concept"))
    if concept:
        lines.append(f"Concept: {concept}")
    campaign = _text(data.get("campaign"))
    if campaign:
        lines.append(f"Campaign: {campaign}")
    flaws = data.get("flaws")
    if isinstance(flaws, list) and flaws:
        lines.append("Flaws:")
        for i, flaw in enumerate(flaws):
            if isinstance(flaw, dict) and _text(flaw.get("name")):
                description = flaw.get("description")
                tail = (
                    f": {description.strip()}" if isinstance(description, str) and description.strip() else ""
                )
                lines.append(f"- {_text(flaw['name'])}{tail}")
            elif isinstance(flaw, str) and _text(flaw):
                lines.append(f"- {_text(flaw)}")
            else:
                issues.append(
                    Issue(
                        "import.malformed",
                        f"/flaws/{i}",
                        'A flaw is {"name", "description"}; this one was not imported.',
                    )
                )
    elif flaws is not None and flaws != []:
        issues.append(Issue("import.malformed", "/flaws", 'flaws is a list of {"name", "description"}.'))
    lines.extend(extra)
    return "\n".join(lines)


# ---------------------------------------------------------------- and back


def export_sheet(build: dict, *, ctx: Context) -> dict[str, Any]:
    """The Maelstrom sheet of a build (the importer's inverse for dots and specialties)."""
    attributes = ctx.catalogue.get("attributes", {})
    abilities = ctx.catalogue.get("abilities", {})
    dots = get_as(build, "attributes", dict, {})
    groups: dict[str, list[dict]] = {g: [] for g in ATTRIBUTE_SECTIONS}
    for key, entry in attributes.items():
        if key in dots:
            groups.setdefault(entry.get("group", "physical"), []).append(
                {"name": entry["name"], "dots": dots[key]}
            )
    owned = get_as(build, "abilities", dict, {})
    by_ability: dict[str, list[str]] = {}
    for spec in build.get("specialties") or []:
        if (
            isinstance(spec, dict)
            and isinstance(spec.get("ability"), str)
            and isinstance(spec.get("name"), str)
        ):
            mark = " (Adv)" if spec.get("kind") == "advanced" else ""
            by_ability.setdefault(spec["ability"], []).append(spec["name"] + mark)
    sections: dict[str, list[dict]] = {s: [] for s in ABILITY_SECTIONS.values()}
    for key, entry in abilities.items():
        if key in owned or key in by_ability:
            section = ABILITY_SECTIONS.get(entry.get("category", "talent"), "talents")
            row: dict[str, Any] = {"name": entry["name"], "dots": owned.get(key, 0)}
            if key in by_ability:
                row["specialties"] = by_ability[key]
            sections[section].append(row)
    budget = get_as(build, "budget", dict, {})
    sheet: dict[str, Any] = {"name": build.get("name", ""), "attributes": groups, "abilities": sections}
    if "willpower" in build:
        sheet["willpower"] = {"spent": 0, "max": build["willpower"]}
    if "xp" in budget:
        sheet["experience"] = {"earned": budget["xp"]}
    return sheet
