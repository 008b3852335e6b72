"""/api/v1/…: a character's rolls and its effects (CONTRACT.md "The GM's screen").

- ``GET /characters/<id>/rollables/`` whoever may see the sheet → [{id, label, request}]
- ``GET /characters/<id>/effects/`` the same people → the active effects (documented addition)
- ``POST /characters/<id>/effects/ {effect, value?, duration?, encounter?}`` or ``{name, changes,
  duration?, encounter?}`` the GM, or the owner on their own character → 201 the effect
- ``DELETE /characters/<id>/effects/<effect id>/`` the same people → 204

A refused effect (unknown effect, key or target, a duration without a running encounter) is a 400
with the reason and changes nothing; the wrong user gets 404 (may not see) or 403 (may not change).
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.effects import services as svc
from characters.effects.selectors import character_effects, character_rollables, effect_view
from characters.selectors import character_for_user
from characters.sheet.selectors import character_ruleset
from config.api import api_view
from config.schema import ErrorSerializer

E400 = OpenApiResponse(ErrorSerializer, description="The effect is refused; `errors` says why (code, path).")
E403 = OpenApiResponse(ErrorSerializer, description="Only the GM, or the owner on their own character.")
E404 = OpenApiResponse(ErrorSerializer, description="No such character or effect, or you may not see it.")
E422 = OpenApiResponse(ErrorSerializer, description="The character is not in play.")

Rollable = inline_serializer(
    "Rollable",
    {"id": serializers.CharField(), "label": serializers.CharField(), "request": serializers.JSONField()},
)
Effect = inline_serializer(
    "Effect",
    {
        "id": serializers.CharField(),
        "effect": serializers.CharField(allow_null=True),
        "name": serializers.CharField(),
        "value": serializers.IntegerField(allow_null=True),
        "changes": serializers.JSONField(),
        "duration": serializers.JSONField(allow_null=True),
        "native": serializers.BooleanField(),
        "house_default": serializers.BooleanField(),
        "text": serializers.ListField(child=serializers.CharField()),
        "remaining": serializers.CharField(),
    },
)
RollableList: serializers.ListSerializer = serializers.ListSerializer(child=Rollable)
EffectList: serializers.ListSerializer = serializers.ListSerializer(child=Effect)
EffectRequest = inline_serializer(
    "EffectRequest",
    {
        "effect": serializers.CharField(
            required=False, help_text="A named effect's id (the ruleset's list)."
        ),
        "value": serializers.IntegerField(required=False, help_text="For valued effects: frightened 2."),
        "name": serializers.CharField(required=False, help_text="A custom effect's name."),
        "changes": serializers.JSONField(
            required=False, help_text='A custom effect\'s [{"target", <key>: n}].'
        ),
        "duration": serializers.JSONField(required=False, allow_null=True),
        "encounter": serializers.IntegerField(required=False),
    },
)


@extend_schema(
    tags=["play"],
    summary="A character's rolls",
    description="The sheet's roll buttons: each `request` is an odds request of the ruleset (effects and house "
    "defaults applied), ready for `/rulesets/<slug>/odds/`. Ids are stable per ruleset.",
    responses={200: RollableList, 404: E404},
)
@api_view(["GET"])
def rollables(request, id):
    character = character_for_user(user=request.user, character_id=id)
    return Response(character_rollables(character=character))


@extend_schema(
    tags=["play"],
    summary="A character's effects",
    responses={200: EffectList, 404: E404},
    methods=["GET"],
)
@extend_schema(
    tags=["play"],
    summary="Apply an effect",
    description='A named effect of the ruleset (`{"effect": "frightened", "value": 2}`) or a custom one '
    '(`{"name": "Blessed", "changes": [{"target": "all", "<key>": 1}]}`), with a duration: none (until '
    'removed), `{"rounds": N}` with `encounter`, `{"until": "end_of_turn", "combatant": id}` or `{"until": '
    '"rest"}`.',
    request=EffectRequest,
    responses={201: Effect, 400: E400, 403: E403, 404: E404, 422: E422},
    methods=["POST"],
)
@api_view(["GET", "POST"])
def effects(request, id):
    if request.method == "GET":
        character = character_for_user(user=request.user, character_id=id)
        return Response(character_effects(character=character))
    body = request.data if isinstance(request.data, dict) else None
    if body is None:
        raise svc.EffectRefused("effect.malformed", 'An effect is {"effect": "<id>"} or {"name", "changes"}.')
    spec = {k: body[k] for k in ("effect", "value", "name", "changes") if k in body}
    character, entry = svc.character_effect_apply(
        character_id=id,
        user=request.user,
        spec=spec,
        duration=body.get("duration"),
        encounter=body.get("encounter"),
    )
    ruleset = character_ruleset(character)
    assert ruleset is not None  # the service refused a character without one
    return Response(effect_view(ruleset, entry), status=status.HTTP_201_CREATED)


@extend_schema(tags=["play"], summary="Remove an effect", responses={204: None, 403: E403, 404: E404})
@api_view(["DELETE"])
def effect_detail(request, id, effect_id):
    svc.character_effect_remove(character_id=id, user=request.user, effect_id=effect_id)
    return Response(status=status.HTTP_204_NO_CONTENT)


urlpatterns = [
    path("characters/<int:id>/rollables/", rollables, name="api_character_rollables"),
    path("characters/<int:id>/effects/", effects, name="api_character_effects"),
    path("characters/<int:id>/effects/<str:effect_id>/", effect_detail, name="api_character_effect"),
]
