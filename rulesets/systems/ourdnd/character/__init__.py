"""Our D&D (seed 003, RULES.md section 4): checks, prices and derives a build; the
builder's traits and a blank build.

Build document (RULES.md §4)::

    {"ruleset": "ourdnd", "name": "Pip", "budget": {"points": 6},
     "stats": {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0},   # all six, 0–6 (HD)
     "hearts": 1,                                   # 0.5 (a half heart) or a whole number ≥ 1; left out = 1
     "gear": [{"item": "shortbow"}, {"item": "leather_armor"}]}   # optional

Costs (all HD, the seed has no creation rules): 1 point per stat point, 3 points
per heart beyond the first. Gear is free.

Codes: the common ones, plus ``gear.unknown`` (path ``/gear/<i>/item``) and
``ourdnd.gear_conflict`` (path ``/gear/<i>``: a second body armour or a second shield;
the first of each counts for defense). Hearts below 1 is ``attribute.below_minimum``
at ``/hearts``. A stat outside its range is still priced (1 point a point), beside its
range error.

Derived: ``max_hp`` (hearts × HP per heart, house default 10; a half heart is half of it, rounded
down, at least 1: RULES.md W14), ``defense`` (con + Σ armor defense; enemies
roll against ``defense + 10``, given as ``defense_target``), ``effort``
(``{"bare_hands": "d4", "<item id>": "d6", …}``: every gear item with an effort die,
keyed by its id; a ``critical_ultimate`` item's is a d12, RULES.md W16), ``stats`` (the stats with gear bonuses, when any gear gives one).
"""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Issue, Report
from rulesets.engine.ruleset import FORMAT

from .. import distance

STATS = ("str", "dex", "con", "int", "wis", "cha")
EFFORT_DICE = ("d4", "d6", "d8", "d10", "d12")
REACHES = ("close", "near", "far", "very_far")  # a gear entry's "reach" (distance.py)


# ------------------------------------------------------------------ the build


def check(build: dict, report: Report, ctx: Context) -> None:
    settings = ctx.settings
    report.spent.setdefault("points", 0)
    stats = _check_stats(build, report, ctx)
    hearts = _check_hearts(build, report, settings)
    gear = _check_gear(build, report, ctx)

    if hearts is not None:
        report.derived["max_hp"] = hit_points(hearts, settings.get("hp_per_heart", 10))
    if gear is not None:
        bonus = {s: 0 for s in STATS}
        for entry in gear:
            for stat, n in (entry.get("stats") or {}).items():
                if stat in bonus and is_int(n):
                    bonus[stat] += n
        if "con" in stats:
            defense = stats["con"] + bonus["con"] + sum(e.get("defense", 0) or 0 for e in gear)
            report.derived["defense"] = defense
            report.derived["defense_target"] = defense + 10
        effort = {"bare_hands": settings.get("bare_hands_effort", "d4")}
        for entry in gear:
            if entry.get("effort"):
                effort[entry["id"]] = effort_die(entry)
        report.derived["effort"] = effort
        if any(bonus.values()) and len(stats) == len(STATS):
            report.derived["stats"] = {s: stats[s] + bonus[s] for s in STATS}


def _check_stats(build: dict, report: Report, ctx: Context) -> dict[str, int]:
    settings = ctx.settings
    low, high = settings.get("stat_min", 0), settings.get("stat_max", 6)
    per_point = settings.get("stat_point_cost", 1)
    names = ctx.catalogue.get("stats", {})
    good: dict[str, int] = {}
    raw = build.get("stats")
    if raw is None:
        report.error(
            "build.malformed",
            "/stats",
            'Give the six stats, e.g. "stats": {"str": 0, "dex": 3, "con": 1, "int": 0, "wis": 2, "cha": 0}.',
        )
        return good
    if not isinstance(raw, dict):
        report.error("build.malformed", "/stats", "Stats must be an object of stat → value (0–6).")
        return good
    rows = ctx.memo(
        "ourdnd.stat_rows",
        lambda: {s: (ptr("stats", s), names.get(s, {}).get("name", s.upper())) for s in STATS},
    )
    for stat, value in raw.items():
        row = rows.get(stat)
        if row is None:
            report.error(
                "attribute.unknown",
                ptr("stats", stat),
                f"Our D&D has no stat {stat!r}; the six stats are {', '.join(STATS)}. Remove or rename it.",
            )
            continue
        path, label = row
        if not is_int(value):
            report.error("build.malformed", path, f"{label} must be a whole number from {low} to {high}.")
            continue
        # RULES.md "out-of-range values are priced": a stat outside its range still costs what the
        # formula says, so spent, remaining and budget.exceeded stay true beside the range error.
        report.charge("points", value * per_point, path=path, label=f"{label} {value}")
        if value < low:
            report.error(
                "attribute.below_minimum", path, f"{label} cannot be below {low}; raise it to {low}."
            )
            continue
        if value > high:
            report.error(
                "attribute.above_maximum",
                path,
                f"{label} {value} is above the highest stat, {high} (house default; your campaign may "
                f"change it); lower it to {high}.",
            )
            continue
        good[stat] = value
    for stat in STATS:
        if stat not in raw:
            report.error(
                "attribute.missing",
                ptr("stats", stat),
                f"{names.get(stat, {}).get('name', stat.upper())} is missing; give it a value (0 is fine).",
            )
    return good


