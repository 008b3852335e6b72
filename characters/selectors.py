"""Reads about characters, through the access rule every page and endpoint shares.

The rule: the owner sees and edits their character (while still a member of its
campaign); the campaign's GM sees every character of the campaign and may edit
its play state but not its build; anyone else gets ``Http404`` — a character one
may not see does not exist, so ids leak nothing.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import Http404

from characters.campaigns.selectors import campaign_memberships
from characters.compiled import CompiledQuery
from characters.models import Advancement, Campaign, Character, CharacterVersion, LedgerEntry, Obstacle, Plan
from rulesets.engine import registry, validate
from rulesets.engine.fields import is_int
from rulesets.engine.pointer import ptr, split

_MAX_ID = 2**63 - 1


class CharacterNotFound(Http404, Character.DoesNotExist):
    """The character does not exist or the user may not see it (pages and API answer 404 alike)."""


def _visible_filter(user) -> Q:
    """Characters ``user`` may see: own ones in campaigns they belong to, or any in campaigns they run."""
    return (Q(owner=user) & Exists(campaign_memberships(user=user))) | Q(campaign__gm=user)


def characters_visible_to(*, user, campaign_id=None) -> QuerySet[Character]:
    """Every character ``user`` may see, optionally in one campaign, ordered by name."""
    if not getattr(user, "is_authenticated", False):
        return Character.objects.none()
    qs = Character.objects.filter(_visible_filter(user)).select_related("campaign", "owner")
    if campaign_id is not None:
        try:
            cid = int(campaign_id)
        except (TypeError, ValueError):
            return Character.objects.none()
        if not 0 < cid <= _MAX_ID:
            return Character.objects.none()
        qs = qs.filter(campaign_id=cid)
    return qs.order_by("name", "id")


def character_for_user(
    *,
    user,
    character_id,
    for_update: bool = False,
    with_creation_review: bool = False,
    for_sheet: bool = False,
) -> Character:
    """The character ``character_id`` if ``user`` may see it, else ``CharacterNotFound`` (a 404).

    With ``for_update`` the character row is locked (call inside a transaction).
    The campaign and owner come with it, and the user's role in the campaign (``viewer_role``)
    is read by a subquery of the same statement: one query (the live builder runs this on every
    change). ``with_creation_review``: the same statement also reads the status of the latest
    review of the character's submission, as ``creation_review_status`` ("" when it was never
    submitted). ``for_sheet``: it also says whether the character has afflictions and advancement
    requests (``has_afflictions``, ``has_requests``), so that its sheet reads them only when there
    are some. The queryset is compiled once per process (``_CHARACTER_FOR_USER``).
    """
    if not getattr(user, "is_authenticated", False):
        raise CharacterNotFound("No such character.")
    try:
        pk = int(character_id)
    except (TypeError, ValueError):
        raise CharacterNotFound("No such character.") from None
    if not 0 < pk <= _MAX_ID:
        raise CharacterNotFound("No such character.")
    rows = _CHARACTER_FOR_USER[for_update, with_creation_review, for_sheet].fetch(pk=pk, user=user.pk)
    if not rows:
        raise CharacterNotFound("No such character.")
    character = rows[0]
    # Read under other names: the model declares these two (django-stubs checks annotations).
    character.viewer_role = character.role_read
    if with_creation_review:
        character.creation_review_status = character.review_read or ""
    if for_sheet:
        character.has_afflictions, character.has_requests = (
            character.afflictions_read,
            character.requests_read,
        )
    return character


def _latest_creation_review_status() -> QuerySet:
    return (
        Advancement.objects.filter(character_id=OuterRef("pk"), kind=Advancement.Kind.CREATION)
        .order_by("-id")
        .values("status")[:1]
    )


def _character_for_user_query(for_update: bool, with_creation_review: bool, for_sheet: bool) -> CompiledQuery:
    def build(pk, user) -> QuerySet[Character]:
        found = (
            Character.objects.filter(_visible_filter(user), pk=pk)
            .select_related("campaign", "owner")
            .annotate(role_read=Subquery(campaign_memberships(user=user).values("role")[:1]))
        )
        if with_creation_review:
            found = found.annotate(review_read=Subquery(_latest_creation_review_status()))
        if for_sheet:
            found = found.annotate(
                afflictions_read=Exists(
                    Obstacle.objects.filter(campaign_id=OuterRef("campaign_id"), character_id=OuterRef("pk"))
                ),
                requests_read=Exists(
                    Advancement.objects.filter(character_id=OuterRef("pk")).exclude(
                        status=Advancement.Status.WITHDRAWN
                    )
                ),
            )
        if for_update:
            found = found.select_for_update(of=("self",))
        return found.order_by()[:1]

    return CompiledQuery(build, "pk", "user")


#: Compiled once (characters/compiled.py): every character page, builder update and
#: play action starts with this read, and compiling it cost more CPU than the rest of the read.
_CHARACTER_FOR_USER = {
    (lock, review, sheet): _character_for_user_query(lock, review, sheet)
    for lock in (False, True)
    for review in (False, True)
    for sheet in (False, True)
}


def is_campaign_gm(user, campaign: Campaign) -> bool:
    """Whether ``user`` runs ``campaign`` (``Campaign.is_gm``: its ``gm`` field; no query)."""
    return campaign.is_gm(user)


def can_edit_build(user, character: Character) -> bool:
    """Only the owner edits the build (the GM changes it through advancement review, not here)."""
    return getattr(user, "is_authenticated", False) and character.owner_id == user.pk


def can_edit_state(user, character: Character) -> bool:
    """The owner and the campaign's GM may change play state (hit points, conditions…)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return character.owner_id == user.pk or is_campaign_gm(user, character.campaign)


