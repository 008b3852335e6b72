"""Paragon RPG (`paragon`): the Ruleset. The rules themselves are in ``rules.py``,
whose docstring describes the build document, the codes and the play state.

Odds: ``{"force": F, "skill": S, "tn": T}`` → ``{"pass": p}``, the exact chance that
d12 (exploding on 12) + F d6 + 2×S ≥ T. ``skill`` may be left out (an attribute
check, S = 0). ``roll`` takes the same request and answers
``{"faces", "d12", "d6", "total", "outcome": "pass"|"fail"|"rolled" (no tn), "text"}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.base import FORMAT, Context, Ruleset
from rulesets.engine.dice import Roller
from rulesets.engine.report import Issue, Report

from . import rules


class Paragon(Ruleset):
    slug = "paragon"
    name = "Paragon RPG"
    seed = "001_fe5bd79273a0e4bf.txt"
    currencies = ("force_points", "skill_points")
    awardable = ("skill_points",)
    known_keys = frozenset({"power_level", "forces", "path", "skills", "resources"})
    homebrew_kinds = ("skills",)
    content_dir = Path(__file__).parent / "content"

    def budget_of(self, build: dict, ctx: Context, report: Report) -> dict[str, int]:
        """``skill_points`` from the document (or the house default); ``force_points`` always
        from the power level table (a document's own force budget is ignored, with a warning)."""
        build = rules.without_force_budget(build, report)
        out = super().budget_of(build, ctx, report)
        out.pop("force_points", None)
        total = rules.force_budget(build, ctx)
        return out if total is None else {"force_points": total, **out}

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        rules.check(build, report, ctx)

    def check_advancement(self, old: dict, new: dict, report: Report, ctx: Context) -> None:
        rules.check_advancement(old, new, report, ctx)

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return rules.check_homebrew_entry(kind, entry, path)

    def check_settings(self, settings: Any) -> list[Issue]:
        issues = super().check_settings(settings)
        if isinstance(settings, dict):
            issues.extend(rules.check_settings(settings))
        return issues

    def currency_label(self, currency: str) -> str:
        return {"force_points": "force points", "skill_points": "skill points"}.get(currency, currency)

    # ------------------------------------------------------------ builder

    def traits(self, ctx: Context) -> dict[str, Any]:
        levels = rules.power_levels(ctx)
        table = ctx.settings.get("power_levels", {})
        rows = "; ".join(
            f"{'none' if k == 'none' else k}: {v.get('force_points')} points, max rank {v.get('max_rank')}"
            for k, v in table.items() if isinstance(v, dict)
        )
        max_rank = max((v.get("max_rank", 0) for v in table.values() if isinstance(v, dict)), default=5)
        cap = ctx.settings.get("skill_rank_max", 5)
        skills = [
            {"id": sid, "label": e.get("name", sid), "group": e.get("force"), "max": cap}
            for sid, e in ctx.catalogue.get("skills", {}).items()
        ]
        paragon_res = ctx.settings.get("resources", {}).get("paragon", {})
        return {
            "sections": [
                {
                    "id": "power_level", "label": "Power level", "kind": "number", "path": "/power_level",
                    "min": min(levels, default=1), "max": max(levels, default=5),
                    "default": ctx.settings.get("new_power_level", 1), "nullable": True,
                    "help": "Paragons have a power level (new paragons 1); ordinary people have none. "
                            f"It sets the force points and the maximum force rank: {rows}.",
                },
                {
                    "id": "forces", "label": "Force attributes", "kind": "numbers", "path": "/forces",
                    "help": "Rank r costs 0+1+…+r force points (1, 3, 6, 10, 15).",
                    "fields": [
                        {"id": fid, "label": e.get("name", fid), "min": 0, "max": max_rank, "default": 0}
                        for fid, e in ctx.catalogue.get("forces", {}).items()
                    ],
                },
                {
                    "id": "path", "label": "Path", "kind": "object", "path": "/path",
                    "help": "The path the GM approves; its granted ranks are free.",
                    "fields": [
                        {"id": "name", "label": "Path name", "kind": "text"},
                        {"id": "grants", "label": "Granted ranks", "kind": "ranks", "options": skills,
                         "min": 0, "max": cap},
                    ],
                },
                {
                    "id": "skills", "label": "Skills", "kind": "ranks", "path": "/skills",
                    "help": "Rank r costs 0+1+…+r skill points, less what the path grants. Triarmatura never "
                            "exceeds Melee + Missile.",
                    "options": skills, "min": 0, "max": cap,
                },
                {
                    "id": "resources", "label": "Resource maxima", "kind": "numbers", "path": "/resources",
                    "help": "Maxima set by the GM; left out, the house defaults apply (ordinary people: "
                            "heroism 0, dynama 3, morale 6).",
                    "fields": [
                        {"id": pid, "label": e.get("name", pid), "min": 0, "max": None,
                         "default": paragon_res.get(pid, 0)}
                        for pid, e in ctx.catalogue.get("pools", {}).items()
                    ],
                },
            ]
        }

    def blank_build(self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None) -> dict:
        ctx = ctx or self.context()
        skill_points = (budget or {}).get("skill_points")
        if not isinstance(skill_points, int):
            skill_points = ctx.settings.get("starting_budget", {}).get("skill_points", 0)
        return {
            "format": FORMAT,
            "ruleset": self.slug,
            "name": name,
            "budget": {"skill_points": skill_points},
            "power_level": ctx.settings.get("new_power_level", 1),
            "forces": {force: 0 for force in ctx.catalogue.get("forces", {})},
            "skills": {},
        }

    # ------------------------------------------------------------ dice

    def odds(self, request: Any, *, ctx: Context | None = None) -> dict[str, Any]:
        return rules.odds(request)

    def roll(self, request: Any, roller: Roller, *, ctx: Context | None = None) -> dict[str, Any]:
        return rules.roll(request, roller)

    def rollables(self, build: dict, report: Report, state: dict | None = None, *,
                  ctx: Context | None = None) -> list[dict[str, Any]]:
        return rules.rollables(build, report, self.context_of(report, ctx), state)

    # ------------------------------------------------------------ play state

    def initial_state(self, build: dict, report: Report, *, ctx: Context | None = None) -> dict[str, Any]:
        return rules.initial_state(build, report, self.context_of(report, ctx))

    def check_state(self, state: Any, build: dict, report: Report, *, ctx: Context | None = None) -> list[Issue]:
        return rules.check_state(state, build, report, self.context_of(report, ctx))

    def state_effects(self, build: dict, report: Report, state: dict, *,
                      ctx: Context | None = None) -> dict[str, Any]:
        return rules.state_effects(build, report, self.context_of(report, ctx), state)

    def state_sections(self, build: dict, report: Report, state: dict, *,
                       ctx: Context | None = None) -> list[dict[str, Any]]:
        return rules.state_sections(build, report, self.context_of(report, ctx), state)

    def state_action(self, state: dict, action: dict, build: dict, report: Report,
                     roller: Roller | None = None, *, ctx: Context | None = None) -> tuple[dict, str]:
        return rules.state_action(state, action, build, report, self.context_of(report, ctx), roller)

    # ------------------------------------------------------------ combat

    def make_combat(self):
        """The combat hooks (combat.py)."""
        from .combat import ParagonCombat

        return ParagonCombat(self)


RULESET = Paragon()
