"""The builder page's view-model: the ruleset's sections shaped for the form
(``characters.builder.forms``), the budget panel, why it cannot be submitted yet and the GM's
review of the submission. The views parse the request and call this; nothing here writes."""

from __future__ import annotations

from django.urls import reverse

from characters.builder import services as svc
from characters.builder.approval import creation_review_latest
from characters.builder.forms import builder_form, builder_meta
from characters.models import Character
from characters.selectors import builder_traits, can_edit_build, next_point_costs


def sheet_url(character: Character) -> str:
    return reverse("character_sheet", args=[character.id])


def builder_context(
    request,
    character: Character,
    build,
    report,
    *,
    readonly: bool,
    note: str = "",
    version: int | None = None,
    autosaved: bool = False,
    autosave_error: str = "",
    save_note: str = "",
) -> dict:
    campaign = character.campaign
    ruleset, ctx, traits = builder_traits(campaign=campaign)
    report_dict = report.as_dict() if hasattr(report, "as_dict") else (report or {})
    next_costs = {}
    if not readonly and hasattr(report, "spent"):
        next_costs = next_point_costs(campaign=campaign, build=build, report=report, traits=traits)
    form = builder_form(
        traits,
        build,
        report_dict,
        next_costs=next_costs,
        currency_label=ruleset.currency_label if ruleset else None,
        ruleset=ruleset,
        meta=builder_meta(ruleset),
    )
    submit_reason = ""
    if not report_dict.get("valid"):
        first = next((e for e in report_dict.get("errors", [])), None)
        count = len(report_dict.get("errors", []))
        submit_reason = f"Fix {count} problem{'s' if count != 1 else ''} first" + (
            f": {first['message']}" if first else "."
        )
    elif not readonly:
        refusal = svc.submit_refusal(campaign=campaign, build=build)
        if refusal is not None:
            submit_reason = "Not ready to submit: " + refusal.errors[0].message
    currencies = []
    label_of = ruleset.currency_label if ruleset else (lambda c, n=None: c)
    for c in report_dict.get("budget", {}) or {}:
        currencies.append(
            {
                "id": c,
                "label": label_of(c),
                "spent": report_dict.get("spent", {}).get(c, 0),
                "budget": report_dict.get("budget", {}).get(c, 0),
                "remaining": report_dict.get("remaining", {}).get(c, 0),
                "over": -(report_dict.get("remaining", {}).get(c, 0) or 0),
                "lines": [line for line in report_dict.get("costs", []) if line.get("currency") == c],
            }
        )
    # A valid build with points left: a nudge, not only "ready to submit" (0 of 6 spent went unnoticed).
    unspent = []
    if not submit_reason and not readonly:
        unspent = [
            f"{c['remaining']} {label_of(c['id'], c['remaining'])} still to spend ({c['spent']} of {c['budget']} spent)"
            for c in currencies
            if isinstance(c["remaining"], int) and c["remaining"] > 0
        ]
    return {
        "character": character,
        "campaign": campaign,
        "ruleset": ruleset,
        "form": form,
        "report": report_dict,
        "currencies": currencies,
        "unspent": unspent,
        "readonly": readonly,
        "can_edit": can_edit_build(request.user, character),
        "is_draft": character.status == Character.Status.DRAFT,
        "submit_reason": submit_reason,
        "note": note,
        "builder_url": reverse("character_builder", args=[character.id]),
        "sheet_url": sheet_url(character),
        "dirty": build != character.build,
        "creation_review": _creation_review(character),
        "gm_approves": (campaign.settings or {}).get("approve_new_characters") is True,
        "version": character.version if version is None else version,
        "autosaved": autosaved,
        "autosave_error": autosave_error,
        "save_note": save_note,
    }


def _creation_review(character: Character):
    """The GM's review of this character's submission, when the builder should mention it."""
    if character.status not in (Character.Status.DRAFT, Character.Status.PENDING):
        return None
    # The builder reads the latest review's status with the character (one statement): no review,
    # or one the builder does not mention, costs no query.
    known = character.creation_review_status
    if known is not None and known not in ("pending", "rejected"):
        return None

    review = creation_review_latest(character=character)
    if review is None or review.status not in ("pending", "rejected"):
        return None
    return review
