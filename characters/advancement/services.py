"""Awards, spend requests, GM review and undo: the ledger that never double-spends.

The ledger
==========

Every CP, XP or point a character has is a ``LedgerEntry`` row of one currency:

- ``award``: positive; the starting budget (written by ``character_create``) and every
  GM award (``award_create``).
- ``spend``: what an approved change cost, negative (a refund, when a change makes the
  build cheaper, is a positive spend). The first spend rows are the initial build's,
  written when the character is submitted (``ledger_open``, called by
  ``character_submit``); every approved advancement adds one row per currency whose
  price changed, linked to the advancement and the version it made.
- ``reversal``: the opposite amount of a row it undoes; a reversal linked to an
  advancement undoes that advancement's spends (``advancement_revert``). Rows are never
  updated or deleted.

From these rows alone (``selectors.advancement.ledger_totals``): **awarded** = awards
(+ reversals of awards); **spent** = −(spends + reversals of spends); **unspent** = the
sum of every row = awarded − spent. Nothing else stores a balance.

Only the ruleset's *awardable* currencies are in the ledger (``Ruleset.awardable_currencies``):
a currency a ruleset derives from something else (force points from a power level table,
say) is priced but never awarded or booked.

The build's ``budget`` mirrors the ledger: whenever a build is validated for a request or
applied, and whenever an award is booked, ``build["budget"]`` is set to the awarded
total. The rules service then reports ``remaining = budget − spent = awarded − spent``;
since the spend rows of an active character always add up to its approved build's
``report.spent`` (the initial build's price, then each approved change's delta), the
invariant is **ledger unspent == report remaining** for every awardable currency of every
active character. XP that a level "uses" rather than spends is reported by the rules as
``spent`` too, so a level-up is booked as a spend of the XP the new level uses, and the
same invariant holds.

Requests and review
===================

- ``advancement_request``: the owner proposes a whole new build for an active character.
  It is priced against the approved build (``previous=``, so ``check_advancement`` runs)
  with the budget from the ledger, in the approval phase. An invalid build is refused
  (422 with the errors). One pending request per character: a new request **supersedes**
  (withdraws) the pending one, so the GM never reviews two competing plans.
- ``advancement_approve``: in ONE transaction, under a row lock on the character (and on
  the advancement): refuse what is not pending (409), what is stale (409: the approved
  build changed since the request was priced — another approval, a revert, a loadout
  change; play-state versions alone do not make it stale, and neither do awards), then
  re-validate against the ledger (budget exceeded → 409, other rule errors → 422; nothing
  changes), then write the build, its report, a new version ("advancement #N"), the spend
  rows and the review. Two approvals racing for the same points serialise on the row
  lock; the second finds the request approved (or stale) and gets 409.
- Plans (characters/plans/): a request whose build is the character's approved plan's next
  step, at the plan's price and verdict under today's rules, is approved when requested, by the
  same ``_apply`` under the same lock (``plan`` set, ``plan_check`` "followed", its ledger rows
  naming the plan's step); the same build at another price or verdict is ``plan_check``
  "differs" and waits for the GM; every approval moves the plan on, or marks it off course
  when the build departs from it.
- ``advancement_reject``: a comment is required; nothing is applied, nothing booked.
- ``advancement_revert``: a new version restoring the build before the advancement and a
  reversal row for each of its spends; only the latest change of the build can be
  reverted (409 with the reason otherwise).

Errors (config/errors.py): the selectors' ``*NotFound`` (404) for what the user may not
see, ``NotPermitted`` (403) for what they may not do, ``Conflict`` (409) for races and stale
requests, ``RuleRefused`` (422) for rule refusals, ``BadInput`` (400) for bad values.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from characters.advancement.selectors import advancement_for_user, ledger_totals
from characters.builder import approval
from characters.campaigns.selectors import campaign_for_user
from characters.comments import MAX_COMMENT, check_comment
from characters.diff import build_diff
from characters.ledger import ledger_award, ledger_open, ledger_reverse, ledger_spend
from characters.models import Advancement, Campaign, Character, CharacterVersion, LedgerEntry, Plan
from characters.party.live import party_changed
from characters.plans.following import FOLLOWED, plan_applied, plan_check, plan_reverted, step_label
from characters.pricing import build_labels, priced_rows
from characters.rules import campaign_ruleset, character_validate, stored_build
from characters.selectors import character_for_user, is_campaign_gm
from characters.sheet.live import sheet_changed
from characters.sheet.selectors import character_context, character_play_state, character_report
from characters.versions import character_version_write
from config.bounds import require_bounded
from config.errors import BadInput, Conflict, NotPermitted, RuleRefused
from rulesets.engine import Report, registry
from rulesets.engine import effects as fx
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.fields import is_int, whole_number

#: The largest single award: a typo guard, not a rule.
MAX_AWARD = 1_000_000


class AdvancementConflict(Conflict):
    """A 409 that carries the rules' errors (a budget that is no longer there)."""


