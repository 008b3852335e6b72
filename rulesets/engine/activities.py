"""What a character does between adventures: the ruleset's activities (a Paragon character's citadel
phase: training, medicinal treatment, acts of charity…), chosen by the player, approved by the GM.

A ruleset that has them lists them in ``content/activities.json`` (a catalogue: ``{"id", "name",
"text" (what it does, in numbers and the game's words), ...}``, the rest the ruleset's own) and
writes ``apply_activities``. The product keeps the choice as a request the GM approves (the
advancement queue) and, on approval, under the character's row lock, writes the new play state and
books each award as a ledger row. Without activities the product offers none.

House defaults a ruleset may set (``content/house.json``): ``activities_max`` (how many a character
picks each time; default 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .context import Context
from .dice import Roller
from .pointer import ptr
from .report import Issue, Report

#: The most activities one request may hold when the ruleset sets no ``activities_max``.
ACTIVITIES_MAX = 3


@dataclass
class Downtime:
    """What approved activities did: the new play state, what to award ({currency: amount}, each a
    ledger row), and one sentence per activity for the request's record and the character's history."""

    state: dict[str, Any]
    awards: dict[str, int] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)


class ActivitiesMixin:
    """The between-adventures hooks of ``Ruleset`` (documented once here)."""

    def activities(self, ctx: Context | None = None) -> list[dict[str, Any]]:
        """The activities a character may pick, in catalogue order (homebrew included).
        Default: ``content/activities.json``, else none."""
        c = self.context_of(None, ctx)  # type: ignore[attr-defined]
        return list(c.catalogue.get("activities", {}).values())

    def activities_max(self, ctx: Context | None = None) -> int:
        """How many activities one request may hold: house default ``activities_max`` (else 3)."""
        c = self.context_of(None, ctx)  # type: ignore[attr-defined]
        value = c.settings.get("activities_max", ACTIVITIES_MAX)
        return (
            value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else ACTIVITIES_MAX
        )

    def check_activities(
        self, picks: Any, build: dict, report: Report, *, ctx: Context | None = None
    ) -> list[Issue]:
        """Why ``picks`` (a list of activity ids; the same one may come twice) cannot be requested:
        not a list, an unknown id (``activity.unknown`` at ``/activities/<i>``), none or more than
        ``activities_max`` (``activity.count``). A ruleset adds its own limits (override and extend).
        Paths point into the request ``{"activities": [...]}``."""
        known = {a.get("id") for a in self.activities(ctx)}
        if not known:
            return [Issue("activity.none", "/activities", "This game has no activities between adventures.")]
        if not isinstance(picks, list):
            return [Issue("build.malformed", "/activities", "Pick the activities as a list.")]
        most = self.activities_max(ctx)
        issues = []
        if not 1 <= len(picks) <= most:
            issues.append(
                Issue(
                    "activity.count", "/activities", f"Pick 1 to {most} activities (you picked {len(picks)})."
                )
            )
        for i, pick in enumerate(picks):
            if not isinstance(pick, str) or pick not in known:
                names = ", ".join(str(a.get("name")) for a in self.activities(ctx))
                issues.append(Issue("activity.unknown", ptr("activities", i), f"Pick one of: {names}."))
        return issues

    def apply_activities(
        self,
        state: dict,
        build: dict,
        report: Report,
        picks: list[str],
        roller: Roller | None = None,
        *,
        ctx: Context | None = None,
    ) -> Downtime:
        """What the approved ``picks`` do (checked by ``check_activities``): recovery on the play state
        (the state without its effects; never mutated), points to award, the rolls the server makes.
        A step the rules refuse now raises ``StateError`` (the approval is refused, nothing changes).
        Override. Default: nothing changes."""
        return Downtime(state)
