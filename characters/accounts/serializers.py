"""Shapes of the auth API (CONTRACT.md "Resources"). Shapes only: services decide."""

from __future__ import annotations

from rest_framework import serializers

from config.schema import StrictCharField


class RegisterSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)


class UserSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class TokenRequestSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})
    name = StrictCharField(
        max_length=60,
        required=False,
        allow_blank=True,
        help_text='what the token is for, e.g. "laptop" (default "API token"); shown on the account page',
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="the key, shown this once: only its digest is stored")
