"""Pando's advancement: what a proposed build may not change from the approved one."""

from __future__ import annotations

from rulesets.engine.report import Report

from .common import RESISTANCES


def check_advancement(old: dict, new: dict, report: Report) -> None:
    before, after = old.get("resistances"), new.get("resistances")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return
    if any(before.get(r) != after.get(r) for r in RESISTANCES):
        was = ", ".join(f"{r} ← {before.get(r)}" for r in RESISTANCES)
        report.error(
            "resistance.mapping_changed",
            "/resistances",
            f"Resistances are tied to their attributes at creation and never change: put back {was}.",
        )


# ----------------------------------------------------------- items, homebrew
