"""Reads about the ledger and advancement: balances, running balances, queues, badges, notices.

The access rule is the characters' one (``character_for_user``): an advancement or a
ledger is visible exactly when its character is; anything else is ``Http404``.
See ``characters.advancement.services`` for what the ledger rows mean.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import (
    BooleanField,
    ExpressionWrapper,
    Q,
    QuerySet,
    Sum,
    Value,
)
from django.http import Http404

from characters.compiled import CompiledQuery
from characters.models import Advancement, Campaign, Character, CharacterVersion, LedgerEntry
from characters.selectors import _visible_filter, is_campaign_gm, with_review_badge
from rulesets.engine import registry

_MAX_ID = 2**63 - 1


class AdvancementNotFound(Http404, Advancement.DoesNotExist):
    """No such advancement, or the user may not see its character (404 alike)."""


def _pk(raw) -> int | None:
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk <= _MAX_ID else None


# ------------------------------------------------------------------ the ledger


def awardable_currencies(slug: str) -> tuple[str, ...]:
    ruleset = registry.get(slug)
    return tuple(ruleset.awardable_currencies) if ruleset else ()


def ledger_totals(*, character: Character) -> dict[str, dict[str, int]]:
    """{currency: {"awarded", "spent", "unspent"}} from the ledger, in one query.

    ``awarded`` = awards (and reversals of awards); ``spent`` = spends net of their
    reversals (a reversal linked to an advancement reverses its spends); ``unspent`` =
    the sum of every row = awarded − spent. Every awardable currency of the ruleset is
    present (0 when it has no rows).
    """
    rows = (
        LedgerEntry.objects.filter(character=character)
        .values(
            "currency",
            "kind",
            has_adv=ExpressionWrapper(Q(advancement__isnull=False), output_field=BooleanField()),
        )
        .annotate(total=Sum("amount"))
        .order_by()
    )
    out: dict[str, dict[str, int]] = {
        c: {"awarded": 0, "spent": 0, "unspent": 0} for c in awardable_currencies(character.ruleset)
    }
    for row in rows:
        line = out.setdefault(row["currency"], {"awarded": 0, "spent": 0, "unspent": 0})
        total = row["total"] or 0
        is_spend = row["kind"] == LedgerEntry.Kind.SPEND or (
            row["kind"] == LedgerEntry.Kind.REVERSAL and row["has_adv"]
        )
        if is_spend:
            line["spent"] -= total
        else:
            line["awarded"] += total
        line["unspent"] += total
    return out


def ledger_awarded(*, character: Character) -> dict[str, int]:
    """The awarded total per awardable currency: the budget a build of ``character`` gets."""
    return {c: line["awarded"] for c, line in ledger_totals(character=character).items()}


def ledger_entries(*, character: Character) -> list[dict[str, Any]]:
    """Every row, oldest first, with the running unspent balance of its currency after it."""
    balances: dict[str, int] = {}
    out = []
    for entry in (
        LedgerEntry.objects.filter(character=character).select_related("author").order_by("created", "id")
    ):
        balances[entry.currency] = balances.get(entry.currency, 0) + entry.amount
        out.append(
            {
                "id": entry.id,
                "created": entry.created,
                "kind": entry.kind,
                "currency": entry.currency,
                "amount": entry.amount,
                "reason": entry.reason,
                "author": entry.author.get_username() if entry.author else None,
                "advancement": entry.advancement_id,
                "version": entry.version,
                "balance": balances[entry.currency],
            }
        )
    return out


# ------------------------------------------------------------------ advancements


def advancement_for_user(*, user, advancement_id) -> Advancement:
    """The advancement if ``user`` may see its character (owner or the campaign's GM), else 404."""
    pk = _pk(advancement_id)
    if pk is None or not getattr(user, "is_authenticated", False):
        raise AdvancementNotFound("No such advancement.")
    advancement = (
        Advancement.objects.filter(pk=pk, character__in=Character.objects.filter(_visible_filter(user)))
        .select_related("character", "character__campaign", "character__owner", "requested_by", "reviewed_by")
        .first()
    )
    if advancement is None:
        raise AdvancementNotFound("No such advancement.")
    return advancement


def _gm_campaigns(user) -> QuerySet[Campaign]:
    return Campaign.objects.filter(gm=user)  # who is GM: ``Campaign.gm`` (see ``Campaign.is_gm``)


def advancements_for_user(
    *, user, campaign: Campaign | None = None, status: str | None = None
) -> QuerySet[Advancement]:
    """Advancements ``user`` may see, newest first: all of the campaigns they run, their own elsewhere.

    ``campaign`` narrows to one campaign (the caller has checked membership: a player then
    sees only their own requests, never the GM's queue); ``status`` to one status.
    """
    if not getattr(user, "is_authenticated", False):
        return Advancement.objects.none()
    visible = Q(character__campaign__in=_gm_campaigns(user)) | Q(character__owner=user)
    qs = Advancement.objects.filter(visible, character__in=Character.objects.filter(_visible_filter(user)))
    if campaign is not None:
        qs = qs.filter(character__campaign=campaign)
    if status:
        qs = qs.filter(status=status)
    return qs.select_related(
        "character", "character__campaign", "character__owner", "requested_by", "reviewed_by"
    ).order_by("-created", "-id")


def review_queue(*, user, campaign: Campaign | None = None) -> QuerySet[Advancement]:
    """Pending requests of the campaigns ``user`` runs (one campaign, or all of them), oldest first."""
    if not getattr(user, "is_authenticated", False):
        return Advancement.objects.none()
    qs = Advancement.objects.filter(
        status=Advancement.Status.PENDING, character__campaign__in=_gm_campaigns(user)
    )
    if campaign is not None:
        qs = qs.filter(character__campaign=campaign)
    return qs.select_related("character", "character__campaign", "character__owner", "requested_by").order_by(
        "created", "id"
    )


def pending_review_count(*, user) -> int:
    """The navigation badge: pending requests in every campaign ``user`` runs (one COUNT query)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return Advancement.objects.filter(
        status=Advancement.Status.PENDING, character__campaign__in=_gm_campaigns(user)
    ).count()


def advancement_notices(*, character: Character, user, limit: int = 3) -> list[Advancement]:
    """The owner's latest outcomes (approved, rejected, reverted) and any pending request.

    What the notice prints only (not the proposed build, its report and its diff): every sheet
    view of its owner runs it. One query."""
    if not getattr(user, "is_authenticated", False) or character.owner_id != user.pk:
        return []
    query = _NOTICES.get(int(limit))
    if query is None:
        query = _NOTICES[int(limit)] = CompiledQuery(partial(_notices, int(limit)), "character")
    return query.fetch(character=character.pk)


def _notices(limit: int, character) -> QuerySet[Advancement]:
    return (
        Advancement.objects.filter(character=character)
        .exclude(status=Advancement.Status.WITHDRAWN)
        .only("id", "character", "status", "review_comment")
        .order_by("-id")[:limit]
    )


#: Compiled once per length (characters/compiled.py): every sheet view of its owner.
_NOTICES: dict[int, CompiledQuery] = {}


def is_gm_of(user, character: Character) -> bool:
    return is_campaign_gm(user, character.campaign)


def review_badge(*, user) -> dict[str, Any]:
    """{"review_gm": runs a campaign, "review_pending": pending requests there}: every page's
    navigation shows it. Read with the signed-in user itself when the session's backend loaded it
    so (``with_review_badge``: no query of its own), else one query, a row per campaign ``user``
    runs (compiled once, ``_BADGE``)."""
    loaded = getattr(user, "loaded_review_badge", None)
    if loaded is not None:
        return {"review_gm": bool(loaded[0]), "review_pending": int(loaded[1] or 0)}
    rows = _BADGE.fetch(user=user.pk)
    gm, pending = rows[0] if rows else (False, 0)
    return {"review_gm": bool(gm), "review_pending": int(pending or 0)}


def _badge_row(user) -> QuerySet:
    # Value(): the id as a statement parameter (characters/compiled.py's placeholder is an int
    # outside the column's range, which a plain lookup would fold into "no rows").
    users = get_user_model()._default_manager.filter(pk=Value(user))
    return with_review_badge(users).values_list("review_gm_read", "review_pending_read")


_BADGE = CompiledQuery(_badge_row, "user")


def advancement_pending(*, character: Character) -> Advancement | None:
    """The character's pending request of a new build (a new request supersedes the old, so at most
    one; activities between adventures wait beside it, their own kind)."""
    return (
        Advancement.objects.filter(
            character=character, status=Advancement.Status.PENDING, kind=Advancement.Kind.ADVANCEMENT
        )
        .order_by("-id")
        .first()
    )


def awards_page_data(*, campaign: Campaign) -> dict[str, Any]:
    """The characters an award can go to (not retired, with owners) and the latest 30 awards."""
    return {
        "characters": list(
            Character.objects.filter(campaign=campaign)
            .exclude(status=Character.Status.RETIRED)
            .select_related("owner")
            .order_by("name", "id")
        ),
        "recent": LedgerEntry.objects.filter(character__campaign=campaign, kind=LedgerEntry.Kind.AWARD)
        .select_related("character", "author")
        .order_by("-created", "-id")[:30],
    }


def shown_version_of(*, character_id: int, token: int | None) -> int | None:
    """The version number people read (History, the sheet's header) for the concurrency token
    ``token`` (an advancement's ``base_version`` / ``applied_version``): the number of the listed
    version the character was at then (the latest listed row at or before it)."""
    if token is None:
        return None
    shown = (
        CharacterVersion.objects.filter(
            character_id=character_id, number__lte=token, shown_number__isnull=False
        )
        .order_by("-number")
        .values_list("shown_number", flat=True)
        .first()
    )
    return shown if shown is not None else token