def character_versions(*, character: Character, kind: str | None = None) -> QuerySet[CharacterVersion]:
    """The character's versions, newest first, with their authors: every one people read, or only
    those of ``kind`` ("build": the character's choices changed; "play": play state only, the play
    log). The builder's autosaves ("draft": merge bases, ``services.versions``) are never listed."""
    versions = CharacterVersion.objects.filter(character=character)
    versions = versions.filter(kind=kind) if kind else versions.exclude(kind="draft")
    return versions.select_related("author").order_by("-number")


def character_awarded(*, character: Character) -> dict[str, int]:
    """The total awarded per currency (awards and their reversals), from the ledger: one query."""
    from django.db.models import Sum

    rows = (
        LedgerEntry.objects.filter(character=character)
        .exclude(kind=LedgerEntry.Kind.SPEND)
        .values("currency")
        .annotate(total=Sum("amount"))
        .order_by("currency")
    )
    return {row["currency"]: row["total"] or 0 for row in rows}


# ------------------------------------------------------------------ the builder's reads


def builder_traits(*, campaign: Campaign):
    """(ruleset, ctx, traits) for ``campaign``: the ruleset's builder sections with its homebrew.

    Traits are computed once per rules context (the ruleset caches contexts by house rules
    and homebrew), so the live-validation request does not rebuild them.
    """
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return None, None, {"sections": []}
    ctx = ruleset.context(campaign.house_rules, campaign.homebrew)
    return ruleset, ctx, ctx.memo("traits", lambda: ruleset.traits(ctx) or {})


