"""Maelstrom's advancement: nothing decreases, the creation dots are fixed."""

from __future__ import annotations

from typing import Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr
from rulesets.engine.report import Report

from .lookup import _title, find_specialty, specialty_identity


def check_advancement(old: dict, new: dict, report: Report, ctx: Context) -> None:
    """Creation dots are fixed and nothing decreases (see the module docstring for the codes)."""
    for section in ("attributes", "abilities"):
        before, after = old.get(section), new.get(section, {})
        if not isinstance(before, dict) or not isinstance(after, dict):
            continue
        for key, was in before.items():
            now = after.get(key, 0)
            if is_int(was) and is_int(now) and now < was:
                report.error(
                    "advancement.decrease",
                    ptr(section, key),
                    f"{_title(ctx.catalogue, section, key)} drops from {was} to {now}; dots bought are never "
                    f"lost in Maelstrom. Keep it at {was} or more.",
                )
    was, now = old.get("willpower"), new.get("willpower")
    if is_int(was) and is_int(now) and now < was:
        report.error(
            "advancement.decrease",
            "/willpower",
            f"Permanent willpower drops from {was} to {now}; keep it at {was} or more.",
        )
    before, after = old.get("specialties"), new.get("specialties")
    if isinstance(before, list):
        kept = {_spec_identity(ctx, s) for s in after} if isinstance(after, list) else set()
        for spec in before:
            identity = _spec_identity(ctx, spec)
            if identity is not None and identity not in kept:
                report.error(
                    "advancement.decrease",
                    "/specialties",
                    f"The specialty {spec['ability']}: {spec['name']} of the approved sheet is gone; "
                    "specialties are never lost. Put it back.",
                )
    if isinstance(old.get("creation"), dict) and new.get("creation") != old.get("creation"):
        report.error(
            "maelstrom.creation_changed",
            "/creation",
            "The creation dots of the approved sheet are fixed; "
            "restore the creation section as it was approved.",
        )


def _spec_identity(ctx: Context, spec: Any) -> tuple[str, str] | None:
    if (
        not isinstance(spec, dict)
        or not isinstance(spec.get("ability"), str)
        or not isinstance(spec.get("name"), str)
    ):
        return None
    listed = find_specialty(ctx, spec["ability"], spec["name"])
    return specialty_identity(listed, spec["ability"], spec["name"])
