"""/api/v1/characters/…: characters, drafts, submit, export, history and play state.

The same services as the builder pages. A character the user may not see is 404;
an action they may not take on one they can see is 403 (the GM saving a player's
build); a stale ``version`` is 409; a rules refusal (submitting an invalid build,
saving an active character's build) is 422.

Choices documented here (CONTRACT.md leaves them open):

- ``POST /characters/`` with a build naming another ruleset than the campaign's is a
  400 with a ``ruleset.unknown`` error at ``/build/ruleset``: nothing is saved. Any other
  invalid build is saved as a draft with its report (201).
- ``budget`` is ``{currency: {"total", "spent", "unspent"}}``: total = the sum of the
  character's ledger award rows (the starting budget is the first), or for a currency
  the GM does not award (one the rules derive) the report's budget; spent = the
  report's; unspent = total − spent.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.builder import approval
from characters.builder import services as svc
from characters.builder.serializers import (
    BuildDocumentSerializer,
    CharacterCreateSerializer,
    CharacterDraftSerializer,
    CharacterRevertSerializer,
    CharacterSerializer,
    CharacterStateSerializer,
    CharacterSubmitSerializer,
    CharacterSummarySerializer,
    CommentSerializer,
    RejectSerializer,
    VersionSerializer,
)
from characters.campaigns.selectors import campaign_for_user
from characters.selectors import (
    character_budgets,
    character_for_user,
    character_versions,
    characters_visible_to,
)
from characters.sheet.services import character_update_state
from config.api import api_view, query_id, validated
from config.errors import BadInput
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="Invalid input; `errors` says what and why.")
E401 = OpenApiResponse(ErrorSerializer, description="Not signed in.")
E403 = OpenApiResponse(
    ErrorSerializer,
    description="You may see this character but not do this (only its owner edits its build).",
)
E404 = OpenApiResponse(ErrorSerializer, description="No such character (or campaign), or you may not see it.")
E409 = OpenApiResponse(ErrorSerializer, description="`version` is stale: reload and try again.")
E422 = OpenApiResponse(
    ErrorSerializer, description="The rules refuse this; `errors` carries the codes and paths."
)


class WrongRuleset(BadInput):
    """A build of another ruleset than the campaign's: refused (400), nothing saved."""

    code = "ruleset_unknown"

    def __init__(self, message: str):
        super().__init__(
            message, errors=[{"code": "ruleset.unknown", "path": "/build/ruleset", "message": message}]
        )


def _detail(character, *, status_code=status.HTTP_200_OK) -> Response:
    budgets = character_budgets(characters=[character])
    return Response(CharacterSerializer(character, context={"budgets": budgets}).data, status=status_code)


