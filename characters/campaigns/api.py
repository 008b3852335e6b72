"""/api/v1/auth/… and /api/v1/campaigns/…: the same services as the pages (CONTRACT.md "Resources")."""

from __future__ import annotations

from contextlib import contextmanager

from django.contrib.auth import authenticate, get_user_model
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import authentication_classes, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.accounts.auth import ApiTokenAuthentication
from characters.accounts.services import account_token_create, account_token_revoke
from characters.accounts.throttling import AuthTokenThrottle, JoinAttempt, lockout_response
from characters.campaigns import services
from characters.campaigns.selectors import campaign_for_user, campaign_member, campaigns_for_user
from characters.campaigns.serializers import (
    CampaignCreateSerializer,
    CampaignDetailSerializer,
    CampaignSummarySerializer,
    CampaignUpdateSerializer,
    ErrorSerializer,
    JoinCodeSerializer,
    JoinResultSerializer,
    JoinSerializer,
    RegisterSerializer,
    TokenRequestSerializer,
    TokenSerializer,
    UserSerializer,
)
from characters.models import ApiToken
from config.api import SafeJSONParser, api_view, error_response, validated

User = get_user_model()

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(ErrorSerializer, description="Signed in, but only the campaign's GM may do this.")
E404 = OpenApiResponse(ErrorSerializer, description="No such campaign, or you are not a member of it.")


@contextmanager
def _service_errors():
    """A service's Django ValidationError becomes the API's 400 with the same reasons."""
    try:
        yield
    except DjangoValidationError as exc:
        raise serializers.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        ) from exc


def _detail(campaign, request) -> Response:
    return Response(CampaignDetailSerializer(campaign, context={"request": request}).data)


# ------------------------------------------------------------------- auth


@extend_schema(
    tags=["auth"],
    summary="Create an account",
    request=RegisterSerializer,
    responses={201: UserSerializer, 400: E400},
    auth=[],
)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
def auth_register(request):
    data = validated(RegisterSerializer, request)
    with _service_errors():
        user = services.account_register(username=data["username"], password=data["password"])
    return Response({"id": user.pk, "username": user.get_username()}, status=status.HTTP_201_CREATED)


E429 = OpenApiResponse(
    ErrorSerializer,
    description="Too many attempts: wait the seconds in `Retry-After` (the right password too, during a lock-out).",
)


class AuthTokenView(APIView):
    """``POST``: a new token for this device or client; ``DELETE``: revoke the token in use.

    Sign-in failures count towards django-axes' lock-out (characters/accounts/throttling.py), shared with
    the login page; every request also counts towards ``AUTH_TOKEN_RATE`` per IP.
    """

    authentication_classes = [ApiTokenAuthentication, SessionAuthentication]
    parser_classes = [SafeJSONParser]

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "POST" else [IsAuthenticated()]

    def get_throttles(self):
        return [AuthTokenThrottle()] if self.request.method == "POST" else []

    def perform_authentication(self, request):
        """POST signs in with a password: an old or broken ``Authorization`` header is ignored."""
        if request.method != "POST":
            request.user  # noqa: B018  (authenticates now: 401 before anything else)

    @extend_schema(
        tags=["auth"],
        summary="Get a new API token for a username and password",
        description="Send it as `Authorization: Token <token>`. Each call issues another token (one per "
        "device or client, named by `name`); the account page lists them. A token expires after "
        "`API_TOKEN_TTL_DAYS` when the server sets it, and is revoked by "
        "`DELETE /api/v1/auth/token/` or a password change. After `LOGIN_FAILURE_LIMIT` failed sign-ins "
        "for a username or from an IP, sign-ins are refused with 429 for the cooling-off period.",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, 400: E400, 429: E429},
        auth=[],
    )
    def post(self, request):
        data = validated(TokenRequestSerializer, request)
        http_request = request._request  # django-axes flags a lock-out on Django's request
        user = authenticate(http_request, username=data["username"], password=data["password"])
        if getattr(http_request, "axes_locked_out", False):
            return lockout_response(http_request)
        if user is None:
            raise serializers.ValidationError(
                {"non_field_errors": ["Unable to log in with provided credentials."]}
            )
        _, key = account_token_create(user=user, name=data.get("name"))
        return Response({"token": key})  # exactly CONTRACT.md's shape; the account page lists the rest

    @extend_schema(
        tags=["auth"],
        summary="Revoke the token this request is signed with",
        request=None,
        responses={204: None, 400: E400, 401: E401},
    )
    def delete(self, request):
        if not isinstance(request.auth, ApiToken):
            return error_response("This request is not signed with an API token.", status_code=400)
        account_token_revoke(user=request.user, token_id=request.auth.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


auth_token = AuthTokenView.as_view()


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
    with _service_errors():
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
        with _service_errors():
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
        with _service_errors():
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
    with _service_errors():
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
    with _service_errors():
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


urlpatterns = [
    path("auth/register/", auth_register, name="api-auth-register"),
    path("auth/token/", auth_token, name="api-auth-token"),
    path("campaigns/", campaign_list, name="api-campaign-list"),
    path("campaigns/join/", campaign_join, name="api-campaign-join"),
    path("campaigns/<int:id>/", campaign_detail, name="api-campaign-detail"),
    path("campaigns/<int:id>/leave/", campaign_leave, name="api-campaign-leave"),
    path("campaigns/<int:id>/members/<int:user_id>/", campaign_member_remove, name="api-campaign-member"),
    path("campaigns/<int:id>/join-code/", campaign_join_code, name="api-campaign-join-code"),
]
