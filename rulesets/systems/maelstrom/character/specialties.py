"""Maelstrom's build: specialties (general and advanced, from the catalogue or the campaign's)."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import name_key
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report
from rulesets.engine.words import a

from .common import KINDS, SPECIALTY_KEYS
from .house import House
from .lookup import _find_with_identity


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
