"""/api/v1/…: awards, advancement requests, GM review, undo and the ledger.

The same services as the pages (``characters.advancement.services``). What the user may
not see is 404; a GM-only action by a player is 403 (a player cannot approve their own
request or award themselves); a race or a stale request is 409; bad input 400; a rules
refusal 422. Documented additions to CONTRACT.md's list:

- ``POST /campaigns/<id>/awards/ {currency, amount, reason, characters?}`` GM only → 201
  ``{"entries": [...]}``: one ledger row per active character (or per listed character).
- ``GET /characters/<id>/advancements/``: that character's requests, newest first.
- ``GET /advancements/<id>/``; ``POST /advancements/<id>/revert/ {reason}`` GM only → 200
  ``{status: "reverted"}``; ``POST /advancements/<id>/withdraw/`` owner → 200.
- ``POST /characters/<id>/activities/ {activities: [ids], note?}`` owner → 201 the request (``kind``
  "activities"): what an active character does between adventures, for the GM to approve.
- ``GET /characters/<id>/ledger/`` → ``{"entries": [... each with "balance" after it],
  "balance": {currency: unspent}, "awarded": {...}, "spent": {...}}``.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.advancement import selectors as sel
from characters.advancement import services as svc
from characters.advancement.serializers import (
    ActivitiesRequestSerializer,
    AdvancementRequestSerializer,
    AdvancementSerializer,
    AwardRequestSerializer,
    LedgerEntrySerializer,
    LedgerSerializer,
    PartyAwardRequestSerializer,
    PartyAwardSerializer,
    RevertSerializer,
)
from characters.builder.serializers import CommentSerializer, RejectSerializer
from characters.campaigns.selectors import campaign_for_user
from characters.models import Advancement
from characters.selectors import character_for_user
from config.api import api_view, query_id, validated
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(
    ErrorSerializer, description="Only the campaign's GM (or the character's owner) may do this."
)
E404 = OpenApiResponse(
    ErrorSerializer, description="No such character, campaign or request, or you may not see it."
)
E409 = OpenApiResponse(
    ErrorSerializer,
    description="Not pending any more, made stale by another approved change, or the points are gone.",
)
E422 = OpenApiResponse(
    ErrorSerializer, description="The rules refuse this; `errors` carries the codes and paths."
)


@extend_schema(
    tags=["advancement"],
    summary="Award points to a character",
    description="GM only. `currency` must be one of the ruleset's awardable currencies (GET /rulesets/<slug>/ "
    "`awardable`); `amount` a positive whole number. Returns the ledger entry.",
    request=AwardRequestSerializer,
    responses={201: LedgerEntrySerializer, 400: E400, 401: E401, 403: E403, 404: E404},
)
@api_view(["POST"])
def character_award(request, id):
    data = validated(AwardRequestSerializer, request)
    rows = svc.award_create(
        gm=request.user,
        character_id=id,
        currency=data["currency"],
        amount=data["amount"],
        reason=data["reason"],
    )
    return Response(LedgerEntrySerializer(rows[0]).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["advancement"],
    summary="Award points to the party",
    description="GM only. One ledger row per active character of the campaign (or per listed character), in one "
    "transaction.",
    request=PartyAwardRequestSerializer,
    responses={201: PartyAwardSerializer, 400: E400, 401: E401, 403: E403, 404: E404},
)
@api_view(["POST"])
def campaign_award(request, id):
    campaign = campaign_for_user(request.user, id)
    data = validated(PartyAwardRequestSerializer, request)
    rows = svc.award_create(
        gm=request.user,
        campaign=campaign,
        character_ids=data.get("characters"),
        currency=data["currency"],
        amount=data["amount"],
        reason=data["reason"],
    )
    return Response({"entries": LedgerEntrySerializer(rows, many=True).data}, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["advancement"],
    summary="Pick what a character does between adventures",
    description="The owner picks 1 to the ruleset's `activities_max` activities (its catalogue's `activities`: "
    "training, medicinal treatment, acts of charity…) for an active character: a pending request "
    '(`kind: "activities"`) in the GM\'s review queue. Approving it (POST /advancements/<id>/approve/) applies what '
    "each does (pools regained, the server's rolls) and books its awards as ledger rows; `outcome` says what "
    "happened. Unknown activities, too many, or over an activity's limit are a 422 with the codes "
    "(`activity.unknown`, `activity.count`, the ruleset's own) and paths `/activities/<i>`. A pending "
    "activities request of the same character is withdrawn (superseded).",
    request=ActivitiesRequestSerializer,
    responses={201: AdvancementSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def character_activities(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(ActivitiesRequestSerializer, request)
    advancement = svc.activities_request(
        character_id=character.id, user=request.user, activities=data["activities"], note=data["note"]
    )
    return Response(AdvancementSerializer(advancement).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["advancement"],
    summary="A character's requests, newest first",
    responses={200: AdvancementSerializer(many=True), 401: E401, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["advancement"],
    summary="Request an advancement",
    description="The owner proposes a whole new build for an active character. It is priced against the approved "
    "build with the budget from the ledger and checked as for approval (the ruleset's advancement rules "
    "included). An invalid build is a 422 with the errors. A pending request of the same character is withdrawn "
    "(superseded) by the new one.",
    request=AdvancementRequestSerializer,
    responses={201: AdvancementSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def character_advancements(request, id):
    character = character_for_user(user=request.user, character_id=id)
    if request.method == "GET":
        qs = sel.advancements_for_user(user=request.user).filter(character=character)
        return Response(AdvancementSerializer(qs, many=True).data)
    data = validated(AdvancementRequestSerializer, request)
    advancement = svc.advancement_request(
        character_id=character.id, user=request.user, build=data["build"], note=data["note"]
    )
    return Response(AdvancementSerializer(advancement).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["advancement"],
    summary="Requests I may see",
    description="The GM sees every request of the campaigns they run; a player sees their own. `?campaign=<id>` "
    "narrows to one campaign (404 when I am not a member); `?status=pending` is the GM's review queue.",
    parameters=[
        OpenApiParameter(
            "campaign",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            required=False,
            description="A campaign id",
        ),
        OpenApiParameter("status", str, required=False, enum=[s for s, _ in Advancement.Status.choices]),
    ],
    responses={200: AdvancementSerializer(many=True), 400: E400, 401: E401, 404: E404},
)
@api_view(["GET"])
def advancement_list(request):
    campaign = None
    campaign_id = query_id(request, "campaign")
    if campaign_id is not None:
        campaign = campaign_for_user(request.user, campaign_id)
    wanted = request.query_params.get("status") or None
    if wanted is not None and wanted not in Advancement.Status.values:
        raise serializers.ValidationError({"status": [f"One of {', '.join(Advancement.Status.values)}."]})
    qs = sel.advancements_for_user(user=request.user, campaign=campaign, status=wanted)
    return Response(AdvancementSerializer(qs[:500], many=True).data)


@extend_schema(
    tags=["advancement"], summary="A request", responses={200: AdvancementSerializer, 401: E401, 404: E404}
)
@api_view(["GET"])
def advancement_detail(request, id):
    return Response(
        AdvancementSerializer(sel.advancement_for_user(user=request.user, advancement_id=id)).data
    )


@extend_schema(
    tags=["advancement"],
    summary="Approve a request (GM)",
    description="Re-validated under a row lock and applied in one transaction: the new build, a new version, the "
    "spend ledger rows. 409 when it is not pending, stale (another change was approved since) or the points are "
    "no longer unspent; 422 when the rules refuse it now.",
    request=CommentSerializer,
    responses={200: AdvancementSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def advancement_approve(request, id):
    data = validated(CommentSerializer, request)
    advancement = svc.advancement_approve(advancement_id=id, gm=request.user, comment=data["comment"])
    return Response(AdvancementSerializer(advancement).data)


@extend_schema(
    tags=["advancement"],
    summary="Reject a request (GM)",
    description="A comment is required. Nothing is applied and nothing booked.",
    request=RejectSerializer,
    responses={200: AdvancementSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
)
@api_view(["POST"])
def advancement_reject(request, id):
    data = validated(RejectSerializer, request)
    advancement = svc.advancement_reject(advancement_id=id, gm=request.user, comment=data["comment"])
    return Response(AdvancementSerializer(advancement).data)


@extend_schema(
    tags=["advancement"],
    summary="Revert an approved request (GM)",
    description="A new version restoring the build before it and reversal ledger rows; nothing is deleted. Only "
    "the latest change of the build can be reverted (409 with the reason otherwise).",
    request=RevertSerializer,
    responses={200: AdvancementSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
)
@api_view(["POST"])
def advancement_revert(request, id):
    data = validated(RevertSerializer, request)
    advancement = svc.advancement_revert(advancement_id=id, gm=request.user, reason=data["reason"])
    return Response(AdvancementSerializer(advancement).data)


@extend_schema(
    tags=["advancement"],
    summary="Withdraw my pending request",
    request=None,
    responses={200: AdvancementSerializer, 401: E401, 403: E403, 404: E404, 409: E409},
)
@api_view(["POST"])
def advancement_withdraw(request, id):
    advancement = svc.advancement_withdraw(advancement_id=id, user=request.user)
    return Response(AdvancementSerializer(advancement).data)


@extend_schema(
    tags=["advancement"],
    summary="The ledger: awards and spends with running balances",
    responses={200: LedgerSerializer, 401: E401, 404: E404},
)
@api_view(["GET"])
def character_ledger(request, id):
    character = character_for_user(user=request.user, character_id=id)
    totals = sel.ledger_totals(character=character)
    return Response(
        {
            "entries": _ledger_lines(sel.ledger_entries(character=character)),
            "balance": {c: line["unspent"] for c, line in totals.items()},
            "awarded": {c: line["awarded"] for c, line in totals.items()},
            "spent": {c: line["spent"] for c, line in totals.items()},
        }
    )


def _ledger_lines(entries):
    """Datetimes as ISO strings, like every other answer."""
    return [{**e, "created": e["created"].isoformat().replace("+00:00", "Z")} for e in entries]


urlpatterns = [
    path("characters/<int:id>/awards/", character_award, name="api-character-awards"),
    path("campaigns/<int:id>/awards/", campaign_award, name="api-campaign-awards"),
    path("characters/<int:id>/advancements/", character_advancements, name="api-character-advancements"),
    path("characters/<int:id>/activities/", character_activities, name="api-character-activities"),
    path("characters/<int:id>/ledger/", character_ledger, name="api-character-ledger"),
    path("advancements/", advancement_list, name="api-advancement-list"),
    path("advancements/<int:id>/", advancement_detail, name="api-advancement-detail"),
    path("advancements/<int:id>/approve/", advancement_approve, name="api-advancement-approve"),
    path("advancements/<int:id>/reject/", advancement_reject, name="api-advancement-reject"),
    path("advancements/<int:id>/revert/", advancement_revert, name="api-advancement-revert"),
    path("advancements/<int:id>/withdraw/", advancement_withdraw, name="api-advancement-withdraw"),
]
