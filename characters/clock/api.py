"""/api/v1/campaigns/<id>/clock/ (CONTRACT.md "The whole rulebook", RULES.md C1).

- ``GET`` members → ``{day, hour}``.
- ``POST {hours: n} | {new_day: true}`` the GM only → 200 ``{day, hour, changes: [{character,
  name, message}]}``: what the time did to each character in play (recovery, regeneration,
  healing). ``name`` is an addition to the contract (the character's name, for people).

A player of the campaign gets 403 on POST, anyone else 404; a body that is neither shape is a 400
and moves nothing.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.clock.services import campaign_clock_advance
from config.api import api_view
from config.errors import BadInput, NotPermitted
from config.schema import ErrorSerializer
from rulesets.engine.clock import MAX_HOURS

E400 = OpenApiResponse(
    ErrorSerializer, description=f"Neither {{hours: n}} (1 to {MAX_HOURS}) nor {{new_day: true}}."
)
E403 = OpenApiResponse(ErrorSerializer, description="A player of the campaign: only its GM moves the clock.")
E404 = OpenApiResponse(ErrorSerializer, description="No such campaign, or you are not at its table.")


class ClockSerializer(serializers.Serializer):
    day = serializers.IntegerField(help_text="The day of the campaign, from 1.")
    hour = serializers.IntegerField(help_text="The hour, 0–23.")


#: The body: exactly one of the two shapes (CONTRACT.md).
CLOCK_MOVE = {
    "oneOf": [
        {
            "type": "object",
            "title": "Time passes",
            "properties": {"hours": {"type": "integer", "minimum": 1, "maximum": MAX_HOURS}},
            "required": ["hours"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "title": "A new day",
            "description": "To the next day's morning (8:00).",
            "properties": {"new_day": {"type": "boolean", "enum": [True]}},
            "required": ["new_day"],
            "additionalProperties": False,
        },
    ]
}


class ClockChangeSerializer(serializers.Serializer):
    character = serializers.IntegerField()
    name = serializers.CharField(help_text="The character's name.")
    message = serializers.CharField(help_text="What the time did, in the game's words.")


class ClockMovedSerializer(ClockSerializer):
    changes = ClockChangeSerializer(many=True)


@extend_schema(
    tags=["play"],
    summary="The campaign's clock",
    methods=["GET"],
    responses={200: ClockSerializer, 404: E404},
)
@extend_schema(
    tags=["play"],
    summary="Move the campaign's clock (GM only)",
    description="Time passes by `hours`, or `new_day` moves to the next morning; each character in play gets "
    "what the rulebook ties to time (healing per day and week, Dynama by the hour, the day's rest, "
    "willpower every 12 safe hours), each change a new play version, and `changes` says what in words.",
    methods=["POST"],
    request={"application/json": CLOCK_MOVE},
    responses={200: ClockMovedSerializer, 400: E400, 403: E403, 404: E404},
)
@api_view(["GET", "POST"])
def campaign_clock(request, id):
    campaign = campaign_for_user(request.user, id)  # a stranger's 404
    if request.method == "GET":
        return Response({"day": campaign.clock_day, "hour": campaign.clock_hour})
    if not campaign.is_gm(request.user):  # a player's 403 comes before any 400 of the body
        raise NotPermitted("Only the campaign's GM moves its clock.")
    body = request.data
    # The values are the service's to check (clock_span); only a key of neither shape is the view's.
    if not isinstance(body, dict) or set(body) - {"hours", "new_day"}:
        raise BadInput('Send {"hours": n} or {"new_day": true}.', field="hours")
    moved = campaign_clock_advance(
        campaign_id=id, user=request.user, hours=body.get("hours"), new_day=body.get("new_day")
    )
    return Response({"day": moved.day, "hour": moved.hour, "changes": moved.changes})


urlpatterns = [path("campaigns/<int:id>/clock/", campaign_clock, name="api_campaign_clock")]
