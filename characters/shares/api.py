"""/api/v1/…: share links (CONTRACT.md "A campaign's months").

- ``GET|POST /characters/<id>/shares/``: the owner or the GM → 201 ``{token, url, created}``;
  GET lists the links that work.
- ``DELETE /characters/<id>/shares/<token>/``: the owner or the GM → 204; the link is a 404 at
  once and its open sockets close.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from characters.shares import services as svc
from characters.shares.selectors import shares_of
from characters.shares.serializers import ShareLinkSerializer
from config.api import api_view
from config.schema import ErrorSerializer

E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(ErrorSerializer, description="Only the owner and the campaign's GM share a sheet.")
E404 = OpenApiResponse(ErrorSerializer, description="No such character or link, or you may not see it.")


@extend_schema(
    tags=["shares"],
    summary="A character's share links",
    responses={200: ShareLinkSerializer(many=True), 401: E401, 403: E403, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["shares"],
    summary="Share a character's sheet by link",
    description="The owner or the GM. Anyone with the URL sees the sheet read-only and live: the build, its "
    "numbers, the play state, effects and public rolls; never GM-private rolls or anything only the GM sees.",
    request=None,
    responses={201: ShareLinkSerializer, 401: E401, 403: E403, 404: E404},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def character_shares(request, id):
    if request.method == "GET":
        character = svc.share_manager(user=request.user, character_id=id)
        links = shares_of(character=character)
        return Response(ShareLinkSerializer(links, many=True, context={"request": request}).data)
    link = svc.share_create(user=request.user, character_id=id)
    return Response(
        ShareLinkSerializer(link, context={"request": request}).data, status=status.HTTP_201_CREATED
    )


@extend_schema(
    tags=["shares"],
    summary="Revoke a share link",
    description="The link is a 404 at once; the sheets open on it stop.",
    request=None,
    responses={204: None, 401: E401, 403: E403, 404: E404},
)
@api_view(["DELETE"])
def character_share(request, id, token):
    svc.share_revoke(user=request.user, character_id=id, token=token)
    return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("characters/<int:id>/shares/", character_shares, name="api-character-shares"),
    path("characters/<int:id>/shares/<str:token>/", character_share, name="api-character-share"),
]
