"""Shapes of the campaign API (CONTRACT.md "Resources"). Shapes only: services decide."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from characters.accounts.serializers import UserSerializer
from characters.campaigns.selectors import campaign_members
from characters.campaigns.services import ruleset_choices
from characters.models import Membership
from config.schema import JSONObjectField, StrictCharField


class CampaignSettingsSerializer(serializers.Serializer):
    starting_budget = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        help_text='currency → whole number, e.g. {"cp": 40}',
    )
    house_rules = serializers.DictField(required=False, help_text="overrides of the ruleset's house defaults")
    approve_new_characters = serializers.BooleanField(
        required=False, help_text="the GM approves each new character before play (absent: false)"
    )


class CampaignCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=120)
    ruleset = serializers.ChoiceField(choices=ruleset_choices())
    settings = JSONObjectField(
        required=False,
        help_text='{"starting_budget": {currency: int}, "house_rules": {...}, "approve_new_characters": bool}; '
        "omitted parts take the "
        "ruleset's house defaults. Checked against the ruleset (400 with its messages).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = ruleset_choices()  # the registry's now (a test may register one)


class CampaignUpdateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=120, required=False)
    settings = JSONObjectField(required=False, help_text="as on create; replaces the settings")


class JoinSerializer(serializers.Serializer):
    join_code = StrictCharField(max_length=32, help_text="case-insensitive")


class JoinResultSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="the campaign")
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class JoinCodeSerializer(serializers.Serializer):
    join_code = serializers.CharField()


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="user.id", help_text="the user")
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Membership.Role.choices)
    joined = serializers.DateTimeField()


class CampaignSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ruleset = serializers.CharField()
    gm = UserSerializer()
    role = serializers.SerializerMethodField()

    def get_role(self, campaign) -> str:
        user = self.context["request"].user
        return Membership.Role.GM if campaign.is_gm(user) else Membership.Role.PLAYER


class CampaignDetailSerializer(CampaignSummarySerializer):
    settings = CampaignSettingsSerializer()
    join_code = serializers.SerializerMethodField(help_text="shown to the GM only")
    members = serializers.SerializerMethodField()
    created = serializers.DateTimeField()

    def get_join_code(self, campaign) -> str | None:
        return campaign.join_code if campaign.is_gm(self.context["request"].user) else None

    @extend_schema_field(MemberSerializer(many=True))
    def get_members(self, campaign) -> list[dict]:
        return list(MemberSerializer(campaign_members(campaign), many=True).data)
