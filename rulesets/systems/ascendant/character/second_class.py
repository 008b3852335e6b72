"""A second Class Proficiency (W13): "A character can hold more than one Class Proficiency, by
learning a second class through an archetype. When that happens, your highest Class Proficiency is
the one that opens your feats" (seed 002, "Feats").

An archetype that teaches a class says so (``teaches: <class>`` in ``archetypes.json``; HD: one per
class, Student of Arms, of the Muse, of the Arcane). Its Dedication gives that class's Class
Proficiency at Trained; each further feat of the archetype raises it one rank (RULES.md W13: "rises
one rank at each of the archetype's feat levels"), **never above the Class Proficiency of that
level** (this folder's decision: a second class is not learned faster than the first, so a level-4
character is not a Master of it). The highest of the two opens feats and caps attributes and skills;
with that cap the highest is the class's own, so those rules read as before.

What the second class brings, in numbers: its key skill trained (at least), its armor (Deflection
adds the second proficiency's bonus where it is the better one) and, for a class that casts, a spell
threshold (10 + the second proficiency's bonus + its casting attribute) when the first does not cast.
A class cannot be learned a second time by its own members (``ascendant.feat_prerequisite_missing``
on the Dedication). The sheet lists both (``derived["class_proficiencies"]``).
"""

from __future__ import annotations

from typing import Any

from .checking import Check

PREREQUISITE = "ascendant.feat_prerequisite_missing"


def _level_of(path: str) -> int:
    """The level of a feat's path ("/levels/4/feats/archetype" → 4; 0 when it is not a level's)."""
    parts = path.split("/")
    return int(parts[2]) if len(parts) > 2 and parts[1] == "levels" and parts[2].isdigit() else 0


def _teaching(c: Check) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(archetype id, class it teaches, its Dedication, the archetype) of every archetype that teaches a
    class, once per context (``Context.memo``): most builds hold none of their Dedications."""
    found = c.ctx.cache.get("ascendant.teaching")
    if found is not None:
        return found

    def table() -> list[tuple[str, str, str, dict[str, Any]]]:
        return [
            (aid, a["teaches"], a["dedication"], a)
            for aid, a in c.cat.get("archetypes", {}).items()
            if isinstance(a.get("teaches"), str) and isinstance(a.get("dedication"), str)
        ]

    return c.ctx.memo("ascendant.teaching", table)


def second_classes(c: Check, level: int) -> list[dict[str, Any]]:
    """The classes the character learned through archetypes, each ``{"class", "archetype", "rank"
    (rank index)}``; their key skills trained. Run after the levels are walked, before deriving."""
    held = c.held
    teaching = _teaching(c)
    if not held or not any(dedication in held for _, _, dedication, _ in teaching):
        return []
    feats, classes = c.cat.get("feats", {}), c.cat.get("classes", {})
    own = c.klass.get("id") if c.klass else None
    out = []
    for aid, taught, dedication, archetype in teaching:
        if dedication not in held:
            continue
        klass = classes.get(taught)
        if klass is None:
            continue
        name = klass.get("name", taught)
        if taught == own:
            c.report.error(
                PREREQUISITE,
                c.held[dedication],
                f"A {name} already holds the {name}'s Class Proficiency: {archetype.get('name', aid)} teaches "
                "it to others. Choose another archetype's Dedication.",
            )
            continue
        levels = sorted(
            _level_of(path) for fid, path in c.held.items() if (feats.get(fid) or {}).get("archetype") == aid
        )
        rank = 0
        for n in levels:
            if 1 <= n <= level:
                rank = min(rank + 1, c.rules.class_proficiency(n))
        rank = max(rank, 1)
        key_skill = klass.get("key_skill")
        if isinstance(key_skill, str) and key_skill in c.skill_rank and c.skill_rank[key_skill] < 1:
            c.skill_rank[key_skill] = 1
        out.append({"class": klass, "archetype": archetype, "rank": rank})
    return out


def derive_second_classes(
    d: dict[str, Any], c: Check, taught: list[dict[str, Any]], level: int, armor: dict | None
) -> None:
    """The sheet's Class Proficiencies, and what each second class adds to Deflection and spells."""
    if not taught or c.klass is None:
        return
    r = c.rules
    cp = r.class_proficiency(level)
    d["class_proficiencies"] = [
        {"class": c.klass.get("id"), "name": c.klass.get("name"), "rank": r.ranks[cp], "source": "class"}
    ] + [
        {
            "class": t["class"].get("id"),
            "name": t["class"].get("name"),
            "rank": r.ranks[t["rank"]],
            "source": t["archetype"].get("name", t["archetype"].get("id")),
        }
        for t in taught
    ]
    thresholds = d.get("thresholds")
    attrs = d.get("attributes")
    if not isinstance(thresholds, dict) or not isinstance(attrs, dict):
        return
    category = armor.get("category", "unarmored") if armor else "unarmored"
    trained = d.get("armor_proficiencies") or c.klass.get("armor", [])
    mine = r.bonus_of(cp) if category in trained else 0
    best = max([r.bonus_of(t["rank"]) for t in taught if category in t["class"].get("armor", [])], default=0)
    if best > mine and "deflection" in thresholds:
        thresholds["deflection"] += best - mine
        part = (d.get("breakdown") or {}).get("deflection")
        if isinstance(part, dict):
            part["base"] += best - mine
            part["total"] += best - mine
    if "spell" not in thresholds:
        casters = [t for t in taught if t["class"].get("casts") in attrs]
        if casters:
            top = max(casters, key=lambda t: r.bonus_of(t["rank"]) + attrs[t["class"]["casts"]])
            d["spell_attribute"] = attr = top["class"]["casts"]
            thresholds["spell"] = c.s["threshold_base"] + r.bonus_of(top["rank"]) + attrs[attr]
