"""Reads for the character sheet: the rules' view of a character (report, play state,
state sections, effects, roll buttons) and the roll log.

Every ruleset hook is called through ``_hook`` so that a ruleset that has not
written a hook yet (NotImplementedError) or that trips over an odd state gives an
empty block on the page, never a 500.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from characters.models import Character, RollLog
from characters.selectors.campaigns import campaign_context
from rulesets.engine import registry
from rulesets.engine.base import Context, Ruleset
from rulesets.engine.report import Report

logger = logging.getLogger(__name__)

ROLL_LOG_LENGTH = 20

def label(key: Any) -> str:
    """``max_speed`` → "Max speed", ``exhaustion:cold`` → "Exhaustion: cold"."""
    text = str(key)
    words = registry.labels().get(text)  # the rulesets' own words (``Ruleset.labels``)
    if words is not None:
        return words
    text = text.replace(":", ": ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@dataclass
class SheetRules:
    """The rules' answers about one character, computed once per request."""

    ruleset: Ruleset | None
    report: Report | None
    state: dict[str, Any]
    #: The campaign's rules context (house rules, homebrew) every hook got.
    ctx: Context | None = None
    sections: list[dict[str, Any]] = field(default_factory=list)
    effects: dict[str, Any] = field(default_factory=dict)
    rollables: list[dict[str, Any]] = field(default_factory=list)
    #: Hooks that failed or are not written yet, for a small notice on the page.
    missing: list[str] = field(default_factory=list)

    @property
    def derived(self) -> dict[str, Any]:
        return self.report.derived if self.report else {}


def _hook(rules: SheetRules | None, name: str, default, fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        if rules is not None:
            rules.missing.append(name)
        return default
    except Exception:  # a ruleset bug must not take the sheet down
        logger.exception("ruleset hook %s failed", name)
        if rules is not None:
            rules.missing.append(name)
        return default


def character_ruleset(character: Character) -> Ruleset | None:
    try:
        return registry.get(character.ruleset)
    except Exception:  # a ruleset package that does not import yet
        logger.exception("ruleset %s does not load", character.ruleset)
        return None


def character_report(*, character: Character, ruleset: Ruleset, phase: str = "draft") -> Report:
    """The live report of the character's build under its campaign's house rules and homebrew.

    Re-validated rather than read from ``character.report``: the hooks want the
    ruleset's own Python values in ``derived``, not their JSON round trip.
    """
    campaign = character.campaign
    return ruleset.validate(
        character.build, settings=campaign.house_rules or None, homebrew=campaign.homebrew or None, phase=phase
    )


def character_context(*, character: Character, ruleset: Ruleset, phase: str = "draft") -> Context:
    """The rules context of the character's campaign (see ``campaign_context``)."""
    return campaign_context(campaign=character.campaign, ruleset=ruleset, phase=phase)


def character_play_state(
    *, character: Character, ruleset: Ruleset, report: Report, ctx: Context | None = None
) -> dict[str, Any]:
    """The stored play state, or a fresh one when the character has none yet."""
    if character.state:
        return character.state
    if not report.valid:
        return {}
    ctx = ctx or character_context(character=character, ruleset=ruleset)
    return _hook(None, "initial_state", {}, ruleset.initial_state, character.build, report, ctx=ctx) or {}


def sheet_rules(*, character: Character) -> SheetRules:
    """Everything the sheet shows that the ruleset computes (no queries)."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return SheetRules(ruleset=None, report=None, state=character.state or {}, missing=["ruleset"])
    report = character_report(character=character, ruleset=ruleset)
    # The campaign's context the report was checked under (the same the ruleset caches).
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    rules = SheetRules(ruleset=ruleset, report=report, state=state, ctx=ctx)
    if character.status != Character.Status.ACTIVE:
        return rules  # a draft (or retired character) is not played: no state blocks, no dice
    build = character.build
    rules.sections = _with_body_shapes(
        ruleset, _hook(rules, "state_sections", [], ruleset.state_sections, build, report, state, ctx=ctx) or []
    )
    rules.effects = _hook(rules, "state_effects", {}, ruleset.state_effects, build, report, state, ctx=ctx) or {}
    rules.rollables = _hook(rules, "rollables", [], ruleset.rollables, build, report, state, ctx=ctx) or []
    return rules


def _with_body_shapes(ruleset: Ruleset, sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each part of a "body" section with the shape the ruleset draws it with (or None)."""
    if not any(isinstance(s, dict) and s.get("kind") == "body" for s in sections):
        return sections
    diagram = ruleset.body_diagram()
    return [
        {**s, "items": [{**p, "shape": diagram.get(p.get("id", ""))} for p in s.get("items") or [] if isinstance(p, dict)]}
        if isinstance(s, dict) and s.get("kind") == "body"
        else s
        for s in sections
    ]


def rollable_by_id(rules: SheetRules, rollable_id: str) -> dict[str, Any] | None:
    for rollable in rules.rollables:
        if str(rollable.get("id")) == str(rollable_id):
            return rollable
    return None


def character_roll_log(*, character: Character, limit: int = ROLL_LOG_LENGTH) -> list[RollLog]:
    """The latest rolls on the sheet, newest first, with who rolled them (one query)."""
    return list(RollLog.objects.filter(character=character).select_related("user").order_by("-created", "-id")[:limit])


def character_roll(*, character: Character, roll_id) -> RollLog | None:
    """One roll of this character (None when the id is not one of its rolls)."""
    try:
        pk = int(roll_id)
    except (TypeError, ValueError):
        return None
    if not 0 < pk < 2**63:
        return None
    return RollLog.objects.filter(character=character, pk=pk).select_related("user").first()