# ------------------------------------------------------------------ helpers


def quick_awards(slug: str) -> list[dict[str, Any]]:
    """The one-click award choices of a ruleset (``Ruleset.quick_awards``): {id, label, currency,
    amount, who, scope?, help?}; ``who`` is "all" (the whole party earns it) or "each" (the
    players who earned it)."""
    ruleset = registry.get(slug)
    return ruleset.quick_awards() if ruleset is not None else []


def _lock(character_id: int) -> Character:
    return (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character_id)
    )


def _require_gm(user, campaign: Campaign, action: str) -> None:
    if not is_campaign_gm(user, campaign):
        raise NotPermitted(f"Only the campaign's GM may {action}.")


def _core(build: Any) -> Any:
    """A build without what the server owns (format, budget): what a player chose."""
    if not isinstance(build, dict):
        return build
    return {k: v for k, v in build.items() if k not in ("format", "budget")}


def _name_of(build: Any, default: str) -> str:
    name = build.get("name") if isinstance(build, dict) else None
    return name.strip()[:120] if isinstance(name, str) and name.strip() else default


def _spent_now(character: Character, totals: dict[str, dict[str, int]]) -> dict[str, int]:
    """What the approved build has spent: the ledger's for awardable currencies, the report's otherwise."""
    report = character.report if isinstance(character.report, dict) else {}
    spent = dict(report.get("spent") or {})
    for currency, line in totals.items():
        spent[currency] = line["spent"]
    return spent


def _price(character: Character, build: Any, totals) -> tuple[Any, Report, dict[str, int], list[dict]]:
    """(stored build, approval report against the approved build, cost per currency, priced diff)."""
    campaign = character.campaign
    ruleset = campaign_ruleset(campaign)
    awarded = {c: line["awarded"] for c, line in totals.items()}
    doc = stored_build(build, ruleset_slug=ruleset.slug, budget=awarded)
    previous = character.build if isinstance(character.build, dict) else None
    report = character_validate(campaign=campaign, build=doc, phase="approval", previous=previous)
    before = _spent_now(character, totals)
    cost = {c: report.spent.get(c, 0) - before.get(c, 0) for c in ruleset.currencies}
    diff = build_diff(_core(character.build), _core(doc), labels=build_labels(campaign))
    rows = priced_rows(campaign, previous if previous is not None else {}, doc, diff, report)
    return doc, report, cost, rows


def _is_stale(character: Character, base_version: int) -> bool:
    """Whether the approved build changed since ``base_version`` (budget aside: awards don't count).

    ``base_version`` may have been a play version that a later change of the same session of play
    took in (characters/versions.py): the build is then the one of the latest version
    before it, as play changes do not change the build."""
    base = (
        CharacterVersion.objects.filter(character=character, number__lte=base_version)
        .order_by("-number")
        .values_list("build", flat=True)
        .first()
    )
    if base is None:
        return character.version != base_version
    return _core(base) != _core(character.build)


def _refresh_budget(character: Character, totals) -> None:
    """Mirror the ledger's awarded totals into the build's budget and refresh its report (no new version)."""
    if not isinstance(character.build, dict):
        return
    awarded = {c: line["awarded"] for c, line in totals.items()}
    character.build = stored_build(character.build, ruleset_slug=character.ruleset, budget=awarded)
    character.report = character_validate(campaign=character.campaign, build=character.build).as_dict()
    character.save(update_fields=["build", "report", "updated"])


def _require_pending(advancement: Advancement) -> None:
    if advancement.status != Advancement.Status.PENDING:
        raise Conflict(
            f"Request #{advancement.id} is already {advancement.get_status_display().lower()}: "
            "only a pending request can be reviewed."
        )


# ------------------------------------------------------------------ awards


