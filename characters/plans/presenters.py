"""The view-models of the plans' pages: a plan's steps in the game's words, and a step in the
builder (the builder's form, priced against the step before it). Nothing here writes."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from characters.builder.forms import builder_form, builder_meta
from characters.models import Character, Plan
from characters.plans.selectors import plan_refused_now
from characters.plans.steps import price_steps
from characters.rules import character_validate
from characters.selectors import builder_traits, is_campaign_gm, next_point_costs
from rulesets.engine import registry


def _label_of(slug: str):
    ruleset = registry.get(slug)
    return ruleset.currency_label if ruleset else (lambda c: c)


def cost_words(cost: dict[str, int], slug: str) -> str:
    """{"cp": 10} → "10 CP"; {} → "free"."""
    label = _label_of(slug)
    parts = [f"{v} {label(c)}" if v >= 0 else f"{-v} {label(c)} back" for c, v in cost.items() if v]
    return ", ".join(parts) or "free"


def plan_card(request, plan: Plan) -> dict[str, Any]:
    """A plan as its page and the review queue show it."""
    character = plan.character
    slug = character.ruleset
    refused = plan_refused_now(plan=plan)
    refused_at = {r["step"] for r in refused}
    steps = []
    for n, step in enumerate(plan.steps or [], start=1):
        steps.append(
            {
                "n": n,
                "name": (step.get("build") or {}).get("name") or character.name,
                "diff": step.get("diff") or [],
                "report": step.get("report") or {},
                "cost": cost_words(step.get("cost") or {}, slug),
                "needs": cost_words(step.get("needs") or {}, slug) if step.get("needs") else "",
                "done": plan.status in (Plan.Status.APPROVED, Plan.Status.DONE) and n <= plan.followed,
                "next": plan.status == Plan.Status.APPROVED and n == plan.followed + 1,
                "refused": [r["message"] for r in refused if r["step"] == n],
                "edit_url": reverse("plan_step", args=[plan.id, n]),
            }
        )
    total: dict[str, int] = {}
    for step in plan.steps or []:
        for c, v in (step.get("cost") or {}).items():
            total[c] = total.get(c, 0) + v
    is_owner = request.user.pk == character.owner_id
    editable = plan.status in (
        Plan.Status.DRAFT,
        Plan.Status.PENDING,
        Plan.Status.REJECTED,
        Plan.Status.OFF_COURSE,
    )
    active = character.status == Character.Status.ACTIVE
    return {
        "plan": plan,
        "character": character,
        "campaign": character.campaign,
        "slug": slug,
        "steps": steps,
        "total": cost_words(total, slug),
        "refused": refused,
        "refused_at": refused_at,
        "is_owner": is_owner,
        "is_gm": is_campaign_gm(request.user, character.campaign),
        "can_edit": is_owner and editable and active,
        "can_submit": is_owner
        and active
        and not refused
        and plan.status in (Plan.Status.DRAFT, Plan.Status.REJECTED, Plan.Status.OFF_COURSE),
        "can_review": plan.status == Plan.Status.PENDING,
        "add_url": reverse("plan_step", args=[plan.id, len(plan.steps or []) + 1]),
    }


def step_context(
    request,
    character: Character,
    *,
    plan: Plan | None,
    before: list[dict],
    build: dict,
    after: list[dict] | None = None,
    name: str = "",
    error: str = "",
    action_url: str,
) -> dict[str, Any]:
    """The builder showing ``build`` as the step after ``before`` (builds), priced against it."""
    campaign = character.campaign
    ruleset, _, traits = builder_traits(campaign=campaign)
    priced = price_steps(character=character, builds=[*before, build])
    step = priced[-1]
    report = step["report"]
    draft_report = character_validate(campaign=campaign, build=step["build"])
    label_of = _label_of(character.ruleset)
    form = builder_form(
        traits,
        step["build"],
        report,
        next_costs=next_point_costs(
            campaign=campaign, build=step["build"], report=draft_report, traits=traits
        ),
        currency_label=label_of,
        ruleset=ruleset,
        meta=builder_meta(ruleset),
    )
    n = len(before) + 1
    refused = [i for i in report.get("errors") or [] if i.get("code") != "budget.exceeded"]
    return {
        "character": character,
        "campaign": campaign,
        "ruleset": ruleset,
        "plan": plan,
        "n": n,
        "form": form,
        "report": {**report, "errors": refused, "valid": not refused},
        "diff": step["diff"],
        "cost": cost_words(step["cost"], character.ruleset),
        "needs": cost_words(step["needs"], character.ruleset) if step["needs"] else "",
        "later": len(after or []),
        "name": name if name else (plan.name if plan else ""),
        "error": error,
        "builder_url": action_url,
        "sheet_url": reverse("character_sheet", args=[character.id]),
        "plans_url": reverse("character_plans", args=[character.id]),
        "can_save": not refused and bool(step["diff"]),
        "readonly": False,
    }
