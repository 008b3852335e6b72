"""The party page's obstacle form (the GM's): set an obstacle on the campaign or as a character's
affliction (the service checks and refuses in words)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from characters.campaigns.selectors import campaign_for_user
from characters.obstacles import services
from config.errors import ApplicationError
from config.forms import check_post
from config.htmx import HtmxHttpRequest


def _number(value: str):
    value = (value or "").strip()
    return int(value) if value.isdigit() and len(value) < 7 else (None if value == "" else value)


@login_required
@require_POST
def campaign_obstacle_create(request: HtmxHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = campaign_for_user(request.user, campaign_id)
    check_post(request.POST)
    data = {
        "name": request.POST.get("name", ""),
        "level": _number(request.POST.get("level", "")),
        "secret": request.POST.get("secret") == "true",
    }
    rounds = _number(request.POST.get("within_rounds", ""))
    if rounds is not None:
        data["within_rounds"] = rounds
    who = _number(request.POST.get("character", ""))
    if who is not None:
        data["character"] = who
    try:
        obstacle = services.obstacle_create(campaign=campaign, user=request.user, data=data)
        messages.success(request, f"{obstacle.name} is set (level {obstacle.level}).")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("campaign_party", args=[campaign.pk]) + "#party-obstacles")


urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/obstacles/new/",
        campaign_obstacle_create,
        name="campaign_obstacle_create",
    ),
]
