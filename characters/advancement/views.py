"""Pages of advancement: advance mode, requests, the GM's review queue, awards and the ledger.

Thin function views over ``characters.advancement.services`` (writes) and
``characters.advancement.selectors`` (reads). Advance mode reuses the builder's form
conversion (``forms_builder``) and its section partials, posting to its own URL.
A refused write never becomes a 500: the page shows the reason (htmx gets a 200
fragment carrying it, a plain POST a redirect with a message).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from characters.advancement import selectors as sel
from characters.advancement import services as svc
from characters.builder.forms import build_from_post, builder_form, builder_meta
from characters.builder.services import character_validate
from characters.campaigns.selectors import campaign_for_user
from characters.models import Advancement, Character
from characters.selectors import (
    builder_traits,
    can_edit_build,
    character_for_user,
    is_campaign_gm,
    next_point_costs,
)
from config.errors import SHOWN_INLINE, ApplicationError
from config.forms import FormInputError, check_post, post_whole_number, post_whole_numbers


def _redirect(request, url: str):
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)


def _reason(exc: ApplicationError) -> str:
    errors = getattr(exc, "errors", None) or []
    detail = exc.message
    extra = [
        e["message"]
        for e in errors
        if isinstance(e, dict) and e.get("message") and e["message"] not in detail
    ]
    return " ".join([detail, *extra[:3]])


def _label_of(slug: str):
    from rulesets.engine import registry

    ruleset = registry.get(slug)
    return ruleset.currency_label if ruleset else (lambda c: c)


def _sheet_url(character: Character) -> str:
    return reverse("character_sheet", args=[character.id])


# ------------------------------------------------------------------ advance mode


def _advance_context(request, character: Character, build, *, note: str = "", error: str = "") -> dict:
    campaign = character.campaign
    ruleset, _, traits = builder_traits(campaign=campaign)
    preview = svc.advancement_preview(character=character, build=build)
    report = preview["report"]
    report_dict = report.as_dict()
    draft_report = character_validate(campaign=campaign, build=preview["build"])
    label_of = _label_of(character.ruleset)
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


@login_required
@require_http_methods(["GET", "POST"])
def character_advance(request, character_id):
    """The builder in advance mode: the approved build, priced live against it and the ledger."""
    character = character_for_user(user=request.user, character_id=character_id)
    if not can_edit_build(request.user, character):
        raise PermissionDenied("Only the character's owner may request an advancement.")
    if character.status != Character.Status.ACTIVE:
        messages.error(
            request,
            f"{character.name} is {'a draft' if character.status == Character.Status.DRAFT else character.get_status_display().lower()}: "
            "advancement is for active characters.",
        )
        return _redirect(request, reverse("character_builder", args=[character.id]))
    ruleset, _, traits = builder_traits(campaign=character.campaign)
    if request.method == "GET":
        pending = sel.advancement_pending(character=character)
        build = pending.build if pending and request.GET.get("fresh") is None else character.build
        return render(
            request,
            "characters/advancement/advancement_advance.html",
            _advance_context(request, character, build, note=pending.note if pending else ""),
        )

    check_post(request.POST, labels={"note": "Note"})
    build = build_from_post(traits, request.POST, character.build, builder_meta(ruleset))
    note = request.POST.get("note", "")
    if "_request" in request.POST:
        try:
            advancement = svc.advancement_request(
                character_id=character.id, user=request.user, build=build, note=note
            )
        except SHOWN_INLINE as exc:
            ctx = _advance_context(request, character, build, note=note, error=_reason(exc))
            template = (
                "characters/advancement/advancement_advance.html#advance-body"
                if request.htmx
                else "characters/advancement/advancement_advance.html"
            )
            return render(request, template, ctx, status=200 if request.htmx else 422)
        messages.success(request, f"Request #{advancement.id} is sent to the GM.")
        return _redirect(request, reverse("advancement_detail", args=[advancement.id]))
    ctx = _advance_context(request, character, build, note=note)
    if request.htmx:
        return render(request, "characters/advancement/advancement_advance.html#advance-body", ctx)
    return render(request, "characters/advancement/advancement_advance.html", ctx)


# ------------------------------------------------------------------ one request


def _detail_context(request, advancement: Advancement) -> dict:
    character = advancement.character
    is_gm = is_campaign_gm(request.user, character.campaign)
    label_of = _label_of(character.ruleset)
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


@login_required
@require_GET
def advancement_detail(request, advancement_id):
    advancement = sel.advancement_for_user(user=request.user, advancement_id=advancement_id)
    return render(
        request, "characters/advancement/advancement_detail.html", _detail_context(request, advancement)
    )


def _review_action(request, advancement_id, action):
    advancement = sel.advancement_for_user(user=request.user, advancement_id=advancement_id)
    check_post(request.POST, labels={"comment": "Comment", "reason": "Reason"})
    error = ""
    try:
        advancement = action(advancement)
    except SHOWN_INLINE as exc:
        error = _reason(exc)
        advancement = sel.advancement_for_user(user=request.user, advancement_id=advancement_id)
    if request.htmx and request.POST.get("_card"):
        ctx = {
            **_detail_context(request, advancement),
            "error": error,
            "done": not error,
            "oob": True,
            "review_pending": sel.pending_review_count(user=request.user),
        }
        return render(request, "characters/advancement/review.html#review-card", ctx)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, f"Request #{advancement.id} is {advancement.get_status_display().lower()}.")
    return _redirect(request, reverse("advancement_detail", args=[advancement.id]))


@login_required
@require_POST
def advancement_approve(request, advancement_id):
    return _review_action(
        request,
        advancement_id,
        lambda a: svc.advancement_approve(
            advancement_id=a.id, gm=request.user, comment=request.POST.get("comment", "")
        ),
    )


@login_required
@require_POST
def advancement_reject(request, advancement_id):
    return _review_action(
        request,
        advancement_id,
        lambda a: svc.advancement_reject(
            advancement_id=a.id, gm=request.user, comment=request.POST.get("comment", "")
        ),
    )


@login_required
@require_POST
def advancement_revert(request, advancement_id):
    return _review_action(
        request,
        advancement_id,
        lambda a: svc.advancement_revert(
            advancement_id=a.id, gm=request.user, reason=request.POST.get("reason", "")
        ),
    )


@login_required
@require_POST
def advancement_withdraw(request, advancement_id):
    return _review_action(
        request, advancement_id, lambda a: svc.advancement_withdraw(advancement_id=a.id, user=request.user)
    )


# ------------------------------------------------------------------ the GM's queue


def _cards(request, queue) -> list[dict]:
    return [_detail_context(request, a) for a in queue]


@login_required
@require_GET
def review_queue(request):
    """Pending requests of every campaign I run, oldest first."""
    queue = list(sel.review_queue(user=request.user))
    return render(
        request, "characters/advancement/review.html", {"cards": _cards(request, queue), "campaign": None}
    )


@login_required
@require_GET
def campaign_review(request, campaign_id):
    """One campaign's pending requests: its GM only (members 403, others 404)."""
    campaign = campaign_for_user(request.user, campaign_id)
    if not is_campaign_gm(request.user, campaign):
        raise PermissionDenied("Only the campaign's GM reviews its requests.")
    queue = list(sel.review_queue(user=request.user, campaign=campaign))
    recent = sel.advancements_for_user(user=request.user, campaign=campaign).exclude(
        status=Advancement.Status.PENDING
    )[:20]
    return render(
        request,
        "characters/advancement/review.html",
        {"cards": _cards(request, queue), "campaign": campaign, "recent": recent},
    )


