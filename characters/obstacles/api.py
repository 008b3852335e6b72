"""The obstacles' API (CONTRACT.md "The whole rulebook"): ``POST/GET /api/v1/campaigns/<id>/obstacles/``
(the GM creates, members list), ``GET | PATCH | DELETE /api/v1/obstacles/<id>/`` (the GM; members may
GET). A secret obstacle's ``level`` is null for players."""

from __future__ import annotations

from django.http import Http404
from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.models import Obstacle
from characters.obstacles import services
from characters.obstacles.selectors import campaign_obstacles, obstacle_view
from characters.selectors import is_campaign_gm
from config.api import api_view
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E403 = OpenApiResponse(ErrorSerializer, description="Only the campaign's GM may do this.")
E404 = OpenApiResponse(ErrorSerializer, description="No such obstacle or campaign, or you are not a member.")


class ObstacleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    level = serializers.IntegerField(allow_null=True, help_text="null for players when secret")
    ep = serializers.IntegerField()
    resolved = serializers.BooleanField()
    secret = serializers.BooleanField()
    within_rounds = serializers.IntegerField(allow_null=True)
    encounter = serializers.IntegerField(allow_null=True)
    character = serializers.IntegerField(allow_null=True)
    effect = serializers.CharField(allow_null=True)


class ObstacleCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    level = serializers.IntegerField(min_value=1, max_value=services.MAX_LEVEL)
    secret = serializers.BooleanField(required=False)
    within_rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=services.MAX_ROUNDS
    )
    encounter = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    character = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    effect = serializers.CharField(required=False, allow_null=True, max_length=40)


class ObstacleWriteSerializer(serializers.Serializer):
    name = serializers.CharField(required=False, max_length=120)
    level = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_LEVEL)
    secret = serializers.BooleanField(required=False)
    within_rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=services.MAX_ROUNDS
    )
    encounter = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    character = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    effect = serializers.CharField(required=False, allow_null=True, max_length=40)
    ep = serializers.IntegerField(required=False, min_value=0, help_text="PATCH only: the EP put in so far")


def _shape(view: dict) -> dict:
    return {k: v for k, v in view.items() if k != "text"}


def _obstacle_for_user(user, pk: int) -> Obstacle:
    obstacle = Obstacle.objects.select_related("campaign").filter(pk=pk).first()
    if obstacle is None:
        raise Http404("No such obstacle.")
    campaign_for_user(user, obstacle.campaign_id)  # 404 for anyone not in the campaign
    return obstacle


def _body(request, serializer_class=None) -> dict:
    data = request.data if isinstance(request.data, dict) else {}
    serializer = (serializer_class or ObstacleWriteSerializer)(data=data)
    serializer.is_valid(raise_exception=True)
    return {k: data[k] for k in data if k in serializer.fields}


@extend_schema(
    methods=["GET"],
    tags=["obstacles"],
    summary="The campaign's obstacles (members)",
    responses={200: ObstacleSerializer(many=True), 404: E404},
)
@extend_schema(
    methods=["POST"],
    tags=["obstacles"],
    summary="Set an obstacle (GM only)",
    request=ObstacleCreateSerializer,
    responses={201: ObstacleSerializer, 400: E400, 403: E403, 404: E404},
)
@api_view(["GET", "POST"])
def campaign_obstacles_view(request, id: int):
    campaign = campaign_for_user(request.user, id)
    if request.method == "GET":
        return Response([_shape(v) for v in campaign_obstacles(campaign=campaign, user=request.user)])
    obstacle = services.obstacle_create(
        campaign=campaign, user=request.user, data=_body(request, ObstacleCreateSerializer)
    )
    return Response(_shape(obstacle_view(obstacle, is_gm=True)), status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"], tags=["obstacles"], summary="An obstacle", responses={200: ObstacleSerializer, 404: E404}
)
@extend_schema(
    methods=["PATCH"],
    tags=["obstacles"],
    summary="Change an obstacle (GM only)",
    request=ObstacleWriteSerializer,
    responses={200: ObstacleSerializer, 400: E400, 403: E403, 404: E404},
)
@extend_schema(
    methods=["DELETE"],
    tags=["obstacles"],
    summary="Remove an obstacle (GM only)",
    responses={204: None, 403: E403, 404: E404},
)
@api_view(["GET", "PATCH", "DELETE"])
def obstacle_detail(request, id: int):
    obstacle = _obstacle_for_user(request.user, id)
    if request.method == "PATCH":
        obstacle = services.obstacle_update(obstacle=obstacle, user=request.user, data=_body(request))
    elif request.method == "DELETE":
        services.obstacle_delete(obstacle=obstacle, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
    return Response(_shape(obstacle_view(obstacle, is_gm=is_campaign_gm(request.user, obstacle.campaign))))


urlpatterns = [
    path("campaigns/<int:id>/obstacles/", campaign_obstacles_view, name="api-campaign-obstacles"),
    path("obstacles/<int:id>/", obstacle_detail, name="api-obstacle-detail"),
]
