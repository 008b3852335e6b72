"""Shapes of plans (CONTRACT.md "A campaign's months"). Shapes only: services decide."""

from __future__ import annotations

from rest_framework import serializers

from characters.comments import MAX_COMMENT
from characters.models import Plan
from characters.plans.steps import MAX_STEPS
from config.schema import JSONObjectField, StrictCharField


class PlanWriteSerializer(serializers.Serializer):
    name = StrictCharField(max_length=120, help_text="The plan's name (“Road to level 5”).")
    steps = serializers.ListField(
        child=JSONObjectField(),
        min_length=1,
        max_length=MAX_STEPS,
        help_text="One whole build document (sheetforge.build/1) per step, in order.",
    )


class PlanUpdateSerializer(PlanWriteSerializer):
    name = StrictCharField(max_length=120, required=False)


class PlanCommentSerializer(serializers.Serializer):
    comment = StrictCharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")


class PlanRejectSerializer(serializers.Serializer):
    comment = StrictCharField(max_length=MAX_COMMENT, help_text="Required: why, for the player.")


class PlanStepSerializer(serializers.Serializer):
    build = serializers.JSONField()
    report = serializers.JSONField(help_text="The rules' report of this step against the one before it.")
    cost = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → what this step costs"
    )
    diff = serializers.JSONField(help_text="What changes from the step before, each row with its cost.")
    needs = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → points beyond those awarded today"
    )


class PlanSerializer(serializers.ModelSerializer):
    """A plan: its steps priced and checked, its review, how far it has been followed, and what the
    campaign's rules of today refuse in it (``refused``: [{step, message}], empty when none)."""

    character = serializers.IntegerField(source="character_id", read_only=True)
    steps = PlanStepSerializer(many=True)
    reviewed_by = serializers.CharField(
        source="reviewed_by.get_username", read_only=True, default=None, allow_null=True
    )
    refused = serializers.SerializerMethodField()

    class Meta:
        model = Plan
        fields = [
            "id",
            "character",
            "name",
            "status",
            "steps",
            "comment",
            "followed",
            "refused",
            "reviewed_by",
            "created",
            "updated",
        ]
        read_only_fields = fields

    def get_refused(self, plan) -> list[dict]:
        return plan.refused_now or []
