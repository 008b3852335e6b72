"""Ascendant's advancement: a level-up keeps every earlier level's choices."""

from __future__ import annotations

from typing import Any

from rulesets.engine.fields import get_as, is_int, whole_or
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .common import GROUP_SLOTS


def check_advancement(old: Any, new: dict, report: Report) -> None:
    """A level-up keeps every earlier choice: flag ``ascendant.history_changed`` where it does not.

    Compared: the level (it may not drop), ancestry, heritage, background, class,
    the creation boosts, the level-1 skills (new ones may fill unused picks), lores
    (new ones may be added as Intelligence rises) and, for every level up to the
    approved one, its attribute points, skill increase and each feat slot. A choice
    the approved build left empty may be filled in. Armor is equipment and may change.
    """
    if not isinstance(old, dict):
        return

    def changed(path: str, what: str) -> None:
        report.error(
            "ascendant.history_changed",
            path,
            f"{what} was approved earlier and cannot change in a level-up; put it back as it was "
            "(ask your GM for a retraining if you want it changed).",
        )

    old_level = whole_or(old, "level", 1)
    new_level = new.get("level")
    if is_int(new_level) and new_level < old_level:
        changed("/level", f"Level {old_level}")
    for key in ("ancestry", "heritage", "background", "class"):
        if old.get(key) is not None and new.get(key) != old.get(key):
            changed(ptr(key), f"The {key} {old.get(key)!r}")
    old_boosts = get_as(old, "boosts", dict, {})
    new_boosts = get_as(new, "boosts", dict, {})
    for group in GROUP_SLOTS:
        if old_boosts.get(group) not in (None, []) and new_boosts.get(group) != old_boosts.get(group):
            changed(ptr("boosts", group), f"The {group} boosts")
    old_skills = get_as(old, "skills", dict, {})
    new_skills = get_as(new, "skills", dict, {})
    for name, rank in old_skills.items():
        if new_skills.get(name) != rank:
            changed(ptr("skills", name), f"{name} ({rank})")
    old_lores = get_as(old, "lores", list, [])
    new_lores = get_as(new, "lores", list, [])
    for i, lore in enumerate(old_lores):
        if lore not in new_lores:
            changed(ptr("lores", i), f"The lore {lore!r}")
    old_levels = get_as(old, "levels", dict, {})
    new_levels = get_as(new, "levels", dict, {})
    for n in range(1, old_level + 1):
        before = old_levels.get(str(n))
        if not isinstance(before, dict):
            continue
        after = new_levels.get(str(n))
        after = after if isinstance(after, dict) else {}
        for key in ("attributes", "skill_increase"):
            if before.get(key) not in (None, {}) and after.get(key) != before.get(key):
                changed(ptr("levels", n, key), f"Level {n}'s {key.replace('_', ' ')}")
        old_feats = get_as(before, "feats", dict, {})
        new_feats = get_as(after, "feats", dict, {})
        for kind, value in old_feats.items():
            if value not in (None, [], "") and new_feats.get(kind) != value:
                changed(ptr("levels", n, "feats", kind), f"Level {n}'s {kind} feat {value!r}")


# ------------------------------------------------------------------ the builder