@login_required
@require_GET
def character_advancements(request, character_id):
    """A character's requests and their outcomes (the owner and the GM)."""
    character = character_for_user(user=request.user, character_id=character_id)
    items = sel.advancements_for_user(user=request.user).filter(character=character)
    return render(
        request,
        "characters/advancement/advancement_list.html",
        {
            "character": character,
            "campaign": character.campaign,
            "items": items,
            "can_advance": can_edit_build(request.user, character)
            and character.status == Character.Status.ACTIVE,
        },
    )


# ------------------------------------------------------------------ awards and the ledger


def _awards_context(campaign, *, form=None, error=""):
    from rulesets.engine import registry

    ruleset = registry.get(campaign.ruleset)
    label_of = _label_of(campaign.ruleset)
    data = sel.awards_page_data(campaign=campaign)
    characters = data["characters"]
    form = form or {}
    chosen = form.get("characters")
    for c in characters:
        c.checked = (str(c.id) in chosen) if chosen is not None else c.status == Character.Status.ACTIVE
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


@login_required
@require_http_methods(["GET", "POST"])
def campaign_awards(request, campaign_id):
    """The GM's awards form: quick choices of the ruleset, or any amount, to chosen characters."""
    campaign = campaign_for_user(request.user, campaign_id)
    if not is_campaign_gm(request.user, campaign):
        raise PermissionDenied("Only the campaign's GM awards points.")
    if request.method == "GET":
        return render(request, "characters/advancement/awards.html", _awards_context(campaign))
    post = request.POST
    check_post(
        post, labels={"currency": "Currency", "amount": "Amount", "reason": "Reason", "quick": "Quick award"}
    )
    chosen = post.getlist("characters")
    form = {
        "currency": post.get("currency", ""),
        "amount": post.get("amount", ""),
        "reason": post.get("reason", ""),
        "characters": chosen,
    }
    quick = post.get("quick")
    if quick:
        choice = next((q for q in svc.quick_awards(campaign.ruleset) if q["id"] == quick), None)
        if choice is None:
            return render(
                request,
                "characters/advancement/awards.html",
                _awards_context(campaign, form=form, error="Unknown quick award."),
                status=400,
            )
        currency, amount, reason = choice["currency"], choice["amount"], choice["label"]
    else:
        currency, reason = form["currency"], form["reason"]
    try:
        character_ids = post_whole_numbers(post, "characters", label="Characters")
        if not quick:
            amount = post_whole_number(post, "amount", label="Amount", min_value=1, max_value=svc.MAX_AWARD)
        rows = svc.award_create(
            gm=request.user,
            campaign=campaign,
            character_ids=character_ids,
            currency=currency,
            amount=amount,
            reason=reason,
        )
    except (*SHOWN_INLINE, FormInputError) as exc:
        error = str(exc) if isinstance(exc, FormInputError) else _reason(exc)
        return render(
            request,
            "characters/advancement/awards.html",
            _awards_context(campaign, form=form, error=error),
            status=400,
        )
    label = _label_of(campaign.ruleset)(currency)
    names = ", ".join(r.character.name for r in rows)
    messages.success(request, f"Awarded {amount} {label} ({reason}) to {names}.")
    return HttpResponseRedirect(reverse("campaign_awards", args=[campaign.id]))


