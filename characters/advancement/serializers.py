"""Shapes of awards, advancements and the ledger (CONTRACT.md "Resources"). Shapes only: services decide."""

from __future__ import annotations

from rest_framework import serializers

from characters.advancement.services import MAX_AWARD
from characters.comments import MAX_COMMENT
from characters.models import Advancement, LedgerEntry
from config.schema import JSONObjectField, StrictCharField


def _object(value):
    if not isinstance(value, dict):
        raise serializers.ValidationError("Must be a JSON object (a sheetforge.build/1 document).")
    return value


class AwardRequestSerializer(serializers.Serializer):
    currency = StrictCharField(
        max_length=32, help_text="An awardable currency of the ruleset (GET /rulesets/<slug>/ lists them)."
    )
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AWARD, help_text="A positive whole number.")
    reason = StrictCharField(max_length=200, required=False, allow_blank=True, default="")


class PartyAwardRequestSerializer(AwardRequestSerializer):
    characters = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        allow_empty=False,
        help_text="Only these characters of the campaign; omitted: every active character (the party).",
    )


class LedgerEntrySerializer(serializers.ModelSerializer):
    """One award, spend or reversal. ``amount`` is signed: awards +, spends −, reversals the opposite."""

    author = serializers.CharField(
        source="author.get_username", read_only=True, default=None, allow_null=True
    )
    character = serializers.IntegerField(source="character_id", read_only=True)
    advancement = serializers.IntegerField(source="advancement_id", read_only=True, allow_null=True)

    class Meta:
        model = LedgerEntry
        fields = [
            "id",
            "character",
            "kind",
            "currency",
            "amount",
            "reason",
            "author",
            "advancement",
            "version",
            "created",
        ]
        read_only_fields = fields


class PartyAwardSerializer(serializers.Serializer):
    entries = LedgerEntrySerializer(many=True)


class LedgerLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created = serializers.DateTimeField()
    kind = serializers.ChoiceField(choices=LedgerEntry.Kind.choices)
    currency = serializers.CharField()
    amount = serializers.IntegerField()
    reason = serializers.CharField()
    author = serializers.CharField(allow_null=True)
    advancement = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(allow_null=True)
    balance = serializers.IntegerField(help_text="The unspent balance of this currency after this row.")


class LedgerSerializer(serializers.Serializer):
    entries = LedgerLineSerializer(many=True)
    balance = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → unspent (awarded − spent)"
    )
    awarded = serializers.DictField(child=serializers.IntegerField(), help_text="currency → awarded in total")
    spent = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → spent by the approved build"
    )


class AdvancementRequestSerializer(serializers.Serializer):
    build = JSONObjectField(
        help_text="The whole proposed build document (sheetforge.build/1); its budget is ignored."
    )
    note = StrictCharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")

    def validate_build(self, value):
        return _object(value)


class RevertSerializer(serializers.Serializer):
    reason = StrictCharField(max_length=150, help_text="Required: why the change is undone.")


class DiffRowSerializer(serializers.Serializer):
    path = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" (CONTRACT.md) shadows Field.label
    old = serializers.JSONField(allow_null=True)
    new = serializers.JSONField(allow_null=True)
    cost = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → what this change costs"
    )
    items = serializers.ListField(
        child=serializers.CharField(), help_text="the rules' cost lines of this change"
    )


class ActivitySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="The activity's id in the ruleset's catalogue (`activities`).")
    name = serializers.CharField()
    text = serializers.CharField(help_text="What it does, in numbers and the game's words.")


class ActivitiesRequestSerializer(serializers.Serializer):
    activities = serializers.ListField(
        child=StrictCharField(max_length=64),
        max_length=20,
        help_text="Activity ids of the ruleset's catalogue (GET /rulesets/<slug>/ `catalogue.activities`), "
        "in order; the same one may come twice.",
    )
    note = StrictCharField(max_length=MAX_COMMENT, required=False, allow_blank=True, default="")


class AdvancementSerializer(serializers.ModelSerializer):
    """A request: the proposed build, its diff against the approved build, its cost and report, and the review."""

    character = serializers.IntegerField(source="character_id", read_only=True)
    character_name = serializers.CharField(source="character.name", read_only=True)
    campaign = serializers.IntegerField(source="character.campaign_id", read_only=True)
    requested_by = serializers.CharField(source="requested_by.get_username", read_only=True)
    reviewed_by = serializers.CharField(
        source="reviewed_by.get_username",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="The GM who reviewed it; null while pending.",
    )
    build = serializers.JSONField()
    diff = DiffRowSerializer(many=True)
    cost = serializers.DictField(
        child=serializers.IntegerField(), help_text="currency → new spent − old spent"
    )
    report = serializers.JSONField()
    plan = serializers.IntegerField(
        source="plan_id",
        read_only=True,
        allow_null=True,
        help_text="The approved plan whose next step this build is (characters/plans/); null otherwise.",
    )
    plan_check = serializers.CharField(
        read_only=True,
        help_text='"followed": approved when requested, as the plan\'s next step; "differs": the plan\'s '
        "next step at another price or verdict, for the GM; empty: not the plan's next step.",
    )
    activities = ActivitySerializer(
        many=True, help_text='kind "activities": what the character does between adventures, in order.'
    )
    outcome = serializers.ListField(
        child=serializers.CharField(),
        help_text='kind "activities", once approved: what each activity did, one sentence each.',
    )

    class Meta:
        model = Advancement
        fields = [
            "id",
            "kind",
            "character",
            "character_name",
            "campaign",
            "status",
            "base_version",
            "requested_by",
            "note",
            "build",
            "diff",
            "cost",
            "report",
            "reviewed_by",
            "review_comment",
            "created",
            "reviewed",
            "applied_version",
            "plan",
            "plan_check",
            "activities",
            "outcome",
        ]
        read_only_fields = fields
