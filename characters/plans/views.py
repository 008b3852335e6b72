"""Pages of plans: a character's plans, a plan (its steps' diffs and costs, its review), and a step
in the builder (the builder's form, priced against the step before it).

Thin function views over ``characters.plans.services`` (writes), ``selectors`` (reads) and
``presenters`` (what the pages show). A refused write never becomes a 500: the page shows the
reason (htmx gets a 200 fragment carrying it, a plain POST the page again with a 422).
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from characters.builder.forms import build_from_post, builder_meta
from characters.models import Character
from characters.plans import services as svc
from characters.plans.presenters import plan_card, step_context
from characters.plans.selectors import plan_for_user, plans_of
from characters.selectors import builder_traits, can_edit_build, character_for_user
from config.errors import SHOWN_INLINE, ApplicationError
from config.forms import check_post

STEP_TEMPLATE = "characters/plans/plan_step.html"


def _redirect(request, url: str):
    return HttpResponseClientRedirect(url) if request.htmx else HttpResponseRedirect(url)


def _reason(exc: ApplicationError) -> str:
    extra = [
        e["message"]
        for e in exc.errors or []
        if isinstance(e, dict) and e.get("message") and e["message"] not in exc.message
    ]
    return " ".join([exc.message, *extra[:3]])


@login_required
@require_GET
def character_plans(request, character_id):
    """A character's plans (the owner and the GM)."""
    character = character_for_user(user=request.user, character_id=character_id)
    cards = [plan_card(request, p) for p in plans_of(character=character)[:50]]
    return render(
        request,
        "characters/plans/plan_list.html",
        {
            "character": character,
            "campaign": character.campaign,
            "cards": cards,
            "can_plan": can_edit_build(request.user, character)
            and character.status == Character.Status.ACTIVE,
        },
    )


@login_required
@require_GET
def plan_detail(request, plan_id):
    plan = plan_for_user(user=request.user, plan_id=plan_id)
    return render(request, "characters/plans/plan_detail.html", plan_card(request, plan))


def _step_page(request, character, *, plan, before, build, after, action_url, save):
    """GET: the builder at ``build``; POST: the builder's fields on top of it, checked, or saved
    (``save(build, name)`` → the plan) when the player pressed Save."""
    ruleset, _, traits = builder_traits(campaign=character.campaign)
    name = request.POST.get("plan_name", "") if request.method == "POST" else ""
    if request.method == "POST":
        check_post(request.POST, labels={"plan_name": "The plan's name"})
        build = build_from_post(traits, request.POST, build, builder_meta(ruleset))
        if "_save" in request.POST:
            try:
                saved = save(build, name)
            except SHOWN_INLINE as exc:
                ctx = step_context(
                    request, character, plan=plan, before=before, build=build, after=after,
                    name=name, error=_reason(exc), action_url=action_url,
                )  # fmt: skip
                template = f"{STEP_TEMPLATE}#step-body" if request.htmx else STEP_TEMPLATE
                return render(request, template, ctx, status=200 if request.htmx else 422)
            messages.success(request, f"The plan “{saved.name}” is saved.")
            return _redirect(request, reverse("plan_detail", args=[saved.id]))
    ctx = step_context(
        request,
        character,
        plan=plan,
        before=before,
        build=build,
        after=after,
        name=name,
        action_url=action_url,
    )
    if request.htmx and request.method == "POST":
        return render(request, f"{STEP_TEMPLATE}#step-body", ctx)
    return render(request, STEP_TEMPLATE, ctx)


@login_required
@require_http_methods(["GET", "POST"])
def plan_new(request, character_id):
    """A new plan's first step, in the builder, from the approved build."""
    character = character_for_user(user=request.user, character_id=character_id)
    if not can_edit_build(request.user, character):
        raise PermissionDenied("Only the character's owner plans its future.")
    if character.status != Character.Status.ACTIVE:
        messages.error(request, f"{character.name} is not in play yet: plans are for active characters.")
        return _redirect(request, reverse("character_plans", args=[character.id]))
    return _step_page(
        request,
        character,
        plan=None,
        before=[],
        build=copy.deepcopy(character.build),
        after=[],
        action_url=reverse("plan_new", args=[character.id]),
        save=lambda build, name: svc.plan_create(
            character_id=character.id, user=request.user, name=name, steps=[build]
        ),
    )


@login_required
@require_http_methods(["GET", "POST"])
def plan_step(request, plan_id, n):
    """Step ``n`` (1-based) of a plan in the builder; ``n`` one past the last adds a step."""
    plan = plan_for_user(user=request.user, plan_id=plan_id)
    character = plan.character
    if character.owner_id != request.user.pk:
        raise PermissionDenied("Only the character's owner edits its plans.")
    builds = [s["build"] for s in plan.steps or []]
    if not 1 <= n <= len(builds) + 1:
        raise Http404("No such step.")
    before, after = builds[: n - 1], builds[n:]
    build = copy.deepcopy(builds[n - 1] if n <= len(builds) else (builds[-1] if builds else character.build))
    return _step_page(
        request,
        character,
        plan=plan,
        before=before,
        build=build,
        after=after,
        action_url=reverse("plan_step", args=[plan.id, n]),
        save=lambda b, name: svc.plan_update(
            plan_id=plan.id, user=request.user, name=name or None, steps=[*before, b, *after]
        ),
    )


def _action(request, plan_id, action, done: str):
    plan = plan_for_user(user=request.user, plan_id=plan_id)
    check_post(request.POST, labels={"comment": "Comment"})
    try:
        plan = action(plan)
    except SHOWN_INLINE as exc:
        messages.error(request, _reason(exc))
    else:
        messages.success(request, done.format(name=plan.name))
    back = (
        reverse("review_queue")
        if request.POST.get("_next") == "queue"
        else reverse("plan_detail", args=[plan_id])
    )
    return _redirect(request, back)


@login_required
@require_POST
def plan_submit(request, plan_id):
    return _action(
        request,
        plan_id,
        lambda p: svc.plan_submit(plan_id=p.id, user=request.user),
        "The plan “{name}” is sent to the GM.",
    )


@login_required
@require_POST
def plan_approve(request, plan_id):
    return _action(
        request,
        plan_id,
        lambda p: svc.plan_approve(plan_id=p.id, gm=request.user, comment=request.POST.get("comment", "")),
        "The plan “{name}” is approved.",
    )


@login_required
@require_POST
def plan_reject(request, plan_id):
    return _action(
        request,
        plan_id,
        lambda p: svc.plan_reject(plan_id=p.id, gm=request.user, comment=request.POST.get("comment", "")),
        "The plan “{name}” is sent back to the player.",
    )


@login_required
@require_POST
def plan_delete(request, plan_id):
    plan = plan_for_user(user=request.user, plan_id=plan_id)
    svc.plan_delete(plan_id=plan.id, user=request.user)
    messages.success(request, f"The plan “{plan.name}” is deleted.")
    return _redirect(request, reverse("character_plans", args=[plan.character_id]))
