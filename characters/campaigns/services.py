"""Campaigns and membership: every write here owns its transaction.

Errors: Django's ``ValidationError`` (a form error / 400 with the reasons, per field, which the
forms and the API show as they are) and ``NotPermitted`` (config/errors.py: a player
attempting a GM action, 403). What a user may not see never gets this
far: the selectors raise ``CampaignNotFound`` (404) first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from characters.models import JOIN_CODE_ALPHABET, Campaign, Membership, new_join_code
from config.errors import NotPermitted
from config.text import unstorable_at
from rulesets.engine import registry

if TYPE_CHECKING:
    from django.contrib.auth.models import User as AuthUser  # settings.AUTH_USER_MODEL (the default)

User = get_user_model()

#: A starting budget is a whole number of a currency; this bound keeps typos (and fuzzers) out.
MAX_STARTING_BUDGET = 1_000_000
SETTINGS_KEYS = ("starting_budget", "house_rules", "approve_new_characters")


def ruleset_choices() -> list[tuple[str, str]]:
    """(slug, name) for every registered ruleset."""
    return registry.choices()


def ruleset_name(slug: str) -> str:
    """The ruleset's display name (the slug itself for one that is not registered)."""
    return Campaign(ruleset=slug).ruleset_name


# ----------------------------------------------------------------- settings


def _has_bad_text(value: Any) -> bool:
    """NUL and lone surrogates cannot be stored in a Postgres jsonb; refuse them as input errors."""
    return unstorable_at(value) is not None


def _load_ruleset(slug: str):
    ruleset = registry.get(slug)
    if ruleset is None:
        known = ", ".join(registry.SYSTEMS)
        raise ValidationError({"ruleset": [f"Unknown ruleset {slug!r}; choose one of {known}."]})
    return ruleset


def campaign_default_settings(*, ruleset: str) -> dict:
    """The settings a new campaign starts with: the ruleset's house starting budget, no house rules."""
    rs = _load_ruleset(ruleset)
    budget = rs.house_defaults.get("starting_budget") or {}
    return {
        "starting_budget": {c: budget[c] for c in rs.currencies if isinstance(budget.get(c), int)},
        "house_rules": {},
    }


def campaign_clean_settings(*, ruleset: str, settings: Any) -> dict:
    """Validate campaign settings against the ruleset and return them complete.

    ``{"starting_budget": {currency: int}, "house_rules": {...}, "approve_new_characters": bool}``
    (the last only when given: absent means the GM does not approve new characters); a currency left
    out takes the ruleset's house default. Raises ValidationError listing every issue
    (the ruleset's own messages for house rules).
    """
    rs = _load_ruleset(ruleset)
    defaults = campaign_default_settings(ruleset=ruleset)
    if settings is None:
        return defaults
    if not isinstance(settings, dict):
        raise ValidationError({"settings": ["Settings must be an object: {starting_budget, house_rules}."]})
    if _has_bad_text(settings):
        raise ValidationError(
            {"settings": ["Settings may not contain NUL or unpaired surrogate characters."]}
        )
    messages: list[str] = []
    for key in settings:
        if key not in SETTINGS_KEYS:
            messages.append(
                f"Unknown setting {key!r}; campaign settings are starting_budget, house_rules and approve_new_characters."
            )
    approve = settings.get("approve_new_characters", False)
    if not isinstance(approve, bool):
        messages.append("approve_new_characters must be true or false.")
    budget = settings.get("starting_budget")
    budget = {} if budget is None else budget
    clean_budget = dict(defaults["starting_budget"])
    if not isinstance(budget, dict):
        messages.append('starting_budget must be an object such as {"cp": 40}.')
    else:
        for currency, amount in budget.items():
            if currency not in rs.currencies:
                messages.append(
                    f"{rs.name} has no currency {currency!r} (it uses {', '.join(rs.currencies)})."
                )
            elif (
                isinstance(amount, bool)
                or not isinstance(amount, int)
                or not 0 <= amount <= MAX_STARTING_BUDGET
            ):
                messages.append(
                    f"The starting {currency} must be a whole number from 0 to {MAX_STARTING_BUDGET}."
                )
            else:
                clean_budget[currency] = amount
    house_rules = settings.get("house_rules")
    house_rules = {} if house_rules is None else house_rules
    for issue in rs.check_settings(house_rules):
        messages.append(issue.message)
    if messages:
        raise ValidationError({"settings": messages})
    clean = {"starting_budget": clean_budget, "house_rules": house_rules}
    if (
        "approve_new_characters" in settings
    ):  # absent means off: older campaigns and clients keep today's behaviour
        clean["approve_new_characters"] = approve
    return clean