#: The one fraction of a heart there is (seed "HALF HEART ♡": "most world's common people … have just
#: HALF HEART ♡ … equal to 5 points of EFFORT"; adventurers "always increase in one full heart").
HALF_HEART = 0.5


def is_half_heart(hearts: Any) -> bool:
    return isinstance(hearts, float) and hearts == HALF_HEART


def hit_points(hearts: Any, per_heart: int) -> int:
    """``max_hp`` of ``hearts`` (RULES.md W14): hearts × HP per heart; half a heart is half of it."""
    return max(1, per_heart // 2) if is_half_heart(hearts) else hearts * per_heart


def _check_hearts(build: dict, report: Report, settings: dict) -> int | float | None:
    hearts = build.get("hearts", 1)
    if is_half_heart(hearts):
        return hearts  # the first heart is free; half of it costs nothing either
    if not is_int(hearts):
        report.error(
            "build.malformed", "/hearts", "Hearts are a whole number, 1 or more, or 0.5 for a half heart."
        )
        return None
    if hearts < 1:
        report.error(
            "attribute.below_minimum",
            "/hearts",
            "A character has at least half a heart; set hearts to 0.5 (common folk) or 1 or more.",
        )
        return None
    cost = settings.get("heart_cost", 3)
    if hearts > 1:
        report.charge(
            "points",
            (hearts - 1) * cost,
            path="/hearts",
            label=f"{hearts - 1} extra heart{'s' if hearts > 2 else ''} ({cost} points each, house default)",
        )
    return hearts


def _check_gear(build: dict, report: Report, ctx: Context) -> list[dict] | None:
    """The catalogue entries of the carried gear; None when the list itself is broken."""
    raw = build.get("gear", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        report.error("build.malformed", "/gear", 'Gear must be a list such as [{"item": "sword"}].')
        return None
    catalogue = ctx.catalogue.get("gear", {})
    out = []
    sound = True
    worn: dict[str, str] = {}  # armor / shield → the name of the one that counts
    for i, entry in enumerate(raw):
        if not isinstance(entry, dict) or not isinstance(entry.get("item"), str):
            report.error(
                "build.malformed",
                ptr("gear", i),
                'Each piece of gear is an object such as {"item": "sword"}.',
            )
            sound = False
            continue
        item = catalogue.get(entry["item"])
        if item is None:
            report.error(
                "gear.unknown",
                ptr("gear", i, "item"),
                f"There is no gear {entry['item']!r} in Our D&D or this campaign's homebrew; pick one from "
                "the catalogue or ask the DM to add it.",
            )
            sound = False
            continue
        if item.get("kind") in WORN_KINDS and not _one_of_a_kind(item, i, worn, report):
            continue  # a second armor or shield: reported, and its defense does not count
        out.append(item)
    return out if sound else None


#: RULES.md §4 (HD): a character wears at most one body armour and carries at most one shield.
WORN_KINDS = {"armor": "body armour", "shield": "shield"}


def _one_of_a_kind(item: dict, index: int, worn: dict[str, str], report: Report) -> bool:
    """False (and ``ourdnd.gear_conflict`` at the entry) when ``item`` is a second body armour or a
    second shield; the first of each kind counts for defense."""
    kind = item["kind"]
    name = item.get("name", item.get("id", kind))
    first = worn.get(kind)
    if first is None:
        worn[kind] = name
        return True
    what = WORN_KINDS[kind]
    report.error(
        "ourdnd.gear_conflict",
        ptr("gear", index),
        f"{name} is a second {what}: a character wears one body armour and carries one shield "
        f"for defense (house default), and {first} already counts. Remove one of them.",
    )
    return False


def effort_die(entry: dict) -> str:
    """An item's effort die (RULES.md W16; seed: "If something is indicated to do CRITICAL ULTIMATE!
    EFFORT means that its regular EFFORT die is replaced by a D12 die"): the catalogue's
    ``critical_ultimate`` replaces it with a d12."""
    return "d12" if entry.get("critical_ultimate") is True else entry["effort"]


def check_homebrew_entry(kind: str, entry: dict, path: str) -> list[Issue]:
    if kind != "gear":
        return []
    issues = []
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        issues.append(Issue("homebrew.malformed", path + "/name", "Give the gear a name."))
    effort = entry.get("effort")
    if effort is not None and effort not in EFFORT_DICE:
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/effort",
                f"The effort die is one of {', '.join(EFFORT_DICE)} (or null for none).",
            )
        )
    if "critical_ultimate" in entry and not isinstance(entry["critical_ultimate"], bool):
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/critical_ultimate",
                "critical_ultimate is true (CRITICAL ULTIMATE! EFFORT: a d12 replaces the effort die) or false.",
            )
        )
    defense = entry.get("defense", 0)
    if not is_int(defense) or not 0 <= defense <= 5:
        issues.append(
            Issue("homebrew.malformed", path + "/defense", "A defense bonus is a whole number from 0 to 5.")
        )
    stats = entry.get("stats", {})
    if not isinstance(stats, dict) or any(s not in STATS or not is_int(n) for s, n in stats.items()):
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/stats",
                f'Stat bonuses are an object such as {{"str": 1}} over {", ".join(STATS)}.',
            )
        )
    reach = entry.get("reach")
    if reach is not None and reach not in REACHES:
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/reach",
                "How far gear reaches in a fight is close, near, far or very_far (nothing reaches "
                "out of range).",
            )
        )
    td = entry.get("td_modifier", 0)
    if not is_int(td) or not -3 <= td <= 0:
        issues.append(
            Issue(
                "homebrew.malformed",
                path + "/td_modifier",
                "A TD modifier lowers the TD by 0 to 3 (players never lower it by more than 3).",
            )
        )
    return issues


