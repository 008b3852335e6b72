"""/api/v1/encounters/…: the same services as the encounter page (CONTRACT.md "Resources").

An encounter of a campaign I am not in is 404; a GM thing done by a player, or an action for
someone else's combatant, is 403; a rules refusal (not enough speed, not this combatant's
turn, an unusable body part, a ruleset without combat rules yet) is 422 with the rule's
code and changes nothing; a stale ``expected_version`` is 409.

Choices documented here: only the GM adds combatants (PCs and NPCs); adding ``count`` NPCs
answers ``{id, ids}``; ``log`` in the encounter is oldest first (the last 200 events).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.obstacles.selectors import campaign_obstacles
from combat import services
from combat.presenters import encounter_board
from combat.selectors import encounter_fight, encounter_for_user, encounters_for_user
from combat.serializers import (
    ActionRequestSerializer,
    CombatantCreatedSerializer,
    CombatantCreateSerializer,
    EncounterCreatedSerializer,
    EncounterCreateSerializer,
    EncounterSerializer,
    EncounterSummarySerializer,
    NextTurnSerializer,
)
from config.api import api_view, query_id, validated
from config.schema import ErrorSerializer

API_LOG = 200
E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(ErrorSerializer, description="You may see this encounter but not do this.")
E404 = OpenApiResponse(
    ErrorSerializer, description="No such encounter (or campaign), or you are not in its campaign."
)
E409 = OpenApiResponse(ErrorSerializer, description="`expected_version` is stale: reload and try again.")
E422 = OpenApiResponse(
    ErrorSerializer, description="The rules refuse this; `errors` carries the rule's code."
)
ENCOUNTER_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="An encounter id")


def _encounter_data(encounter, user=None) -> dict:
    board = encounter_board(fight=encounter_fight(encounter=encounter), log_limit=API_LOG)
    keys = ("id", "campaign", "name", "status", "round", "turn", "version", "current", "current_ids", "order")
    data = {k: board[k] for k in keys}
    data["state"] = encounter.state or {}
    data["combatants"] = [
        {
            k: row[k]
            for k in (
                "id",
                "name",
                "is_npc",
                "group",
                "character",
                "owner",
                "position",
                "current",
                "summary",
                "state",
                "combat",
            )
        }
        for row in board["combatants"]
    ]
    data["log"] = list(reversed(board["log"]))
    data["obstacles"] = (
        [
            {k: v for k, v in o.items() if k != "text"}
            for o in campaign_obstacles(campaign=encounter.campaign, user=user, encounter_id=encounter.pk)
        ]
        if user is not None
        else []
    )
    return EncounterSerializer(data).data


def _encounter(request, pk):
    return encounter_for_user(user=request.user, encounter_id=pk)


@extend_schema(
    tags=["encounters"],
    summary="List my encounters",
    description="Encounters of the campaigns I belong to, newest first; `?campaign=<id>` narrows to one campaign "
    "(404 when I am not a member of it).",
    parameters=[
        OpenApiParameter(
            "campaign",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            required=False,
            description="A campaign id",
        )
    ],
    responses={200: EncounterSummarySerializer(many=True), 400: E400, 401: E401, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["encounters"],
    summary="Create an encounter (GM only)",
    request=EncounterCreateSerializer,
    responses={201: EncounterCreatedSerializer, 400: E400, 401: E401, 403: E403, 404: E404},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def encounter_list(request):
    if request.method == "GET":
        campaign_id = query_id(request, "campaign")
        if campaign_id is not None:
            campaign_for_user(request.user, campaign_id)
        encounters = encounters_for_user(user=request.user, campaign_id=campaign_id)
        return Response(EncounterSummarySerializer(encounters, many=True).data)
    data = validated(EncounterCreateSerializer, request)
    campaign = campaign_for_user(request.user, data["campaign"])
    encounter = services.encounter_create(campaign=campaign, user=request.user, name=data["name"])
    return Response({"id": encounter.pk}, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["encounters"],
    summary="The encounter: round, turn, order, combatants, log",
    parameters=[ENCOUNTER_ID],
    responses={200: EncounterSerializer, 401: E401, 404: E404},
)
@api_view(["GET"])
def encounter_detail(request, pk):
    return Response(_encounter_data(_encounter(request, pk), request.user))


@extend_schema(
    tags=["encounters"],
    summary="Add a combatant (GM only)",
    description="`{character}` adds a campaign character (its sheet takes the damage); `{name, build, count?, "
    "group?}` adds NPCs from a quick build (validated by the rules service: invalid → 422 with the report's "
    "errors). The GM adds PCs too.",
    parameters=[ENCOUNTER_ID],
    request=CombatantCreateSerializer,
    responses={201: CombatantCreatedSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def encounter_combatants(request, pk):
    encounter = _encounter(request, pk)
    data = validated(CombatantCreateSerializer, request)
    created = services.encounter_add_combatant(
        encounter=encounter,
        user=request.user,
        character=data.get("character"),
        name=data.get("name"),
        build=data.get("build"),
        count=data.get("count", 1),
        group=data.get("group", ""),
    )
    ids = [c.pk for c in created]
    return Response({"id": ids[0], "ids": ids}, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["encounters"],
    summary="Start the encounter (GM only): turn order, round 1",
    parameters=[ENCOUNTER_ID],
    request=None,
    responses={200: EncounterSerializer, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def encounter_start(request, pk):
    encounter = services.encounter_start(encounter=_encounter(request, pk), user=request.user)
    return Response(_encounter_data(encounter, request.user))


@extend_schema(
    tags=["encounters"],
    summary="Take an action for a combatant (its owner or the GM)",
    description='`{"combatant": 12, "action": "strike:0", "target": 14}` — the action ids and their parameters '
    "are the ruleset's (the page lists them). A refusal is 422 with the rule's code and changes nothing.",
    parameters=[ENCOUNTER_ID],
    request=ActionRequestSerializer,
    responses={200: EncounterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def encounter_actions(request, pk):
    encounter = _encounter(request, pk)
    data = validated(ActionRequestSerializer, request)
    raw = data["action"]
    extra = {
        k: v
        for k, v in request.data.items()
        if k not in ("combatant", "action", "expected_version", "private", "request_id")
    }
    action = {**extra, **raw} if isinstance(raw, dict) else {**extra, "action": raw}
    encounter = services.encounter_act(
        encounter=encounter,
        user=request.user,
        combatant_id=data["combatant"],
        action=action,
        expected_version=data.get("expected_version"),
        private=data.get("private", False),
        request_id=data.get("request_id"),
    )
    return Response(_encounter_data(encounter, request.user))


@extend_schema(
    tags=["encounters"],
    summary="End the current turn (the GM, or the player whose turn it is)",
    parameters=[ENCOUNTER_ID],
    request=NextTurnSerializer,
    responses={200: EncounterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def encounter_next_turn(request, pk):
    encounter = _encounter(request, pk)
    data = validated(NextTurnSerializer, request) if request.data else {}
    encounter = services.encounter_next_turn(
        encounter=encounter,
        user=request.user,
        expected_version=data.get("expected_version"),
        request_id=data.get("request_id"),
    )
    return Response(_encounter_data(encounter, request.user))


@extend_schema(
    tags=["encounters"],
    summary="End the encounter (GM only)",
    parameters=[ENCOUNTER_ID],
    request=None,
    responses={200: EncounterSerializer, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def encounter_end(request, pk):
    encounter = services.encounter_end(encounter=_encounter(request, pk), user=request.user)
    return Response(_encounter_data(encounter, request.user))
