"""/api/v1/…: the party and who should roll (CONTRACT.md "The GM's screen").

- ``GET /campaigns/<id>/party/`` the GM only → ``{"characters": [...], "pending": {...}}``:
  every character in play (active), by name: ``{id, name, owner (user id), owner_username,
  status, version, summary: [{label, value}], pools: [{id, label, current, max}], effects: [the
  effects as GET /characters/<id>/effects/ lists them, "remaining" counted from the encounter's
  round now], unspent: {currency: n} (from the ledger)}``. ``pending`` is what waits for the GM's
  review, oldest first: ``{"advancements": [item], "creations": [item]}``, each item ``{id (the
  request's: /api/v1/advancements/<id>/), character (its id), name, kind ("advancement" |
  "creation"), requested_by (a username), created, note, cost: {currency: n}}``.
- ``POST /campaigns/<id>/party-odds/ {rollable, table?, need?, aid?}`` the GM only →
  ``{rollable, label, table, need, aid, characters: [{id, name, label, request, odds, success,
  without_aid?}], missing: [ids], at_least_one, all}``: each character in play that has the roll
  ``rollable`` (an id of GET /characters/<id>/rollables/), its request with the ``table``'s numbers
  put in (only the ruleset's table keys: a target number, a difficulty, a mode), its exact odds and
  its ``success`` (CONTRACT.md "Odds", "Success"; ``need`` where the ruleset counts successes or
  points), best first. ``at_least_one`` = 1 − Π(1 − success), ``all`` = Π success.
  Documented addition: ``aid``, the id of one of the ruleset's help options (GET of this path's
  campaign party page offers them; ``Ruleset.roll_aids``): its changes are applied to every
  request after the table's numbers, ``aid`` in the answer says what it changes (``changed``, in
  words) and each character's ``without_aid`` is its success without it.

A player of the campaign gets 403, anyone else 404. A roll no character in play has, a key the
table does not set (the message names those it does), a value the rules refuse, a ``need`` where
the ruleset counts none, or an aid it does not offer is a 400 with the reason.
"""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from characters.party.odds import party_odds
from characters.party.selectors import party_campaign, party_view
from characters.party.services import MAX_PARTY, party_rest
from config.api import api_view, validated
from config.schema import ErrorSerializer, StrictCharField

E400 = OpenApiResponse(
    ErrorSerializer,
    description="A roll no character in play has, a key the table does not set, a value the rules "
    "refuse, a need where the ruleset counts none, or an aid it does not offer; `detail` says why.",
)
E403 = OpenApiResponse(ErrorSerializer, description="A player of the campaign: only its GM sees the party.")
E404 = OpenApiResponse(ErrorSerializer, description="No such campaign, or you are not at its table.")


class PartyPendingItemSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The request's id (/api/v1/advancements/<id>/).")
    character = serializers.IntegerField()
    name = serializers.CharField(help_text="The character's name.")
    kind = serializers.ChoiceField(choices=["advancement", "creation"])
    requested_by = serializers.CharField(help_text="The player's username.")
    created = serializers.DateTimeField()
    note = serializers.CharField(allow_blank=True)
    cost = serializers.DictField(child=serializers.IntegerField(), help_text="{currency: n}")


class PartyPendingSerializer(serializers.Serializer):
    advancements = PartyPendingItemSerializer(many=True)
    creations = PartyPendingItemSerializer(many=True)


class PartySummaryNumberSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" shadows Field.label
    value = serializers.JSONField()


class PartyPoolSerializer(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" shadows Field.label
    current = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True)


class PartyCharacterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.IntegerField(help_text="The owner's user id.")
    owner_username = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    summary = PartySummaryNumberSerializer(many=True)
    pools = PartyPoolSerializer(many=True)
    effects = serializers.ListField(
        child=serializers.DictField(), help_text="As GET /characters/<id>/effects/ lists them."
    )
    unspent = serializers.DictField(child=serializers.IntegerField(), help_text="{currency: n}")


class PartySerializer(serializers.Serializer):
    characters = PartyCharacterSerializer(many=True)
    pending = PartyPendingSerializer()


class PartyOddsRequestSerializer(serializers.Serializer):
    rollable = serializers.CharField(help_text="A roll's id (GET /characters/<id>/rollables/).")
    table = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="The table's numbers (only the ruleset's table keys: tn, threshold, td, mode, "
        "difficulty…), put into every character's request.",
    )
    need = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        help_text="Successes or effect points needed, where the ruleset counts them (default 1).",
    )
    aid = serializers.CharField(
        required=False, allow_null=True, help_text="The id of one of the ruleset's help options."
    )


