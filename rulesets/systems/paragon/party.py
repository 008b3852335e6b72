"""What the GM's party page shows of a Paragon character (CONTRACT.md "The GM's screen"): the
headline numbers (``summary``) and the resource pools with their maxima (``pools``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.report import Report

from .dice import check_text
from .state import CONDITION_NAMES, POOLS, maxima, normal

if TYPE_CHECKING:
    from rulesets.engine.ruleset import Ruleset

#: The Defense scores, in the seed's order: the TNs foes strike against (triarmatura: paragons only).
DEFENSES = ("defense_melee", "defense_missile", "defense_triarmatura")


def summary(ruleset: Ruleset, build: dict, report: Report, state: dict | None, ctx: Context) -> list[dict]:
    """The Defense scores the character has, the Initiative check as it would be rolled now (effects
    and conditions applied), and, with a play state, Corruption and the conditions ("none")."""
    derived = report.derived if report is not None else {}
    out: list[dict[str, Any]] = [
        {"label": ruleset.label(key), "value": derived[key]} for key in DEFENSES if is_int(derived.get(key))
    ]
    initiative = next(
        (r for r in ruleset.rollables(build, report, state, ctx=ctx) if r.get("id") == "skill:initiative"),
        None,
    )
    if initiative is not None:
        request = initiative["request"]
        name = ctx.catalogue.get("skills", {}).get("initiative", {}).get("name", "Initiative")
        out.append({"label": name, "value": check_text(request["force"], request["skill"])})
    if isinstance(state, dict) and state:
        st = normal(state, build, report, ctx)
        held = ruleset.state_effects(build, report, state, ctx=ctx).get("conditions") or []
        names = [CONDITION_NAMES.get(c, c.replace("_", " ")) for c in held]
        out.append({"label": "Corruption", "value": st["corruption"]})
        out.append({"label": "Conditions", "value": ", ".join(names) if names else "none"})
    return out


def pools(ruleset: Ruleset, build: dict, report: Report, state: dict | None, ctx: Context) -> list[dict]:
    """The seven resource pools, current and maximum (Corruption has no maximum: the summary has it)."""
    if not isinstance(state, dict) or not state:
        return []
    st = normal(state, build, report, ctx)
    top = maxima(build, report, ctx)
    names = ctx.catalogue.get("pools", {})
    return [
        {
            "id": pool,
            "label": names.get(pool, {}).get("name", pool.title()),
            "current": st["pools"][pool],
            "max": top.get(pool, 0),
        }
        for pool in POOLS
    ]
