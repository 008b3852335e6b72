"""/api/v1/characters/<id>/…: play over the API (CONTRACT.md "A campaign's months").

- ``GET /characters/<id>/actions/`` the owner or the GM → the play actions the sheet offers now,
  ``[{action, label, fields: [{name, label, type, choices?, min?, max?, default?}]}]``
  (``sheet.presenters.play_actions``: read from the forms the sheet draws, one source). ``type`` is
  ``number``, ``choice`` (``choices``: ``[{value, label}]``), ``flag`` or ``text``; ``label``, ``min``,
  ``max`` and ``default`` are documented additions.
- ``POST /characters/<id>/actions/ {action, ...its fields, version?}`` the owner or the GM → 200
  ``{version, state, message}``: the sheet's own service (``character_state_action``), so the same
  rules, row lock, version and live updates as the page. A field left out takes the default the
  sheet's form shows. An action the sheet does not offer now, or one the rules refuse, is a 422
  ``{detail, errors}`` (the rule's code and path); a stale ``version`` a 409; a field the action
  does not have, or a value of the wrong type, a 400 naming it.
- ``POST /characters/<id>/rolls/ {rollable, table?, private?, chanced?}`` the owner or the GM (only
  the GM rolls privately: 403) → 201 ``{id, rollable, label, request, result, odds, private, at}``:
  rolled on the server by the sheet's dice service, logged, on the table's feed (and its webhooks).
  ``table`` sets the numbers the table chooses for this roll (the roll's inputs: a target, a
  difficulty); a key the roll does not take is a 400 naming those it does. ``chanced: true`` (an
  addition, RULES.md W4) rolls an action that could be taken at leisure as under pressure, where the
  ruleset has such actions (``Ruleset.chance_roll``), and ``result`` then says ``"chanced": true``; the
  rules refuse (422, in words, nothing rolled) a repeat before the campaign's clock moves on (the
  ruleset's code, ``<slug>.chanced_repeat``) and a roll that cannot be chanced (``roll.not_chanceable``:
  every roll of a ruleset without them).

Another player and a stranger get 404 (they may not see the sheet), as does a removed member.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.models import Character, RollLog
from characters.selectors import character_for_user
from characters.sheet import services as play
from characters.sheet.actions import SPEND, action_from_body, play_actions
from characters.sheet.selectors import PICKED, roll_inputs, rollable_for, sheet_rules_kept
from config.api import api_view
from config.errors import BadInput
from config.schema import ErrorSerializer, StrictCharField

E400 = OpenApiResponse(
    ErrorSerializer, description="A field the action does not have, or a value of the wrong type."
)
E403 = OpenApiResponse(ErrorSerializer, description="Only the GM rolls privately.")
E404 = OpenApiResponse(ErrorSerializer, description="No such character, or you may not see it.")
E409 = OpenApiResponse(ErrorSerializer, description="`version` is stale: nothing was changed.")
E422 = OpenApiResponse(
    ErrorSerializer,
    description="The rules refuse this (or the sheet offers no such action now); `errors` says why.",
)

ActionField = inline_serializer(
    "PlayActionField",
    {
        "name": serializers.CharField(),
        "label": serializers.CharField(),
        "type": serializers.ChoiceField(choices=["number", "choice", "flag", "text"]),
        "choices": serializers.ListField(child=serializers.DictField(), required=False),
        "min": serializers.IntegerField(required=False),
        "max": serializers.IntegerField(required=False),
        "default": serializers.JSONField(required=False),
    },
)
PlayAction = inline_serializer(
    "PlayAction",
    {"action": serializers.CharField(), "label": serializers.CharField(), "fields": ActionField},
)
PlayActionList: serializers.ListSerializer = serializers.ListSerializer(child=PlayAction)
ActionResult = inline_serializer(
    "PlayActionResult",
    {
        "version": serializers.IntegerField(),
        "state": serializers.DictField(),
        "message": serializers.CharField(allow_blank=True),
    },
)


class PlayActionRequestSerializer(serializers.Serializer):
    """Documents the body: ``action`` and the action's own fields (any others, as listed by GET)."""

    action = StrictCharField(max_length=80, help_text="An action's name, as GET lists them.")
    version = serializers.IntegerField(required=False, help_text="The version the action was based on.")


class RollRequestSerializer(serializers.Serializer):
    rollable = StrictCharField(max_length=200, help_text="A roll's id (GET /characters/<id>/rollables/).")
    table = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="The numbers the table sets for this roll (a target, a difficulty): the roll's inputs.",
    )
    private = serializers.BooleanField(
        required=False, default=False, help_text="The GM's: the GM's feed only."
    )
    chanced = serializers.BooleanField(
        required=False,
        default=False,
        help_text="An action that could be taken at leisure, rolled as under pressure instead (RULES.md W4): "
        "it cannot be repeated, nor taken at leisure, until the campaign's clock moves on (422, "
        "`<ruleset>.chanced_repeat`). A roll that cannot be chanced, and every roll of a ruleset "
        "without such actions, is a 422 `roll.not_chanceable`.",
    )