@extend_schema(
    tags=["characters"],
    summary="List the characters I may see",
    description="My characters, and every character of the campaigns I run. `?campaign=<id>` narrows to one "
    "campaign (404 when I am not a member of it).",
    parameters=[
        OpenApiParameter(
            "campaign",
            {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
            required=False,
            description="A campaign id",
        )
    ],
    responses={200: CharacterSummarySerializer(many=True), 400: E400, 401: E401, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["characters"],
    summary="Create a character",
    description="Created in the campaign's ruleset with the campaign's starting budget (the build's budget is "
    "replaced). An invalid build is saved as a draft with its report; a build of another ruleset is a 400. "
    "`build` may also be a character sheet in the ruleset's own format, where the ruleset reads one: it is "
    "converted to a sheetforge.build/1 document first, and names the game does not have stay in the build "
    "for its report to show.",
    request=CharacterCreateSerializer,
    responses={201: CharacterSerializer, 400: E400, 401: E401, 404: E404},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def character_list(request):
    if request.method == "GET":
        campaign_id = query_id(request, "campaign")
        if campaign_id is not None:
            campaign_for_user(request.user, campaign_id)  # 404 when not a member
        characters = list(characters_visible_to(user=request.user, campaign_id=campaign_id))
        budgets = character_budgets(characters=characters)
        return Response(CharacterSummarySerializer(characters, many=True, context={"budgets": budgets}).data)

    data = validated(CharacterCreateSerializer, request)
    campaign = campaign_for_user(request.user, data["campaign"])
    build, _ = svc.build_from_import(campaign=campaign, document=data.get("build"))
    if build is not None:
        named = build.get("ruleset", campaign.ruleset)
        if named != campaign.ruleset:
            raise WrongRuleset(f"This build is for {named!r}, but the campaign plays {campaign.ruleset!r}.")
    character = svc.character_create(
        campaign=campaign, owner=request.user, name=data.get("name", ""), build=build
    )
    return _detail(character, status_code=status.HTTP_201_CREATED)


@extend_schema(
    tags=["characters"],
    summary="A character",
    responses={200: CharacterSerializer, 401: E401, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["characters"],
    summary="Change the play state",
    description="Play state only (pools, harm, conditions), for the owner or the campaign's GM. `version` must be "
    "current (409 otherwise); the ruleset checks the state (400 with the issues).",
    request=CharacterStateSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
    methods=["PATCH"],
)
@api_view(["GET", "PATCH"])
def character_detail(request, id):
    character = character_for_user(user=request.user, character_id=id)
    if request.method == "GET":
        return _detail(character)
    extra = set(request.data) - {"version", "state"} if isinstance(request.data, dict) else set()
    if extra:
        raise serializers.ValidationError(
            {
                key: [
                    "Only `version` and `state` may be patched; the build changes through drafts or advancement."
                ]
                for key in sorted(extra)
            }
        )
    data = validated(CharacterStateSerializer, request)

    character = character_update_state(
        character_id=character.id, user=request.user, state=data["state"], version=data["version"]
    )
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Save a draft's build",
    description="The owner saves a draft, valid or not (the report says what is wrong). `version` must be current.",
    request=CharacterDraftSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
    methods=["PUT", "POST"],
)
@api_view(["PUT", "POST"])
def character_draft(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(CharacterDraftSerializer, request)
    character = svc.character_save_draft(
        character_id=character.id, user=request.user, build=data["build"], version=data["version"]
    )
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Submit a draft",
    description="Only a valid build (checked as for approval) becomes active, with a fresh play state; where the "
    "campaign's `settings.approve_new_characters` is true it becomes `pending` instead, for the GM to approve.",
    request=CharacterSubmitSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def character_submit(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(CharacterSubmitSerializer, request)
    character = svc.character_submit(
        character_id=character.id, user=request.user, version=data.get("version")
    )
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Approve a new character (GM)",
    description="A character pending the GM's approval becomes active, exactly as an unreviewed submit makes it "
    "(first play state, opening ledger rows), in one transaction. 409 when it is not pending; 422 when the rules "
    "refuse its build now.",
    request=CommentSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409, 422: E422},
)
@api_view(["POST"])
def character_approve(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(CommentSerializer, request)
    character = approval.character_approve(
        character_id=character.id, gm=request.user, comment=data["comment"]
    )
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Return a new character to draft (GM)",
    description="A comment is required (the player reads it). The character is a draft again, editable. 409 when "
    "it is not pending.",
    request=RejectSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 409: E409},
)
@api_view(["POST"])
def character_reject(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(RejectSerializer, request)
    character = approval.character_reject(character_id=character.id, gm=request.user, comment=data["comment"])
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Revert a draft to an earlier version",
    description="A new version carrying the old build (drafts only; active characters revert through advancement).",
    request=CharacterRevertSerializer,
    responses={200: CharacterSerializer, 400: E400, 401: E401, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def character_revert(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = validated(CharacterRevertSerializer, request)
    character = svc.character_revert(
        character_id=character.id, user=request.user, to_version=data["to_version"]
    )
    return _detail(character)


@extend_schema(
    tags=["characters"],
    summary="Export the build document",
    description='The build as a `sheetforge.build/1` document ("format" always written).',
    responses={200: BuildDocumentSerializer, 401: E401, 404: E404},
)
@api_view(["GET"])
def character_export(request, id):
    character = character_for_user(user=request.user, character_id=id)
    return Response(svc.character_export(character))


@extend_schema(
    tags=["characters"],
    summary="Versions, newest first",
    responses={200: VersionSerializer(many=True), 401: E401, 404: E404},
)
@api_view(["GET"])
def character_history(request, id):
    character = character_for_user(user=request.user, character_id=id)
    return Response(VersionSerializer(character_versions(character=character), many=True).data)


urlpatterns = [
    path("characters/", character_list, name="api-character-list"),
    path("characters/<int:id>/", character_detail, name="api-character-detail"),
    path("characters/<int:id>/draft/", character_draft, name="api-character-draft"),
    path("characters/<int:id>/submit/", character_submit, name="api-character-submit"),
    path("characters/<int:id>/approve/", character_approve, name="api-character-approve"),
    path("characters/<int:id>/reject/", character_reject, name="api-character-reject"),
    path("characters/<int:id>/revert/", character_revert, name="api-character-revert"),
    path("characters/<int:id>/export/", character_export, name="api-character-export"),
    path("characters/<int:id>/history/", character_history, name="api-character-history"),
]
