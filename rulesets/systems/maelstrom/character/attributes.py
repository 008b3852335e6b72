"""Maelstrom's build: the attributes' creation dots (cheapest or as recorded) and their price."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .common import GROUPS
from .house import House
from .lookup import _title
from .sheet import Sheet

#: What a player can do about a recorded creation the rules refuse (the builder's Creation dots
#: section has the button; the API drops the ``creation`` key).
DROP_RECORD = (
    "Drop the record to have the cheapest legal creation worked out from the sheet "
    "(“Work the creation dots out from the sheet instead” under Creation dots)."
)


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
        # The fix is the dots themselves: a recorded creation must give the groups 6 and 4 with every
        # final value at least its creation dots, so recording one never mends a sheet short of them.
        fixes = " and ".join(f"add {n} dot{'s' if n > 1 else ''} to {g} attributes" for g, n in short.items())
        report.error(
            "maelstrom.creation_attributes",
            "/attributes",
            f"This sheet is not a legal Maelstrom creation: {'; '.join(parts)}. Creation puts {h.creation_primary} "
            f"extra dots in the primary group and {h.creation_secondary} in the secondary (physical is primary on "
            f"a tie){h.note('creation_attributes')}; {fixes}.",
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
            f"{h.creation_primary} extra dots and the secondary {h.creation_secondary}; here {detail}. "
            f"{DROP_RECORD}",
        )
    for key, value in values.items():
        final = sheet.attributes.get(key)
        if final is not None and final < value:
            report.error(
                "maelstrom.below_creation",
                ptr("attributes", key),
                f"{known[key]['name']} {final} is below its {value} creation dots; raise it to {value} "
                "(dots are never lost).",
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
