"""A plan's steps priced and checked: each step a whole build, validated against the step before it
(the first against the character's approved build) in the approval phase, as an advancement is.

A step's ``cost`` is what the rules charge for going from the step before to it ({currency: n},
the currencies whose price changed); its ``diff`` is the advancement's priced rows (what changed,
each with its cost, in the builder's words). Points not awarded yet do not refuse a plan: a plan
is about the future, so a step is checked with the budget it needs (``needs``: what it takes
beyond the points awarded today), and only the rules' other refusals count.
"""

from __future__ import annotations

import copy
from typing import Any

from characters.advancement.selectors import ledger_totals
from characters.diff import build_diff
from characters.models import Character
from characters.pricing import build_labels, priced_rows
from characters.rules import campaign_ruleset, character_validate, stored_build
from rulesets.engine import Report

#: A plan of more steps than this is refused (a typo guard: a campaign's months, not its decades).
MAX_STEPS = 20
BUDGET_CODES = frozenset({"budget.exceeded"})


def core(build: Any) -> Any:
    """A build without what the server owns (format, budget): what a player chose."""
    if not isinstance(build, dict):
        return build
    return {k: v for k, v in build.items() if k not in ("format", "budget")}


def verdict(report: dict) -> list[str]:
    """What a report says of a build, budget aside: [the codes of its errors and warnings], sorted.
    Two reports with the same verdict say the same of the build."""
    return sorted(
        i["code"]
        for i in (report.get("errors") or []) + (report.get("warnings") or [])
        if isinstance(i, dict) and i.get("code") not in BUDGET_CODES
    )


def _check(character: Character, doc: dict, previous: dict, awarded: dict[str, int]) -> tuple[Report, dict]:
    """The approval report of ``doc`` against ``previous`` with the budget it needs, and that need."""
    campaign = character.campaign
    report = character_validate(campaign=campaign, build=doc, phase="approval", previous=previous)
    needs = {c: -left for c, left in report.remaining.items() if c in awarded and left < 0}
    if needs:
        doc["budget"] = {c: awarded.get(c, 0) + needs.get(c, 0) for c in doc.get("budget", {})}
        report = character_validate(campaign=campaign, build=doc, phase="approval", previous=previous)
    return report, needs


def price_steps(*, character: Character, builds: list) -> list[dict[str, Any]]:
    """Each build of ``builds`` as a step: {"build", "report", "cost", "diff", "needs"}, each
    priced against the one before it (the first against ``character``'s approved build).
    The builds are stored as the server stores them (its format and budget)."""
    campaign = character.campaign
    ruleset = campaign_ruleset(campaign)
    awarded = {c: line["awarded"] for c, line in ledger_totals(character=character).items()}
    labels = build_labels(campaign)
    previous = copy.deepcopy(character.build) if isinstance(character.build, dict) else {}
    before = character_validate(campaign=campaign, build=previous).spent
    steps = []
    for build in builds:
        doc = stored_build(build, ruleset_slug=ruleset.slug, budget=awarded)
        report, needs = _check(character, doc, previous, awarded)
        cost = {c: report.spent.get(c, 0) - before.get(c, 0) for c in ruleset.currencies}
        diff = build_diff(core(previous), core(doc), labels=labels)
        rows = priced_rows(campaign, previous, doc, diff, report)
        doc["budget"] = dict(awarded)
        steps.append(
            {
                "build": doc,
                "report": report.as_dict(),
                "cost": {c: v for c, v in cost.items() if v},
                "diff": rows,
                "needs": needs,
            }
        )
        previous, before = doc, report.spent
    return steps


def refusals(steps: list[dict]) -> list[dict[str, Any]]:
    """What the rules refuse in ``steps`` (budget aside): [{"step": n (1-based), "message"}]."""
    out = []
    for n, step in enumerate(steps, start=1):
        for issue in (step.get("report") or {}).get("errors") or []:
            if isinstance(issue, dict) and issue.get("code") not in BUDGET_CODES:
                out.append({"step": n, "message": issue.get("message") or "The rules refuse this step."})
    return out


def unchanged_steps(steps: list[dict], *, previous: Any) -> list[int]:
    """The 1-based numbers of the steps that change nothing from the step before them."""
    out = []
    for n, step in enumerate(steps, start=1):
        if core(step["build"]) == core(previous):
            out.append(n)
        previous = step["build"]
    return out


def recheck(*, character: Character, steps: list[dict], start: int = 0) -> list[dict]:
    """``steps[start:]`` priced again under the campaign's rules of today, from the build before
    ``steps[start]`` (the character's approved build when ``start`` is 0 or that step follows it)."""
    return price_steps(character=character, builds=[s["build"] for s in steps[start:]])
