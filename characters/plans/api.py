"""/api/v1/…: plans (CONTRACT.md "A campaign's months").

- ``GET|POST /characters/<id>/plans/``: the owner (the GM may GET) → 201 the plan, a draft.
- ``GET|PUT|DELETE /plans/<id>/``: the owner edits a plan not approved (PUT → draft again).
- ``POST /plans/<id>/submit/`` (owner), ``/approve/ {comment?}`` and ``/reject/ {comment}`` (GM).

The same services as the pages. What the user may not see is 404; what they may not do 403; a
plan in the wrong status 409; the rules' refusal 422 (each step's words); bad input 400.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from characters.plans import services as svc
from characters.plans.selectors import plan_for_user, plan_refused_now, plans_of
from characters.plans.serializers import (
    PlanCommentSerializer,
    PlanRejectSerializer,
    PlanSerializer,
    PlanUpdateSerializer,
    PlanWriteSerializer,
)
from characters.selectors import character_for_user
from config.api import api_view, validated
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(ErrorSerializer, description="Only the owner (or, to review, the campaign's GM) may.")
E404 = OpenApiResponse(ErrorSerializer, description="No such character or plan, or you may not see it.")
E409 = OpenApiResponse(ErrorSerializer, description="The plan is not in a status that allows this.")
E422 = OpenApiResponse(ErrorSerializer, description="The rules refuse a step; `errors` names each.")


def _shown(plan):
    plan_refused_now(plan=plan)
    return PlanSerializer(plan).data


@extend_schema(
    tags=["plans"],
    summary="A character's plans",
    responses={200: PlanSerializer(many=True), 401: E401, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["plans"],
    summary="Plan a character's next steps",
    description="The owner. Each step is a whole build, validated and priced against the step before it (the "
    "first against the approved build) in the approval phase; points not awarded yet do not refuse a step "
    "(`needs` says how many it takes). A step the rules refuse or one that changes nothing is a 422.",
    request=PlanWriteSerializer,
    responses={201: PlanSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def character_plans(request, id):
    character = character_for_user(user=request.user, character_id=id)
    if request.method == "GET":
        return Response([_shown(p) for p in plans_of(character=character)[:100]])
    data = validated(PlanWriteSerializer, request)
    plan = svc.plan_create(
        character_id=character.id, user=request.user, name=data["name"], steps=data["steps"]
    )
    return Response(_shown(plan), status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["plans"], summary="A plan", responses={200: PlanSerializer, 401: E401, 404: E404}, methods=["GET"]
)
@extend_schema(
    tags=["plans"],
    summary="Edit a plan (owner)",
    description="A plan that is not approved: its steps priced and checked again; it is a draft again.",
    request=PlanUpdateSerializer,
    responses={200: PlanSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
    methods=["PUT"],
)
@extend_schema(
    tags=["plans"],
    summary="Delete a plan (owner)",
    request=None,
    responses={204: None, 401: E401, 403: E403, 404: E404},
    methods=["DELETE"],
)
@api_view(["GET", "PUT", "DELETE"])
def plan_detail(request, id):
    if request.method == "GET":
        return Response(_shown(plan_for_user(user=request.user, plan_id=id)))
    if request.method == "DELETE":
        svc.plan_delete(plan_id=id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
    data = validated(PlanUpdateSerializer, request)
    plan = svc.plan_update(plan_id=id, user=request.user, name=data.get("name"), steps=data["steps"])
    return Response(_shown(plan))


@extend_schema(
    tags=["plans"],
    summary="Send a plan to the GM (owner)",
    request=None,
    responses={200: PlanSerializer, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def plan_submit(request, id):
    return Response(_shown(svc.plan_submit(plan_id=id, user=request.user)))


@extend_schema(
    tags=["plans"],
    summary="Approve a plan (GM)",
    description="Every step checked again under the campaign's rules of today (a step they now refuse: 422, "
    "nothing approved). The character's plan approved before it is retired.",
    request=PlanCommentSerializer,
    responses={200: PlanSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def plan_approve(request, id):
    data = validated(PlanCommentSerializer, request)
    return Response(_shown(svc.plan_approve(plan_id=id, gm=request.user, comment=data["comment"])))


@extend_schema(
    tags=["plans"],
    summary="Reject a plan (GM)",
    description="A comment is required.",
    request=PlanRejectSerializer,
    responses={200: PlanSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
)
@api_view(["POST"])
def plan_reject(request, id):
    data = validated(PlanRejectSerializer, request)
    return Response(_shown(svc.plan_reject(plan_id=id, gm=request.user, comment=data["comment"])))


urlpatterns = [
    path("characters/<int:id>/plans/", character_plans, name="api-character-plans"),
    path("plans/<int:id>/", plan_detail, name="api-plan-detail"),
    path("plans/<int:id>/submit/", plan_submit, name="api-plan-submit"),
    path("plans/<int:id>/approve/", plan_approve, name="api-plan-approve"),
    path("plans/<int:id>/reject/", plan_reject, name="api-plan-reject"),
]
