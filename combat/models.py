"""Encounters, their combatants and the append-only event log."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Encounter(models.Model):
    class Status(models.TextChoices):
        SETUP = "setup", "Setting up"
        ACTIVE = "active", "Running"
        ENDED = "ended", "Ended"

    campaign = models.ForeignKey("characters.Campaign", on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SETUP)
    round = models.PositiveIntegerField(default=0)
    turn = models.PositiveIntegerField(default=0)  # index into ``order``
    order = models.JSONField(default=list, blank=True)  # combatant ids, in turn order
    # Ruleset-specific encounter state (a scene's difficulty, the current exchange, …).
    state = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)
    #: The ``seq`` of the latest event: the next event's number, read with the locked row (no scan of the log).
    last_seq = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.name


class Combatant(models.Model):
    """A character of the campaign (its live sheet state takes the damage) or an NPC."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="combatants")
    character = models.ForeignKey(
        "characters.Character", null=True, blank=True, on_delete=models.CASCADE, related_name="combatants"
    )
    name = models.CharField(max_length=120)
    build = models.JSONField(default=dict, blank=True)  # NPCs only; PCs read their character's build
    state = models.JSONField(default=dict, blank=True)  # NPCs' play state; PCs use character.state
    combat = models.JSONField(
        default=dict, blank=True
    )  # per-encounter numbers: speed, actions left, initiative…
    group = models.CharField(max_length=60, blank=True)  # NPCs sharing their pools and initiative
    is_npc = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name


class EncounterEvent(models.Model):
    """Append-only: everything that happened in an encounter, in order."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    round = models.PositiveIntegerField(default=0)
    actor = models.ForeignKey(Combatant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    kind = models.CharField(max_length=40)
    text = models.CharField(max_length=500)
    data = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="one_event_per_seq")]

    def __str__(self) -> str:
        return f"Event {self.seq} of encounter #{self.encounter_id}"


class EncounterRequest(models.Model):
    """A page's request that changed an encounter, under the id its form carried (``request_id``):
    a repeat of it — a double click, a browser resending — is answered as done and not applied
    again. Written in the same transaction as the change, under the encounter's row lock."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64)
    #: The encounter's version once the request was applied.
    version = models.PositiveIntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["encounter", "key"], name="one_request_per_key")]

    def __str__(self) -> str:
        return f"Request {self.key} of encounter #{self.encounter_id}"


class LibraryNpc(models.Model):
    """An NPC of a campaign's library: a build the GM made once and adds to encounters by the dozen.

    ``report`` is the rules' report of ``build`` as an NPC (the player budget does not bind it;
    the report still says what it would cost).
    """

    campaign = models.ForeignKey("characters.Campaign", on_delete=models.CASCADE, related_name="npc_library")
    name = models.CharField(max_length=120)
    build = models.JSONField(default=dict)
    report = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name