# ---------------------------------------------------------------- campaigns


def _unique_join_code() -> str:
    for _ in range(20):
        code = new_join_code()
        if not Campaign.objects.filter(join_code=code).exists():
            return code
    raise RuntimeError("Could not find a free join code")  # 32**8 codes: not in this universe


def campaign_create(*, gm: AuthUser, name: str, ruleset: str, settings: Any = None) -> Campaign:
    """A new campaign with ``gm`` as its game master (a Membership with role gm)."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": ["Give the campaign a name."]})
    if len(name) > 120:
        raise ValidationError({"name": ["The name may be at most 120 characters."]})
    clean = campaign_clean_settings(ruleset=ruleset, settings=settings)
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name=name, ruleset=ruleset, settings=clean, gm=gm, join_code=_unique_join_code()
        )
        Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    return campaign


def normalise_join_code(code: Any) -> str:
    """Codes are read aloud and typed on phones: ignore case, spaces and dashes."""
    if not isinstance(code, str):
        return ""
    return "".join(ch for ch in code.upper() if ch not in " -\t")


def campaign_join(*, user: AuthUser, join_code: str) -> Membership:
    """Join the campaign whose code this is, as a player. Joining twice returns the same membership;
    its ``is_new`` says whether this call made it (a second join changes nothing)."""
    code = normalise_join_code(join_code)
    if not code or any(ch not in JOIN_CODE_ALPHABET for ch in code):
        raise ValidationError({"join_code": ["No campaign has this join code; check it with your GM."]})
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().filter(join_code=code).first()
        if campaign is None:
            raise ValidationError({"join_code": ["No campaign has this join code; check it with your GM."]})
        membership, created = Membership.objects.get_or_create(
            campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER}
        )
    membership.is_new = created
    return membership


def _require_gm(user: AuthUser, campaign: Campaign) -> None:
    if not campaign.is_gm(user):
        raise NotPermitted("Only the campaign's GM may do this.")


def campaign_leave(*, user: AuthUser, campaign: Campaign) -> None:
    """A player leaves; their characters stay with the campaign. The GM cannot leave their own table."""
    if campaign.is_gm(user):
        raise ValidationError("The GM cannot leave their own campaign.")
    with transaction.atomic():
        deleted, _ = Membership.objects.filter(campaign=campaign, user=user).delete()
    if not deleted:
        raise ValidationError("You are not a member of this campaign.")


def campaign_remove_player(*, gm: AuthUser, campaign: Campaign, user: AuthUser) -> None:
    """The GM removes a player from the table (403 for anyone but the GM)."""
    _require_gm(gm, campaign)
    if campaign.is_gm(user):
        raise ValidationError("The GM cannot remove themselves.")
    with transaction.atomic():
        deleted, _ = Membership.objects.filter(
            campaign=campaign, user=user, role=Membership.Role.PLAYER
        ).delete()
    if not deleted:
        raise ValidationError(f"{user.get_username()} is not a player in this campaign.")


def campaign_regenerate_join_code(*, gm: AuthUser, campaign: Campaign) -> str:
    """A fresh join code (the old one stops working at once)."""
    _require_gm(gm, campaign)
    with transaction.atomic():
        locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
        locked.join_code = _unique_join_code()
        locked.save(update_fields=["join_code"])
    campaign.join_code = locked.join_code
    return locked.join_code


def campaign_update_settings(
    *, gm: AuthUser, campaign: Campaign, settings: Any = None, name: str | None = None
) -> Campaign:
    """The GM changes the starting budget, house rules or name, validated against the ruleset."""
    _require_gm(gm, campaign)
    fields = []
    if name is not None:
        name = name.strip()
        if not name or len(name) > 120:
            raise ValidationError({"name": ["The name must be 1 to 120 characters."]})
        campaign.name = name
        fields.append("name")
    if settings is not None:
        campaign.settings = campaign_clean_settings(ruleset=campaign.ruleset, settings=settings)
        fields.append("settings")
    if fields:
        with transaction.atomic():
            campaign.save(update_fields=fields)
    return campaign
