"""Ascendant's build check: ``check`` runs the stages in order over a ``Check`` (checking.py), the
character as the levels are walked (RULES.md 3 "Rules")."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.report import Report

from .attributes import creation_boosts
from .checking import Check
from .derive import _derive
from .feat_slots import feat_effects
from .gear import gear
from .levels import levels_object, walk_levels
from .second_class import derive_second_classes, second_classes
from .skills import known_lores, level_one_skills, lores
from .tables import (
    _names,
    _selectors,
    _skill_attributes,
)


def check(build: dict, report: Report, ctx: Context) -> None:
    """Validate ``build`` into ``report`` (errors, warnings, xp spent, derived), step by step."""
    c = Check(build, report, ctx)
    level = c.level()
    if level is None:
        return
    c.big_choices()
    creation_boosts(c)
    levels_object(c, level)
    level_one_skills(c)
    known_lores(c)
    walk_levels(c, level)
    taught = second_classes(c, level)
    fx = feat_effects(c, level)
    lores(c, fx)
    armor = c.armor()
    gear(c, armor)
    _derive(
        report.derived,
        c.rules,
        c.s,
        level=level,
        xp=report.budget.get("xp"),
        attrs=c.attrs if c.attrs_ok else None,
        skill_rank=c.skill_rank,
        lore_rank=c.lore_rank,
        lores_held=c.lores_held,
        lore_slots=c.lore_slots,
        held=c.held,
        fx=fx,
        ancestry=c.ancestry,
        klass=c.klass,
        armor=armor,
        skill_attr=_skill_attributes(ctx),
        final_cap=c.rules.cap(level),
        names=_names(ctx),
        selectors=_selectors(ctx),
    )
    derive_second_classes(report.derived, c, taught, level, armor)
