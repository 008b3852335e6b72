"""Our D&D (`ourdnd`): the Ruleset. The rules themselves are in ``rules.py``, whose
docstring describes the build document, the codes, the two odds request shapes
(a check and an effort roll) and the play state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.engine.base import FORMAT, Context, Ruleset
from rulesets.engine.dice import Roller
from rulesets.engine.report import Issue, Report

from . import build as rules
from . import distance


class OurDnD(Ruleset):
    slug = "ourdnd"
    name = "Our D&D"
    seed = "003_7d3043291c4cf459.txt"
    currencies = ("points",)
    known_keys = frozenset({"stats", "hearts", "gear"})
    homebrew_kinds = ("gear",)
    content_dir = Path(__file__).parent / "content"

    def check(self, build: dict, report: Report, ctx: Context) -> None:
        rules.check(build, report, ctx)

    def check_homebrew_entry(self, kind: str, entry: dict, path: str) -> list[Issue]:
        return rules.check_homebrew_entry(kind, entry, path)

    # ------------------------------------------------------------ builder

    def traits(self, ctx: Context) -> dict[str, Any]:
        s = ctx.settings
        per_point, heart_cost = s.get("stat_point_cost", 1), s.get("heart_cost", 3)
        return {
            "sections": [
                {
                    "id": "stats", "label": "Stats", "kind": "numbers", "path": "/stats",
                    "help": f"Each stat point costs {per_point} point{'s' if per_point != 1 else ''}; "
                            f"stats run from {s.get('stat_min', 0)} to {s.get('stat_max', 6)}.",
                    "fields": [
                        {"id": sid, "label": e.get("name", sid.upper()), "min": s.get("stat_min", 0),
                         "max": s.get("stat_max", 6), "default": 0}
                        for sid, e in ctx.catalogue.get("stats", {}).items()
                    ],
                },
                {
                    "id": "hearts", "label": "Hearts", "kind": "number", "path": "/hearts",
                    "min": 1, "max": None, "default": 1, "nullable": False,
                    "help": f"One heart is {s.get('hp_per_heart', 10)} HP. The first is free; each extra heart "
                            f"costs {heart_cost} points.",
                },
                {
                    "id": "gear", "label": "Gear", "kind": "items", "path": "/gear",
                    "help": "Gear is free. Its effort die is rolled after a successful attempt "
                            f"(bare hands {s.get('bare_hands_effort', 'd4')}); armor adds to Defense.",
                    "options": [_gear_option(gid, e, ctx) for gid, e in ctx.catalogue.get("gear", {}).items()],
                    "entry_fields": [],
                },
            ]
        }

    def blank_build(self, name: str, budget: dict[str, int] | None = None, ctx: Context | None = None) -> dict:
        ctx = ctx or self.context()
        points = (budget or {}).get("points")
        if not isinstance(points, int):
            points = ctx.settings.get("starting_budget", {}).get("points", 0)
        return {
            "format": FORMAT,
            "ruleset": self.slug,
            "name": name,
            "budget": {"points": points},
            "stats": {stat: 0 for stat in rules.STATS},
            "hearts": 1,
            "gear": [],
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
        from .combat import OurDnDCombat

        return OurDnDCombat(self)


def _gear_option(gid: str, entry: dict, ctx: Context) -> dict[str, Any]:
    """A gear choice of the builder: the catalogue entry, with how far it reaches in a fight
    (said in its help when the reach is the campaign's house default)."""
    option = {"id": gid, "label": entry.get("name", gid), **{k: v for k, v in entry.items() if k not in ("id", "name")}}
    if entry.get("effort"):
        band, house = distance.reach(entry, ctx)
        option["reach"] = band
        if house:
            option["help"] = (f"{option.get('help', '')} Reaches {distance.word(band)} in a fight (house "
                              "default; the campaign may change it).").strip()
    return option


RULESET = OurDnD()
