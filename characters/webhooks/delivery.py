"""Sending the outbox: what ``manage.py deliver_webhooks`` does, one batch at a time.

A batch **claims** the deliveries that are due (``next_at`` passed), at most ``PER_HOOK`` of one
hook and ``BATCH`` in all, by pushing their ``next_at`` a ``LEASE`` ahead in one short transaction
(``SKIP LOCKED``: two workers never claim the same row; a worker that dies leaves its rows due
again once the lease ends). It then sends them outside any transaction, ``THREADS`` at a time, and
records each outcome:

- 2xx: ``delivered``.
- 429: waits what the endpoint asks (``Retry-After``, or Discord's ``retry_after`` in the JSON
  body; at most an hour), and so do the hook's other waiting deliveries; a 429 uses up no backoff
  step (after ``MAX_ATTEMPTS`` tries in all it is ``failed``).
- anything else (another status, a redirect, which is never followed, a refused connection, a
  timeout): backs off ``BACKOFF`` (1 min, 5, 30), then ``failed``.
- an address that now resolves to a private network: ``failed`` at once.

A slow endpoint costs one thread at most ``TIMEOUT`` seconds per step of the exchange, and no more
than ``PER_HOOK`` of its deliveries are in one batch: it never holds up the other hooks, and its
backlog waits in the table (backing off), not in the worker.

The body: ``discord`` is Discord's ``{"content", "embeds"}`` (who rolled what for whom, the result,
its odds; no mentions); ``json`` is ``{"campaign", "character", "roll", "result", "odds", "at"}``.
Both carry ``X-Sheetforge-Delivery`` (the delivery's id), ``X-Sheetforge-Timestamp`` (unix
seconds) and ``X-Sheetforge-Signature: sha256=<HMAC-SHA256(secret, timestamp + "." + body)>``.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import socket
import ssl
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from characters.models import RollLog, Webhook, WebhookDelivery
from characters.table.feed import roll_line
from characters.webhooks.addresses import AddressRefused, Target, target

logger = logging.getLogger(__name__)

#: Seconds to wait after the 1st, 2nd and 3rd failure; the 4th is final.
BACKOFF = (60, 300, 1800)
MAX_ATTEMPTS = 20
RETRY_AFTER_MAX = 3600
#: Seconds per step of an exchange (connect, send, each read).
TIMEOUT = 5.0
#: A claimed delivery is due again after this long if its worker never records it.
LEASE = 120
BATCH = 20
PER_HOOK = 5
THREADS = 4
#: Bytes of an answer read at most (a Discord 429's JSON is small).
MAX_ANSWER = 16 * 1024
USER_AGENT = "Sheetforge-Webhooks/1"
Status = WebhookDelivery.Status


# ------------------------------------------------------------------ the body


def _words(text: Any, limit: int) -> str:
    text = str(text or "")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(text: str) -> str:
    """Discord's markdown characters in a name or label, shown as themselves."""
    return "".join(f"\\{c}" if c in "\\*_~`|>" else c for c in text)


def _roll_parts(roll: RollLog) -> dict[str, Any]:
    result = roll.result if isinstance(roll.result, dict) else {}
    line = roll_line(roll)
    return {
        "line": line,
        "result": {k: v for k, v in result.items() if k not in {"odds", "rollable", "inputs"}},
        "odds": result.get("odds") if isinstance(result.get("odds"), dict) else {},
        "rollable": str(result.get("rollable") or ""),
        "at": roll.created.isoformat() if roll.created else None,
    }


def discord_body(roll: RollLog) -> dict[str, Any]:
    parts = _roll_parts(roll)
    line = parts["line"]
    who, name, what = (_escape(str(line.get(k) or "")) for k in ("who", "character", "label"))
    outcome = str(line.get("outcome") or "")
    chance = str(line.get("chance") or "")
    secret = "🔒 GM only: " if roll.private else ""
    head = f"{secret}**{who}** rolled **{what}**" + (f" for **{name}**" if name and name != who else "")
    result = outcome + (f" ({chance} chance)" if chance else "")
    content = f"{head}: {result}" if result else head
    fields = [
        {"name": "Result", "value": _words(outcome, 1024), "inline": True} if outcome else None,
        {"name": "Chance", "value": _words(chance, 1024), "inline": True} if chance else None,
        {"name": "Odds", "value": _words(line.get("odds"), 1024)} if line.get("odds") else None,
    ]
    embed: dict[str, Any] = {
        "title": _words(f"{line.get('character') or ''}: {line.get('label') or ''}".strip(": "), 256),
        "fields": [f for f in fields if f],
    }
    if line.get("text"):
        embed["description"] = _words(line["text"], 4096)
    if parts["at"]:
        embed["timestamp"] = parts["at"]
    return {"content": _words(content, 2000), "embeds": [embed], "allowed_mentions": {"parse": []}}


