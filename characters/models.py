"""Campaigns, membership, characters, their versions, the ledger and advancement.

Money-like numbers (CP, XP, points) are never stored as a balance: the unspent
budget of a character is derived from its ledger (awards − spends), and a ledger
row is written in the same transaction as the change it pays for.
"""

from __future__ import annotations

import secrets

from django.conf import settings as django_settings
from django.db import models
from knox.models import AbstractAuthToken

from rulesets.engine import registry
from rulesets.engine.order import in_rulebook_order, report_in_rulebook_order, rulebook_index

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud at the table


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(8))


class Campaign(models.Model):
    """A table: one GM, players, one ruleset, its house rules and homebrew."""

    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=32)  # a slug of rulesets.engine.registry
    # {"starting_budget": {"cp": 40}, "house_rules": {...overrides of the ruleset's house defaults}}
    settings = models.JSONField(default=dict, blank=True)
    # {kind: [entries]} in the shape of the ruleset's content catalogues
    homebrew = models.JSONField(default=dict, blank=True)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code)
    gm = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    created = models.DateTimeField(auto_now_add=True)
    # The campaign's clock (RULES.md C1): the day of the campaign (1, 2, …) and the hour (0–23), moved
    # by the GM ("Time passes", "A new day": characters/clock/); rests and recovery read it.
    clock_day = models.PositiveIntegerField(default=1)
    clock_hour = models.PositiveSmallIntegerField(default=8)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def is_gm(self, user) -> bool:
        """Whether ``user`` runs this campaign: its ``gm`` field, the one source of truth (the GM's
        ``Membership`` row, role "gm", mirrors it so that member queries include the GM; queries
        ask ``gm=user`` / ``campaign__gm=user``)."""
        return getattr(user, "is_authenticated", False) and self.gm_id == user.pk

    @property
    def ruleset_name(self) -> str:
        ruleset = registry.get(self.ruleset)
        return ruleset.name if ruleset else self.ruleset

    @property
    def house_rules(self) -> dict:
        return (self.settings or {}).get("house_rules") or {}

    @property
    def starting_budget(self) -> dict:
        return (self.settings or {}).get("starting_budget") or {}


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", "Game master"
        PLAYER = "player", "Player"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=8, choices=Role.choices, default=Role.PLAYER)
    joined = models.DateTimeField(auto_now_add=True)

    #: Not stored: set by ``campaign_join`` — whether that call made this membership (a second join did not).
    is_new: bool = False

    class Meta:
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")]
        ordering = ["joined", "id"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} of campaign #{self.campaign_id} (user #{self.user_id})"


