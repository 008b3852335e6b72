"""Shapes of share links (CONTRACT.md "A campaign's months"). Shapes only: services decide."""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from characters.models import ShareLink


class ShareLinkSerializer(serializers.ModelSerializer):
    """A link: its token, the whole URL anyone may open, when and by whom it was made."""

    url = serializers.SerializerMethodField(help_text="The read-only sheet: /s/<token>/, whole.")
    created_by = serializers.CharField(
        source="created_by.get_username", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = ShareLink
        fields = ["token", "url", "created", "created_by"]
        read_only_fields = fields

    def get_url(self, link) -> str:
        path = reverse("shared_sheet", args=[link.token])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path
