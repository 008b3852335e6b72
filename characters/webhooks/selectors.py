"""Webhooks' reads: a campaign's hooks and a hook's deliveries, for its GM."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from characters.models import Campaign, Webhook, WebhookDelivery

#: Deliveries listed for the GM, newest first.
DELIVERIES_SHOWN = 100


class WebhookNotFound(Http404):
    """No such hook in this campaign (404)."""


def campaign_webhooks(*, campaign: Campaign) -> QuerySet[Webhook]:
    return Webhook.objects.filter(campaign=campaign).order_by("id")


def webhook_of(*, campaign: Campaign, webhook_id: Any) -> Webhook:
    try:
        pk = int(webhook_id)
    except (TypeError, ValueError):
        raise WebhookNotFound("No such webhook.") from None
    hook = Webhook.objects.filter(campaign=campaign, pk=pk).first() if 0 < pk < 2**63 else None
    if hook is None:
        raise WebhookNotFound("No such webhook.")
    return hook


def webhook_deliveries(*, webhook: Webhook, limit: int = DELIVERIES_SHOWN) -> list[WebhookDelivery]:
    return list(webhook.deliveries.select_related("roll__user", "roll__character").order_by("-id")[:limit])
