"""Pages of advancement: advance mode, requests, the GM's review queue, awards and the ledger.

Thin function views over ``characters.advancement.services`` (writes),
``characters.advancement.selectors`` (reads) and ``characters.advancement.presenters`` (what
the pages show). Advance mode reuses the builder's form conversion (``characters.builder.forms``)
and its section partials, posting to its own URL.
A refused write never becomes a 500: the page shows the reason (htmx gets a 200
fragment carrying it, a plain POST a redirect with a message).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from characters.advancement import selectors as sel
from characters.advancement import services as svc
from characters.advancement.presenters import (
    activities_context,
    activity_slots,
    advance_context,
    advancement_context,
    awards_context,
    currency_label_of,
    ledger_what,
    review_cards,
)
from characters.builder.forms import build_from_post, builder_meta
from characters.campaigns.selectors import campaign_for_user
from characters.models import Advancement, Character
from characters.plans.presenters import plan_card
from characters.plans.selectors import plans_to_review
from characters.selectors import (
    builder_traits,
    can_edit_build,
    character_for_user,
    is_campaign_gm,
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


# ------------------------------------------------------------------ advance mode


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
            advance_context(request, character, build, note=pending.note if pending else ""),
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
            ctx = advance_context(request, character, build, note=note, error=_reason(exc))
            template = (
                "characters/advancement/advancement_advance.html#advance-body"
                if request.htmx
                else "characters/advancement/advancement_advance.html"
            )
            return render(request, template, ctx, status=200 if request.htmx else 422)
        messages.success(request, f"Request #{advancement.id} is sent to the GM.")
        return _redirect(request, reverse("advancement_detail", args=[advancement.id]))
    ctx = advance_context(request, character, build, note=note)
    if request.htmx:
        return render(request, "characters/advancement/advancement_advance.html#advance-body", ctx)
    return render(request, "characters/advancement/advancement_advance.html", ctx)


# ------------------------------------------------------------------ one request


@login_required
@require_GET
def advancement_detail(request, advancement_id):
    advancement = sel.advancement_for_user(user=request.user, advancement_id=advancement_id)
    return render(
        request, "characters/advancement/advancement_detail.html", advancement_context(request, advancement)
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
            **advancement_context(request, advancement),
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


def _plan_cards(request, campaign) -> list[dict]:
    """Plans waiting for the GM, each as a whole: every step's diff and cost (characters/plans/)."""
    return [plan_card(request, p) for p in plans_to_review(user=request.user, campaign=campaign)[:50]]


@login_required
@require_GET
def review_queue(request):
    """Pending requests of every campaign I run, oldest first."""
    queue = list(sel.review_queue(user=request.user))
    return render(
        request,
        "characters/advancement/review.html",
        {"cards": review_cards(request, queue), "campaign": None, "plan_cards": _plan_cards(request, None)},
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
        {
            "cards": review_cards(request, queue),
            "campaign": campaign,
            "recent": recent,
            "plan_cards": _plan_cards(request, campaign),
        },
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


# ------------------------------------------------------------------ between adventures


@login_required
@require_http_methods(["GET", "POST"])
def character_activities(request, character_id):
    """What the character does between adventures: the ruleset's activities in words, 1 to its
    ``activities_max`` picked (the same one may come twice), sent to the GM as a request."""
    character = character_for_user(user=request.user, character_id=character_id)
    if not can_edit_build(request.user, character):
        raise PermissionDenied("Only the character's owner picks what they do between adventures.")
    ctx = activities_context(character)
    if not ctx["activities"]:
        raise Http404("This game has no activities between adventures.")
    if request.method == "GET":
        return render(request, "characters/advancement/activities.html", ctx)
    check_post(request.POST, labels={"note": "Note", "activity": "Activity"})
    picks = [p for p in request.POST.getlist("activity") if p]
    note = request.POST.get("note", "")
    try:
        advancement = svc.activities_request(
            character_id=character.id, user=request.user, activities=picks, note=note
        )
    except SHOWN_INLINE as exc:
        ctx.update(error=_reason(exc), note=note, slots=activity_slots(ctx["most"], picks))
        return render(request, "characters/advancement/activities.html", ctx, status=422)
    messages.success(request, f"Request #{advancement.id} is sent to the GM.")
    return _redirect(request, reverse("advancement_detail", args=[advancement.id]))


# ------------------------------------------------------------------ awards and the ledger


@login_required
@require_http_methods(["GET", "POST"])
def campaign_awards(request, campaign_id):
    """The GM's awards form: quick choices of the ruleset, or any amount, to chosen characters."""
    campaign = campaign_for_user(request.user, campaign_id)
    if not is_campaign_gm(request.user, campaign):
        raise PermissionDenied("Only the campaign's GM awards points.")
    if request.method == "GET":
        return render(
            request,
            "characters/advancement/awards.html",
            awards_context(campaign, came_from=request.GET.get("character")),
        )
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
                awards_context(campaign, form=form, error="Unknown quick award."),
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
            awards_context(campaign, form=form, error=error),
            status=400,
        )
    label = currency_label_of(campaign.ruleset)(currency, amount)
    names = ", ".join(r.character.name for r in rows)
    messages.success(request, f"Awarded {amount} {label} ({reason}) to {names}.")
    return HttpResponseRedirect(reverse("campaign_awards", args=[campaign.id]))


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
    label_of = currency_label_of(character.ruleset)
    totals = sel.ledger_totals(character=character)
    entries = sel.ledger_entries(character=character)
    owner = character.owner.get_username()
    for e in entries:
        e["currency_label"] = label_of(e["currency"])
        e["what"] = ledger_what(e, owner=owner)
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
