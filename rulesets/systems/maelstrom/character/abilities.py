"""Maelstrom's build: the abilities' creation dots and their price, and willpower's."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .attributes import DROP_RECORD, _charge_beyond, _sum_of_ranks
from .house import House
from .lookup import _title, ordinal
from .sheet import Sheet


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
            f"{_slots_text(sorted(values.values(), reverse=True)) or 'none'}. {DROP_RECORD}",
        )
    for key, value in values.items():
        final = sheet.abilities.get(key, 0)
        if final < value:
            report.error(
                "maelstrom.below_creation",
                ptr("abilities", key),
                f"{known[key]['name']} {final} is below its {value} creation dots; raise it to {value} "
                "(dots are never lost).",
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
