"""Reads about plans, through the characters' access rule: a plan is visible exactly when its
character is (the owner while a member, the campaign's GM); anything else is a 404."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from characters.models import Campaign, Character, Plan
from characters.plans.steps import recheck, refusals
from characters.selectors import _visible_filter

_MAX_ID = 2**63 - 1


class PlanNotFound(Http404, Plan.DoesNotExist):
    """No such plan, or the user may not see its character (404 alike)."""


def plan_for_user(*, user, plan_id, for_update: bool = False) -> Plan:
    """The plan ``plan_id`` if ``user`` may see its character, else ``PlanNotFound``."""
    try:
        pk = int(plan_id)
    except (TypeError, ValueError):
        raise PlanNotFound("No such plan.") from None
    if not 0 < pk <= _MAX_ID or not getattr(user, "is_authenticated", False):
        raise PlanNotFound("No such plan.")
    qs = Plan.objects.filter(pk=pk, character__in=Character.objects.filter(_visible_filter(user)))
    if for_update:
        qs = qs.select_for_update(of=("self",))
    plan = qs.select_related("character", "character__campaign", "character__owner", "reviewed_by").first()
    if plan is None:
        raise PlanNotFound("No such plan.")
    return plan


def plans_of(*, character: Character) -> QuerySet[Plan]:
    """The plans of ``character`` (the caller has checked the user may see it), newest first."""
    return Plan.objects.filter(character=character).select_related("reviewed_by")


def plan_in_force(*, character: Character, for_update: bool = False) -> Plan | None:
    """The character's approved plan (or the one off course): at most one."""
    qs = Plan.objects.filter(
        character=character, status__in=[Plan.Status.APPROVED, Plan.Status.OFF_COURSE]
    ).order_by("-id")
    if for_update:
        qs = qs.select_for_update()
    return qs.first()


def plans_to_review(*, user, campaign: Campaign | None = None) -> QuerySet[Plan]:
    """Plans waiting for the GM in the campaigns ``user`` runs, oldest first."""
    if not getattr(user, "is_authenticated", False):
        return Plan.objects.none()
    qs = Plan.objects.filter(status=Plan.Status.PENDING, character__campaign__gm=user)
    if campaign is not None:
        qs = qs.filter(character__campaign=campaign)
    return qs.select_related("character", "character__campaign", "character__owner").order_by("updated", "id")


def plan_refused_now(*, plan: Plan) -> list[dict]:
    """What the campaign's rules of today refuse in the steps still ahead of ``plan`` ([{step,
    message}], 1-based steps of the whole plan): a plan outdated by a house rule says so. Set as
    ``plan.refused_now`` too. Plans done or retired are not checked again."""
    refused: list[dict] = []
    live = (Plan.Status.DRAFT, Plan.Status.PENDING, Plan.Status.APPROVED, Plan.Status.REJECTED)
    if plan.status in live and plan.character.status == Character.Status.ACTIVE and plan.steps:
        start = plan.followed if plan.status == Plan.Status.APPROVED else 0
        ahead = recheck(character=plan.character, steps=plan.steps, start=start)
        refused = [{**r, "step": r["step"] + start} for r in refusals(ahead)]
    plan.refused_now = refused
    return refused
