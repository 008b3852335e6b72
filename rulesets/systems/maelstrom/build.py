"""Maelstrom build rules: checking, pricing and deriving a character (RULES.md section 5).

The build document (CONTRACT.md common keys plus)::

    "attributes":  {"strength": 2, ...}           all six, 0–5 (required)
    "abilities":   {"firearms": 4, ...}           sparse, missing = 0, 0–5 (optional)
    "willpower":   4                              1–10, at least 3 (optional, default 3)
    "specialties": [{"ability", "name", "kind"?}] (optional)
    "creation":    {"primary"?, "attributes"?, "abilities"?}   (optional)

Pricing. Every dot above the free creation dots is charged by its NEW rank
(``report.charge`` once per dot, so the builder can say "Firearms 4 costs 8 XP
because it is the 4th dot"): attribute 15, ability new rank × 2, willpower new
rank × 1 above the starting 3, specialty 2 (general) or 3 (advanced). The
numbers live in content/house.json and a campaign may override them.

Creation. With a ``creation`` section its dots are the free ones: it must be a
legal creation (``maelstrom.creation_attributes`` / ``maelstrom.creation_abilities``)
and no final value may be below it (``maelstrom.below_creation``). A part it
leaves out (``attributes`` or ``abilities``) is allocated as below. Without it
(a paper sheet, an import) the service takes the cheapest legal allocation:

- attributes: the group with more extra dots (final − 1) is primary, physical on
  a tie; legal when the primary group holds at least 6 extra dots and the other
  at least 4. Every such allocation frees the same 10 dots, so the cost is
  15 × (all extra dots − 10); the surplus is taken off the highest attributes.
- abilities: the creation slots (3, 3, 2, 2, 2, 2, 1 × 6) go to the highest
  finals; legal when two abilities have 3+ dots, six 2+ and twelve 1+, and then
  the creation saves exactly 60 XP: ability XP = Σ final × (final + 1) − 60.
  When illegal, the best partial allocation is priced (and the error reported).

The allocation used is in ``derived["creation"]``:
``{"source": "document"|"cheapest", "primary": "physical"|"mental",
"attributes": {id: creation dots}, "abilities": {id: creation dots}}`` — the
builder's "maelstrom_creation" widget shows those dots as free.

Codes beyond the common ones: ``attribute.zero`` (warning), ``specialty.kind_mismatch``,
``specialty.unlisted`` (warning), ``maelstrom.creation_attributes``,
``maelstrom.creation_abilities``, ``maelstrom.below_creation`` and, for
advancement (the approved build against the proposed one), ``advancement.decrease``
(an attribute, ability, willpower or specialty lower than or missing from the
approved build; path to the value, or ``/specialties`` for a dropped specialty)
and ``maelstrom.creation_changed`` (the recorded creation dots are fixed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from rulesets.engine.context import ID_RE, Context
from rulesets.engine.fields import is_int, name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import FORMAT
from rulesets.engine.words import a

GROUPS = ("physical", "mental")
CATEGORIES = ("talent", "skill", "knowledge")
KINDS = ("general", "advanced")
SPECIALTY_KEYS = frozenset({"ability", "name", "kind", "notes"})
CREATION_KEYS = frozenset({"primary", "attributes", "abilities"})
_PAREN_RE = re.compile(r"\s*\(.*\)\s*$")


# ---------------------------------------------------------------- house rules


@dataclass(slots=True)
class House:
    """The numbers the rules use, read from the merged settings with safe fallbacks.

    ``overridden`` names the house-rule keys a campaign changed, so that messages can
    say where a number came from.
    """

    costs: dict[str, int]
    attribute_min: int
    attribute_max: int
    ability_max: int
    willpower_min: int
    willpower_max: int
    willpower_start: int
    creation_start: int
    creation_primary: int
    creation_secondary: int
    creation_abilities: list[int]
    health_chart: list[dict[str, Any]]
    default_difficulty: int
    willpower_recovery_hours: int = 12
    overridden: frozenset[str] = field(default_factory=frozenset)

    def source(self, key: str) -> str:
        return "this campaign's house rule" if key in self.overridden else "the Maelstrom cost table"

    def note(self, *keys: str) -> str:
        """ " (this campaign's house rule)" when a campaign changed a number the message relies on."""
        return " (this campaign's house rule)" if self.overridden.intersection(keys) else ""


def house(ctx: Context, defaults: dict[str, Any]) -> House:
    """The ``House`` of a context (worked out once per context)."""
    return ctx.memo("maelstrom.house", lambda: _read_house(ctx.settings, defaults))


def _read_house(settings: dict, defaults: dict) -> House:
    def num(section: str, key: str | None = None, *, low: int = 0) -> int:
        raw = settings.get(section)
        base = defaults[section]
        if key is not None:
            raw = raw.get(key) if isinstance(raw, dict) else None
            base = base[key]
        return raw if is_int(raw) and raw >= low else base

    raw_slots = settings.get("creation_abilities")
    slots: list[int] = (
        raw_slots
        if isinstance(raw_slots, list) and all(is_int(s) and 0 <= s <= 10 for s in raw_slots)
        else defaults["creation_abilities"]
    )
    raw_chart = settings.get("health_chart")
    chart: list[dict] = raw_chart if _good_chart(raw_chart) else defaults["health_chart"]
    costs = {key: num("xp_costs", key) for key in defaults["xp_costs"]}
    overridden = {k for k, v in settings.items() if defaults.get(k) != v}
    return House(
        costs=costs,
        attribute_min=num("attribute_range", "min"),
        attribute_max=num("attribute_range", "max"),
        ability_max=num("ability_range", "max"),
        willpower_min=num("willpower_range", "min"),
        willpower_max=num("willpower_range", "max"),
        willpower_start=num("willpower_start"),
        creation_start=num("creation_attributes", "start"),
        creation_primary=num("creation_attributes", "primary"),
        creation_secondary=num("creation_attributes", "secondary"),
        creation_abilities=sorted(slots, reverse=True),
        health_chart=[dict(level) for level in chart],
        default_difficulty=num("default_difficulty", low=2),
        willpower_recovery_hours=num("willpower_recovery_hours", low=1),
        overridden=frozenset(overridden),
    )


def _good_chart(chart: Any) -> TypeGuard[list[dict]]:
    return (
        isinstance(chart, list)
        and len(chart) >= 2
        and all(
            isinstance(level, dict)
            and isinstance(level.get("id"), str)
            and isinstance(level.get("label"), str)
            and (level.get("penalty") is None or is_int(level.get("penalty")))
            for level in chart
        )
    )


def check_settings(settings: dict, defaults: dict) -> list[Issue]:
    """Nested checks of house-rule overrides (the base class checks the top-level types)."""
    issues: list[Issue] = []
    for key, value in settings.items():
        default = defaults.get(key)
        if isinstance(default, dict) and isinstance(value, dict) and key != "starting_budget":
            for sub, subvalue in value.items():
                if sub not in default:
                    issues.append(
                        Issue(
                            "settings.unknown",
                            ptr(key, sub),
                            f"House rule {key!r} has no {sub!r} (known: {', '.join(default)}).",
                        )
                    )
                elif not is_int(subvalue) or subvalue < 0:
                    issues.append(
                        Issue("settings.malformed", ptr(key, sub), f"{key}/{sub} must be a whole number ≥ 0.")
                    )
        elif key == "creation_abilities" and isinstance(value, list):
            if not all(is_int(s) and 0 <= s <= 10 for s in value):
                issues.append(
                    Issue(
                        "settings.malformed",
                        ptr(key),
                        "creation_abilities lists whole numbers of dots, "
                        "e.g. [3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1].",
                    )
                )
        elif key == "health_chart" and isinstance(value, list) and not _good_chart(value):
            issues.append(
                Issue(
                    "settings.malformed",
                    ptr(key),
                    "health_chart lists levels "
                    '{"id", "label", "penalty": whole number or null}, at least two.',
                )
            )
    return issues


# ------------------------------------------------------------------- helpers


_ORDINALS: dict[int, str] = {}


def ordinal(n: int) -> str:
    text = _ORDINALS.get(n) if type(n) is int else None
    if text is None:
        text = _ordinal(n)
        if type(n) is int and len(_ORDINALS) < 1024:
            _ORDINALS[n] = text
    return text


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _title(catalogue: dict, kind: str, key: str) -> str:
    entry = catalogue.get(kind, {}).get(key)
    return entry.get("name", key) if isinstance(entry, dict) else key.replace("_", " ").title()


def is_template(entry: dict) -> bool:
    """A suggestion that stands for many specialties: "Specific Language (Chinese, Russian, etc)",
    "Terrain (Urban, Forest, …)". Each language or terrain is its own specialty."""
    return bool(entry.get("examples")) or entry["name"].lower().startswith("specific ")


def specialty_index(ctx: Context) -> tuple[dict[tuple[str, str], dict], list[tuple[str, str, dict]]]:
    """(ability, name key) → catalogue entry, with the examples of templates as aliases;
    and the "Specific X" templates as (ability, key of X, entry) for names ending in X.
    Once per context (``Context.memo``)."""
    return ctx.memo(
        "maelstrom.specialty_index", lambda: _specialty_index(ctx.catalogue.get("specialties", {}))
    )


def _specialty_index(specs: dict) -> tuple[dict[tuple[str, str], dict], list[tuple[str, str, dict]]]:
    index: dict[tuple[str, str], dict] = {}
    suffixes: list[tuple[str, str, dict]] = []
    for entry in specs.values():
        if not isinstance(entry.get("ability"), str) or not isinstance(entry.get("name"), str):
            continue
        for example in str(entry.get("examples") or "").split(","):
            key = name_key(example)
            if key and key != "etc":
                index.setdefault((entry["ability"], key), entry)
        if entry["name"].lower().startswith("specific "):
            suffixes.append((entry["ability"], name_key(entry["name"].split(" ")[-1]), entry))
    for entry in specs.values():
        if isinstance(entry.get("ability"), str) and isinstance(entry.get("name"), str):
            index[(entry["ability"], name_key(entry["name"]))] = entry
    return index, suffixes


def find_specialty(ctx: Context, ability: str, name: str) -> dict | None:
    """The rulebook (or homebrew) entry a typed specialty name stands for, if any."""
    index, suffixes = specialty_index(ctx)
    key = name_key(name)
    entry = index.get((ability, key))
    if entry is None:
        bare = name_key(_PAREN_RE.sub("", name))
        inner = _PAREN_RE.search(name)
        entry = index.get((ability, bare))
        if entry is None and inner:
            entry = index.get((ability, name_key(inner.group(0))))
    words = name.split()
    if entry is None and len(words) > 1:
        last = name_key(words[-1])
        for owner, suffix, template in suffixes:
            if owner == ability and suffix == last:
                return template
    return entry


def _find_with_identity(ctx: Context, ability: str, name: str) -> tuple[dict | None, tuple[str, str]]:
    """``find_specialty`` and ``specialty_identity`` of a typed specialty, remembered per context
    (both depend only on the catalogue's specialties)."""
    memo: dict[tuple[str, str], tuple[dict | None, tuple[str, str]]] = ctx.memo(
        "maelstrom.specialties_found", dict
    )
    key = (ability, name)
    found = memo.get(key)
    if found is None:
        listed = find_specialty(ctx, ability, name)
        found = (listed, specialty_identity(listed, ability, name))
        if len(memo) > 4096:
            memo.clear()
        memo[key] = found
    return found


def specialty_identity(entry: dict | None, ability: str, name: str) -> tuple[str, str]:
    """What makes two specialties the same: the catalogue entry, or the typed name for templates."""
    if entry is not None and not is_template(entry):
        return (ability, entry["id"])
    return (ability, name_key(name))


# ---------------------------------------------------------------- the check


@dataclass(slots=True)
class Sheet:
    """The usable values of a build after the type and range checks."""

    attributes: dict[str, int] = field(default_factory=dict)
    attributes_complete: bool = False
    abilities: dict[str, int] = field(default_factory=dict)
    willpower: int | None = None


def check(build: dict, report: Report, ctx: Context, defaults: dict) -> None:
    h = house(ctx, defaults)
    sheet = Sheet()
    _read_attributes(build, report, ctx, h, sheet)
    _read_abilities(build, report, ctx, h, sheet)
    _read_willpower(build, report, h, sheet)

    creation = build.get("creation")
    if creation is not None and not isinstance(creation, dict):
        report.error(
            "build.malformed",
            "/creation",
            "creation must be an object such as "
            '{"primary": "physical", "attributes": {...}, "abilities": {...}}, or left out.',
        )
        creation = None
    allocation: dict[str, Any] = {"source": "document" if creation is not None else "cheapest"}
    if creation is not None:
        for key in creation:
            if key not in CREATION_KEYS:
                report.warn(
                    "build.unknown_key",
                    ptr("creation", key),
                    f"creation records primary, attributes and abilities; {key!r} is ignored.",
                )

    if sheet.attributes_complete:
        if creation is not None and "attributes" in creation:
            ok = _creation_attributes_from_document(creation, report, ctx, h, sheet, allocation)
        else:
            ok = _creation_attributes_cheapest(report, ctx, h, sheet, allocation)
        if ok:
            _price_attributes(report, ctx, h, sheet, allocation["attributes"])
            report.derived["primary"] = allocation["primary"]

    if creation is not None and "abilities" in creation:
        ok = _creation_abilities_from_document(creation, report, ctx, h, sheet, allocation)
    else:
        ok = _creation_abilities_cheapest(report, ctx, h, sheet, allocation)
    if ok:
        _price_abilities(report, ctx, h, sheet, allocation["abilities"])

    if sheet.willpower is not None:
        _price_willpower(report, h, sheet.willpower)
        report.derived["willpower"] = (
            sheet.willpower if sheet.willpower <= h.willpower_max else h.willpower_max
        )  # noqa: FURB136 (hot path: no call)

    _check_specialties(build, report, ctx, h)

    report.derived["health_levels"] = [
        {"id": level["id"], "label": level["label"], "penalty": level.get("penalty")}
        for level in h.health_chart
    ]
    if "attributes" in allocation and "abilities" in allocation:
        report.derived["creation"] = allocation


def _read_attributes(build: dict, report: Report, ctx: Context, h: House, sheet: Sheet) -> None:
    known = ctx.catalogue.get("attributes", {})
    raw = build.get("attributes")
    if raw is None:
        report.error(
            "build.malformed",
            "/attributes",
            "List the six attributes (strength, precision, reflexes, "
            "perception, intelligence, wits) with their dots, 1–5.",
        )
        return
    if not isinstance(raw, dict):
        report.error(
            "build.malformed", "/attributes", 'attributes must be an object such as {"strength": 2, ...}.'
        )
        return
    complete = True
    for key, value in raw.items():
        if key not in known:
            path = ptr("attributes", key)
            report.error(
                "attribute.unknown",
                path,
                f"Maelstrom has no attribute {key!r}; the attributes are "
                f"{', '.join(known)}. Remove it or rename it.",
            )
            continue
        path = "/attributes/" + key  # catalogue ids need no escaping
        label = known[key]["name"]
        if not is_int(value):
            report.error(
                "build.malformed", path, f"{label} must be a whole number of dots (0–{h.attribute_max})."
            )
            complete = False
            continue
        if value < h.attribute_min:
            report.error(
                "attribute.below_minimum",
                path,
                f"{label} {value} is below {h.attribute_min}; "
                f"attributes run from {h.attribute_min} to {h.attribute_max}.",
            )
            complete = False
            continue
        if value > h.attribute_max:
            report.error(
                "attribute.above_maximum",
                path,
                f"{label} {value} is above the maximum of {h.attribute_max}; lower it to {h.attribute_max}.",
            )
            # Still priced (RULES.md "Out-of-range values are priced"), in closed form: a rank of
            # a billion costs no more work than a rank of five.
        elif value == 0:
            report.warn(
                "attribute.zero",
                path,
                f"{label} 0 is only for extreme exceptions (every character "
                "normally has at least 1 dot); check with the storyteller or raise it to 1.",
            )
        sheet.attributes[key] = value
    for key, entry in known.items():
        if key not in raw:
            complete = False
            report.error(
                "attribute.missing",
                ptr("attributes", key),
                f"{entry['name']} is missing: every character has it (1 dot at least); add it.",
            )
    sheet.attributes_complete = complete


def _read_abilities(build: dict, report: Report, ctx: Context, h: House, sheet: Sheet) -> None:
    known = ctx.catalogue.get("abilities", {})
    raw = build.get("abilities", {})
    if not isinstance(raw, dict):
        report.error(
            "build.malformed",
            "/abilities",
            'abilities must be an object such as {"firearms": 3}; leave out abilities with no dots.',
        )
        return
    for key, value in raw.items():
        if key not in known:
            report.error(
                "skill.unknown",
                ptr("abilities", key),
                f"{key!r} is not a Maelstrom ability (nor one of this campaign's "
                "homebrew abilities); pick one of the 24 abilities or remove it.",
            )
            continue
        path = "/abilities/" + key
        label = known[key]["name"]
        if not is_int(value) or value < 0:
            report.error(
                "build.malformed", path, f"{label} must be a whole number of dots, 0–{h.ability_max}."
            )
            continue
        if value > h.ability_max:
            report.error(
                "skill.above_maximum",
                path,
                f"{label} {value} is above the maximum of {h.ability_max}; lower it to {h.ability_max}.",
            )  # still priced (see attributes)
        sheet.abilities[key] = value


def _read_willpower(build: dict, report: Report, h: House, sheet: Sheet) -> None:
    value = build.get("willpower", h.willpower_start)
    if not is_int(value):
        report.error(
            "build.malformed",
            "/willpower",
            f"Willpower must be a whole number of dots ({h.willpower_min}–{h.willpower_max}).",
        )
        return
    if value < h.willpower_min:
        report.error(
            "attribute.below_minimum",
            "/willpower",
            f"Willpower {value} is below {h.willpower_min}; "
            f"every character starts with {h.willpower_start} dots.",
        )
        return
    if value < h.willpower_start:
        report.error(
            "maelstrom.below_creation",
            "/willpower",
            f"Willpower {value} is below the "
            f"{h.willpower_start} dots every character starts with; raise it to {h.willpower_start}.",
        )
    elif value > h.willpower_max:
        report.error(
            "attribute.above_maximum",
            "/willpower",
            f"Willpower {value} is above the maximum of {h.willpower_max}; lower it to {h.willpower_max}.",
        )  # still priced (see attributes)
    sheet.willpower = value


# -------------------------------------------------------------- attributes


def _group_of(ctx: Context) -> dict[str, list[str]]:
    """Group -> its attribute ids, in catalogue order (once per context; do not mutate)."""

    def groups() -> dict[str, list[str]]:
        out: dict[str, list[str]] = {g: [] for g in GROUPS}
        for key, entry in ctx.catalogue.get("attributes", {}).items():
            out.setdefault(entry.get("group", "physical"), []).append(key)
        return out

    return ctx.memo("maelstrom.attribute_groups", groups)


def _creation_attributes_cheapest(
    report: Report, ctx: Context, h: House, sheet: Sheet, allocation: dict
) -> bool:
    start = h.creation_start
    groups = _group_of(ctx)
    extras = {a: max(0, v - start) for a, v in sheet.attributes.items()}
    total = {g: sum(extras[a] for a in members) for g, members in groups.items()}
    primary = "physical" if total["physical"] >= total["mental"] else "mental"
    secondary = "mental" if primary == "physical" else "physical"
    need = {primary: h.creation_primary, secondary: h.creation_secondary}
    short = {g: need[g] - total[g] for g in GROUPS if total[g] < need[g]}
    if short:
        parts = [
            f"{g} (the {'primary' if g == primary else 'secondary'} group) has {total[g]} extra dots above "
            f"{start} but creation gives it {need[g]}"
            for g in short
        ]
        fixes = " and ".join(f"add {n} dot{'s' if n > 1 else ''} to {g} attributes" for g, n in short.items())
        report.error(
            "maelstrom.creation_attributes",
            "/attributes",
            f"This sheet is not a legal Maelstrom creation: {'; '.join(parts)}. Creation puts {h.creation_primary} "
            f"extra dots in the primary group and {h.creation_secondary} in the secondary (physical is primary on "
            f"a tie){h.note('creation_attributes')}; {fixes}, or record the creation dots in a creation section.",
        )
    creation = {}
    for g, members in groups.items():
        surplus = max(0, total[g] - need[g])
        dots = {a: start + extras[a] for a in members}
        creation.update(_lower_the_highest(dots, surplus) if surplus > 0 else dots)
    allocation["primary"] = primary
    allocation["attributes"] = creation
    return True


def _lower_the_highest(dots: dict[str, int], surplus: int) -> dict[str, int]:
    """The creation dots of one group: the ``surplus`` (XP-bought) dots are the top dots of the
    highest attributes, one at a time from the highest, the first listed on a tie. In closed form
    (a level, then one dot off the first few at it), so a huge value costs no more work."""
    if surplus <= 0:
        return dict(dots)
    values = sorted(dots.values(), reverse=True)
    # The lowest level L with Σ max(0, d − L) ≤ surplus (binary search: the sum falls as L rises).
    low, high = 0, values[0]
    while low < high:
        mid = (low + high) // 2
        if sum(d - mid for d in values if d > mid) <= surplus:
            high = mid
        else:
            low = mid + 1
    level = low
    left = surplus - sum(d - level for d in values if d > level)
    out = {}
    for key, d in dots.items():
        value = min(d, level)
        if value == level and left and d >= level:
            value, left = level - 1, left - 1
        out[key] = value
    return out


def _creation_attributes_from_document(
    creation: dict, report: Report, ctx: Context, h: House, sheet: Sheet, allocation: dict
) -> bool:
    raw = creation.get("attributes")
    known = ctx.catalogue.get("attributes", {})
    if not isinstance(raw, dict):
        report.error(
            "build.malformed",
            "/creation/attributes",
            "creation/attributes must be an object of the six attributes with their creation dots.",
        )
        return False
    values: dict[str, int] = {}
    broken = False
    for key, value in raw.items():
        path = ptr("creation", "attributes", key)
        if key not in known:
            report.error("attribute.unknown", path, f"Maelstrom has no attribute {key!r}; remove it.")
        elif not is_int(value) or value < 0:
            report.error(
                "build.malformed", path, f"Creation {known[key]['name']} must be a whole number of dots."
            )
            broken = True
        elif value > h.attribute_max:
            report.error(
                "attribute.above_maximum",
                path,
                f"Creation {known[key]['name']} {value} is above {h.attribute_max}.",
            )
            broken = True
        else:
            values[key] = value
    for key, entry in known.items():
        if key not in raw:
            report.error(
                "attribute.missing",
                ptr("creation", "attributes", key),
                f"creation/attributes lacks {entry['name']}; record all six attributes.",
            )
            broken = True
    if broken:
        return False
    groups = _group_of(ctx)
    start = h.creation_start
    extras = {g: sum(values[a] - start for a in members) for g, members in groups.items()}
    primary = creation.get("primary")
    if primary is not None and primary not in GROUPS:
        report.error("build.malformed", "/creation/primary", 'creation/primary is "physical" or "mental".')
        primary = None
    if primary is None:
        primary = "physical" if extras["physical"] >= extras["mental"] else "mental"
    secondary = "mental" if primary == "physical" else "physical"
    below_start = [known[a]["name"] for a, v in values.items() if v < start]
    if extras[primary] != h.creation_primary or extras[secondary] != h.creation_secondary or below_start:
        detail = f"{primary} (primary) has {extras[primary]} extra dots and {secondary} {extras[secondary]}"
        if below_start:
            detail += f", and {', '.join(below_start)} start below {start}"
        report.error(
            "maelstrom.creation_attributes",
            "/creation/attributes",
            f"The recorded creation is not legal: each attribute starts at {start}, the primary group gets exactly "
            f"{h.creation_primary} extra dots and the secondary {h.creation_secondary}; here {detail}. Move dots "
            "until the groups hold 6 and 4.",
        )
    for key, value in values.items():
        final = sheet.attributes.get(key)
        if final is not None and final < value:
            report.error(
                "maelstrom.below_creation",
                ptr("attributes", key),
                f"{known[key]['name']} {final} is below its {value} creation dots; raise it to {value} "
                "(dots are never lost) or correct the creation record.",
            )
    allocation["primary"] = primary
    allocation["attributes"] = values
    return True


def _price_attributes(report: Report, ctx: Context, h: House, sheet: Sheet, creation: dict[str, int]) -> None:
    cost = h.costs["attribute"]
    source = None
    for key, final in sheet.attributes.items():
        first = creation.get(key, h.creation_start) + 1
        if first > final:
            continue
        if source is None:
            source = h.source("xp_costs")
        label = _title(ctx.catalogue, "attributes", key)
        path = "/attributes/" + key
        top = h.attribute_max
        for rank in range(first, (final if final <= top else top) + 1):  # noqa: FURB136 (hot path: no call)
            report.charge(
                "xp",
                cost,
                path=path,
                label=f"{label} {rank} costs {cost} XP: every attribute dot above the creation dots "
                f"costs {cost} ({source}).",
            )
        if final > top:
            beyond = max(first, top + 1)
            _charge_beyond(report, path, label, beyond, final, top, (final - beyond + 1) * cost)


def _charge_beyond(
    report: Report, path: str, label: str, first: int, final: int, maximum: int, cost: int
) -> None:
    """One charge for the dots ``first``…``final`` above the maximum (RULES.md: an out-of-range
    value is still priced, so the overspend shows beside the range error)."""
    if first > final:
        return
    dots = final - first + 1
    report.charge(
        "xp",
        cost,
        path=path,
        label=f"{label} {first}{'' if dots == 1 else f'–{final}'} would cost {cost} XP: "
        f"{dots} dot{'' if dots == 1 else 's'} above the maximum of {maximum}, priced so "
        "the total stays true.",
    )


def _sum_of_ranks(first: int, final: int) -> int:
    """first + (first + 1) + … + final, in closed form."""
    return (final * (final + 1) - (first - 1) * first) // 2 if first <= final else 0


# ---------------------------------------------------------------- abilities


def _creation_abilities_cheapest(
    report: Report, ctx: Context, h: House, sheet: Sheet, allocation: dict
) -> bool:
    # Highest finals take the biggest slots; among equals the sheet's own order decides, so an
    # ability added at the end of the sheet is the one that pays.
    position = {key: i for i, key in enumerate(sheet.abilities)}
    ranked = sorted(
        (k for k, v in sheet.abilities.items() if v > 0), key=lambda k: (-sheet.abilities[k], position[k])
    )
    slots = h.creation_abilities
    creation: dict[str, int] = {}
    for key, slot in zip(ranked, slots, strict=False):
        creation[key] = min(slot, sheet.abilities[key])
    missing = []
    finals = sheet.abilities.values()
    for level, need in _slot_needs(ctx, slots):
        have = sum(1 for v in finals if v >= level)
        if have < need:
            missing.append(f"{need} abilities with {level}+ dots (this sheet has {have})")
    if missing:
        report.error(
            "maelstrom.creation_abilities",
            "/abilities",
            f"Creation gives {len([s for s in slots if s])} different abilities dots "
            f"({_slots_text(slots)}){h.note('creation_abilities')}, so a sheet needs at least {'; '.join(missing)}. "
            "Add dots to more abilities.",
        )
    allocation["abilities"] = creation
    return True


def _slot_needs(ctx: Context, slots: list[int]) -> list[tuple[int, int]]:
    """(level, how many slots give level+ dots), highest level first; ``slots`` are the context's
    House ``creation_abilities``, so once per context."""
    return ctx.memo(
        "maelstrom.slot_needs",
        lambda: [
            (level, sum(1 for s in slots if s >= level))
            for level in sorted({s for s in slots if s > 0}, reverse=True)
        ],
    )


def _slots_text(slots: list[int]) -> str:
    counts: dict[int, int] = {}
    for s in slots:
        if s:
            counts[s] = counts.get(s, 0) + 1
    return ", ".join(f"{n} at {s}" for s, n in sorted(counts.items(), reverse=True))


def _creation_abilities_from_document(
    creation: dict, report: Report, ctx: Context, h: House, sheet: Sheet, allocation: dict
) -> bool:
    raw = creation.get("abilities")
    known = ctx.catalogue.get("abilities", {})
    if not isinstance(raw, dict):
        report.error(
            "build.malformed",
            "/creation/abilities",
            'creation/abilities must be an object such as {"firearms": 3, "athletics": 3, ...}.',
        )
        return False
    values: dict[str, int] = {}
    for key, value in raw.items():
        path = ptr("creation", "abilities", key)
        if key not in known:
            report.error(
                "skill.unknown", path, f"{key!r} is not a Maelstrom ability; remove it from the creation."
            )
        elif not is_int(value) or value < 0:
            report.error(
                "build.malformed", path, f"Creation {known[key]['name']} must be a whole number of dots."
            )
        elif value:
            values[key] = value
    if sorted(values.values(), reverse=True) != [s for s in h.creation_abilities if s]:
        report.error(
            "maelstrom.creation_abilities",
            "/creation/abilities",
            f"The recorded creation is not legal: it must give {len([s for s in h.creation_abilities if s])} "
            f"different abilities {_slots_text(h.creation_abilities)} dots; it gives "
            f"{_slots_text(sorted(values.values(), reverse=True)) or 'none'}.",
        )
    for key, value in values.items():
        final = sheet.abilities.get(key, 0)
        if final < value:
            report.error(
                "maelstrom.below_creation",
                ptr("abilities", key),
                f"{known[key]['name']} {final} is below its {value} creation dots; raise it to {value} "
                "or correct the creation record.",
            )
    allocation["abilities"] = values
    return True


def _price_abilities(report: Report, ctx: Context, h: House, sheet: Sheet, creation: dict[str, int]) -> None:
    per = h.costs["ability_per_rank"]
    source = None
    for key, final in sheet.abilities.items():
        first = creation.get(key, 0) + 1
        if first > final:
            continue
        if source is None:
            source = h.source("xp_costs")
        label = _title(ctx.catalogue, "abilities", key)
        path = "/abilities/" + key
        top = h.ability_max
        for rank in range(first, (final if final <= top else top) + 1):  # noqa: FURB136 (hot path: no call)
            report.charge(
                "xp",
                rank * per,
                path=path,
                label=f"{label} {rank} costs {rank * per} XP because it is the {ordinal(rank)} dot "
                f"(new rank × {per}, {source}).",
            )
        if final > top:
            beyond = max(first, top + 1)
            _charge_beyond(report, path, label, beyond, final, top, per * _sum_of_ranks(beyond, final))


def _price_willpower(report: Report, h: House, willpower: int) -> None:
    per = h.costs["willpower_per_rank"]
    source = h.source("xp_costs")
    top = h.willpower_max
    for rank in range(h.willpower_start + 1, (willpower if willpower <= top else top) + 1):  # noqa: FURB136
        report.charge(
            "xp",
            rank * per,
            path="/willpower",
            label=f"Willpower {rank} costs {rank * per} XP because it is the {ordinal(rank)} dot "
            f"(new rank × {per}, {source}).",
        )
    if willpower > top:
        beyond = max(h.willpower_start + 1, top + 1)
        _charge_beyond(
            report, "/willpower", "Willpower", beyond, willpower, top, per * _sum_of_ranks(beyond, willpower)
        )


# -------------------------------------------------------------- specialties


def _check_specialties(build: dict, report: Report, ctx: Context, h: House) -> None:
    raw = build.get("specialties", [])
    if not isinstance(raw, list):
        report.error(
            "build.malformed",
            "/specialties",
            'specialties must be a list such as [{"ability": "firearms", "name": "Pistols"}].',
        )
        return
    abilities = ctx.catalogue.get("abilities", {})
    source = h.source("xp_costs")
    seen: dict[tuple[str, str], int] = {}
    for i, entry in enumerate(raw):
        path = f"/specialties/{i}"
        if not isinstance(entry, dict):
            report.error("build.malformed", path, 'Each specialty is an object {"ability", "name", "kind"?}.')
            continue
        for key in entry:
            if key not in SPECIALTY_KEYS:
                report.warn(
                    "build.unknown_key",
                    ptr("specialties", i, key),
                    f"A specialty has ability, name and kind; {key!r} is ignored.",
                )
        ability, name, kind = entry.get("ability"), entry.get("name"), entry.get("kind")
        ok = True
        if not isinstance(ability, str):
            report.error(
                "build.malformed",
                path + "/ability",
                'Say which ability this specialty belongs to (an ability id such as "firearms").',
            )
            ok = False
        elif ability not in abilities:
            report.error(
                "skill.unknown",
                path + "/ability",
                f"{ability!r} is not a Maelstrom ability; a specialty belongs to one of the 24 abilities.",
            )
            ok = False
        if not isinstance(name, str) or not name_key(name):
            report.error("build.malformed", path + "/name", 'Give the specialty a name, e.g. "Pistols".')
            ok = False
        if kind is not None and kind not in KINDS:
            report.error("build.malformed", path + "/kind", 'A specialty\'s kind is "general" or "advanced".')
            kind = None
        if not ok or not isinstance(ability, str) or not isinstance(name, str):
            continue
        ability_name = abilities[ability]["name"]
        listed, identity = _find_with_identity(ctx, ability, name)
        if listed is not None:
            priced_kind = listed["kind"]
            if kind is not None and kind != listed["kind"]:
                report.error(
                    "specialty.kind_mismatch",
                    path + "/kind",
                    f"{ability_name}: {listed['name']} is {a(listed['kind'])} specialty in the rulebook, not "
                    f"{kind}; set kind to {listed['kind']!r} or leave it out.",
                )
        else:
            priced_kind = kind or "general"
            report.warn(
                "specialty.unlisted",
                path + "/name",
                f"{ability_name}: {name} is not among the rulebook's suggested specialties; the storyteller "
                f"decides whether it is reasonable. It is priced as {priced_kind}"
                f'{"" if kind else " (no kind given)"}; set kind to "advanced" if the storyteller says so.',
            )
        if identity in seen:
            report.error(
                "skill.duplicate",
                path,
                f"{ability_name}: {name} is already listed at "
                f"/specialties/{seen[identity]}; remove this one.",
            )
            continue
        seen[identity] = i
        cost = h.costs[f"{priced_kind}_specialty"]
        report.charge(
            "xp",
            cost,
            path=path,
            label=f"{ability_name}: {name} costs {cost} XP ({priced_kind} specialty, {source}).",
        )


# ------------------------------------------------------------- advancement


def check_advancement(old: dict, new: dict, report: Report, ctx: Context) -> None:
    """Creation dots are fixed and nothing decreases (see the module docstring for the codes)."""
    for section in ("attributes", "abilities"):
        before, after = old.get(section), new.get(section, {})
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        for key, was in before.items():
            now = after.get(key, 0)
            if is_int(was) and is_int(now) and now < was:
                report.error(
                    "advancement.decrease",
                    ptr(section, key),
                    f"{_title(ctx.catalogue, section, key)} drops from {was} to {now}; dots bought are never "
                    f"lost in Maelstrom. Keep it at {was} or more.",
                )
    was, now = old.get("willpower"), new.get("willpower")
    if is_int(was) and is_int(now) and now < was:
        report.error(
            "advancement.decrease",
            "/willpower",
            f"Permanent willpower drops from {was} to {now}; keep it at {was} or more.",
        )
    before, after = old.get("specialties"), new.get("specialties")
    if isinstance(before, list):
        kept = {_spec_identity(ctx, s) for s in after} if isinstance(after, list) else set()
        for spec in before:
            identity = _spec_identity(ctx, spec)
            if identity is not None and identity not in kept:
                report.error(
                    "advancement.decrease",
                    "/specialties",
                    f"The specialty {spec['ability']}: {spec['name']} of the approved sheet is gone; "
                    "specialties are never lost. Put it back.",
                )
    if isinstance(old.get("creation"), dict) and new.get("creation") != old.get("creation"):
        report.error(
            "maelstrom.creation_changed",
            "/creation",
            "The creation dots of the approved sheet are fixed; "
            "restore the creation section as it was approved.",
        )


def _spec_identity(ctx: Context, spec: Any) -> tuple[str, str] | None:
    if (
        not isinstance(spec, dict)
        or not isinstance(spec.get("ability"), str)
        or not isinstance(spec.get("name"), str)
    ):
        return None
    listed = find_specialty(ctx, spec["ability"], spec["name"])
    return specialty_identity(listed, spec["ability"], spec["name"])


# ---------------------------------------------------------------- homebrew


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


# ------------------------------------------------------------ builder hooks


def traits(ctx: Context, defaults: dict) -> dict[str, Any]:
    h = house(ctx, defaults)
    attributes = ctx.catalogue.get("attributes", {})
    abilities = ctx.catalogue.get("abilities", {})
    suggestions: dict[str, list[dict]] = {key: [] for key in abilities}
    for spec in ctx.catalogue.get("specialties", {}).values():
        if spec["ability"] in suggestions:
            suggestions[spec["ability"]].append({"name": spec["name"], "kind": spec["kind"]})
    c = h.costs
    return {
        "sections": [
            {
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
            },
            {
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
            },
            {
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
            },
            {
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
            },
            {
                "id": "creation",
                "label": "Creation dots",
                "kind": "custom",
                "widget": "maelstrom_creation",
                "path": "/creation",
                "optional": True,
                "help": "The free dots of character creation. Leave them out and the sheet is priced with the "
                "cheapest legal allocation (shown in the report under derived.creation).",
                "groups": {g: [k for k, e in attributes.items() if e["group"] == g] for g in GROUPS},
                "attribute_start": h.creation_start,
                "attribute_dots": {"primary": h.creation_primary, "secondary": h.creation_secondary},
                "ability_slots": [s for s in h.creation_abilities if s],
                "willpower_start": h.willpower_start,
                "allocation": "derived.creation",
            },
        ]
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