#: The reasons the ledger's own services write (characters/advancement/ledger.py, advancement.py).
_STARTING_BUDGET, _INITIAL_BUILD = "starting budget", "initial build"


def _ledger_what(entry: dict, *, owner: str) -> str:
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


@login_required
@require_http_methods(["GET", "POST"])
def character_ledger(request, character_id):
    """Every award and spend with date, who, reason and the running balance; the GM may award here."""
    character = character_for_user(user=request.user, character_id=character_id)
    is_gm = is_campaign_gm(request.user, character.campaign)
    error = ""
    if request.method == "POST":
        if not is_gm:
            raise PermissionDenied("Only the campaign's GM awards points.")
        check_post(request.POST, labels={"currency": "Currency", "amount": "Amount", "reason": "Reason"})
        try:
            amount = post_whole_number(
                request.POST, "amount", label="Amount", min_value=1, max_value=svc.MAX_AWARD
            )
            svc.award_create(
                gm=request.user,
                character_id=character.id,
                currency=request.POST.get("currency", ""),
                amount=amount,
                reason=request.POST.get("reason", ""),
            )
        except FormInputError as exc:
            error = str(exc)
        except SHOWN_INLINE as exc:
            error = _reason(exc)
        else:
            messages.success(request, "Awarded.")
            return HttpResponseRedirect(reverse("character_ledger", args=[character.id]))
    label_of = _label_of(character.ruleset)
    totals = sel.ledger_totals(character=character)
    entries = sel.ledger_entries(character=character)
    owner = character.owner.get_username()
    for e in entries:
        e["currency_label"] = label_of(e["currency"])
        e["what"] = _ledger_what(e, owner=owner)
        e["amount_text"] = f"{e['amount']:+d}".replace("-", "−")
    return render(
        request,
        "characters/advancement/ledger.html",
        {
            "character": character,
            "campaign": character.campaign,
            "is_gm": is_gm,
            "error": error,
            "entries": entries,
            "totals": [{"id": c, "label": label_of(c), **line} for c, line in totals.items()],
        },
        status=400 if error else 200,
    )