def _check_award(ruleset, currency: Any, amount: Any, reason: Any) -> str:
    if currency not in ruleset.awardable_currencies:
        choices = ", ".join(ruleset.awardable_currencies) or "none"
        raise BadInput(f"{ruleset.name} awards {choices}; not {currency!r}.", field="currency")
    if not is_int(amount) or not 0 < amount <= MAX_AWARD:
        raise BadInput(f"The amount must be a whole number from 1 to {MAX_AWARD}.", field="amount")
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > 200:
        raise BadInput("The reason must be text of at most 200 characters.", field="reason")
    return reason.strip() or "GM award"


@transaction.atomic
def award_create(
    *,
    gm,
    currency: str,
    amount: int,
    reason: str = "",
    character_id: Any = None,
    campaign: Campaign | None = None,
    character_ids: list | None = None,
) -> list[LedgerEntry]:
    """Award ``amount`` of ``currency`` (GM only): to one character, to chosen ones, or to the party.

    ``character_id``: one character (draft or active; 404 when the GM may not see it).
    ``campaign``: the whole party, one row per active character. ``character_ids`` (with
    ``campaign``): those characters of the campaign. All in one transaction, each character
    row locked (in id order: no deadlock between two party awards); each build's budget
    follows the ledger. Returns the rows written.
    """
    if character_id is not None:
        character = character_for_user(user=gm, character_id=character_id)
        campaign = character.campaign
        _require_gm(gm, campaign, "award points")
        ids = [character.id]
    elif campaign is not None:
        campaign = campaign_for_user(gm, campaign.id)
        _require_gm(gm, campaign, "award points")
        qs = Character.objects.filter(campaign=campaign)
        if character_ids is not None:
            wanted = {n for n in (whole_number(str(i)) for i in character_ids) if n is not None and n > 0}
            qs = qs.filter(pk__in=wanted).exclude(status=Character.Status.RETIRED)
        else:
            qs = qs.filter(status=Character.Status.ACTIVE)
        ids = list(qs.order_by("id").values_list("id", flat=True))
        if not ids:
            raise BadInput("No character to award: the party has no active character.", field="character")
    else:
        raise BadInput("Say who gets the award: a character or a campaign.", field="character")
    ruleset = campaign_ruleset(campaign)
    reason = _check_award(ruleset, currency, amount, reason)
    rows = []
    for character in (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .filter(pk__in=ids)
        .order_by("id")
    ):
        if character.status == Character.Status.RETIRED:
            raise BadInput(f"{character.name} is retired: no more awards.", field="character")
        ledger_open(character=character, author=gm)
        rows.append(
            ledger_award(character=character, currency=currency, amount=amount, reason=reason, author=gm)
        )
        _refresh_budget(character, ledger_totals(character=character))
        # The open sheets redraw their Costs (the budget, not the version, changed: its stamp did)
        # and the GM's party page shows the unspent points.
        sheet_changed(character, build=True)
    return rows


# ------------------------------------------------------------------ requests