Roll = inline_serializer(
    "TableRoll",
    {
        "id": serializers.IntegerField(),
        "rollable": serializers.CharField(),
        "label": serializers.CharField(),
        "request": serializers.DictField(),
        "result": serializers.DictField(),
        "odds": serializers.DictField(),
        "private": serializers.BooleanField(),
        "at": serializers.DateTimeField(),
    },
)


@extend_schema(
    tags=["play"],
    summary="The play actions the sheet offers now",
    responses={200: PlayActionList, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["play"],
    summary="Take a play action",
    description="`{action, ...its fields, version?}` as GET lists them: an operation on the play state as it "
    "is when it arrives (lower a pool by 1, take 3 harm, rest), through the sheet's own service.",
    request=PlayActionRequestSerializer,
    responses={200: ActionResult, 400: E400, 403: E403, 404: E404, 409: E409, 422: E422},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def character_actions(request, id):
    character = character_for_user(user=request.user, character_id=id)
    if request.method == "GET":
        return Response(play_actions(character, sheet_rules_kept(character=character)))
    body = request.data if isinstance(request.data, dict) else None
    if body is None or not isinstance(body.get("action"), str) or not body["action"]:
        raise BadInput('An action is {"action": <its name>, ...its fields}.', field="action")
    version = body.get("version")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        raise BadInput("version is a whole number.", field="version")
    if body["action"] == SPEND:  # a roll's EP spent after it: {outcomes, obstacle?, ep_to_obstacle?}
        spend = {k: v for k, v in body.items() if k not in ("action", "version")}
        character, sentence = play.character_spend_roll(
            character_id=character.pk, user=request.user, request=spend
        )
        return Response({"version": character.version, "state": character.state, "message": sentence or ""})
    action: dict[str, Any] = {"action": body["action"]}
    if character.status == Character.Status.ACTIVE:  # else the service says why it is not played
        action = action_from_body(play_actions(character, sheet_rules_kept(character=character)), body)
    character, sentence = play.character_state_action(
        character_id=character.pk, user=request.user, action=action, version=version
    )
    return Response({"version": character.version, "state": character.state, "message": sentence or ""})


@extend_schema(
    tags=["play"],
    summary="Roll on the server",
    description="One of the sheet's rolls, rolled by the server with its exact odds, logged and sent to the "
    "table's feed. Only the GM rolls privately (their feed and private webhooks only).",
    request=RollRequestSerializer,
    responses={201: Roll, 400: E400, 403: E403, 404: E404, 422: E422},
)
@api_view(["POST"])
def character_rolls(request, id):
    character = character_for_user(user=request.user, character_id=id)
    data = RollRequestSerializer(data=request.data)
    data.is_valid(raise_exception=True)
    rollable_id, table = data.validated_data["rollable"], data.validated_data.get("table") or {}
    if table and character.status == Character.Status.ACTIVE and rollable_id != PICKED:
        rules = sheet_rules_kept(character=character)
        rollable, _ = rollable_for(rules, rollable_id)
        if rollable is not None:
            takes = [spec["name"] for spec in roll_inputs(rules, rollable)]
            unknown = sorted(k for k in table if k not in takes)
            if unknown:
                raise BadInput(
                    f"{rollable.get('label') or 'This roll'} takes {', '.join(takes) or 'no numbers from the table'}; "
                    f"not {', '.join(unknown)}.",
                    field="table",
                )
    log = play.character_roll(
        character_id=character.pk,
        user=request.user,
        rollable_id=rollable_id,
        private=data.validated_data["private"],
        inputs={str(k): [v] for k, v in table.items()},
        chanced=data.validated_data["chanced"],
    )
    return Response(roll_view(log), status=status.HTTP_201_CREATED)


def roll_view(log: RollLog) -> dict[str, Any]:
    """A logged roll as the API gives it (the roll door and the campaign's feed)."""
    result = log.result if isinstance(log.result, dict) else {}
    return {
        "id": log.pk,
        "rollable": str(result.get("rollable") or ""),
        "label": log.label,
        "request": log.request if isinstance(log.request, dict) else {},
        "result": {k: v for k, v in result.items() if k not in {"odds", "rollable", "inputs"}},
        "odds": result.get("odds") if isinstance(result.get("odds"), dict) else {},
        "private": log.private,
        "at": log.created.isoformat() if log.created else None,
    }


urlpatterns = [
    path("characters/<int:id>/actions/", character_actions, name="api_character_actions"),
    path("characters/<int:id>/rolls/", character_rolls, name="api_character_rolls"),
]
