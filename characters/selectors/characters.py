"""Reads about characters, through the access rule every page and endpoint shares.

The rule: the owner sees and edits their character (while still a member of its
campaign); the campaign's GM sees every character of the campaign and may edit
its play state but not its build; anyone else gets ``Http404`` — a character one
may not see does not exist, so ids leak nothing.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from characters.models import Campaign, Character, CharacterVersion, LedgerEntry, Membership

_MAX_ID = 2**63 - 1


class CharacterNotFound(Http404, Character.DoesNotExist):
    """The character does not exist or the user may not see it (pages and API answer 404 alike)."""


def _visible_filter(user) -> Q:
    """Characters ``user`` may see: own ones in campaigns they belong to, or any in campaigns they run."""
    member = Membership.objects.filter(campaign_id=OuterRef("campaign_id"), user=user)
    gm_member = member.filter(role=Membership.Role.GM)
    return (Q(owner=user) & Exists(member)) | Q(campaign__gm=user) | Exists(gm_member)


def characters_for_user(*, user, campaign_id=None) -> QuerySet[Character]:
    """Every character ``user`` may see, optionally in one campaign, ordered by name."""
    if not getattr(user, "is_authenticated", False):
        return Character.objects.none()
    qs = Character.objects.filter(_visible_filter(user)).select_related("campaign", "owner")
    if campaign_id is not None:
        try:
            cid = int(campaign_id)
        except (TypeError, ValueError):
            return Character.objects.none()
        if not 0 < cid <= _MAX_ID:
            return Character.objects.none()
        qs = qs.filter(campaign_id=cid)
    return qs.order_by("name", "id")


def character_for_user(*, user, character_id, for_update: bool = False) -> Character:
    """The character ``character_id`` if ``user`` may see it, else ``CharacterNotFound`` (a 404).

    With ``for_update`` the character row is locked (call inside a transaction).
    The campaign and owner come with it (one query).
    """
    if not getattr(user, "is_authenticated", False):
        raise CharacterNotFound("No such character.")
    try:
        pk = int(character_id)
    except (TypeError, ValueError):
        raise CharacterNotFound("No such character.") from None
    if not 0 < pk <= _MAX_ID:
        raise CharacterNotFound("No such character.")
    qs = Character.objects.filter(_visible_filter(user), pk=pk).select_related("campaign", "owner")
    if for_update:
        qs = qs.select_for_update(of=("self",))
    character = qs.first()
    if character is None:
        raise CharacterNotFound("No such character.")
    return character


def is_campaign_gm(user, campaign: Campaign) -> bool:
    """Whether ``user`` runs ``campaign`` (its ``gm`` field; a GM membership counts too)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if campaign.gm_id == user.pk:
        return True
    return Membership.objects.filter(campaign=campaign, user=user, role=Membership.Role.GM).exists()


def can_edit_build(user, character: Character) -> bool:
    """Only the owner edits the build (the GM changes it through advancement review, not here)."""
    return getattr(user, "is_authenticated", False) and character.owner_id == user.pk


def can_edit_state(user, character: Character) -> bool:
    """The owner and the campaign's GM may change play state (hit points, conditions…)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return character.owner_id == user.pk or character.campaign.gm_id == user.pk or is_campaign_gm(user, character.campaign)


def character_versions(*, character: Character) -> QuerySet[CharacterVersion]:
    """The character's versions, newest first, with their authors."""
    return CharacterVersion.objects.filter(character=character).select_related("author").order_by("-number")


def character_awarded(*, character: Character) -> dict[str, int]:
    """The total awarded per currency (awards and their reversals), from the ledger: one query."""
    from django.db.models import Sum

    rows = (
        LedgerEntry.objects.filter(character=character)
        .exclude(kind=LedgerEntry.Kind.SPEND)
        .values("currency")
        .annotate(total=Sum("amount"))
        .order_by("currency")
    )
    return {row["currency"]: row["total"] or 0 for row in rows}