@transaction.atomic
def advancement_request(*, character_id, user, build: Any, note: str = "") -> Advancement:
    """The owner proposes ``build`` for an active character: priced, checked, pending for the GM.

    Refused: not the owner (403), not active / invalid / no change (422). A pending request
    of the same character is withdrawn (superseded) by this one.
    """
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    if character.owner_id != user.pk:
        raise NotPermitted("Only the character's owner may request an advancement.")
    if character.status == Character.Status.PENDING:
        raise RuleRefused(
            f"{character.name} is waiting for the GM's approval: it advances once it is approved.",
            errors=[
                {"code": "character.not_active", "path": "", "message": "Waiting for the GM's approval."}
            ],
        )
    if character.status != Character.Status.ACTIVE:
        raise RuleRefused(
            "Only an active character advances; finish and submit the draft first.",
            errors=[{"code": "character.not_active", "path": "", "message": "Not an active character."}],
        )
    if not isinstance(build, dict):
        raise BadInput("A build document must be a JSON object.", field="build")
    require_bounded(build, what="The build")
    if not isinstance(note, str) or len(note) > MAX_COMMENT:
        raise BadInput(f"The note must be text of at most {MAX_COMMENT} characters.", field="note")
    ledger_open(character=character, author=character.owner)
    totals = ledger_totals(character=character)
    doc, report, cost, rows = _price(character, build, totals)
    if not report.valid:
        raise RuleRefused(
            "This build cannot be requested: " + "; ".join(i.message for i in report.errors[:3]),
            errors=[i.as_dict() for i in report.errors],
        )
    if not rows:
        raise RuleRefused(
            "This build is the approved one: change something first.",
            errors=[{"code": "advancement.no_change", "path": "", "message": "Nothing changed."}],
        )
    advancement = Advancement.objects.create(
        character=character,
        requested_by=user,
        base_version=character.version,
        build=doc,
        note=note.strip(),
        status=Advancement.Status.PENDING,
        diff=rows,
        cost=cost,
        report=report.as_dict(),
    )
    Advancement.objects.filter(
        character=character, status=Advancement.Status.PENDING, kind=Advancement.Kind.ADVANCEMENT
    ).exclude(pk=advancement.pk).update(
        status=Advancement.Status.WITHDRAWN,
        review_comment=f"Superseded by request #{advancement.pk}.",
        reviewed=timezone.now(),
    )
    check = plan_check(character=character, build=doc, report=advancement.report, cost=cost)
    if check.plan is not None:
        advancement.plan, advancement.plan_check = check.plan, check.outcome
        advancement.save(update_fields=["plan", "plan_check"])
    if check.outcome == FOLLOWED and check.plan is not None:
        # The approved plan's next step at the plan's price: approved now, by the same service.
        _apply(
            character=character,
            advancement=advancement,
            reviewer=check.plan.reviewed_by,
            comment=f"Follows the approved plan “{check.plan.name}”.",
            plan=check.plan,
        )
    elif check.reason:
        advancement.note = (advancement.note + "\n" if advancement.note else "") + (
            f"The plan's next step, but {check.reason}: the GM reviews it."
        )
        advancement.save(update_fields=["note"])
    party_changed(character)  # the GM's party page shows what waits for review
    return advancement


@transaction.atomic
def advancement_withdraw(*, advancement_id, user) -> Advancement:
    """The owner withdraws their pending request (409 when it is no longer pending)."""
    advancement = advancement_for_user(user=user, advancement_id=advancement_id)
    if advancement.kind == Advancement.Kind.CREATION:
        return _creation_review(advancement, "withdraw", gm=user, comment="")
    if advancement.character.owner_id != user.pk:
        raise NotPermitted("Only the character's owner may withdraw this request.")
    _lock(advancement.character_id)
    advancement = Advancement.objects.select_for_update().get(pk=advancement.pk)
    _require_pending(advancement)
    advancement.status = Advancement.Status.WITHDRAWN
    advancement.reviewed = timezone.now()
    advancement.save(update_fields=["status", "reviewed"])
    party_changed(advancement.character)
    return advancement


# ------------------------------------------------------------------ review


def _creation_review(advancement: Advancement, action: str, *, gm, comment: Any) -> Advancement:
    """A new character's review goes to the approval services (the character changes status)."""
    if advancement.status != Advancement.Status.PENDING:
        _require_pending(advancement)
    if action == "approve":
        approval.character_approve(character_id=advancement.character_id, gm=gm, comment=comment)
    elif action == "reject":
        approval.character_reject(character_id=advancement.character_id, gm=gm, comment=comment)
    else:
        approval.character_withdraw_submission(character_id=advancement.character_id, user=gm)
    return Advancement.objects.select_related(
        "character", "character__campaign", "requested_by", "reviewed_by"
    ).get(pk=advancement.pk)


@transaction.atomic
def advancement_approve(
    *, advancement_id, gm, comment: str = "", roller: Roller | None = None
) -> Advancement:
    """Apply a pending request, all or nothing, under the character's row lock (see the module doc).
    ``roller``: the dice of activities between adventures (``activities_approve``)."""
    advancement = advancement_for_user(user=gm, advancement_id=advancement_id)
    if advancement.kind == Advancement.Kind.CREATION:
        return _creation_review(advancement, "approve", gm=gm, comment=comment)
    if advancement.kind == Advancement.Kind.ACTIVITIES:
        return _activities_approve(advancement, gm=gm, comment=comment, roller=roller or Roller())
    _require_gm(gm, advancement.character.campaign, "approve a request")
    comment = check_comment(comment, required=False)
    character = _lock(advancement.character_id)
    advancement = Advancement.objects.select_for_update().get(pk=advancement.pk)
    return _apply(character=character, advancement=advancement, reviewer=gm, comment=comment)


