"""The webhooks block of the campaign page and a hook's deliveries, in words."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.urls import reverse
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # real, but not in django-stubs

from characters.models import Campaign, Webhook, WebhookDelivery
from characters.table.feed import roll_line
from characters.webhooks.selectors import campaign_webhooks

FORMAT_WORDS: dict[str, str] = {
    Webhook.Format.DISCORD.value: "Discord channel",
    Webhook.Format.JSON.value: "Signed JSON for your own tool",
}


def _where(url: str) -> str:
    """The address shortened for the page: its host and the start of its path (a Discord webhook's
    address holds its token: the page shows no more of it than needed to tell hooks apart)."""
    parts = urlsplit(url)
    path = parts.path if len(parts.path) <= 24 else parts.path[:20] + "…"
    return f"{parts.hostname or ''}{path}"


def webhooks_block(
    *,
    campaign: Campaign,
    error: str = "",
    form: dict[str, Any] | None = None,
    secret: str = "",
    secret_for: int | None = None,
    note: str = "",
) -> dict[str, Any]:
    hooks = []
    for hook in campaign_webhooks(campaign=campaign):
        hooks.append(
            {
                "id": hook.pk,
                "where": _where(hook.url),
                "format": FORMAT_WORDS.get(hook.format, hook.format),
                "private": hook.private,
                "page": reverse("campaign_webhook", args=[campaign.pk, hook.pk]),
                "rotate": reverse("campaign_webhook_rotate", args=[campaign.pk, hook.pk]),
                "remove": reverse("campaign_webhook_remove", args=[campaign.pk, hook.pk]),
                "secret": secret if secret_for == hook.pk else "",
            }
        )
    return {
        "hooks": hooks,
        "hook_error": error,
        "hook_note": note,
        "hook_form": form or {"url": "", "format": Webhook.Format.DISCORD, "private": False},
    }


def _status_words(delivery: WebhookDelivery) -> str:
    if delivery.status == WebhookDelivery.Status.DELIVERED:
        return "Delivered"
    if delivery.status == WebhookDelivery.Status.FAILED:
        return "Failed: not tried again"
    if not delivery.attempts:
        return "Waiting to be sent"
    when = template_localtime(delivery.next_at) if delivery.next_at else None
    return f"Will try again at {when:%H:%M:%S}" if when else "Will try again"


def deliveries_view(hook: Webhook, deliveries: list[WebhookDelivery]) -> dict[str, Any]:
    rows = []
    for delivery in deliveries:
        line = roll_line(delivery.roll)
        when = template_localtime(delivery.created)
        rows.append(
            {
                "when": f"{when:%d %b %H:%M:%S}",
                "when_iso": when.isoformat(),
                "roll": " · ".join(x for x in (line.get("character"), line.get("label")) if x),
                "status": delivery.status,
                "status_text": _status_words(delivery),
                "attempts": delivery.attempts,
                "answer": delivery.error
                or (f"Answered {delivery.response_code}." if delivery.response_code else ""),
            }
        )
    return {
        "hook": {
            "where": _where(hook.url),
            "format": FORMAT_WORDS.get(hook.format, hook.format),
            "private": hook.private,
        },
        "rows": rows,
    }
