"""Shapes of /api/v1/encounters/… (CONTRACT.md "Resources"); the views call the services."""

from __future__ import annotations

from rest_framework import serializers

from combat.services import MAX_GROUP
from config.schema import ActionField, JSONObjectField, StrictCharField

MAX_ID = 2**63 - 1


class EncounterCreateSerializer(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    name = StrictCharField(max_length=120, min_length=1, trim_whitespace=True)


class EncounterCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()


class CombatantCreateSerializer(serializers.Serializer):
    """Either ``character`` (a campaign character) or ``build`` (an NPC quick build)."""

    character = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    name = StrictCharField(
        required=False,
        max_length=116,
        allow_blank=True,
        help_text="NPC name (defaults to the build's name); with count > 1: “Goblin 1…N”.",
    )
    build = JSONObjectField(required=False, help_text="An NPC's build document of the campaign's ruleset.")
    count = serializers.IntegerField(required=False, min_value=1, max_value=MAX_GROUP, default=1)
    group = StrictCharField(
        required=False,
        max_length=60,
        allow_blank=True,
        default="",
        help_text="NPCs of a group share their pools and initiative; defaults to the name when count > 1.",
    )

    def validate_build(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("An NPC build must be a JSON object (a build document).")
        return value

    def validate(self, data):
        if ("character" in data) == ("build" in data):
            raise serializers.ValidationError("Send either a character id or an NPC build (with a name).")
        return data


class CombatantCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The (first) new combatant.")
    ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="Every new combatant (count > 1)."
    )


class ActionRequestSerializer(serializers.Serializer):
    """``{combatant, action, ...params}``: ``action`` is the action id of the ruleset (``"strike:0"``)
    with its parameters beside it (``target``, ``body_part``, ``amount``…), or an object
    ``{"action": id, ...params}``."""

    combatant = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    action = ActionField(help_text='An action id such as "move", or {"action": id, ...params}.')
    target = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    expected_version = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text="Refuse with 409 unless the encounter is at this version.",
    )
    request_id = serializers.RegexField(
        r"^[A-Za-z0-9_-]{8,64}$",
        required=False,
        help_text="A fresh id per intent (a uuid): a repeat of an applied request answers with the "
        "encounter as it is and is not applied again.",
    )
    private = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The GM only (else 403): the action's rolls reach the GM's roll feed only; the "
        "shared log says that the GM rolled behind the screen.",
    )

    def validate_action(self, value):
        if isinstance(value, str) and 0 < len(value) <= 80:
            return value
        if (
            isinstance(value, dict)
            and isinstance(value.get("action"), str)
            and 0 < len(value["action"]) <= 80
        ):
            return value
        raise serializers.ValidationError('An action is an id such as "move", or {"action": "move", ...}.')


class NextTurnSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    request_id = serializers.RegexField(
        r"^[A-Za-z0-9_-]{8,64}$",
        required=False,
        help_text="A fresh id per intent: a repeat of an applied request ends no second turn.",
    )


class StatSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # the API field "label" (CONTRACT.md) shadows Field.label
    value = serializers.CharField()


class SummarySerializer(serializers.Serializer):
    stats = StatSerializer(many=True)
    status = serializers.ListField(child=serializers.CharField())
    details = StatSerializer(
        many=True,
        required=False,
        help_text="More label/value pairs under ``details_label`` (distances to the others…).",
    )
    details_label = serializers.CharField(required=False)


class CombatantSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    is_npc = serializers.BooleanField()
    group = serializers.CharField()
    character = serializers.IntegerField(
        allow_null=True, help_text="The campaign character (PCs); null for NPCs."
    )
    owner = serializers.CharField(help_text="The PC's player (username); empty for NPCs.")
    position = serializers.IntegerField(allow_null=True, help_text="1-based place in the turn order.")
    current = serializers.BooleanField(help_text="Acting now (an NPC group acts together).")
    summary = SummarySerializer(help_text="The ruleset's key numbers and statuses for the row.")
    state = serializers.JSONField(help_text="Play state (a PC's is the character's live state).")
    combat = serializers.JSONField(
        help_text="Per-encounter numbers of the ruleset (a round's counters, the GM's pools…)."
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    round = serializers.IntegerField()
    kind = serializers.CharField()
    text = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True)
    data = serializers.JSONField()  # type: ignore[assignment]  # the API field "data" (CONTRACT.md) shadows Serializer.data
    created = serializers.DateTimeField()


class EncounterSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["setup", "active", "ended"])
    round = serializers.IntegerField()
    turn = serializers.IntegerField(help_text="Index into order of whose turn it is.")
    version = serializers.IntegerField()
    current = serializers.IntegerField(allow_null=True, help_text="The combatant whose turn it is.")
    current_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="Everyone acting this turn."
    )
    order = serializers.ListField(child=serializers.IntegerField(), help_text="Combatant ids in turn order.")
    state = serializers.JSONField(help_text="The ruleset's encounter state (a pending attack…).")
    combatants = CombatantSerializer(many=True)
    log = EventSerializer(many=True, help_text="Events in order (oldest first), at most the last 200.")
    obstacles = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="The campaign's and this encounter's obstacles ({id, name, level, ep, resolved, secret, "
        "within_rounds, encounter, character, effect}; level null for players when secret).",
    )


class EncounterSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    name = serializers.CharField()
    status = serializers.CharField()
    round = serializers.IntegerField()
    turn = serializers.IntegerField()
    version = serializers.IntegerField()
    created = serializers.DateTimeField()


# ------------------------------------------------------------------ the NPC library


class LibraryNpcCreateSerializer(serializers.Serializer):
    campaign = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    build = JSONObjectField(
        help_text="The NPC's build document of the campaign's ruleset (its `name` names the NPC). "
        "Not held to the players' starting budget; every other rule holds (invalid → 422)."
    )

    def validate_build(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("An NPC build must be a JSON object (a build document).")
        return value


class LibraryNpcUpdateSerializer(serializers.Serializer):
    build = JSONObjectField(help_text="The NPC's new build document; replaces the old one.")

    def validate_build(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("An NPC build must be a JSON object (a build document).")
        return value


class LibraryNpcSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    campaign = serializers.IntegerField(source="campaign_id")
    name = serializers.CharField()
    build = serializers.JSONField(help_text="The build document (format sheetforge.build/1 keys).")
    report = serializers.JSONField(
        help_text="The rules' report of the build as an NPC: what it would cost is in `spent`; "
        "an overspend of the player budget is a `budget.exceeded` warning, not an error."
    )
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()


class LibraryAddSerializer(serializers.Serializer):
    npc = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="A library NPC of the encounter's campaign."
    )
    count = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_GROUP,
        default=1,
        help_text="How many: “Bandit 1…N”, one group.",
    )