def _apply(
    *, character: Character, advancement: Advancement, reviewer, comment: str, plan: Plan | None = None
) -> Advancement:
    """The approval itself, under the character's row lock (and the advancement's): refuse what is
    not pending or stale, re-validate and re-price against the ledger, then write the build, the
    version, the spend rows and the review. ``plan``: approved because it is that approved plan's
    next step (``reviewer`` is the GM who approved the plan); its ledger rows say so."""
    _require_pending(advancement)
    if character.status != Character.Status.ACTIVE:
        raise Conflict(f"{character.name} is no longer active: this request cannot be applied.")
    if _is_stale(character, advancement.base_version):
        raise Conflict(
            f"Request #{advancement.id} was made stale by another approved change (it was priced on version "
            f"{advancement.base_version}; the build has changed since): ask the player to re-submit."
        )
    ledger_open(character=character, author=reviewer)
    totals = ledger_totals(character=character)
    doc, report, cost, _rows = _price(character, advancement.build, totals)
    if not report.valid:
        errors = [i.as_dict() for i in report.errors]
        if all(e["code"] == "budget.exceeded" for e in errors):
            raise AdvancementConflict(
                "The points this request needs are no longer unspent: "
                + "; ".join(e["message"] for e in errors),
                errors=errors,
            )
        raise RuleRefused(
            "The rules refuse this build now: " + "; ".join(e["message"] for e in errors[:3]), errors=errors
        )
    reason = f"advancement #{advancement.id}"
    if plan is not None:
        reason = f"{reason}, {step_label(plan)}"[:200]
    character.build = doc
    character.report = character_validate(campaign=character.campaign, build=doc).as_dict()
    character.name = _name_of(doc, character.name)
    character_version_write(
        character=character,
        author=reviewer,
        reason=reason,
        fields=["build", "report", "name"],
    )
    ledger_spend(
        character=character,
        cost=cost,
        currencies=campaign_ruleset(character.campaign).awardable_currencies,
        reason=reason,
        author=reviewer,
        advancement=advancement,
    )
    plan_applied(character=character, advancement=advancement)
    advancement.status = Advancement.Status.APPROVED
    advancement.reviewed_by = reviewer
    advancement.review_comment = comment
    advancement.reviewed = timezone.now()
    advancement.applied_version = character.version
    advancement.cost = cost
    advancement.report = report.as_dict()
    advancement.save(
        update_fields=[
            "status",
            "reviewed_by",
            "review_comment",
            "reviewed",
            "applied_version",
            "cost",
            "report",
        ]
    )
    return advancement


@transaction.atomic
def advancement_reject(*, advancement_id, gm, comment: str) -> Advancement:
    """Refuse a pending request with a comment for the player: nothing applied, nothing booked."""
    advancement = advancement_for_user(user=gm, advancement_id=advancement_id)
    if advancement.kind == Advancement.Kind.CREATION:
        return _creation_review(advancement, "reject", gm=gm, comment=comment)
    _require_gm(gm, advancement.character.campaign, "reject a request")
    comment = check_comment(comment, required=True)
    _lock(advancement.character_id)
    advancement = Advancement.objects.select_for_update().get(pk=advancement.pk)
    _require_pending(advancement)
    advancement.status = Advancement.Status.REJECTED
    advancement.reviewed_by = gm
    advancement.review_comment = comment
    advancement.reviewed = timezone.now()
    advancement.save(update_fields=["status", "reviewed_by", "review_comment", "reviewed"])
    party_changed(advancement.character)
    return advancement


