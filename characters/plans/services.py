"""Plans: a player's plan of a character's next steps, reviewed by the GM as a whole.

- ``plan_create`` / ``plan_update`` (the owner): every step is priced and checked against the
  step before it when saved (characters/plans/steps.py); a step the rules refuse (points not
  awarded yet aside) or one that changes nothing is refused with the rule's words (422), nothing
  saved. Saving a plan makes it a draft again (an edit of a rejected or off-course plan too).
- ``plan_submit`` (the owner): a draft, rejected or off-course plan goes to the GM's review queue.
- ``plan_approve`` (the GM): under the character's row lock, every step checked again under the
  campaign's rules of today (a step they now refuse: 422, nothing approved); the plan in force
  before it is retired, so at most one plan is approved.
- ``plan_reject`` (the GM, a comment required): back to the player with the comment.
- ``plan_delete`` (the owner).

Following the plan is the advancement services' (characters/plans/following.py): an advancement
whose build is the approved plan's next step is approved when requested, through the same
approval service.

Errors: 404 for what the user may not see, 403 for what they may not do, 409 for a plan in the
wrong status, 422 for the rules' refusals, 400 for bad values.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from characters.comments import check_comment
from characters.models import Character, CharacterVersion, Plan
from characters.plans.selectors import plan_for_user
from characters.plans.steps import MAX_STEPS, core, price_steps, recheck, refusals, unchanged_steps
from characters.selectors import character_for_user, is_campaign_gm
from config.errors import BadInput, Conflict, NotPermitted, RuleRefused

EDITABLE = (Plan.Status.DRAFT, Plan.Status.PENDING, Plan.Status.REJECTED, Plan.Status.OFF_COURSE)


def _lock(character_id: int) -> Character:
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character_id)
    )


def _check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > 120:
        raise BadInput("Give the plan a name of at most 120 characters.", field="name")
    return name.strip()


def _check_builds(builds: Any) -> list[dict]:
    if not isinstance(builds, list) or not builds:
        raise BadInput("A plan has at least one step, each a whole build.", field="steps")
    if len(builds) > MAX_STEPS:
        raise BadInput(f"A plan has at most {MAX_STEPS} steps.", field="steps")
    if not all(isinstance(b, dict) for b in builds):
        raise BadInput("Each step must be a build document (a JSON object).", field="steps")
    return builds


def _require_active(character: Character) -> None:
    if character.status != Character.Status.ACTIVE:
        raise RuleRefused(
            f"{character.name} is not in play yet: plans are for active characters.",
            errors=[{"code": "character.not_active", "path": "", "message": "Not an active character."}],
        )


def _refuse_if_broken(steps: list[dict], *, previous: Any, what: str) -> None:
    refused = refusals(steps)
    if refused:
        raise RuleRefused(
            f"The rules refuse this {what}: "
            + "; ".join(f"step {r['step']}: {r['message']}" for r in refused[:3]),
            errors=[{"code": "plan.step_refused", "path": f"/steps/{r['step'] - 1}", **r} for r in refused],
        )
    same = unchanged_steps(steps, previous=previous)
    if same:
        raise RuleRefused(
            f"Step {same[0]} changes nothing from the one before it: change something or remove it.",
            errors=[
                {"code": "plan.step_unchanged", "path": f"/steps/{n - 1}", "message": "Nothing changes."}
                for n in same
            ],
        )


def _priced(character: Character, builds: list[dict]) -> list[dict]:
    steps = price_steps(character=character, builds=builds)
    _refuse_if_broken(steps, previous=character.build, what="plan")
    return steps


@transaction.atomic
def plan_create(*, character_id, user, name: Any, steps: Any) -> Plan:
    """The owner saves a new plan of ``character_id`` (a draft), each step priced and checked."""
    character = character_for_user(user=user, character_id=character_id)
    if character.owner_id != user.pk:
        raise NotPermitted("Only the character's owner plans its future.")
    name = _check_name(name)
    builds = _check_builds(steps)
    character = _lock(character.pk)
    _require_active(character)
    return Plan.objects.create(
        character=character,
        author=user,
        name=name,
        status=Plan.Status.DRAFT,
        steps=_priced(character, builds),
        base_version=character.version,
    )


def _owned_plan(*, plan_id, user, action: str) -> tuple[Character, Plan]:
    plan = plan_for_user(user=user, plan_id=plan_id)  # 404 for outsiders
    if plan.character.owner_id != user.pk:
        raise NotPermitted(f"Only the character's owner may {action} its plans.")
    character = _lock(plan.character_id)
    plan = Plan.objects.select_for_update().get(pk=plan.pk)
    plan.character = character
    return character, plan


@transaction.atomic
def plan_update(*, plan_id, user, name: Any = None, steps: Any) -> Plan:
    """The owner edits a plan not approved (or off course): saved as a draft again."""
    character, plan = _owned_plan(plan_id=plan_id, user=user, action="edit")
    if plan.status not in EDITABLE:
        raise Conflict(
            f"The plan “{plan.name}” is {plan.get_status_display().lower()}: make a new plan instead."
        )
    _require_active(character)
    plan.name = _check_name(name) if name is not None else plan.name
    plan.steps = _priced(character, _check_builds(steps))
    plan.base_version = character.version
    plan.followed = 0
    plan.status = Plan.Status.DRAFT
    plan.save()
    return plan


@transaction.atomic
def plan_delete(*, plan_id, user) -> None:
    _, plan = _owned_plan(plan_id=plan_id, user=user, action="delete")
    plan.delete()


@transaction.atomic
def plan_submit(*, plan_id, user) -> Plan:
    """The owner sends a plan to the GM (checked again under today's rules first)."""
    character, plan = _owned_plan(plan_id=plan_id, user=user, action="submit")
    if plan.status not in (Plan.Status.DRAFT, Plan.Status.REJECTED, Plan.Status.OFF_COURSE):
        raise Conflict(f"The plan “{plan.name}” is {plan.get_status_display().lower()}: nothing to submit.")
    _require_active(character)
    steps = recheck(character=character, steps=plan.steps)
    _refuse_if_broken(steps, previous=character.build, what="plan now")
    plan.steps, plan.base_version, plan.followed = steps, character.version, 0
    plan.status = Plan.Status.PENDING
    plan.save()
    return plan


def _reviewed_plan(*, plan_id, gm, action: str) -> tuple[Character, Plan]:
    plan = plan_for_user(user=gm, plan_id=plan_id)
    if not is_campaign_gm(gm, plan.character.campaign):
        raise NotPermitted(f"Only the campaign's GM may {action} a plan.")
    character = _lock(plan.character_id)
    plan = Plan.objects.select_for_update().get(pk=plan.pk)
    plan.character = character
    if plan.status != Plan.Status.PENDING:
        raise Conflict(
            f"The plan “{plan.name}” is {plan.get_status_display().lower()}: only a plan waiting for the GM "
            "can be approved or rejected."
        )
    return character, plan


@transaction.atomic
def plan_approve(*, plan_id, gm, comment: Any = "") -> Plan:
    """The GM approves a plan as a whole; the one in force before it is retired."""
    comment = check_comment(comment, required=False)
    character, plan = _reviewed_plan(plan_id=plan_id, gm=gm, action="approve")
    _require_active(character)
    if plan.base_version != character.version and core(_build_at(character, plan.base_version)) != core(
        character.build
    ):
        raise Conflict(
            f"{character.name}'s build changed since the plan “{plan.name}” was made: "
            "the player saves it again from the new build."
        )
    steps = recheck(character=character, steps=plan.steps)
    _refuse_if_broken(steps, previous=character.build, what="plan now (the campaign's rules changed)")
    Plan.objects.filter(
        character=character, status__in=[Plan.Status.APPROVED, Plan.Status.OFF_COURSE]
    ).exclude(pk=plan.pk).update(status=Plan.Status.RETIRED, updated=timezone.now())
    plan.steps, plan.base_version, plan.followed = steps, character.version, 0
    plan.status = Plan.Status.APPROVED
    plan.comment, plan.reviewed_by, plan.reviewed = comment, gm, timezone.now()
    plan.save()
    return plan


@transaction.atomic
def plan_reject(*, plan_id, gm, comment: Any) -> Plan:
    """The GM sends a plan back to the player with a comment (required)."""
    comment = check_comment(comment, required=True)
    _, plan = _reviewed_plan(plan_id=plan_id, gm=gm, action="reject")
    plan.status = Plan.Status.REJECTED
    plan.comment, plan.reviewed_by, plan.reviewed = comment, gm, timezone.now()
    plan.save()
    return plan


def _build_at(character: Character, number: int) -> Any:
    return (
        CharacterVersion.objects.filter(character=character, number__lte=number)
        .order_by("-number")
        .values_list("build", flat=True)
        .first()
    )
