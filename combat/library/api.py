"""/api/v1/npcs/… and /api/v1/encounters/<id>/combatants/library/: the GM's NPC library, the
same services as its pages (``combat.library.views``).

The library is the GM's: a library NPC (or a campaign) of a campaign I am not in is a 404; a
player of the campaign is refused with 403, reading or writing. An NPC is checked as an NPC:
not held to the players' starting budget (what it would cost is in its report, an overspend a
``budget.exceeded`` warning), but every other rule holds (an invalid build is a 422 with the
report's errors, nothing saved). Adding N of one to an encounter answers ``{id, ids}`` like
``POST /api/v1/encounters/<id>/combatants/``.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.selectors import is_campaign_gm
from combat.library import services
from combat.models import LibraryNpc
from combat.selectors import encounter_for_user, encounter_is_gm, library_npc_for_user, npcs_of_gm
from combat.serializers import (
    CombatantCreatedSerializer,
    LibraryAddSerializer,
    LibraryNpcCreateSerializer,
    LibraryNpcSerializer,
    LibraryNpcUpdateSerializer,
)
from config.api import api_view, query_id, validated
from config.errors import NotPermitted
from config.schema import ErrorSerializer

E400 = OpenApiResponse(
    ErrorSerializer, description="Invalid input (a build without a name…); `errors` says what."
)
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(
    ErrorSerializer, description="A player of the campaign: only its GM keeps the NPC library."
)
E404 = OpenApiResponse(
    ErrorSerializer, description="No such NPC (or campaign, or encounter), or you are not in its campaign."
)
E422 = OpenApiResponse(
    ErrorSerializer, description="The rules refuse the build; `errors` carry the report's codes."
)
NPC_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="A library NPC id")
ENCOUNTER_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="An encounter id")
GM_ONLY = "Only the campaign's GM keeps its NPC library."


def _gm_npc(request, pk) -> LibraryNpc:
    npc = library_npc_for_user(user=request.user, npc_id=pk)  # 404 outside the campaign
    if not is_campaign_gm(request.user, npc.campaign):
        raise NotPermitted(GM_ONLY)
    return npc


def _data(npc: LibraryNpc) -> dict:
    return LibraryNpcSerializer(npc).data


@extend_schema(
    tags=["npcs"],
    summary="The NPC libraries of the campaigns I run",
    description="`?campaign=<id>` narrows to one campaign: 404 when I am not in it, 403 when I am one "
    "of its players.",
    parameters=[
        OpenApiParameter(
            "campaign",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            required=False,
            description="A campaign id",
        )
    ],
    responses={200: LibraryNpcSerializer(many=True), 400: E400, 401: E401, 403: E403, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["npcs"],
    summary="Keep an NPC in the campaign's library (GM only)",
    request=LibraryNpcCreateSerializer,
    responses={201: LibraryNpcSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def npc_list(request):
    if request.method == "GET":
        campaign_id = query_id(request, "campaign")
        campaign = None
        if campaign_id is not None:
            campaign = campaign_for_user(request.user, campaign_id)
            if not is_campaign_gm(request.user, campaign):
                raise NotPermitted(GM_ONLY)
        return Response(
            LibraryNpcSerializer(npcs_of_gm(user=request.user, campaign=campaign), many=True).data
        )
    data = validated(LibraryNpcCreateSerializer, request)
    campaign = campaign_for_user(request.user, data["campaign"])
    npc = services.npc_save(campaign=campaign, user=request.user, build=data["build"])
    return Response(_data(npc), status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["npcs"],
    summary="A library NPC (GM only)",
    parameters=[NPC_ID],
    responses={200: LibraryNpcSerializer, 401: E401, 403: E403, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["npcs"],
    summary="Replace a library NPC's build (GM only)",
    description="Encounters it was added to keep their copies.",
    parameters=[NPC_ID],
    request=LibraryNpcUpdateSerializer,
    responses={200: LibraryNpcSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
    methods=["PUT"],
)
@extend_schema(
    tags=["npcs"],
    summary="Take an NPC out of the library (GM only)",
    description="Combatants made from it stay in their encounters.",
    parameters=[NPC_ID],
    request=None,
    responses={204: None, 401: E401, 403: E403, 404: E404},
    methods=["DELETE"],
)
@api_view(["GET", "PUT", "DELETE"])
def npc_detail(request, pk):
    npc = _gm_npc(request, pk)
    if request.method == "GET":
        return Response(_data(npc))
    if request.method == "DELETE":
        services.npc_delete(campaign=npc.campaign, user=request.user, npc_id=npc.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = validated(LibraryNpcUpdateSerializer, request)
    npc = services.npc_save(campaign=npc.campaign, user=request.user, build=data["build"], npc_id=npc.pk)
    return Response(_data(npc))


@extend_schema(
    tags=["encounters"],
    summary="Add N of a library NPC to the encounter (GM only)",
    description="`{npc, count?}`: “Bandit 1…N”, one group. An NPC not in the encounter's campaign's "
    "library is a 404.",
    parameters=[ENCOUNTER_ID],
    request=LibraryAddSerializer,
    responses={201: CombatantCreatedSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def encounter_add_from_library(request, pk):
    encounter = encounter_for_user(user=request.user, encounter_id=pk)
    if not encounter_is_gm(
        request.user, encounter
    ):  # access first: a player's post is a 403 whatever it holds
        raise NotPermitted("Only the GM may add combatants.")
    data = validated(LibraryAddSerializer, request)
    if not LibraryNpc.objects.filter(pk=data["npc"], campaign_id=encounter.campaign_id).exists():
        raise Http404("No such NPC in this campaign's library.")
    created = services.encounter_add_from_library(
        encounter=encounter, user=request.user, npc_id=data["npc"], count=data["count"]
    )
    ids = [c.pk for c in created]
    return Response({"id": ids[0], "ids": ids}, status=status.HTTP_201_CREATED)


urlpatterns = [
    path("npcs/", npc_list, name="api-npc-list"),
    path("npcs/<int:pk>/", npc_detail, name="api-npc-detail"),
    path(
        "encounters/<int:pk>/combatants/library/",
        encounter_add_from_library,
        name="api-encounter-combatants-library",
    ),
]
