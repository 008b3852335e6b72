"""The GM's approval of new characters (campaign setting ``approve_new_characters``).

Where the campaign asks for it, ``character_submit`` does not activate a valid draft: it
becomes ``pending`` and a *creation review* (an ``Advancement`` of kind "creation", priced
against nothing: its cost is the whole build's) joins the GM's review queue, with the same
review page, report and costs as an advancement. Then:

- ``character_approve`` (GM): re-validates under the row lock and activates the character
  exactly as an unreviewed submit does (first play state, opening ledger rows, a version),
  all in one transaction.
- ``character_reject`` (GM, a comment required): back to draft, editable again; the
  comment is kept on the review for the player to read.
- ``character_withdraw_submission`` (owner): back to draft before the GM decides.

A pending character cannot be edited (``character.not_draft``), advanced
(``character.not_active``) or join an encounter (``combat.character_not_active``): 422.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from characters.comments import check_comment
from characters.diff import build_diff
from characters.lifecycle import character_activate
from characters.models import Advancement, Campaign, Character
from characters.pricing import build_labels, priced_rows
from characters.rules import campaign_ruleset, character_validate
from characters.selectors import character_for_user, is_campaign_gm
from characters.versions import character_version_write
from config.errors import Conflict, NotPermitted, RuleRefused
from rulesets.engine import Report


def campaign_approves_new_characters(campaign: Campaign) -> bool:
    """Whether the campaign's GM approves new characters (absent means no: today's behaviour)."""
    return (campaign.settings or {}).get("approve_new_characters") is True


def _core(build: Any) -> Any:
    return (
        {k: v for k, v in build.items() if k not in ("format", "budget")}
        if isinstance(build, dict)
        else build
    )


def creation_review_open(*, character: Character, user, report: Report) -> Advancement:
    """Make ``character`` (locked, a valid draft) pending and queue its review. Call under the lock."""
    campaign = character.campaign
    ruleset = campaign_ruleset(campaign)
    diff = build_diff({}, _core(character.build), labels=build_labels(campaign))
    # Each row priced at the margin from an empty build, so the rows add up to the header's cost.
    rows = priced_rows(campaign, {}, character.build, diff, report)
    cost = {c: report.spent.get(c, 0) for c in ruleset.currencies if report.spent.get(c, 0)}
    character.status = Character.Status.PENDING
    character_version_write(
        character=character, author=user, reason="submitted for the GM's approval", fields=["status"]
    )
    # A review of an earlier submission that is somehow still open is superseded by this one.
    Advancement.objects.filter(
        character=character, kind=Advancement.Kind.CREATION, status=Advancement.Status.PENDING
    ).update(status=Advancement.Status.WITHDRAWN, reviewed=timezone.now())
    return Advancement.objects.create(
        character=character,
        kind=Advancement.Kind.CREATION,
        requested_by=user,
        base_version=character.version,
        build=character.build,
        status=Advancement.Status.PENDING,
        diff=rows,
        cost=cost,
        report=report.as_dict(),
    )


def _locked_pending(*, character_id, user, gm_action: str | None) -> tuple[Character, Advancement | None]:
    character = character_for_user(user=user, character_id=character_id)  # 404 for outsiders
    if gm_action is not None and not is_campaign_gm(user, character.campaign):
        raise NotPermitted(f"Only the campaign's GM may {gm_action} a new character.")
    if gm_action is None and character.owner_id != user.pk:
        raise NotPermitted("Only the character's owner may withdraw its submission.")
    character = (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character.pk)
    )
    if character.status != Character.Status.PENDING:
        raise Conflict(
            f"{character.name} is {character.get_status_display().lower()}, not waiting for the GM: "
            "only a character submitted for approval can be approved or rejected."
        )
    review = (
        Advancement.objects.select_for_update()
        .filter(character=character, kind=Advancement.Kind.CREATION, status=Advancement.Status.PENDING)
        .order_by("-id")
        .first()
    )
    return character, review


def _close(
    review: Advancement | None, *, status: str, gm, comment: str, applied_version: int | None = None
) -> None:
    if review is None:
        return
    review.status = status
    review.reviewed_by = gm
    review.review_comment = comment
    review.reviewed = timezone.now()
    review.applied_version = applied_version
    review.save(update_fields=["status", "reviewed_by", "review_comment", "reviewed", "applied_version"])


@transaction.atomic
def character_approve(*, character_id, gm, comment: Any = "") -> Character:
    """The GM approves a pending character: active, exactly as an unreviewed submit (one transaction).

    404 outsider, 403 not the GM, 409 not pending, 422 when the rules refuse the build now
    (house rules changed since it was submitted; it stays pending).
    """
    comment = check_comment(comment, required=False)
    character, review = _locked_pending(character_id=character_id, user=gm, gm_action="approve")
    report = character_validate(campaign=character.campaign, build=character.build, phase="approval")
    if not report.valid:
        raise RuleRefused(
            "The rules refuse this build now: " + "; ".join(i.message for i in report.errors[:3]),
            errors=[i.as_dict() for i in report.errors],
        )
    character_activate(character=character, author=gm, reason="approved by the GM")
    _close(
        review, status=Advancement.Status.APPROVED, gm=gm, comment=comment, applied_version=character.version
    )
    return character


@transaction.atomic
def character_reject(*, character_id, gm, comment: Any) -> Character:
    """The GM returns a pending character to draft with a comment for the player (required)."""
    comment = check_comment(comment, required=True)
    character, review = _locked_pending(character_id=character_id, user=gm, gm_action="reject")
    _to_draft(character, author=gm, reason="returned to draft by the GM")
    _close(review, status=Advancement.Status.REJECTED, gm=gm, comment=comment)
    return character


@transaction.atomic
def character_withdraw_submission(*, character_id, user) -> Character:
    """The owner takes a pending character back to draft before the GM decides."""
    character, review = _locked_pending(character_id=character_id, user=user, gm_action=None)
    _to_draft(character, author=user, reason="submission withdrawn")
    _close(review, status=Advancement.Status.WITHDRAWN, gm=None, comment="")
    return character


def _to_draft(character: Character, *, author, reason: str) -> None:
    character.status = Character.Status.DRAFT
    character_version_write(character=character, author=author, reason=reason, fields=["status"])


def creation_review_latest(*, character: Character) -> Advancement | None:
    """The latest review of ``character``'s submission (the builder shows a rejection's comment)."""
    return (
        Advancement.objects.filter(character=character, kind=Advancement.Kind.CREATION)
        .select_related("reviewed_by")
        .order_by("-id")
        .first()
    )