@transaction.atomic
def advancement_revert(*, advancement_id, gm, reason: str) -> Advancement:
    """Undo an approved advancement: a new version with the build before it, and reversal rows.

    Nothing is deleted. Only the latest change of the build can be undone: when the build
    changed after this approval (another advancement, a loadout change) it is a 409 naming
    that change.
    """
    advancement = advancement_for_user(user=gm, advancement_id=advancement_id)
    _require_gm(gm, advancement.character.campaign, "revert an advancement")
    reason = check_comment(reason, required=True)[:150]
    character = _lock(advancement.character_id)
    advancement = Advancement.objects.select_for_update().get(pk=advancement.pk)
    if advancement.kind == Advancement.Kind.CREATION:
        raise Conflict("A new character's approval cannot be reverted: it changes through advancement now.")
    if advancement.kind == Advancement.Kind.ACTIVITIES:
        raise Conflict(
            "Activities between adventures cannot be reverted: change the pools on the sheet and award or "
            "take back points by hand."
        )
    if advancement.status != Advancement.Status.APPROVED or advancement.applied_version is None:
        raise Conflict(
            f"Request #{advancement.id} is {advancement.get_status_display().lower()}: only an approved one can be reverted."
        )
    versions = {
        v.number: v
        for v in CharacterVersion.objects.filter(
            character=character, number__in=[advancement.applied_version - 1, advancement.applied_version]
        )
    }
    applied, before = versions.get(advancement.applied_version), versions.get(advancement.applied_version - 1)
    if applied is None or before is None:
        raise Conflict(f"The versions around request #{advancement.id} are missing: it cannot be reverted.")
    if _core(applied.build) != _core(character.build):
        later = (
            CharacterVersion.objects.filter(character=character, number__gt=advancement.applied_version)
            .exclude(build=applied.build)
            .order_by("number")
            .first()
        )
        what = f"version {later.number} ({later.reason})" if later else "a later version"
        raise Conflict(
            f"The build changed after request #{advancement.id} was applied ({what}): revert that change first."
        )
    totals = ledger_totals(character=character)
    awarded = {c: line["awarded"] for c, line in totals.items()}
    character.build = stored_build(before.build, ruleset_slug=character.ruleset, budget=awarded)
    character.report = character_validate(campaign=character.campaign, build=character.build).as_dict()
    character.name = _name_of(character.build, character.name)
    character_version_write(
        character=character,
        author=gm,
        reason=f"revert of advancement #{advancement.id}: {reason}",
        fields=["build", "report", "name"],
    )
    ledger_reverse(
        character=character,
        advancement=advancement,
        reason=f"revert of advancement #{advancement.id}: {reason}",
        author=gm,
    )
    plan_reverted(character=character, advancement=advancement)
    advancement.status = Advancement.Status.REVERTED
    advancement.review_comment = (
        advancement.review_comment + "\n" if advancement.review_comment else ""
    ) + f"Reverted: {reason}"
    advancement.save(update_fields=["status", "review_comment"])
    return advancement


def advancement_preview(*, character: Character, build: Any) -> dict[str, Any]:
    """Price ``build`` against ``character``'s approved build without saving: the advance page's live view.

    Returns {"build", "report" (Report), "cost", "diff" (priced rows), "balance" {currency: unspent now}}.
    """
    totals = ledger_totals(character=character)
    if not LedgerEntry.objects.filter(character=character).exclude(kind=LedgerEntry.Kind.AWARD).exists():
        # Not booked yet (see ledger.ledger_open): price against the report as the ledger will.
        stored = character.report if isinstance(character.report, dict) else {}
        for currency, line in totals.items():
            line["spent"] = (stored.get("spent") or {}).get(currency, 0)
            line["unspent"] = line["awarded"] - line["spent"]
    doc, report, cost, rows = _price(character, build, totals)
    return {
        "build": doc,
        "report": report,
        "cost": cost,
        "diff": rows,
        "balance": {c: line["unspent"] for c, line in totals.items()},
    }


# ------------------------------------------------------------------ between adventures


def _activity_refusal(issues: list) -> RuleRefused:
    return RuleRefused(
        "These activities cannot be requested: " + "; ".join(i.message for i in issues[:3]),
        errors=[i.as_dict() for i in issues],
    )