class Character(models.Model):
    """A character: its build (choices), its play state, and the version counter.

    ``build`` is the working build: the approved one once the character is active
    (advancement proposals live in ``Advancement`` until approved). ``report`` is
    the rules service's report of ``build``, cached at save time.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        # Submitted in a campaign whose GM approves new characters: read-only until reviewed.
        PENDING = "pending", "Pending approval"
        ACTIVE = "active", "Active"
        RETIRED = "retired", "Retired"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=32)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.DRAFT)
    build = models.JSONField(default=dict)
    state = models.JSONField(default=dict, blank=True)
    report = models.JSONField(default=dict, blank=True)
    #: The concurrency token of every door (the API's ``version``): every saved change bumps it,
    #: a builder autosave too, so a write based on an older one is refused (409) or merged.
    version = models.PositiveIntegerField(default=1)
    #: The version number people read (sheet, builder, history): it counts the versions that
    #: mean something (created, submitted, approved, advanced, reverted, play…), not autosaves.
    shown_version = models.PositiveIntegerField(default=1)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    #: Not stored: set by ``character_for_user``: the viewer's role in the campaign (None: not a member).
    viewer_role: str | None = None
    #: Not stored: the status of the latest review of the character's submission when it was read
    #: with the character (``character_for_user(with_creation_review=True)``): "" when it was never
    #: submitted; None when it was not read.
    creation_review_status: str | None = None
    #: Not stored: whether the character has afflictions (obstacles on it) and advancement requests
    #: not withdrawn, when it was read for its sheet (``character_for_user(for_sheet=True)``): the
    #: sheet then skips the reads of what is not there. None when it was not read.
    has_afflictions: bool | None = None
    has_requests: bool | None = None

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(fields=["campaign", "owner"])]

    def __str__(self) -> str:
        return self.name

    @property
    def live_stamp(self) -> int:
        """When the row last changed, in microseconds: what a live page compares, with ``version``,
        to know whether what it shows is older (an award changes the budget without a new version)."""
        return int(self.updated.timestamp() * 1_000_000) if self.updated else 0

    @classmethod
    def from_db(cls, db, field_names, values):
        """Documents come back from Postgres (jsonb) in another key order: put them back in the
        rulebook's order (rulesets/engine/order.py), so the sheet, the builder and the API list
        attributes, stats and skills as the rules do."""
        instance = super().from_db(db, field_names, values)
        instance._in_rulebook_order()
        return instance

    def _in_rulebook_order(self) -> None:
        loaded = self.__dict__
        if not isinstance(loaded.get("ruleset"), str):
            return

        ruleset = registry.get(loaded["ruleset"])
        if ruleset is None:
            return
        index = rulebook_index(ruleset)
        for name in ("build", "state"):
            if isinstance(loaded.get(name), dict):
                loaded[name] = in_rulebook_order(loaded[name], index)
        if isinstance(loaded.get("report"), dict):
            loaded["report"] = report_in_rulebook_order(loaded["report"], ruleset)


class CharacterVersion(models.Model):
    """Every saved change of a character's build or state, numbered 1, 2, 3…"""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    build = models.JSONField()
    state = models.JSONField(default=dict, blank=True)
    report = models.JSONField(default=dict, blank=True)
    reason = models.CharField(
        max_length=200, blank=True
    )  # "created", "saved draft", "advancement #3", "revert to v2"
    #: "build" (the character's choices changed) or "play" (play state only: harm, pools, a
    #: combat round). History lists build versions by default; the play log lists the others.
    #: "draft": a builder autosave, kept only as the base of a later three-way merge (the last
    #: few per character, ``versions.DRAFT_ROWS_KEPT``); never listed.
    kind = models.CharField(
        max_length=8, choices=[("build", "Build"), ("play", "Play"), ("draft", "Draft")], default="build"
    )
    #: The number people read (``Character.shown_version`` when this was written); None on drafts.
    shown_number = models.PositiveIntegerField(null=True, blank=True)
    author = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    #: When the row last took a change: its own, or, for a play row, the latest change of its session
    #: of play that joined it (characters/versions.py decides a session by it). None on rows older
    #: than the field whose time was not known.
    changed = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [models.UniqueConstraint(fields=["character", "number"], name="one_version_number")]

    def __str__(self) -> str:
        return f"Character #{self.character_id} v{self.number}"

    @property
    def label_number(self) -> int:
        """The number shown for this version (rows from before ``shown_number`` show ``number``)."""
        return self.shown_number if self.shown_number is not None else self.number


