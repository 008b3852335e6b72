"""Shapes of /api/v1/characters/… (CONTRACT.md "Resources"); the views call the services."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from characters.comments import MAX_COMMENT
from characters.models import Character, CharacterVersion
from config.schema import JSONObjectField, StrictCharField


def _object(value):
    if not isinstance(value, dict):
        raise serializers.ValidationError("Must be a JSON object.")
    return value


class BudgetLineSerializer(serializers.Serializer):
    total = serializers.IntegerField(
        help_text="Awarded in total (ledger awards; a currency the GM does not award: the rules' budget)."
    )
    spent = serializers.IntegerField(help_text="What the current build spends (its report).")
    unspent = serializers.IntegerField(help_text="total − spent; negative when the build overspends.")


class CharacterSerializer(serializers.ModelSerializer):
    """A character: its build (choices), play state, report and budget per currency."""

    owner = serializers.IntegerField(source="owner_id", read_only=True)
    owner_username = serializers.CharField(source="owner.get_username", read_only=True)
    campaign = serializers.IntegerField(source="campaign_id", read_only=True)
    build = serializers.JSONField()
    state = serializers.JSONField()
    report = serializers.JSONField()
    budget = serializers.SerializerMethodField()

    class Meta:
        model = Character
        fields = [
            "id",
            "version",
            "owner",
            "owner_username",
            "campaign",
            "name",
            "ruleset",
            "status",
            "build",
            "state",
            "report",
            "budget",
            "created",
            "updated",
        ]
        read_only_fields = fields

    @extend_schema_field(
        serializers.DictField(child=BudgetLineSerializer(), help_text="{currency: {total, spent, unspent}}")
    )
    def get_budget(self, obj):
        budgets = self.context.get("budgets") or {}
        return budgets.get(obj.id, {})


class CharacterSummarySerializer(CharacterSerializer):
    class Meta(CharacterSerializer.Meta):
        fields = [
            "id",
            "version",
            "owner",
            "owner_username",
            "campaign",
            "name",
            "ruleset",
            "status",
            "report",
            "budget",
            "updated",
        ]
        read_only_fields = fields


class CharacterCreateSerializer(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    build = JSONObjectField(
        required=False,
        help_text="A sheetforge.build/1 document of the campaign's ruleset, or a sheet in the ruleset's own format.",
    )
    name = StrictCharField(
        required=False, max_length=120, help_text="Without a build: the new character's name."
    )

    def validate_build(self, value):
        return _object(value)


class CharacterStateSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    state = JSONObjectField()

    def validate_state(self, value):
        return _object(value)


class CharacterDraftSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    build = JSONObjectField()

    def validate_build(self, value):
        return _object(value)


class CharacterSubmitSerializer(serializers.Serializer):
    version = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class CharacterRevertSerializer(serializers.Serializer):
    to_version = serializers.IntegerField(min_value=1, max_value=2**31 - 1)


class VersionSerializer(serializers.ModelSerializer):
    author = serializers.SerializerMethodField()
    valid = serializers.SerializerMethodField()

    class Meta:
        model = CharacterVersion
        fields = ["number", "created", "author", "reason", "valid", "build", "report"]
        read_only_fields = fields

    def get_author(self, obj) -> str | None:
        return obj.author.get_username() if obj.author_id and obj.author else None

    def get_valid(self, obj) -> bool | None:
        return obj.report.get("valid") if isinstance(obj.report, dict) else None


class BuildDocumentSerializer(serializers.Serializer):
    """A sheetforge.build/1 document: format, ruleset, name, budget, notes and the ruleset's own keys."""

    format = serializers.CharField()
    ruleset = serializers.CharField()
    name = serializers.CharField(required=False)
    budget = serializers.DictField(child=serializers.IntegerField(), required=False)


class CommentSerializer(serializers.Serializer):
    comment = StrictCharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")


class RejectSerializer(serializers.Serializer):
    comment = StrictCharField(max_length=MAX_COMMENT, help_text="Required: why, for the player.")
