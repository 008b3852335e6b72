"""/api/v1/auth/…: sign-up and API tokens, the same services as the pages (CONTRACT.md "Resources")."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.decorators import authentication_classes, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from characters.accounts.auth import ApiTokenAuthentication
from characters.accounts.serializers import (
    RegisterSerializer,
    TokenRequestSerializer,
    TokenSerializer,
    UserSerializer,
)
from characters.accounts.services import account_register, account_token_create, account_token_revoke
from characters.accounts.throttling import AuthTokenThrottle, lockout_response
from characters.models import ApiToken
from config.api import SafeJSONParser, api_view, error_response, service_errors, validated
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")


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
    with service_errors():
        user = account_register(username=data["username"], password=data["password"])
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


urlpatterns = [
    path("auth/register/", auth_register, name="api-auth-register"),
    path("auth/token/", auth_token, name="api-auth-token"),
]
