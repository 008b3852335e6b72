"""Ascendant's build check: ``check`` runs the stages in order over a ``Check`` (checking.py), the
character as the levels are walked (RULES.md 3 "Rules")."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
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
    # A level the rules cannot read is one error at /level; the choices are still checked, as at the
    # nearest level there is (1 for no number), so that each step says what it lacks: they all read
    # "✓ complete" beside that one error before (issue #38). Nothing is derived from such a level.
    walked = level if level is not None else _nearest_level(build.get("level"), c.s["max_level"])
    c.big_choices()
    creation_boosts(c)
    levels_object(c, walked)
    level_one_skills(c)
    known_lores(c)
    walk_levels(c, walked)
    taught = second_classes(c, walked)
    fx = feat_effects(c, walked)
    lores(c, fx)
    armor = c.armor()
    gear(c, armor)
    if level is None:
        return
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


def _nearest_level(level: object, max_level: int) -> int:
    """The level from 1 to ``max_level`` nearest ``level`` (1 when it is not a whole number)."""
    return min(max(level, 1), max_level) if is_int(level) else 1
