"""/api/v1/campaigns/…: the same services as the pages (CONTRACT.md "Resources")."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.accounts.api import E429
from characters.accounts.throttling import JoinAttempt
from characters.campaigns import services
from characters.campaigns.selectors import (
    campaign_context,
    campaign_for_user,
    campaign_member,
    campaigns_for_user,
)
from characters.campaigns.serializers import (
    CampaignCreateSerializer,
    CampaignDetailSerializer,
    CampaignSummarySerializer,
    CampaignUpdateSerializer,
    JoinCodeSerializer,
    JoinResultSerializer,
    JoinSerializer,
)
from config.api import api_view, error_response, service_errors, validated
from config.schema import ErrorSerializer
from rulesets.engine import registry
from rulesets.serializers import RulesetDetailSerializer

User = get_user_model()

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(ErrorSerializer, description="Signed in, but only the campaign's GM may do this.")
E404 = OpenApiResponse(ErrorSerializer, description="No such campaign, or you are not a member of it.")


def _detail(campaign, request) -> Response:
    return Response(CampaignDetailSerializer(campaign, context={"request": request}).data)


# -------------------------------------------------------------- campaigns


@extend_schema(
    methods=["GET"],
    tags=["campaigns"],
    summary="The campaigns I belong to",
    responses={200: CampaignSummarySerializer(many=True), 401: E401},
)
@extend_schema(
    methods=["POST"],
    tags=["campaigns"],
    summary="Create a campaign; I am its GM",
    request=CampaignCreateSerializer,
    responses={201: CampaignDetailSerializer, 400: E400, 401: E401},
)
@api_view(["GET", "POST"])
def campaign_list(request):
    if request.method == "GET":
        campaigns = campaigns_for_user(request.user)
        return Response(CampaignSummarySerializer(campaigns, many=True, context={"request": request}).data)
    data = validated(CampaignCreateSerializer, request)
    with service_errors():
        campaign = services.campaign_create(
            gm=request.user, name=data["name"], ruleset=data["ruleset"], settings=data.get("settings")
        )
    response = _detail(campaign, request)
    response.status_code = status.HTTP_201_CREATED
    return response


@extend_schema(
    tags=["campaigns"],
    summary="Join a campaign with its join code",
    request=JoinSerializer,
    description="Wrong codes are limited per user and per IP (`JOIN_CODE_FAILURE_RATE`): past it, 429.",
    responses={200: JoinResultSerializer, 400: E400, 401: E401, 429: E429},
)
@api_view(["POST"])
def campaign_join(request):
    data = validated(JoinSerializer, request)
    attempt = JoinAttempt(request)
    if not attempt.allowed:
        response = error_response(attempt.message, status_code=429)
        response["Retry-After"] = str(attempt.wait)
        return response
    try:
        with service_errors():
            membership = services.campaign_join(user=request.user, join_code=data["join_code"])
    except serializers.ValidationError:
        attempt.failed()
        raise
    return Response({"id": membership.campaign_id, "role": membership.role})


@extend_schema(
    methods=["GET"],
    tags=["campaigns"],
    summary="A campaign I belong to, with its members",
    responses={200: CampaignDetailSerializer, 401: E401, 404: E404},
)
@extend_schema(
    methods=["PATCH"],
    tags=["campaigns"],
    summary="Rename the campaign or change its settings (GM only)",
    request=CampaignUpdateSerializer,
    responses={200: CampaignDetailSerializer, 400: E400, 401: E401, 403: E403, 404: E404},
)
@api_view(["GET", "PATCH"])
def campaign_detail(request, id: int):
    campaign = campaign_for_user(request.user, id)
    if request.method == "PATCH":
        data = validated(CampaignUpdateSerializer, request)
        with service_errors():
            campaign = services.campaign_update_settings(
                gm=request.user, campaign=campaign, name=data.get("name"), settings=data.get("settings")
            )
    return _detail(campaign, request)


@extend_schema(
    tags=["campaigns"],
    summary="Leave a campaign (players; the GM cannot leave)",
    request=None,
    responses={204: None, 400: E400, 401: E401, 404: E404},
)
@api_view(["POST"])
def campaign_leave(request, id: int):
    campaign = campaign_for_user(request.user, id)
    with service_errors():
        services.campaign_leave(user=request.user, campaign=campaign)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["campaigns"],
    summary="Remove a player from the campaign (GM only)",
    request=None,
    responses={204: None, 400: E400, 401: E401, 403: E403, 404: E404},
)
@api_view(["DELETE"])
def campaign_member_remove(request, id: int, user_id: int):
    campaign = campaign_for_user(request.user, id)
    if not campaign.is_gm(request.user):
        raise PermissionDenied("Only the campaign's GM may remove players.")
    membership = campaign_member(campaign, user_id)
    if membership is None:
        return Response({"detail": "No such member in this campaign.", "errors": []}, status=404)
    with service_errors():
        services.campaign_remove_player(gm=request.user, campaign=campaign, user=membership.user)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["campaigns"],
    summary="Make a new join code; the old one stops working (GM only)",
    request=None,
    responses={200: JoinCodeSerializer, 401: E401, 403: E403, 404: E404},
)
@api_view(["POST"])
def campaign_join_code(request, id: int):
    campaign = campaign_for_user(request.user, id)
    code = services.campaign_regenerate_join_code(gm=request.user, campaign=campaign)
    return Response({"join_code": code})


class CampaignCatalogueSerializer(RulesetDetailSerializer):
    house_rules = serializers.DictField(
        help_text="The house rules in force: the defaults with the campaign's own."
    )


@extend_schema(
    tags=["campaigns"],
    summary="The campaign's catalogue: its ruleset's, with the campaign's homebrew and house rules",
    description="The ruleset as `GET /api/v1/rulesets/<slug>/` describes it, seen through the campaign: "
    'each catalogue kind with the campaign\'s homebrew entries added (`"homebrew": true`; homebrew outcomes '
    "among them), and `house_rules`, the rules in force. Members only.",
    responses={200: CampaignCatalogueSerializer, 401: E401, 404: E404},
)
@api_view(["GET"])
def campaign_catalogue(request, id: int):
    campaign = campaign_for_user(request.user, id)
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return Response({"detail": "This campaign's ruleset is not available.", "errors": []}, status=404)
    ctx = campaign_context(campaign=campaign, ruleset=ruleset)
    return Response({**ruleset.describe(ctx), "house_rules": ctx.settings})


urlpatterns = [
    path("campaigns/", campaign_list, name="api-campaign-list"),
    path("campaigns/join/", campaign_join, name="api-campaign-join"),
    path("campaigns/<int:id>/", campaign_detail, name="api-campaign-detail"),
    path("campaigns/<int:id>/leave/", campaign_leave, name="api-campaign-leave"),
    path("campaigns/<int:id>/members/<int:user_id>/", campaign_member_remove, name="api-campaign-member"),
    path("campaigns/<int:id>/join-code/", campaign_join_code, name="api-campaign-join-code"),
    path("campaigns/<int:id>/catalogue/", campaign_catalogue, name="api-campaign-catalogue"),
]
