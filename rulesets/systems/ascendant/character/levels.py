"""Ascendant's build, the level stage: the levels object read, then each level walked in order
(its attribute points, skill increase and feats, judged as of that level)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.engine.pointer import ptr

from .attributes import attribute_points
from .feat_slots import feat_picks, judge_feats, plain_feats
from .skills import skill_increase
from .tables import (
    _LEVEL_KEYS,
    _NO_CHOICES,
    _fast_feats,
    _feat_table,
)

if TYPE_CHECKING:
    from .checking import Check


def levels_object(c: Check, level: int) -> None:
    report, max_level = c.report, c.s["max_level"]
    levels = c.build.get("levels")
    if levels is None:
        levels = {}
    elif not isinstance(levels, dict):
        report.error("build.malformed", "/levels", 'Levels must be an object keyed by level: {"2": {...}}.')
        levels = {}
    c.levels = levels
    level_numbers = c.rules.level_numbers
    for key, value in levels.items():
        if type(key) is not str:
            key = str(key)
        number = level_numbers.get(key)  # "1" … str(max_level) only
        if number is None:
            report.error(
                "build.malformed",
                ptr("levels", key),
                f'Level keys are "1" to "{max_level}", not {key!r}.',
            )
        elif not isinstance(value, dict):
            report.error(
                "build.malformed",
                ptr("levels", key),
                'Each level is an object: {"feats": {...}, "attributes": {...}, "skill_increase": "..."}.',
            )
        elif number > level:
            report.warn(
                "build.unknown_key",
                ptr("levels", key),
                f"Level {number} choices are kept for later "
                f"and ignored until the character reaches level {number}.",
            )
        elif not _LEVEL_KEYS.issuperset(value):
            for sub in value:
                if sub not in _LEVEL_KEYS:
                    report.warn(
                        "build.unknown_key",
                        ptr("levels", key, sub),
                        f"A level holds feats, attributes and skill_increase; {sub!r} is ignored.",
                    )


def walk_levels(c: Check, level: int) -> None:
    """Levels 1 → ``level`` in order: Class Proficiency, attribute points, skill increase, feats."""
    heritage, background, held = c.heritage, c.background, c.held
    granted: list[tuple[str, str]] = []
    if heritage and heritage.get("feat"):
        granted.append(("/heritage", heritage["feat"]))
    if background:
        granted += [
            ("/background", background[k]) for k in ("skill_feat", "general_feat") if background.get(k)
        ]
    for path, fid in granted:
        held[fid] = path
    level_plan, levels, skill_rank, key_skill = (
        c.rules.level_plan,
        c.levels,
        c.skill_rank,
        c.key_skill,
    )
    key_skill_known = key_skill in skill_rank
    feat_table, feats_cat = _feat_table(c.ctx), c.cat.get("feats", {})
    c.fast_feats = _fast_feats(
        c.ctx,
        c.rules,
        c.ancestry["id"] if c.ancestry else None,
        c.klass["id"] if c.klass else None,
    )
    for n in range(1, level + 1):
        plan = level_plan[n]
        lv = levels.get(plan[0])
        if type(lv) is not dict:
            lv = lv if isinstance(lv, dict) else _NO_CHOICES
        cp = plan[1]
        if key_skill_known and key_skill is not None and skill_rank[key_skill] < cp:
            skill_rank[key_skill] = cp
        points, raised, feats = lv.get("attributes"), lv.get("skill_increase"), lv.get("feats")
        if plan[3] or points is not None:
            attribute_points(c, n, plan, points)
        if plan[4] or raised is not None:
            skill_increase(c, n, cp, plan[4], plan[8], raised)
        if plan[5] or feats is not None:
            if not plain_feats(c, n, plan, feats):
                picked = feat_picks(c, n, plan, feats)
                if picked:
                    judge_feats(c, n, cp, picked, feat_table, feats_cat)
