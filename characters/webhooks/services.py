"""Webhooks: the GM sets them up, rotates their secret, removes them; each table roll is written
to the outbox (one ``WebhookDelivery`` per hook) in the roll's own transaction.

The outbox row is all a roll costs: one read of the campaign's hooks and one insert, in the same
transaction, so a roll is never delayed by a hook and a hook never hears of a roll that rolled
back. ``manage.py deliver_webhooks`` (characters/webhooks/delivery.py) sends them.

The GM's private rolls go only to hooks marked ``private``; every other roll to every hook. A
line that is no roll (a table note) goes nowhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from characters.models import Campaign, RollLog, Webhook, WebhookDelivery, new_webhook_secret
from characters.webhooks.addresses import check_url, target
from characters.webhooks.selectors import webhook_of
from config.errors import BadInput, NotPermitted

#: Hooks a campaign may have.
MAX_HOOKS = 10
FORMATS = {choice.value for choice in Webhook.Format}


def _require_gm(user, campaign: Campaign) -> None:
    if not campaign.is_gm(user):
        raise NotPermitted("Only the campaign's GM sets up its webhooks.")


def webhook_create(*, gm, campaign: Campaign, url: Any, format: Any, private: Any = False) -> Webhook:
    """A new hook (the GM only): the address must resolve to public addresses only (400 otherwise,
    ``addresses.target``); ``format`` is discord or json. Its secret is made here."""
    _require_gm(gm, campaign)
    if format not in FORMATS:
        raise BadInput("Choose the format: a Discord channel or signed JSON.", field="format")
    if not isinstance(private, bool):
        raise BadInput("Say whether the GM's private rolls go there too (true or false).", field="private")
    url = check_url(url)
    target(url)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        if Webhook.objects.filter(campaign=locked).count() >= MAX_HOOKS:
            raise BadInput(f"A campaign has at most {MAX_HOOKS} webhooks.", field="url")
        return Webhook.objects.create(campaign=locked, url=url, format=format, private=private, created_by=gm)


def webhook_rotate(*, gm, campaign: Campaign, webhook_id: Any) -> Webhook:
    """A new secret for the hook (the old one stops signing at once)."""
    _require_gm(gm, campaign)
    hook = webhook_of(campaign=campaign, webhook_id=webhook_id)
    hook.secret = new_webhook_secret()
    hook.save(update_fields=["secret"])
    return hook


def webhook_delete(*, gm, campaign: Campaign, webhook_id: Any) -> None:
    """Remove the hook and what it had still to send."""
    _require_gm(gm, campaign)
    webhook_of(campaign=campaign, webhook_id=webhook_id).delete()


def outbox_write(rolls: Iterable[RollLog]) -> None:
    """Call inside the roll's transaction: one delivery per hook of the roll's campaign that may
    have it (a private roll: the private hooks only), due now. One statement whatever the number
    of rolls and hooks (``INSERT … SELECT``: a campaign without hooks costs a roll that statement
    and nothing else)."""
    rolls = [r for r in rolls if r.campaign_id is not None and r.pk is not None and not _is_note(r)]
    if not rolls:
        return
    now = timezone.now()
    deliveries, hooks = WebhookDelivery._meta.db_table, Webhook._meta.db_table
    asked = " UNION ALL ".join(["SELECT %s AS roll_id, %s AS campaign_id, %s AS private"] * len(rolls))
    params: list[Any] = [now, now, now]
    for roll in rolls:
        params += [roll.pk, roll.campaign_id, bool(roll.private)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {deliveries} "  # noqa: S608  # table names from the models; values are parameters
            "(webhook_id, roll_id, status, attempts, failures, next_at, error, created, updated) "
            f"SELECT h.id, r.roll_id, '{WebhookDelivery.Status.RETRYING.value}', 0, 0, %s, '', %s, %s "
            f"FROM {hooks} h JOIN ({asked}) r ON h.campaign_id = r.campaign_id "
            "WHERE h.private OR NOT r.private",
            [params[0], params[1], params[2], *params[3:]],
        )


def _is_note(roll: RollLog) -> bool:
    return isinstance(roll.result, dict) and bool(roll.result.get("note"))