class PartyAidSerializer(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" shadows Field.label
    text = serializers.CharField(allow_blank=True)
    changes = serializers.ListField(child=serializers.DictField())
    changed = serializers.ListField(child=serializers.CharField(), help_text="Each change in words.")


class PartyOddsCharacterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" shadows Field.label
    request = serializers.DictField()
    odds = serializers.DictField()
    success = serializers.FloatField()
    without_aid = serializers.FloatField(required=False, help_text="With an aid: the success without it.")


class PartyOddsRefusedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()


class PartyOddsSerializer(serializers.Serializer):
    rollable = serializers.CharField()
    label = serializers.CharField(help_text="The roll in the ruleset's words.")  # type: ignore[assignment]  # the API field "label" shadows Field.label
    table = serializers.DictField()
    need = serializers.IntegerField(allow_null=True)
    aid = PartyAidSerializer(allow_null=True)
    characters = PartyOddsCharacterSerializer(many=True)
    missing = serializers.ListField(child=serializers.IntegerField())
    refused = PartyOddsRefusedSerializer(
        many=True, help_text="The characters whose request the rules refuse, each with the reason in words."
    )
    at_least_one = serializers.FloatField()
    all = serializers.FloatField()


@extend_schema(
    tags=["play"],
    summary="The party at a glance (GM only)",
    description="Every character of the campaign in play with the ruleset's headline numbers, current pools "
    "with their maxima, active effects with what remains of their duration, unspent points (the ledger) and "
    "what waits for the GM's review (`pending`: `advancements` and `creations`, oldest first).",
    responses={200: PartySerializer, 403: E403, 404: E404},
)
@api_view(["GET"])
def party(request, id):
    campaign = party_campaign(user=request.user, campaign_id=id)
    return Response(party_view(campaign=campaign))


@extend_schema(
    tags=["play"],
    summary="Who should roll (GM only)",
    description="Every character in play that has the roll, with its exact odds and chance of success, best "
    "first; the chance that at least one succeeds and that all do; the characters without that roll in "
    "`missing`. `aid` (an addition to CONTRACT.md): one of the ruleset's help options, applied to every "
    "request after the table's numbers.",
    request=PartyOddsRequestSerializer,
    responses={200: PartyOddsSerializer, 400: E400, 403: E403, 404: E404},
)
@api_view(["POST"])
def party_odds_view(request, id):
    campaign = party_campaign(user=request.user, campaign_id=id)
    body = request.data if isinstance(request.data, dict) else {}
    return Response(
        party_odds(
            campaign=campaign,
            rollable=body.get("rollable"),
            table=body.get("table"),
            need=body.get("need"),
            aid=body.get("aid"),
        )
    )


class PartyRestRequestSerializer(serializers.Serializer):
    characters = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=1,
        max_length=MAX_PARTY,
        help_text="The characters to rest (ids).",
    )
    kind = StrictCharField(
        required=False,
        allow_null=True,
        max_length=80,
        help_text="The rest to take, a name among each character's actions (default: its ruleset's rest).",
    )


class PartyRestResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.IntegerField(
        help_text="200 rested; 404 no such character here; 422 the rules refuse."
    )
    message = serializers.CharField(help_text="What happened, in the game's words.")


class PartyRestSerializer(serializers.Serializer):
    results = PartyRestResultSerializer(many=True)


@extend_schema(
    tags=["play"],
    summary="Rest chosen characters (GM only)",
    description="Each character takes its own ruleset's rest (or `kind`, one of its actions), through the "
    "sheet's own service: its row lock, a new version, live on every open sheet. One refused is its row "
    "(`status` 422 and why) and stops no other.",
    request=PartyRestRequestSerializer,
    responses={200: PartyRestSerializer, 400: E400, 403: E403, 404: E404},
)
@api_view(["POST"])
def party_rest_view(request, id):
    campaign = party_campaign(user=request.user, campaign_id=id)
    data = validated(PartyRestRequestSerializer, request)
    results = party_rest(
        gm=request.user, campaign=campaign, character_ids=data["characters"], kind=data.get("kind")
    )
    return Response({"results": results})


urlpatterns = [
    path("campaigns/<int:id>/party/", party, name="api_campaign_party"),
    path("campaigns/<int:id>/party-odds/", party_odds_view, name="api_campaign_party_odds"),
    path("campaigns/<int:id>/party-rest/", party_rest_view, name="api_campaign_party_rest"),
]
