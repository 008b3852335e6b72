"""The table's roll feed: every roll of a campaign, live on the campaign and encounter pages.

A roll is written by the dice service (characters/sheet/services.py ``character_roll``); once its
transaction commits, ``roll_logged`` renders the feed line once, server-side, and sends it to the
campaign's channels group (the same layer as the encounters, Redis pub/sub in production). Each
page's websocket (characters/table/consumers.py) passes the HTML on and the htmx ws extension adds it on
top of the page's list (``hx-swap-oob="afterbegin:#table-feed-list"``).

The rolls of a fight (combat/step.py: attacks, initiative, damage, whatever an action rolls)
are RollLog rows too, written by the encounter's service in the same transaction: the line says
who acted, in which encounter, and the log's own words ("Grim attacks the goblin: …").

A line that is no roll — an effect that ends on the encounter's clock, one the GM puts on a combatant
(combat/step.py) — is a *table note* (``table_note``): a ``RollLog`` without dice whose result says
``"note": true``, written and sent the same way, drawn as a plain sentence.

Private rolls (the GM's) go to a second group that only the campaign's GM joins: they are never
sent to a player's socket, and the selectors never render them for a player.

Each roll is also written to the campaign's webhooks' outbox in the same transaction
(characters/webhooks/): ``manage.py deliver_webhooks`` sends it to Discord or the GM's own tool.

A broken channel layer is logged, never raised: the roll is committed and the pages show it on
their next load.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # real, but not in django-stubs

from characters.models import RollLog
from characters.templatetags.sheet_tags import chart_data, label
from characters.webhooks.services import outbox_write
from config.publish import group_send

logger = logging.getLogger(__name__)

FEED_LENGTH = 20
ITEM_TEMPLATE = "characters/table/_table_feed_item.html"
MESSAGE_TYPE = "table.roll"


def table_group(campaign_id: int) -> str:
    """Every member's socket on the campaign's feed."""
    return f"table-{campaign_id}"


def gm_group(campaign_id: int) -> str:
    """The GM's sockets only: private rolls."""
    return f"table-{campaign_id}-gm"


def roll_line(roll: RollLog) -> dict[str, Any]:
    """One feed line in the game's words: who rolled what for whom, the outcome and its odds."""
    result = roll.result if isinstance(roll.result, dict) else {}
    odds = result.get("odds")
    character = roll.character if roll.character_id else None  # a fight's NPC has none
    slug = (character.ruleset if character is not None else str(result.get("ruleset") or "")) if odds else ""
    chart = chart_data(slug, odds, result)
    rolled = next((b for b in chart["bars"] if b["rolled"]), None)
    when = template_localtime(roll.created) if roll.created else None
    outcome = result.get("outcome")
    if result.get("note"):
        return {
            "pk": roll.pk,
            "note": True,
            "encounter": str(result.get("encounter") or ""),
            "text": str(result.get("text") or ""),
            "private": roll.private,
            "when_iso": when.isoformat() if when else "",
            "when": f"{when:%H:%M}" if when else "",
        }
    return {
        "pk": roll.pk,
        "who": (roll.user.get_username() if roll.user else "") or "someone",
        "character": character.name if character is not None else str(result.get("actor") or ""),
        # A fight's roll (combat/step.py): its encounter, and its log line as the text.
        "encounter": str(result.get("encounter") or "")
        if isinstance(roll.request, dict) and "encounter" in roll.request
        else "",
        "label": roll.label,
        "text": result.get("text") or "",
        "outcome": rolled["label"] if rolled else (label(outcome) if isinstance(outcome, str) else ""),
        "chance": rolled["percent_text"] if rolled else "",
        "odds": chart["aria_label"].removeprefix("Odds: ").split(" Rolled:")[0] if chart["bars"] else "",
        "private": roll.private,
        "when_iso": when.isoformat() if when else "",
        "when": f"{when:%H:%M}" if when else "",
    }


NOTE_LABEL = "Note"


def table_note(
    *, campaign_id: int, user, text: str, encounter_id: int | None = None, encounter_name: str = ""
) -> RollLog:
    """A feed line that is no roll (see the module's docstring), not yet saved: the caller saves it in
    its transaction (with its rolls, in one statement) and calls ``roll_logged``."""
    request: dict[str, Any] = {"note": True}
    if encounter_id is not None:
        request["encounter"] = encounter_id
    return RollLog(
        campaign_id=campaign_id,
        character=None,
        user=user,
        label=NOTE_LABEL,
        request=request,
        result={"text": text[:1000], "note": True, "faces": [], "encounter": encounter_name},
    )


def render_line(roll: RollLog, *, oob: bool = False) -> str:
    return render_to_string(ITEM_TEMPLATE, {"line": roll_line(roll), "oob": oob})


def roll_logged(roll: RollLog) -> None:
    """Call inside the service's transaction: the line goes out once it commits (never if it
    rolls back), to the whole table or, for a private roll, to the GM only; and the campaign's
    webhooks get it from the outbox written here, in the same transaction
    (characters/webhooks/services.py)."""
    rolls_logged([roll])


def rolls_logged(rolls: list[RollLog]) -> None:
    """``roll_logged`` for the rolls of one step (a fight's): the outbox in one read of the hooks."""
    outbox_write(rolls)
    for roll in rolls:
        transaction.on_commit(functools.partial(send_roll, roll))


def send_roll(roll: RollLog) -> None:
    try:
        layer = get_channel_layer()
        if layer is None or roll.campaign_id is None:
            return
        group = gm_group(roll.campaign_id) if roll.private else table_group(roll.campaign_id)
        message = {"type": MESSAGE_TYPE, "html": render_line(roll, oob=True), "roll": roll.pk}
        group_send((group, message))
    except Exception:
        logger.exception("sending roll %s to the table failed", roll.pk)