# ------------------------------------------------------------------ the builder


def traits(ctx: Context) -> dict[str, Any]:
    """The builder's sections: the six stats, hearts and gear (with the house defaults in their help)."""
    s = ctx.settings
    per_point, heart_cost = s.get("stat_point_cost", 1), s.get("heart_cost", 3)
    return {
        "sections": [
            {
                "id": "stats",
                "label": "Stats",
                "kind": "numbers",
                "path": "/stats",
                "help": f"Each stat point costs {per_point} point{'s' if per_point != 1 else ''}; "
                f"stats run from {s.get('stat_min', 0)} to {s.get('stat_max', 6)}.",
                "fields": [
                    {
                        "id": sid,
                        "label": e.get("name", sid.upper()),
                        "min": s.get("stat_min", 0),
                        "max": s.get("stat_max", 6),
                        "default": 0,
                    }
                    for sid, e in ctx.catalogue.get("stats", {}).items()
                ],
            },
            {
                "id": "hearts",
                "label": "Hearts",
                "kind": "number",
                "path": "/hearts",
                "min": HALF_HEART,
                "max": None,
                "default": 1,
                "nullable": False,
                # Below one heart there is one step: half a heart (the builder's number steps to 0.5).
                "half": True,
                "help": f"One heart is {s.get('hp_per_heart', 10)} HP. The first is free; each extra heart "
                f"costs {heart_cost} points. Common folk have half a heart (0.5: "
                f"{hit_points(HALF_HEART, s.get('hp_per_heart', 10))} HP).",
            },
            {
                "id": "gear",
                "label": "Gear",
                "kind": "items",
                "path": "/gear",
                "help": "Gear is free. Its effort die is rolled after a successful attempt "
                f"(bare hands {s.get('bare_hands_effort', 'd4')}); armor adds to Defense.",
                "options": [_gear_option(gid, e, ctx) for gid, e in ctx.catalogue.get("gear", {}).items()],
                "entry_fields": [],
            },
        ]
    }


def _gear_option(gid: str, entry: dict, ctx: Context) -> dict[str, Any]:
    """A gear choice of the builder: the catalogue entry, with how far it reaches in a fight
    (said in its help when the reach is the campaign's house default)."""
    option = {
        "id": gid,
        "label": entry.get("name", gid),
        **{k: v for k, v in entry.items() if k not in ("id", "name")},
    }
    if entry.get("effort"):
        band, house = distance.reach(entry, ctx)
        option["reach"] = band
        if house:
            option["help"] = (
                f"{option.get('help', '')} Reaches {distance.word(band)} in a fight (house "
                "default; the campaign may change it)."
            ).strip()
    return option


def blank_build(slug: str, name: str, budget: dict[str, int] | None, ctx: Context) -> dict:
    """A legal build that spends nothing: every stat 0, one heart, no gear."""
    points = (budget or {}).get("points")
    if not isinstance(points, int):
        points = ctx.settings.get("starting_budget", {}).get("points", 0)
    return {
        "format": FORMAT,
        "ruleset": slug,
        "name": name,
        "budget": {"points": points},
        "stats": {stat: 0 for stat in STATS},
        "hearts": 1,
        "gear": [],
    }
