"""The view-models of advancement's pages: advance mode (the builder's form priced against the
approved build and the ledger), a request's card, the awards form and the ledger's rows.
The views parse the request and call these; nothing here writes."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from characters.advancement import selectors as sel
from characters.advancement import services as svc
from characters.builder.forms import builder_form, builder_meta
from characters.builder.services import character_validate
from characters.campaigns.selectors import campaign_context
from characters.models import Advancement, Character
from characters.rules import campaign_ruleset
from characters.selectors import builder_traits, is_campaign_gm, next_point_costs
from rulesets.engine import registry


def currency_label_of(slug: str):
    ruleset = registry.get(slug)
    return ruleset.currency_label if ruleset else (lambda c, n=None: c)


def _sheet_url(character: Character) -> str:
    return reverse("character_sheet", args=[character.id])


def advance_context(request, character: Character, build, *, note: str = "", error: str = "") -> dict:
    campaign = character.campaign
    ruleset, _, traits = builder_traits(campaign=campaign)
    preview = svc.advancement_preview(character=character, build=build)
    report = preview["report"]
    report_dict = report.as_dict()
    draft_report = character_validate(campaign=campaign, build=preview["build"])
    label_of = currency_label_of(character.ruleset)
    form = builder_form(
        traits,
        preview["build"],
        report_dict,
        next_costs=next_point_costs(
            campaign=campaign, build=preview["build"], report=draft_report, traits=traits
        ),
        currency_label=label_of,
        ruleset=ruleset,
        meta=builder_meta(ruleset),
    )
    awardable = ruleset.awardable_currencies if ruleset else ()
    currencies = []
    for c in report_dict.get("budget", {}):
        balance = preview["balance"].get(c)
        cost = preview["cost"].get(c, 0)
        currencies.append(
            {
                "id": c,
                "label": label_of(c),
                "cost": cost,
                "awardable": c in awardable,
                "balance": balance
                if balance is not None
                else report_dict["budget"][c] - (character.report.get("spent", {}) or {}).get(c, 0),
                "after": report_dict.get("remaining", {}).get(c, 0),
                "over": -(report_dict.get("remaining", {}).get(c, 0) or 0),
            }
        )
    level_due = None
    derived = report_dict.get("derived", {})
    if isinstance(derived.get("level_reachable"), int) and derived["level_reachable"] > derived.get(
        "level", 1
    ):
        level_due = {"level": derived.get("level", 1), "reachable": derived["level_reachable"]}
    pending = sel.advancement_pending(character=character)
    return {
        "character": character,
        "campaign": campaign,
        "ruleset": ruleset,
        "form": form,
        "report": report_dict,
        "currencies": currencies,
        "diff": preview["diff"],
        "note": note,
        "error": error,
        "pending": pending,
        "level_due": level_due,
        "builder_url": reverse("character_advance", args=[character.id]),
        "sheet_url": _sheet_url(character),
        "can_request": report.valid and bool(preview["diff"]),
        "readonly": False,
    }


def advancement_context(request, advancement: Advancement) -> dict:
    character = advancement.character
    is_gm = is_campaign_gm(request.user, character.campaign)
    label_of = currency_label_of(character.ruleset)
    return {
        "a": advancement,
        "character": character,
        "campaign": character.campaign,
        "is_gm": is_gm,
        "is_owner": character.owner_id == request.user.pk,
        "cost_rows": [
            {"id": c, "label": label_of(c), "cost": v} for c, v in (advancement.cost or {}).items() if v
        ],
        "balance": {c: line["unspent"] for c, line in sel.ledger_totals(character=character).items()},
    }


def review_cards(request, queue) -> list[dict]:
    return [advancement_context(request, a) for a in queue]


def awards_context(campaign, *, form=None, error="", came_from=None):
    ruleset = registry.get(campaign.ruleset)
    label_of = currency_label_of(campaign.ruleset)
    data = sel.awards_page_data(campaign=campaign)
    characters = data["characters"]
    form = form or {}
    chosen = form.get("characters")
    # Nobody is ticked until the GM ticks them (an award by Enter went to the whole party), except the
    # character the GM came from (``?character=<id>``).
    for c in characters:
        c.checked = str(c.id) in chosen if chosen is not None else str(c.id) == str(came_from or "")
    return {
        "campaign": campaign,
        "ruleset": ruleset,
        "characters": characters,
        "currencies": [
            {"id": c, "label": label_of(c)} for c in (ruleset.awardable_currencies if ruleset else ())
        ],
        "quick": [
            {**q, "currency_label": label_of(q["currency"])} for q in svc.quick_awards(campaign.ruleset)
        ],
        "awards_help": ruleset.awards_help() if ruleset else "",
        "form": form,
        "error": error,
        "recent": data["recent"],
    }


#: The reasons the ledger's own services write (characters/ledger.py, advancement.py).
_STARTING_BUDGET, _INITIAL_BUILD = "starting budget", "initial build"


def ledger_what(entry: dict, *, owner: str) -> str:
    """One ledger row as a person reads it, in one shape: who did what.

    "Created by mira: starting budget", "Submitted by mira: initial build" (or "Approved by gm:
    initial build" when the GM approved the new character), "Awarded by gm: Session 2",
    "Approved by gm: request #4", "Reverted by gm: request #4, too strong".
    """
    who = entry["author"] or "someone no longer here"
    kind, reason, request_id = entry["kind"], entry["reason"], entry["advancement"]
    if kind == "award" and reason == _STARTING_BUDGET:
        return f"Created by {who}: starting budget"
    if kind == "spend" and reason == _INITIAL_BUILD:
        return f"{'Submitted' if who == owner else 'Approved'} by {who}: initial build"
    if kind == "spend" and request_id:
        return f"Approved by {who}: request #{request_id}"
    if kind == "reversal" and request_id:
        why = reason.split(": ", 1)[1] if ": " in reason else ""
        return f"Reverted by {who}: request #{request_id}" + (f", {why}" if why else "")
    if kind == "award":
        return f"Awarded by {who}: {reason}"
    return f"{kind.capitalize()} by {who}: {reason}"


def activities_context(character: Character) -> dict[str, Any]:
    """The between-adventures page: the ruleset's activities in words, how many to pick, and what
    waits for the GM already."""
    ruleset = campaign_ruleset(character.campaign)
    ctx = campaign_context(campaign=character.campaign, ruleset=ruleset) if ruleset is not None else None
    found = ruleset.activities(ctx) if ruleset is not None else []
    most = ruleset.activities_max(ctx) if ruleset is not None else 0
    pending = (
        Advancement.objects.filter(
            character=character, status=Advancement.Status.PENDING, kind=Advancement.Kind.ACTIVITIES
        )
        .order_by("-id")
        .first()
    )
    return {
        "character": character,
        "campaign": character.campaign,
        "activities": [
            {"id": a.get("id"), "name": a.get("name", a.get("id")), "text": a.get("text", "")} for a in found
        ],
        "slots": activity_slots(most, []),
        "most": most,
        "pending": pending,
        "note": "",
        "error": "",
    }


def activity_slots(most: int, picked: list[str]) -> list[dict[str, Any]]:
    """The form's selects: one per activity that may be picked, each with what was picked there."""
    return [{"n": i + 1, "picked": picked[i] if i < len(picked) else ""} for i in range(most)]