class LedgerEntry(models.Model):
    """One award or spend of one currency. Balances are sums of these rows."""

    class Kind(models.TextChoices):
        AWARD = "award", "Award"
        SPEND = "spend", "Spend"
        REVERSAL = "reversal", "Reversal"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="ledger")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    currency = models.CharField(max_length=32)
    # Signed: awards positive, spends negative, reversals the opposite of what they reverse.
    amount = models.IntegerField()
    reason = models.CharField(max_length=200, blank=True)
    author = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    advancement = models.ForeignKey(
        "Advancement", null=True, blank=True, on_delete=models.SET_NULL, related_name="ledger_entries"
    )
    version = models.PositiveIntegerField(null=True, blank=True)  # the character version it paid for
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]
        indexes = [models.Index(fields=["character", "currency"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.currency} (character #{self.character_id})"


class Advancement(models.Model):
    """A player's proposed new build, priced against the approved one, for the GM to review.

    ``kind`` "creation" is a new character submitted where the campaign approves new
    characters: the same queue, review page, report and costs; priced against nothing.
    ``kind`` "activities" is what the character does between adventures (``activities``, the
    ruleset's ``apply_activities``): no new build; approving it writes the play state and books
    its awards as ledger rows.
    """

    class Kind(models.TextChoices):
        ADVANCEMENT = "advancement", "Advancement"
        CREATION = "creation", "New character"
        ACTIVITIES = "activities", "Between adventures"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved"
        REJECTED = "rejected", "Rejected"
        WITHDRAWN = "withdrawn", "Withdrawn"
        REVERTED = "reverted", "Reverted"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="advancements")
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.ADVANCEMENT)
    base_version = models.PositiveIntegerField()  # the character version it was priced against
    build = models.JSONField()
    note = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    diff = models.JSONField(default=list, blank=True)
    cost = models.JSONField(default=dict, blank=True)
    report = models.JSONField(default=dict, blank=True)
    reviewed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    review_comment = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    reviewed = models.DateTimeField(null=True, blank=True)
    applied_version = models.PositiveIntegerField(null=True, blank=True)
    #: The approved plan this request was checked against (characters/plans/): set when its build is
    #: the plan's next step ("followed": approved when requested; "differs": the same build at
    #: another price or verdict, for the GM as ever).
    plan = models.ForeignKey(
        "Plan", null=True, blank=True, on_delete=models.SET_NULL, related_name="advancements"
    )
    plan_check = models.CharField(max_length=10, blank=True, default="")
    #: kind "activities": what the player picked between adventures, in order, each
    #: ``{"id", "name", "text"}`` as the ruleset said it when requested; once approved, ``outcome``
    #: holds one sentence per activity (what the dice and the rules made of it).
    activities = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["character", "status"])]

    def __str__(self) -> str:
        return f"Advancement #{self.pk} of character #{self.character_id}"


class Plan(models.Model):
    """A player's plan of a character's next steps (characters/plans/): one whole build per step,
    each validated and priced against the step before it when saved (``steps``: [{build, report,
    cost, diff}], the first against the approved build of ``base_version``). The GM approves a plan
    as a whole; at most one plan of a character is approved (or off course) at a time.
    ``followed`` counts the steps applied since it was approved: the next step is ``steps[followed]``.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PENDING = "pending", "Waiting for the GM"
        APPROVED = "approved", "Approved"
        REJECTED = "rejected", "Rejected"
        OFF_COURSE = "off_course", "Off course"
        RETIRED = "retired", "Retired"
        DONE = "done", "Done"

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="plans")
    author = models.ForeignKey(django_settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    steps = models.JSONField(default=list)
    base_version = models.PositiveIntegerField()
    followed = models.PositiveIntegerField(default=0)
    comment = models.TextField(blank=True)
    reviewed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    #: Not stored: set by ``plans.selectors.plan_refused_now``: what today's rules refuse in it.
    refused_now: list | None = None

    class Meta:
        ordering = ["-updated", "-id"]
        indexes = [models.Index(fields=["character", "status"])]

    def __str__(self) -> str:
        return self.name


class ShareLink(models.Model):
    """A read-only link to a character's sheet (characters/shares/): ``/s/<token>/``. Revoked links
    are kept (``revoked`` set) and answer 404."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="share_links")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"Share link of character #{self.character_id}"


class RollLog(models.Model):
    """A roll at the table: who rolled what for which character, when, and the odds of it.

    The campaign's rows are the table's roll feed; a character's rows are its roll log. A
    ``private`` roll is the GM's: only the campaign's GM ever sees it (feed, log, sockets).
    A roll made in a fight (combat/step.py) has ``request["encounter"]`` and the log line in
    ``result["text"]``; an NPC's has no character.
    """

    campaign = models.ForeignKey(Campaign, null=True, on_delete=models.CASCADE, related_name="rolls")
    #: None for a roll of a fight's NPC (combat/step.py): no sheet, the campaign's feed only.
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls"
    )
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    label = models.CharField(max_length=120)
    request = models.JSONField()
    result = models.JSONField()
    private = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            models.Index(fields=["campaign", "-created", "-id"], name="roll_feed"),
            models.Index(fields=["character", "-created", "-id"], name="roll_log"),
        ]

    def __str__(self) -> str:
        return self.label


