"""Following the approved plan: what the advancement services ask of it, under their row lock.

- ``plan_check`` (at a request): is the requested build the approved plan's next step, at the
  plan's price and verdict, under the campaign's rules of today? "followed": approve it now
  (``advancement_request`` does, through the same approval service); "differs": the same build
  at another price or verdict, or a plan the rules now refuse (house rules changed): the GM
  reviews it as ever; "" otherwise (no plan, or a request that departs from it).
- ``plan_applied`` (at every approval of an advancement): the approved build is the plan's next
  step → the plan moves on (done after its last step); another build → the plan is off course
  (kept; followed again once the owner edits it and the GM approves it again).
- ``plan_reverted`` (at an undo of an approval): the plan steps back when the change undone was
  its last step taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from characters.models import Advancement, Character, Plan
from characters.plans.selectors import plan_in_force
from characters.plans.steps import core, recheck, refusals, verdict

FOLLOWED = "followed"
DIFFERS = "differs"


@dataclass
class Check:
    plan: Plan | None
    outcome: str  # FOLLOWED, DIFFERS or ""
    reason: str = ""


def _next_step(plan: Plan) -> dict | None:
    steps = plan.steps or []
    return steps[plan.followed] if plan.followed < len(steps) else None


def plan_check(*, character: Character, build: Any, report: dict, cost: dict[str, int]) -> Check:
    """Whether ``build`` (priced as ``report`` and ``cost`` against the approved build) follows the
    character's approved plan. Call under the character's row lock."""
    plan = plan_in_force(character=character, for_update=True)
    if plan is None or plan.status != Plan.Status.APPROVED:
        return Check(None, "")
    step = _next_step(plan)
    if step is None or core(step["build"]) != core(build):
        return Check(None, "")
    now = recheck(character=character, steps=plan.steps, start=plan.followed)
    refused = refusals(now)
    if refused:
        return Check(
            plan,
            DIFFERS,
            f"the rules now refuse step {plan.followed + refused[0]['step']} of the plan: {refused[0]['message']}",
        )
    planned = {c: v for c, v in (step.get("cost") or {}).items() if v}
    asked = {c: v for c, v in cost.items() if v}
    if planned != asked:
        return Check(plan, DIFFERS, "it costs other than the plan said")
    if verdict(report) != verdict(step.get("report") or {}) or not report.get("valid", False):
        return Check(plan, DIFFERS, "the rules say other of it than they said of the plan")
    return Check(plan, FOLLOWED)


def plan_applied(*, character: Character, advancement: Advancement) -> Plan | None:
    """Move the approved plan on, or mark it off course, as ``advancement`` is applied. Call under
    the character's row lock, in the approval's transaction. Returns the plan it touched."""
    plan = plan_in_force(character=character, for_update=True)
    if plan is None or plan.status != Plan.Status.APPROVED:
        return None
    step = _next_step(plan)
    if step is not None and core(step["build"]) == core(advancement.build):
        plan.followed += 1
        if plan.followed >= len(plan.steps):
            plan.status = Plan.Status.DONE
    else:
        plan.status = Plan.Status.OFF_COURSE
    plan.updated = timezone.now()
    plan.save(update_fields=["followed", "status", "updated"])
    return plan


def plan_reverted(*, character: Character, advancement: Advancement) -> Plan | None:
    """``advancement`` was undone (``advancement_revert``, under the row lock): when it was the
    last step taken of the plan in force, the plan steps back to it (a plan done is approved again),
    so asking for that step again follows the plan."""
    plan = plan_in_force(character=character, for_update=True)
    if plan is None and advancement.plan_id is not None:
        plan = (
            Plan.objects.select_for_update()
            .filter(character=character, status=Plan.Status.DONE, pk=advancement.plan_id)
            .first()
        )
    if plan is None or plan.followed == 0 or plan.status == Plan.Status.OFF_COURSE:
        return None
    if core(plan.steps[plan.followed - 1]["build"]) != core(advancement.build):
        return None
    plan.followed -= 1
    plan.status = Plan.Status.APPROVED
    plan.updated = timezone.now()
    plan.save(update_fields=["followed", "status", "updated"])
    return plan


def step_label(plan: Plan) -> str:
    """“step 2 of 3 of the plan “Road to the crown””: a ledger row's words."""
    return f"step {plan.followed + 1} of {len(plan.steps)} of the plan “{plan.name}”"
