"""/api/v1/campaigns/<id>/webhooks/…: the table's feed to Discord or the GM's own tool
(CONTRACT.md "A campaign's months"). The campaign's GM only: a player gets 403, anyone else 404.

- ``GET /campaigns/<id>/webhooks/`` → ``[{id, url, format, private, created}]`` (no secret).
- ``POST /campaigns/<id>/webhooks/ {url, format: "discord"|"json", private?}`` → 201 ``{id, url,
  format, private, secret, created}``: the secret only in this answer (and rotate's). An address
  whose host resolves to a private, loopback or link-local address, or cannot be found, is a 400.
- ``POST /campaigns/<id>/webhooks/<webhook_id>/rotate/`` → 200 ``{secret}``.
- ``DELETE /campaigns/<id>/webhooks/<webhook_id>/`` → 204.
- ``GET /campaigns/<id>/webhooks/<webhook_id>/deliveries/`` → the latest 100, newest first: ``[{id,
  roll, at, status: "delivered"|"retrying"|"failed", attempts, next_at, response_code, error}]``
  (``id`` the delivery's id, the ``X-Sheetforge-Delivery`` header; ``retrying`` also for one not
  yet tried; ``error`` in words, a documented addition).
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from characters.campaigns.selectors import campaign_for_user
from characters.models import Webhook, WebhookDelivery
from characters.webhooks import services as svc
from characters.webhooks.selectors import campaign_webhooks, webhook_deliveries, webhook_of
from config.api import api_view, validated
from config.errors import NotPermitted
from config.schema import ErrorSerializer, StrictCharField

E400 = OpenApiResponse(ErrorSerializer, description="An address the server will not call, or a bad value.")
E403 = OpenApiResponse(ErrorSerializer, description="A player of the campaign: only its GM sets up webhooks.")
E404 = OpenApiResponse(
    ErrorSerializer, description="No such campaign or webhook, or you are not at its table."
)


class WebhookRequestSerializer(serializers.Serializer):
    url = StrictCharField(max_length=500, help_text="The endpoint: https://…")
    format = serializers.ChoiceField(choices=["discord", "json"])
    private = serializers.BooleanField(
        required=False, default=False, help_text="The GM's private rolls go here too."
    )


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    format = serializers.CharField()
    private = serializers.BooleanField()
    created = serializers.DateTimeField()


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(help_text="Signs every delivery; shown only here and by rotate.")


class SecretSerializer(serializers.Serializer):
    secret = serializers.CharField()


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The X-Sheetforge-Delivery header's id.")
    roll = serializers.IntegerField()
    at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=["delivered", "retrying", "failed"])
    attempts = serializers.IntegerField()
    next_at = serializers.DateTimeField(allow_null=True)
    response_code = serializers.IntegerField(allow_null=True)
    error = serializers.CharField(allow_blank=True)


def _gm_campaign(request, id):
    campaign = campaign_for_user(request.user, id)
    if not campaign.is_gm(request.user):
        raise NotPermitted("Only the campaign's GM sets up its webhooks.")
    return campaign


def hook_view(hook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": hook.pk,
        "url": hook.url,
        "format": hook.format,
        "private": hook.private,
        "created": hook.created.isoformat(),
    }
    if secret:
        out["secret"] = hook.secret
    return out


def delivery_view(delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "id": delivery.pk,
        "roll": delivery.roll_id,
        "at": delivery.created.isoformat(),
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_at": delivery.next_at.isoformat() if delivery.next_at else None,
        "response_code": delivery.response_code,
        "error": delivery.error,
    }


@extend_schema(
    tags=["webhooks"],
    summary="The campaign's webhooks (GM only)",
    methods=["GET"],
    responses={200: WebhookSerializer(many=True), 403: E403, 404: E404},
)
@extend_schema(
    tags=["webhooks"],
    summary="Add a webhook (GM only)",
    methods=["POST"],
    request=WebhookRequestSerializer,
    responses={201: WebhookCreatedSerializer, 400: E400, 403: E403, 404: E404},
)
@api_view(["GET", "POST"])
def webhooks(request, id):
    campaign = _gm_campaign(request, id)
    if request.method == "GET":
        return Response([hook_view(h) for h in campaign_webhooks(campaign=campaign)])
    data = validated(WebhookRequestSerializer, request)
    hook = svc.webhook_create(
        gm=request.user, campaign=campaign, url=data["url"], format=data["format"], private=data["private"]
    )
    return Response(hook_view(hook, secret=True), status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["webhooks"], summary="Remove a webhook (GM only)", responses={204: None, 403: E403, 404: E404}
)
@api_view(["DELETE"])
def webhook_detail(request, id, webhook_id):
    campaign = _gm_campaign(request, id)
    svc.webhook_delete(gm=request.user, campaign=campaign, webhook_id=webhook_id)
    return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["webhooks"],
    summary="A new secret for a webhook (GM only)",
    request=None,
    responses={200: SecretSerializer, 403: E403, 404: E404},
)
@api_view(["POST"])
def webhook_rotate(request, id, webhook_id):
    campaign = _gm_campaign(request, id)
    hook = svc.webhook_rotate(gm=request.user, campaign=campaign, webhook_id=webhook_id)
    return Response({"secret": hook.secret})


@extend_schema(
    tags=["webhooks"],
    summary="A webhook's deliveries, newest first (GM only)",
    responses={200: DeliverySerializer(many=True), 403: E403, 404: E404},
)
@api_view(["GET"])
def webhook_deliveries_view(request, id, webhook_id):
    campaign = _gm_campaign(request, id)
    hook = webhook_of(campaign=campaign, webhook_id=webhook_id)
    return Response([delivery_view(d) for d in webhook_deliveries(webhook=hook)])


urlpatterns = [
    path("campaigns/<int:id>/webhooks/", webhooks, name="api_campaign_webhooks"),
    path("campaigns/<int:id>/webhooks/<int:webhook_id>/", webhook_detail, name="api_campaign_webhook"),
    path(
        "campaigns/<int:id>/webhooks/<int:webhook_id>/rotate/",
        webhook_rotate,
        name="api_campaign_webhook_rotate",
    ),
    path(
        "campaigns/<int:id>/webhooks/<int:webhook_id>/deliveries/",
        webhook_deliveries_view,
        name="api_campaign_webhook_deliveries",
    ),
]