def json_body(roll: RollLog) -> dict[str, Any]:
    parts = _roll_parts(roll)
    line = parts["line"]
    character = roll.character if roll.character_id else None
    return {
        "campaign": {"id": roll.campaign_id, "name": roll.campaign.name if roll.campaign is not None else ""},
        "character": {"id": character.pk, "name": character.name} if character is not None else None,
        "roll": {
            "id": roll.pk,
            "rollable": parts["rollable"],
            "label": roll.label,
            "by": line.get("who") or "",
            "text": line.get("text") or "",
            "private": roll.private,
            "request": roll.request if isinstance(roll.request, dict) else {},
        },
        "result": parts["result"],
        "odds": parts["odds"],
        "at": parts["at"],
    }


def body_of(delivery: WebhookDelivery) -> bytes:
    roll = delivery.roll
    data = discord_body(roll) if delivery.webhook.format == Webhook.Format.DISCORD else json_body(roll)
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=`` and the hex HMAC-SHA256 of ``timestamp + "." + body`` under ``secret``."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    return f"sha256={digest}"


def headers_of(delivery: WebhookDelivery, body: bytes, now: float) -> dict[str, str]:
    timestamp = str(int(now))
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Sheetforge-Delivery": str(delivery.pk),
        "X-Sheetforge-Timestamp": timestamp,
        "X-Sheetforge-Signature": signature(delivery.webhook.secret, timestamp, body),
    }


# ------------------------------------------------------------------ one exchange


@dataclass
class Outcome:
    code: int | None = None
    error: str = ""
    retry_after: float | None = None
    refused: bool = False  # the address is not one the server calls: no retry

    @property
    def delivered(self) -> bool:
        return self.code is not None and 200 <= self.code < 300