def next_point_costs(*, campaign: Campaign, build: Any, report, traits: dict) -> dict[str, dict]:
    """What one more point of each stepper costs: {pointer: {"cost": {currency: delta}}}.

    Priced by validating the build with that point added, so house rules, homebrew and
    non-linear costs come out right. To keep a live update cheap (a sheet may have thirty
    steppers and one validation take ~0.3 ms) steppers whose next point costs the same
    share one price: the ruleset says which (``Ruleset.point_price_key``).
    """
    if not isinstance(build, dict):
        return {}

    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return {}
    spent = dict(report.spent)
    out: dict[str, dict] = {}
    memo: dict[tuple, dict | None] = {}

    def price(obj: dict, key: str, top, section: dict, entry: dict | None) -> dict | None:
        value = obj.get(key, 0)
        if not is_int(value) or (top is not None and value + 1 > top):
            return None
        shared = ruleset.point_price_key(section, entry, value)
        memo_key = (shared, key in obj) if shared is not None else ("pointer", section.get("path"), key)
        if memo_key in memo:
            return memo[memo_key]
        had = key in obj
        obj[key] = value + 1
        try:
            other = validate(
                build, settings=campaign.house_rules, homebrew=campaign.homebrew, slug=ruleset.slug
            )
        finally:
            if had:
                obj[key] = value
            else:
                del obj[key]
        cost = {c: other.spent.get(c, 0) - spent.get(c, 0) for c in set(other.spent) | set(spent)}
        result = memo[memo_key] = {"cost": {c: v for c, v in cost.items() if v}}
        return result

    for section in traits.get("sections", []):
        kind = section.get("kind")
        if kind not in ("numbers", "ranks", "number") or section.get("ranks"):
            continue
        tokens = split(section["path"])
        if not tokens:
            continue
        parent: Any = build
        for token in tokens[:-1]:
            parent = parent.get(token) if isinstance(parent, dict) else None
        if not isinstance(parent, dict):
            continue
        if kind == "number":
            result = price(parent, tokens[-1], section.get("max"), section, None)
            if result is not None:
                out[section["path"]] = result
            continue
        obj = parent.get(tokens[-1])
        created = obj is None and kind == "ranks"
        if created:
            obj = parent[tokens[-1]] = {}
        if not isinstance(obj, dict):
            continue
        entries = section.get("fields") if kind == "numbers" else section.get("options")
        for f in entries or []:
            if kind == "numbers" and f["id"] not in obj:
                continue
            top = f.get("max", section.get("max"))
            result = price(obj, f["id"], top, section, f)
            if result is not None:
                out[section["path"] + ptr(f["id"])] = result
        if created:
            del parent[tokens[-1]]
    return out


def character_budgets(*, characters) -> dict[int, dict[str, dict[str, int]]]:
    """{character id: {currency: {"total", "spent", "unspent"}}} for the API, in one query.

    ``total`` is the sum of the character's ledger *award* rows per awardable currency
    (the starting budget is the first award); a currency the GM does not award (one the
    rules derive) takes its total from the report's budget. ``spent`` is the report's.
    """
    from django.db.models import Sum

    characters = list(characters)
    if not characters:
        return {}
    awarded: dict[int, dict[str, int]] = {}
    rows = (
        LedgerEntry.objects.filter(character__in=[c.id for c in characters], kind=LedgerEntry.Kind.AWARD)
        .values("character_id", "currency")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    for row in rows:
        awarded.setdefault(row["character_id"], {})[row["currency"]] = row["total"] or 0
    out = {}
    for c in characters:
        ruleset = registry.get(c.ruleset)
        report = c.report if isinstance(c.report, dict) else {}
        spent = report.get("spent") or {}
        budget = report.get("budget") or {}
        currencies = list(ruleset.currencies) if ruleset else list(budget)
        awardable = set(ruleset.awardable_currencies) if ruleset else set()
        lines = {}
        for currency in currencies:
            total = (
                awarded.get(c.id, {}).get(currency, 0) if currency in awardable else budget.get(currency, 0)
            )
            s = spent.get(currency, 0) or 0
            lines[currency] = {"total": total, "spent": s, "unspent": total - s}
        out[c.id] = lines
    return out


def with_review_badge(users: QuerySet) -> QuerySet:
    """``users`` with what ``review_badge`` says, read by the same statement (two subqueries): whether
    each runs a campaign (``review_gm_read``) and the pending requests and plans there (``review_pending_read``).
    The session's user is loaded so (characters/accounts/backends.py): a page's navigation then asks
    no query of its own. Here, below the feature packages, so that accounts imports none of them
    (advancement's ``review_badge`` reads it)."""
    pending = (
        Advancement.objects.filter(character__campaign__gm=OuterRef("pk"), status=Advancement.Status.PENDING)
        .order_by()
        .values("character__campaign__gm")
        .annotate(n=Count("pk"))
        .values("n")
    )
    plans = (  # plans waiting for the GM (characters/plans/) are in the queue too
        Plan.objects.filter(character__campaign__gm=OuterRef("pk"), status=Plan.Status.PENDING)
        .order_by()
        .values("character__campaign__gm")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return users.annotate(
        review_gm_read=Exists(Campaign.objects.filter(gm=OuterRef("pk"))),
        review_pending_read=Coalesce(Subquery(pending), 0) + Coalesce(Subquery(plans), 0),
    )