@transaction.atomic
def activities_request(*, character_id, user, activities: Any, note: str = "") -> Advancement:
    """The owner picks what an active character does between adventures (the ruleset's activities,
    ``Ruleset.check_activities``): a pending request for the GM, who approves it (``advancement_approve``:
    the play state and the awards, booked as ledger rows) or rejects it. Refused: not the owner (403),
    not active, no activities in this game, unknown ones or too many (422). A pending activities
    request of the same character is withdrawn (superseded); a pending advancement is not touched."""
    character = character_for_user(user=user, character_id=character_id, for_update=True)
    if character.owner_id != user.pk:
        raise NotPermitted("Only the character's owner picks what they do between adventures.")
    if character.status != Character.Status.ACTIVE:
        raise RuleRefused(
            "Only an active character spends time between adventures.",
            errors=[{"code": "character.not_active", "path": "", "message": "Not an active character."}],
        )
    if not isinstance(note, str) or len(note) > MAX_COMMENT:
        raise BadInput(f"The note must be text of at most {MAX_COMMENT} characters.", field="note")
    ruleset = campaign_ruleset(character.campaign)
    report = character_report(character=character, ruleset=ruleset)
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    issues = ruleset.check_activities(activities, character.build, report, ctx=ctx)
    if issues:
        raise _activity_refusal(issues)
    catalogue = {a["id"]: a for a in ruleset.activities(ctx)}
    picked = [
        {
            "id": pick,
            "name": str(catalogue[pick].get("name", pick)),
            "text": str(catalogue[pick].get("text", "")),
        }
        for pick in activities
    ]
    advancement = Advancement.objects.create(
        character=character,
        requested_by=user,
        kind=Advancement.Kind.ACTIVITIES,
        base_version=character.version,
        build=character.build,
        note=note.strip(),
        status=Advancement.Status.PENDING,
        activities=picked,
        report=report.as_dict(),
    )
    Advancement.objects.filter(
        character=character, status=Advancement.Status.PENDING, kind=Advancement.Kind.ACTIVITIES
    ).exclude(pk=advancement.pk).update(
        status=Advancement.Status.WITHDRAWN,
        review_comment=f"Superseded by request #{advancement.pk}.",
        reviewed=timezone.now(),
    )
    party_changed(character)
    return advancement


def _activities_approve(advancement: Advancement, *, gm, comment: Any, roller: Roller) -> Advancement:
    """Apply pending activities under the character's row lock: the ruleset's ``apply_activities`` on the
    play state (effects kept), one new version, one ledger award row per currency (linked to the
    request), the build's budget following the ledger. A refusal of the rules now (a pool locked, an
    activity gone from the catalogue) is a 422 and changes nothing."""
    _require_gm(gm, advancement.character.campaign, "approve a request")
    comment = check_comment(comment, required=False)
    character = _lock(advancement.character_id)
    advancement = Advancement.objects.select_for_update().get(pk=advancement.pk)
    _require_pending(advancement)
    if character.status != Character.Status.ACTIVE:
        raise Conflict(f"{character.name} is no longer active: this request cannot be applied.")
    ruleset = campaign_ruleset(character.campaign)
    report = character_report(character=character, ruleset=ruleset)
    ctx = report.context or character_context(character=character, ruleset=ruleset)
    picks = [a.get("id") for a in advancement.activities if isinstance(a, dict)]
    issues = ruleset.check_activities(picks, character.build, report, ctx=ctx)
    if issues:
        raise _activity_refusal(issues)
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    entries = state.get(fx.STATE_KEY)
    bare = {k: v for k, v in state.items() if k != fx.STATE_KEY}
    try:
        done = ruleset.apply_activities(bare, character.build, report, picks, roller, ctx=ctx)
    except StateError as exc:
        raise RuleRefused(
            exc.message, errors=[{"code": exc.code, "path": exc.path, "message": exc.message}]
        ) from None
    new_state = dict(done.state)
    if entries is not None:
        new_state[fx.STATE_KEY] = entries
    reason = f"between adventures #{advancement.id}"
    character.state = new_state
    character_version_write(character=character, author=gm, reason=reason, fields=["state"])
    names = ", ".join(a.get("name", "") for a in advancement.activities if isinstance(a, dict))
    awardable = ruleset.awardable_currencies
    booked = False
    for currency, amount in done.awards.items():
        if currency in awardable and is_int(amount) and amount > 0:
            ledger_award(
                character=character,
                currency=currency,
                amount=amount,
                reason=f"{reason}: {names}"[:200],
                author=gm,
                advancement=advancement,
            )
            booked = True
    if booked:
        _refresh_budget(character, ledger_totals(character=character))
        # The open sheets redraw their Costs (the budget changed after the version's own notice).
        sheet_changed(character, build=True)
    advancement.status = Advancement.Status.APPROVED
    advancement.reviewed_by = gm
    advancement.review_comment = comment
    advancement.reviewed = timezone.now()
    advancement.applied_version = character.version
    advancement.outcome = list(done.messages)
    advancement.save(
        update_fields=[
            "status",
            "reviewed_by",
            "review_comment",
            "reviewed",
            "applied_version",
            "outcome",
            "cost",
        ]
    )
    party_changed(character)
    return advancement
