"""The rules service: one entry point for every door (CLI, API, builder, combat).

from rulesets.engine import validate, odds
report = validate(build_document, settings=campaign_house_rules, homebrew=campaign_homebrew)
report.as_dict()  # the CONTRACT.md report
"""

from __future__ import annotations

from typing import Any

from . import registry
from .context import Context
from .dice import FixedRoller, Roller
from .errors import OddsError, StateError
from .fields import is_int, name_key
from .pointer import ptr
from .report import Issue, Report
from .ruleset import FORMAT, Ruleset

__all__ = [
    "FORMAT",
    "Context",
    "FixedRoller",
    "Issue",
    "OddsError",
    "Report",
    "Roller",
    "Ruleset",
    "StateError",
    "is_int",
    "name_key",
    "odds",
    "ptr",
    "registry",
    "validate",
]


def validate(
    doc: Any,
    *,
    settings: dict | None = None,
    homebrew: dict | None = None,
    phase: str = "draft",
    previous: dict | None = None,
    slug: str | None = None,
) -> Report:
    """Validate any document. Never raises: a non-object or an unknown ruleset is a report too.

    ``slug``, when given, is the ruleset the caller expects (the API's URL, a campaign's
    ruleset); a document naming another ruleset is then ``ruleset.unknown``.
    """
    if not isinstance(doc, dict):
        report = Report(slug)
        report.error("build.malformed", "", "A build document must be a JSON object.")
        return report
    named = doc.get("ruleset")
    if named is None and slug is not None:
        named = slug
    ruleset = registry.get(named)
    if ruleset is None or (slug is not None and named != slug):
        report = Report(slug if registry.get(slug) else None)
        known = ", ".join(registry.SYSTEMS)
        if named is None:
            msg = f'Say which ruleset this build is for: add "ruleset" with one of {known}.'
        elif slug is not None and named != slug:
            msg = f"This build is for {named!r}, but it was sent to {slug!r}."
        else:
            msg = f"{named!r} is not a ruleset here; use one of {known}."
        report.error("ruleset.unknown", "/ruleset", msg)
        return report
    return ruleset.validate(doc, settings=settings, homebrew=homebrew, phase=phase, previous=previous)


def odds(
    slug: str, request: Any, *, settings: dict | None = None, homebrew: dict | None = None
) -> dict[str, Any]:
    """The exact odds of ``slug``'s core roll under ``settings`` (house rules; the defaults when
    None) and ``homebrew``; raises OddsError for a request it cannot answer."""
    ruleset = registry.get(slug)
    if ruleset is None:
        raise OddsError(f"{slug!r} is not a ruleset; use one of {', '.join(registry.SYSTEMS)}.")
    if not isinstance(request, dict):
        raise OddsError("An odds request must be a JSON object.")
    return ruleset.odds(request, ctx=ruleset.context(settings, homebrew))