class _Pinned(http.client.HTTPConnection):
    """An HTTP connection to the checked address, whatever the host's name resolves to now."""

    def __init__(self, where: Target, timeout: float):
        super().__init__(where.host, where.port, timeout=timeout)
        self._ip = where.ip

    def connect(self) -> None:
        self.sock = socket.create_connection((self._ip, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to the checked address, the certificate checked against the host's name."""

    def __init__(self, where: Target, timeout: float):
        super().__init__(where.host, where.port, timeout=timeout, context=ssl.create_default_context())
        self._ip = where.ip

    def connect(self) -> None:
        sock = socket.create_connection((self._ip, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def retry_after_of(response: http.client.HTTPResponse, answer: bytes, now: datetime) -> float | None:
    """Seconds a 429 asks to wait: ``Retry-After`` (seconds or a date), else Discord's JSON
    ``retry_after`` (seconds)."""
    header = response.getheader("Retry-After")
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            try:
                return max(0.0, (parsedate_to_datetime(header) - now).total_seconds())
            except (TypeError, ValueError):
                pass
    try:
        data = json.loads(answer or b"{}")
        value = data.get("retry_after") if isinstance(data, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return max(0.0, float(value))
    except ValueError:
        pass
    return None


def send(delivery: WebhookDelivery, *, now: float | None = None) -> Outcome:
    """POST the delivery's body to its hook (the address checked again now); never raises."""
    try:
        where = target(delivery.webhook.url)
    except AddressRefused as exc:
        return Outcome(error=exc.message, refused=True)
    body = body_of(delivery)
    headers = {**headers_of(delivery, body, time.time() if now is None else now), "Host": where.host}
    if where.port not in (80, 443):
        headers["Host"] = f"{where.host}:{where.port}"
    conn = (_PinnedTLS if where.scheme == "https" else _Pinned)(where, TIMEOUT)
    try:
        conn.request("POST", where.path, body=body, headers=headers)
        response = conn.getresponse()
        answer = response.read(MAX_ANSWER)
        outcome = Outcome(code=response.status)
        if response.status == 429:
            outcome.retry_after = retry_after_of(response, answer, timezone.now())
        elif not outcome.delivered:
            redirect = " (a redirect, which is not followed)" if 300 <= response.status < 400 else ""
            outcome.error = f"The endpoint answered {response.status}{redirect}."
        return outcome
    except TimeoutError:
        return Outcome(error=f"The endpoint did not answer within {TIMEOUT:g} seconds.")
    except (OSError, http.client.HTTPException) as exc:
        return Outcome(error=_words(f"Could not reach the endpoint: {exc}", 300))
    finally:
        conn.close()


# ------------------------------------------------------------------ the batch


def claim(*, now: datetime | None = None) -> list[int]:
    """Take the due deliveries (see the module's docstring): their ids."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            WebhookDelivery.objects.filter(status=Status.RETRYING, next_at__lte=now)
            .order_by("next_at", "id")
            .select_for_update(skip_locked=True)
            .values_list("id", "webhook_id")[: BATCH * PER_HOOK]
        )
        taken: list[int] = []
        per_hook: dict[int, int] = {}
        for pk, hook in due:
            if per_hook.get(hook, 0) >= PER_HOOK:
                continue
            per_hook[hook] = per_hook.get(hook, 0) + 1
            taken.append(pk)
            if len(taken) >= BATCH:
                break
        if taken:
            WebhookDelivery.objects.filter(pk__in=taken).update(next_at=now + timedelta(seconds=LEASE))
    return taken


def record(delivery: WebhookDelivery, outcome: Outcome, *, now: datetime | None = None) -> WebhookDelivery:
    """Write what one try made of the delivery."""
    now = now or timezone.now()
    delivery.attempts += 1
    delivery.response_code = outcome.code
    delivery.error = _words(outcome.error, 300)
    if outcome.delivered:
        delivery.status, delivery.next_at, delivery.error = Status.DELIVERED, None, ""
    elif outcome.refused:
        delivery.status, delivery.next_at = Status.FAILED, None
    elif outcome.code == 429:
        wait = min(
            RETRY_AFTER_MAX, max(1.0, outcome.retry_after if outcome.retry_after is not None else 60.0)
        )
        until = now + timedelta(seconds=wait)
        delivery.error = f"Rate limited: waiting {wait:g} seconds, as the endpoint asked."
        if delivery.attempts >= MAX_ATTEMPTS:
            delivery.status, delivery.next_at = Status.FAILED, None
        else:
            delivery.next_at = until
            # The hook's other waiting deliveries wait as long (Discord limits per webhook).
            WebhookDelivery.objects.filter(
                webhook_id=delivery.webhook_id, status=Status.RETRYING, next_at__lt=until
            ).exclude(pk=delivery.pk).update(next_at=until)
    else:
        delivery.failures += 1
        if delivery.failures > len(BACKOFF) or delivery.attempts >= MAX_ATTEMPTS:
            delivery.status, delivery.next_at = Status.FAILED, None
        else:
            delivery.next_at = now + timedelta(seconds=BACKOFF[delivery.failures - 1])
    delivery.save(
        update_fields=["attempts", "failures", "status", "next_at", "response_code", "error", "updated"]
    )
    return delivery


def deliver(pk: int) -> str:
    """Send one claimed delivery and record it: its status now."""
    delivery = (
        WebhookDelivery.objects.select_related("webhook", "roll__campaign", "roll__character", "roll__user")
        .filter(pk=pk, status=Status.RETRYING)
        .first()
    )
    if delivery is None:  # delivered or removed meanwhile
        return ""
    try:
        outcome = send(delivery)
    except Exception as exc:  # a bug must not stop the worker: the try counts as a failure
        logger.exception("webhook delivery %s failed", delivery.pk)
        outcome = Outcome(error=_words(f"The delivery could not be made: {exc.__class__.__name__}.", 300))
    return record(delivery, outcome).status


def _in_thread(pk: int) -> str:
    try:
        return deliver(pk)
    finally:
        connection.close()


def run_once(*, threads: int = THREADS) -> int:
    """One batch: claim what is due and send it. How many were sent (whatever their outcome)."""
    taken = claim()
    if not taken:
        return 0
    if threads <= 1 or len(taken) == 1:
        for pk in taken:
            deliver(pk)
    else:
        with ThreadPoolExecutor(max_workers=min(threads, len(taken))) as pool:
            list(pool.map(_in_thread, taken))
    return len(taken)
