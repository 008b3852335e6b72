"""Reads about campaigns, always through the user's membership: what is not theirs does not exist."""

from __future__ import annotations

import hashlib
import json
from typing import Any, overload

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import Http404

from characters.models import Campaign, Character, Membership
from rulesets.engine import registry
from rulesets.engine.context import Context
from rulesets.engine.ruleset import Ruleset

_MAX_ID = 2**63 - 1


class CampaignNotFound(Http404, Campaign.DoesNotExist):
    """The campaign does not exist or the user is not a member: pages and API answer 404 alike.

    It is both an ``Http404`` (views need not catch it) and a ``Campaign.DoesNotExist``
    (plain Python callers may catch that)."""


def campaign_memberships(*, user, campaign=None) -> QuerySet[Membership]:
    """``user``'s membership of a campaign (``campaign``: an id, a model or an expression; by default
    the ``campaign_id`` of the outer query): who sits at a table, the rule every read of a
    campaign's characters and encounters builds on, as ``Exists(campaign_memberships(user=u))``."""
    where = OuterRef("campaign_id") if campaign is None else campaign
    return Membership.objects.filter(campaign=where, user=user)


def campaigns_for_user(user) -> QuerySet[Campaign]:
    """The campaigns ``user`` belongs to (as GM or player), ordered by name."""
    if not getattr(user, "is_authenticated", False):
        return Campaign.objects.none()
    member = Exists(campaign_memberships(user=user, campaign=OuterRef("pk")))
    return Campaign.objects.filter(member).select_related("gm")


def campaign_for_user(user, id) -> Campaign:
    """The campaign ``id`` if ``user`` is a member, else ``CampaignNotFound`` (a 404)."""
    try:
        pk = int(id)
    except (TypeError, ValueError):
        raise CampaignNotFound("No such campaign.") from None
    if not 0 < pk <= _MAX_ID:
        raise CampaignNotFound("No such campaign.")
    campaign = campaigns_for_user(user).filter(pk=pk).first()
    if campaign is None:
        raise CampaignNotFound("No such campaign.")
    return campaign


def campaign_role(user, campaign: Campaign) -> str | None:
    """'gm', 'player' or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    if campaign.is_gm(user):
        return Membership.Role.GM
    role = Membership.objects.filter(campaign=campaign, user=user).values_list("role", flat=True).first()
    return role


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    """Members, the GM first, then players in the order they joined."""
    return (
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("role", "joined", "id")  # "gm" < "player": the GM first
    )


def campaign_characters(campaign: Campaign) -> QuerySet[Character]:
    return campaign.characters.select_related("owner").order_by("name", "id")


def home_campaigns(user) -> dict[str, list[Campaign]]:
    """The home page's two lists: campaigns I run and campaigns I play in."""
    campaigns = list(
        campaigns_for_user(user).prefetch_related(
            Prefetch("memberships", queryset=Membership.objects.only("id", "campaign_id"))
        )
    )
    return {
        "running": [c for c in campaigns if c.is_gm(user)],
        "playing": [c for c in campaigns if not c.is_gm(user)],
    }


def characters_owned_by(user) -> QuerySet[Character]:
    """My characters, in campaigns I still belong to."""
    if not getattr(user, "is_authenticated", False):
        return Character.objects.none()
    return (
        Character.objects.filter(owner=user, campaign__memberships__user=user)
        .select_related("campaign")
        .distinct()
        .order_by("name", "id")
    )


def campaign_member(campaign: Campaign, user_id) -> Membership | None:
    """The membership of ``user_id`` in ``campaign`` with its user (None when not a member)."""
    return Membership.objects.filter(campaign=campaign, user_id=user_id).select_related("user").first()


@overload
def campaign_context(*, campaign: Campaign, ruleset: Ruleset, phase: str = ...) -> Context: ...
@overload
def campaign_context(*, campaign: Campaign, ruleset: None = ..., phase: str = ...) -> Context | None: ...
def campaign_context(
    *, campaign: Campaign, ruleset: Ruleset | None = None, phase: str = "draft"
) -> Context | None:
    """The campaign's rules ``Context`` (house defaults with its house rules, the catalogue with its
    homebrew), which every ruleset hook of its characters and encounters gets. The ruleset caches
    it per house rules and homebrew, so this is cheap to ask again. None for an unknown ruleset."""
    ruleset = ruleset or registry.get(campaign.ruleset)
    if ruleset is None:
        return None
    return ruleset.context(campaign.house_rules or None, campaign.homebrew or None, phase=phase)


def campaign_rules_digest(campaign: Any) -> str:
    """A digest of everything of ``campaign`` the rules of its characters' sheets may read: its
    settings (house rules among them) and its homebrew. Part of the key of what a sheet keeps (its
    ``{% cache %}`` blocks, ``sheet_rules_kept``), so a change of either starts afresh. Worked out
    once per loaded campaign and value of each (homebrew may be a whole catalogue)."""
    if campaign is None:
        return ""
    rules = [getattr(campaign, "settings", None), getattr(campaign, "homebrew", None)]
    kept = campaign.__dict__.get("_rules_digest")
    if kept is not None and kept[0] is rules[0] and kept[1] is rules[1]:
        return kept[2]  # the same documents (one given a new value gets a new digest)
    digest = hashlib.blake2b(
        json.dumps(rules, sort_keys=True, default=str).encode(), digest_size=12
    ).hexdigest()
    campaign.__dict__["_rules_digest"] = (rules[0], rules[1], digest)
    return digest
