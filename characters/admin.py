from django.contrib import admin

from characters.models import (
    Advancement,
    ApiToken,
    Campaign,
    Character,
    CharacterVersion,
    LedgerEntry,
    Membership,
    RollLog,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("user",)


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ("name", "ruleset", "gm", "join_code", "created")
    list_filter = ("ruleset",)
    search_fields = ("name", "gm__username", "join_code")
    raw_id_fields = ("gm",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("campaign", "user", "role", "joined")
    list_filter = ("role",)
    search_fields = ("campaign__name", "user__username")
    raw_id_fields = ("campaign", "user")


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ("name", "campaign", "owner", "ruleset", "status", "version", "updated")
    list_filter = ("ruleset", "status")
    search_fields = ("name", "owner__username", "campaign__name")
    raw_id_fields = ("campaign", "owner")


@admin.register(CharacterVersion)
class CharacterVersionAdmin(admin.ModelAdmin):
    list_display = ("character", "number", "reason", "author", "created")
    raw_id_fields = ("character", "author")


@admin.register(LedgerEntry)
class LedgerEntryAdmin(admin.ModelAdmin):
    list_display = ("character", "kind", "currency", "amount", "reason", "created")
    list_filter = ("kind", "currency")
    raw_id_fields = ("character", "author", "advancement")


@admin.register(Advancement)
class AdvancementAdmin(admin.ModelAdmin):
    list_display = ("character", "status", "requested_by", "created", "reviewed")
    list_filter = ("status",)
    raw_id_fields = ("character", "requested_by", "reviewed_by")


@admin.register(RollLog)
class RollLogAdmin(admin.ModelAdmin):
    list_display = ("character", "label", "user", "created")
    raw_id_fields = ("character", "user")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Staff may see and delete (revoke) tokens; keys are never stored, so none can be made here."""

    list_display = ("name", "user", "created", "last_used", "expiry")
    search_fields = ("name", "user__username", "token_key")
    fields = ("name", "user", "token_key", "created", "last_used", "expiry")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
