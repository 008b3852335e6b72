"""The party page's clock (RULES.md C1): "Time passes" and "A new day", the GM's forms.

One POST view over ``campaign_clock_advance`` (the API's service): htmx gets the clock block back
with what the time did; a plain form post goes back to the party page with it as a message. A
player of the campaign gets 403, anyone else 404; a number of hours the clock refuses is said in
the block and moves nothing.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.clock.services import campaign_clock_advance
from characters.party.selectors import party_campaign
from config.errors import BadInput
from config.forms import check_post
from config.htmx import HtmxHttpRequest
from rulesets.engine.clock import MAX_HOURS

BLOCK = "characters/clock/_clock.html"


@login_required
@require_POST
def campaign_clock_move(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    """Move the clock: ``new_day`` (the "A new day" button) or ``hours`` ("Time passes")."""
    campaign = party_campaign(user=request.user, campaign_id=campaign_id)
    check_post(request.POST, labels={"hours": "Hours"})
    new_day = request.POST.get("new_day") == "true"
    hours = None if new_day else request.POST.get("hours", "").strip()
    error, changes = "", []
    try:
        moved = campaign_clock_advance(
            campaign_id=campaign.pk, user=request.user, hours=hours, new_day=True if new_day else None
        )
        changes = moved.changes
        campaign.clock_day, campaign.clock_hour = moved.day, moved.hour
    except BadInput as exc:
        error = exc.message
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            said = "; ".join(f"{c['name']}: {c['message']}" for c in changes) or "Nothing changes for anyone."
            messages.success(request, f"Day {campaign.clock_day}, {campaign.clock_hour:02d}:00. {said}")
        return redirect(reverse("campaign_party", args=[campaign.pk]) + "#party-clock")
    context = {
        "campaign": campaign,
        "clock_changes": changes,
        "clock_error": error,
        "clock_moved": not error,
        "clock_max_hours": MAX_HOURS,
        "csrf_token": get_token(request),
    }
    return HttpResponse(render_to_string(BLOCK, context))
