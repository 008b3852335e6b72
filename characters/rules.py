"""The rules bridge: how the character services call the rules service for a campaign.

A campaign's build is always validated with its house rules and homebrew, and stored with
the server's budget; both the character services and the advancement services go through
here (and neither through the other).
"""

from __future__ import annotations

import copy
from typing import Any

from characters.models import Campaign, Character
from config.errors import RuleRefused
from rulesets.engine import FORMAT, Report, registry, validate


def campaign_ruleset(campaign: Campaign):
    """The campaign's Ruleset, or ``RuleRefused`` when the slug is unknown (never None)."""
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        raise RuleRefused(
            f"The campaign's ruleset {campaign.ruleset!r} is not available.",
            errors=[{"code": "ruleset.unknown", "path": "/ruleset", "message": "Unknown ruleset."}],
        )
    return ruleset


def campaign_starting_budget(campaign: Campaign) -> dict[str, int]:
    """The campaign's starting budget, else the ruleset's house default ``starting_budget``."""
    budget = campaign.starting_budget
    ruleset = registry.get(campaign.ruleset)
    if isinstance(budget, dict) and budget:
        # A currency the rules budget (not the GM: ``awardable``) is left to the rules: a stored
        # "force points: 0" made every new draft warn about a budget no control changes.
        given = ruleset.awardable_currencies if ruleset else tuple(budget)
        return {
            k: v for k, v in budget.items() if isinstance(v, int) and not isinstance(v, bool) and k in given
        }
    default = (ruleset.house_defaults.get("starting_budget") if ruleset else None) or {}
    return dict(default) if isinstance(default, dict) else {}


def new_character_budget(campaign: Campaign) -> dict[str, int]:
    """What a new draft of ``campaign`` starts with, as its builder will say it: the starting budget
    and what the rules add (a power level's force points), from a blank build's report."""
    ruleset = registry.get(campaign.ruleset)
    budget = campaign_starting_budget(campaign)
    if ruleset is None:
        return budget
    blank = ruleset.blank_build(
        "New character", budget, ruleset.context(campaign.house_rules, campaign.homebrew)
    )
    report = character_validate(campaign=campaign, build=blank)
    return dict(report.budget) or budget


def character_validate(
    *, campaign: Campaign, build: Any, phase: str = "draft", previous: dict | None = None
) -> Report:
    """The rules service's report of ``build`` in ``campaign`` (its house rules and homebrew)."""
    return validate(
        build,
        settings=campaign.house_rules,
        homebrew=campaign.homebrew,
        phase=phase,
        previous=previous,
        slug=campaign.ruleset,
    )


def character_budget(character: Character) -> dict[str, int]:
    """The budget a build of ``character`` gets: the server's, never the one a client sends.

    Today it is the budget stored on the character's build since creation; the
    advancement work derives it from the ledger.
    """
    build = character.build if isinstance(character.build, dict) else {}
    budget = build.get("budget")
    return dict(budget) if isinstance(budget, dict) else {}


def stored_build(build: Any, *, ruleset_slug: str, budget: dict) -> Any:
    """The stored form of a build: the format written, the server's budget (the ledger's
    awarded totals, or the campaign's starting budget), never the client's.

    A build naming another ruleset keeps that name so that the report says
    ``ruleset.unknown`` at /ruleset instead of the service silently changing it.
    """
    if not isinstance(build, dict):
        return build
    doc = copy.deepcopy(build)
    doc["format"] = FORMAT
    doc.setdefault("ruleset", ruleset_slug)
    doc["budget"] = dict(budget)
    return doc