class CampaignEffect(models.Model):
    """A custom effect kept by a campaign for reuse (characters/effects/): its name and its changes
    (rulesets/engine/effects.py "Changes", checked when it was made). Applied again as a custom
    effect, checked again against the character it goes on. One name per campaign: saving a name
    again replaces its changes. The GM deletes them."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="saved_effects")
    name = models.CharField(max_length=60)
    changes = models.JSONField(default=list)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"], name="one_saved_effect_per_name")]

    def __str__(self) -> str:
        return self.name


class Obstacle(models.Model):
    """An obstacle the GM sets (RULES.md amendment W2: "Obstacles can come in any form, whether a literal
    physical obstacle, such as a locked door, or affliction on your character, such as becoming
    stunned"): on the campaign, an encounter (``encounter_id``: the combat app's encounter; characters
    never imports combat) or a character (an affliction, ``effect``: the id of that character's
    effect it ends when resolved). EP put into it accumulate under a row lock
    (characters/obstacles/services.py); at ``level`` or more it is resolved. ``within_rounds``: the EP
    reset when that many of the encounter's rounds pass unmet (``since_round``: when they began)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="obstacles")
    name = models.CharField(max_length=120)
    level = models.PositiveIntegerField()
    ep = models.PositiveIntegerField(default=0)
    secret = models.BooleanField(default=False)
    within_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    encounter_id = models.PositiveIntegerField(null=True, blank=True, db_index=True)
    character = models.ForeignKey(
        Character, null=True, blank=True, on_delete=models.CASCADE, related_name="obstacles"
    )
    effect = models.CharField(max_length=40, blank=True, default="")
    resolved = models.BooleanField(default=False)
    since_round = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class ApiToken(AbstractAuthToken):
    """An API token of one device or client (django-rest-knox keeps only its SHA-512 digest).

    ``name`` is the owner's label ("laptop", "foundry sync"); ``last_used`` is updated at most
    once a minute by ``characters.accounts.auth.ApiTokenAuthentication``; ``expiry`` is None unless
    ``API_TOKEN_TTL_DAYS`` is set. A password change deletes every token of the user
    (characters/signals.py).
    """

    id = models.BigAutoField(primary_key=True)
    digest = models.CharField(max_length=128, unique=True)
    name = models.CharField(max_length=60, default="API token")
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.user})"


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)


class Webhook(models.Model):
    """Where a campaign's table rolls go besides the page (characters/webhooks/): a Discord channel's
    webhook or the GM's own tool (signed JSON). ``private``: the GM's private rolls go here too
    (only here). ``secret`` signs each delivery (HMAC-SHA256); the API shows it once."""

    class Format(models.TextChoices):
        DISCORD = "discord", "Discord channel"
        JSON = "json", "Signed JSON"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=10, choices=Format.choices)
    private = models.BooleanField(default=False)
    secret = models.CharField(max_length=64, default=new_webhook_secret)
    created_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One roll for one webhook: the transactional outbox. Written in the roll's transaction
    (``characters.table.feed.roll_logged``), sent by ``manage.py deliver_webhooks`` once due
    (``next_at``). ``retrying`` until it is delivered or has failed for good; ``failures`` counts
    the failed tries that backed off (a 429 waits what it asks without using one up)."""

    class Status(models.TextChoices):
        RETRYING = "retrying", "Waiting to be sent"
        DELIVERED = "delivered", "Delivered"
        FAILED = "failed", "Failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    roll = models.ForeignKey(RollLog, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RETRYING)
    attempts = models.PositiveSmallIntegerField(default=0)
    failures = models.PositiveSmallIntegerField(default=0)
    #: When it is due (the worker's claim pushes it a lease ahead); None once delivered or failed.
    next_at = models.DateTimeField(null=True, blank=True)
    response_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["next_at"], name="webhook_due", condition=models.Q(status="retrying"))
        ]

    def __str__(self) -> str:
        return f"{self.pk} ({self.status})"
