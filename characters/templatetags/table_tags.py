"""``{% table_feed campaign %}``: the table's roll feed block (characters/table/feed.py), for the campaign
and encounter pages. The viewer is the request's user; private rolls show to the GM only."""

from __future__ import annotations

from typing import Any

from django import template

from characters.sheet.selectors import campaign_roll_feed
from characters.table.feed import FEED_LENGTH, roll_line

register = template.Library()


@register.inclusion_tag("characters/table/_table_feed.html", takes_context=True)
def table_feed(context: Any, campaign: Any) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    rolls = campaign_roll_feed(campaign=campaign, viewer=viewer, limit=FEED_LENGTH)
    return {"feed": [roll_line(r) for r in rolls], "feed_campaign": campaign}
