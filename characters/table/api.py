"""/api/v1/campaigns/<id>/rolls/: the table's roll feed over the API (CONTRACT.md "A campaign's months").

``GET /campaigns/<id>/rolls/?before=<id>&limit=<n ≤ 100>`` members of the campaign → its rolls,
newest first, ``[{id, character, name, by, rollable, label, text, request, result, odds, private,
at}]`` (``character``: the character's id, None for a fight's NPC or a table note; ``name``: who
the roll was for; ``by``: who rolled; ``text``: the line in the game's words). The GM's private
rolls go to the GM only. ``before`` is the cursor: the rolls older than that roll (its id); the
next page is ``?before=<the last id of this one>``. ``limit`` defaults to 20; more than 100, or
anything but a whole number, is a 400. Anyone not at the table (a removed member too) gets 404.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.models import RollLog
from characters.sheet.api import roll_view
from characters.sheet.selectors import campaign_roll_page
from config.api import api_view, query_id
from config.errors import BadInput
from config.schema import ErrorSerializer

FEED_LIMIT = 20
FEED_LIMIT_MAX = 100

E400 = OpenApiResponse(ErrorSerializer, description="`before` or `limit` is not a whole number in range.")
E404 = OpenApiResponse(ErrorSerializer, description="No such campaign, or you are not at its table.")

FeedRoll = inline_serializer(
    "FeedRoll",
    {
        "id": serializers.IntegerField(),
        "character": serializers.IntegerField(allow_null=True),
        "name": serializers.CharField(allow_blank=True),
        "by": serializers.CharField(allow_blank=True),
        "rollable": serializers.CharField(allow_blank=True),
        "label": serializers.CharField(),
        "text": serializers.CharField(allow_blank=True),
        "request": serializers.DictField(),
        "result": serializers.DictField(),
        "odds": serializers.DictField(),
        "private": serializers.BooleanField(),
        "at": serializers.DateTimeField(),
    },
)


def feed_item(log: RollLog) -> dict[str, Any]:
    result = log.result if isinstance(log.result, dict) else {}
    character = log.character if log.character_id else None
    return {
        **roll_view(log),
        "character": log.character_id,
        "name": character.name if character is not None else str(result.get("actor") or ""),
        "by": log.user.get_username() if log.user_id and log.user else "",
        "text": str(result.get("text") or ""),
    }


@extend_schema(
    tags=["play"],
    summary="The table's roll feed",
    parameters=[
        OpenApiParameter(
            "before",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            required=False,
            description="Only rolls older than this roll (its id): the next page.",
        ),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": FEED_LIMIT_MAX},
            required=False,
            description=f"How many rolls (default {FEED_LIMIT}, at most {FEED_LIMIT_MAX}).",
        ),
    ],
    responses={200: serializers.ListSerializer(child=FeedRoll), 400: E400, 404: E404},
)
@api_view(["GET"])
def campaign_rolls(request, id):
    campaign = campaign_for_user(request.user, id)
    before = query_id(request, "before")
    raw = request.query_params.get("limit")
    limit = FEED_LIMIT
    if raw is not None:
        if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= FEED_LIMIT_MAX:
            raise BadInput(f"limit is a whole number from 1 to {FEED_LIMIT_MAX}.", field="limit")
        limit = int(raw)
    rolls = campaign_roll_page(campaign=campaign, viewer=request.user, before=before, limit=limit)
    return Response([feed_item(log) for log in rolls])


urlpatterns = [path("campaigns/<int:id>/rolls/", campaign_rolls, name="api_campaign_rolls")]
