"""Pando's build check: the stages in order, then the derived values."""

from __future__ import annotations

from rulesets.engine.context import Context
from rulesets.engine.report import Report

from .attributes import _check_attributes, _check_resistances, _check_species
from .derive import _derive
from .equipment import _check_equipment
from .learned import _Build
from .skills import _check_skills


def check_build(build: dict, report: Report, ctx: Context) -> None:
    b = _Build()
    _check_attributes(build, report, ctx, b)
    _check_species(build, report, ctx, b)
    _check_resistances(build, report, b)
    _check_skills(build, report, ctx, b)
    _check_equipment(build, report, ctx, b)
    _derive(report, b)
