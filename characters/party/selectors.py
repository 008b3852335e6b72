"""The party's reads: who is in play, their numbers, pools, effects, unspent points and what waits
for review (CONTRACT.md "The GM's screen"); who should roll is characters/party/odds.py.

Only the campaign's GM reads these (``party_campaign``: a player of the campaign 403, anyone else
404). The queries do not grow with the party: the characters (one query, their owners joined),
the ledger's sums (one), the pending requests (one) and, when an effect runs on an encounter's
clock, that encounter's round (one per encounter). The rules' answers about a character (report,
summary, pools, rolls) are plain Python, worked out once per version of the character and kept
on the campaign's rules context (``member_rules``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Exists, F, OuterRef, QuerySet, Sum

from characters.campaigns.selectors import CampaignNotFound, campaign_context, campaign_memberships
from characters.compiled import CompiledQuery
from characters.effects.clock import clock
from characters.effects.selectors import effect_view
from characters.models import Advancement, Campaign, Character, LedgerEntry
from characters.recent import Recent
from characters.sheet.selectors import (
    character_play_state,
    character_report,
    character_ruleset,
)
from config.errors import NotPermitted
from rulesets.engine import effects as fx
from rulesets.engine import registry
from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

MAX_ID = 2**63 - 1
#: Character versions whose rules' answers a campaign's rules context keeps (``member_rules``).
KEPT_VERSIONS = 256


# ------------------------------------------------------------------ who may read


def party_campaign(*, user, campaign_id) -> Campaign:
    """The campaign when ``user`` runs it: a player of it gets ``NotPermitted`` (403), anyone else
    ``CampaignNotFound`` (404, its existence is not leaked)."""
    if not getattr(user, "is_authenticated", False):
        raise CampaignNotFound("No such campaign.")
    try:
        pk = int(campaign_id)
    except (TypeError, ValueError):
        raise CampaignNotFound("No such campaign.") from None
    if not 0 < pk <= MAX_ID:
        raise CampaignNotFound("No such campaign.")
    rows = _CAMPAIGN.fetch(pk=pk, user=user.pk)
    if not rows:
        raise CampaignNotFound("No such campaign.")
    campaign = rows[0]
    if not campaign.is_gm(user):
        raise NotPermitted("Only the campaign's GM sees the party.")
    return campaign


def _campaign_rows(pk, user) -> QuerySet[Campaign]:
    """The campaign ``pk`` when ``user`` sits at its table (``campaign_for_user``'s rule)."""
    member = Exists(campaign_memberships(user=user, campaign=OuterRef("pk")))
    return Campaign.objects.filter(member, pk=pk).order_by()[:1]


def _party_rows(campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign, status=Character.Status.ACTIVE)
        .select_related("owner")
        .defer("build", "report")
        .annotate(report_spent=F("report__spent"))
        .order_by("name", "id")
    )


def _member_rows(campaign, pk) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign, pk=pk)
        .select_related("owner")
        .defer("build", "report")
        .annotate(report_spent=F("report__spent"))
        .order_by()[:1]
    )


def _ledger_rows(campaign) -> QuerySet:
    """The ledger of the campaign's characters in play, summed per character, currency and kind."""
    return (
        LedgerEntry.objects.filter(character__campaign=campaign, character__status=Character.Status.ACTIVE)
        .values_list("character_id", "currency", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    )


def _ledger_rows_of(character) -> QuerySet:
    return (
        LedgerEntry.objects.filter(character=character)
        .values_list("character_id", "currency", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    )


def _pending_rows(campaign) -> QuerySet:
    username = get_user_model().USERNAME_FIELD
    return (
        Advancement.objects.filter(character__campaign=campaign, status=Advancement.Status.PENDING)
        .order_by("created", "id")
        .values_list(
            "id",
            "kind",
            "created",
            "note",
            "cost",
            "character_id",
            "character__name",
            f"requested_by__{username}",
        )
    )


#: The party's reads, compiled once per process (characters/compiled.py): the page, the API, the
#: odds and every live card start with them, and compiling them cost more than Postgres's answers.
_CAMPAIGN = CompiledQuery(_campaign_rows, "pk", "user")
_PARTY = CompiledQuery(_party_rows, "campaign")
_MEMBER = CompiledQuery(_member_rows, "campaign", "pk")
_LEDGER = CompiledQuery(_ledger_rows, "campaign")
_LEDGER_OF = CompiledQuery(_ledger_rows_of, "character")
_PENDING = CompiledQuery(_pending_rows, "campaign")


def party_characters(*, campaign: Campaign) -> list[Character]:
    """Every character of the campaign in play (active), by name, with its owner and the rules'
    answers about it ready (``member_rules``): one query, and one more for the builds of those
    whose answers are not kept yet. The build and the report (large documents) are read only then:
    of the report, the party needs only what the build spent (``report_spent``)."""
    found = _PARTY.fetch(campaign=campaign.pk)
    for character in found:
        character.campaign = campaign  # the rules read its house rules: no query per character
    _with_builds_where_needed(found)
    return found


def _with_builds_where_needed(characters: list[Character]) -> None:
    """Read, in one query, the builds of the characters whose rules' answers are not kept."""
    missing = []
    for character in characters:
        memo = _kept(character)
        if (
            memo is not None
            and "build" in character.get_deferred_fields()
            and memo[0].get(_key(character)) is None
        ):
            missing.append(character)
    if not missing:
        return
    builds = {
        c.pk: c.build
        for c in Character.objects.filter(pk__in=[c.pk for c in missing]).only("id", "ruleset", "build")
    }
    for character in missing:
        character.build = builds.get(character.pk, {})


def party_character(*, campaign: Campaign, character_id) -> Character | None:
    """One character of the campaign (whatever its status, with its owner, the rules' answers about
    it ready), or None."""
    try:
        pk = int(character_id)
    except (TypeError, ValueError):
        return None
    if not 0 < pk <= MAX_ID:
        return None
    rows = _MEMBER.fetch(campaign=campaign.pk, pk=pk)
    if not rows:
        return None
    character = rows[0]
    character.campaign = campaign
    _with_builds_where_needed([character])
    return character


# ------------------------------------------------------------------ the rules' answers


@dataclass(frozen=True)
class MemberRules:
    """What the rules say of one character at one version: its headline numbers, pools and rolls
    (``{"id", "label", "request"}``, effects and house defaults applied, exactly the API's
    ``rollables``). Shared between requests: read, never change."""

    valid: bool
    summary: tuple[dict[str, Any], ...] = ()
    pools: tuple[dict[str, Any], ...] = ()
    rollables: tuple[dict[str, Any], ...] = ()

    def rollable(self, rollable_id: str) -> dict[str, Any] | None:
        return next((r for r in self.rollables if r["id"] == rollable_id), None)


def safe_hook(name: str, default: Any, fn, *args, **kwargs) -> Any:
    """A ruleset hook that fails (not written yet, or tripping over an odd state) gives an empty
    block on the party page, never a 500."""
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        return default
    except Exception:
        logger.exception("ruleset hook %s failed", name)
        return default


def member_rules(character: Character) -> MemberRules:
    """The rules' answers about ``character`` (``MemberRules``), worked out once per version.

    Kept on the campaign's rules context (one per house rules and homebrew, so a change of those
    starts afresh), keyed by the character's id, version and last save: every change of its build
    or play state makes a new version (characters/versions.py), and a save without one (the
    budget following an award) a new ``updated``."""
    memo = _kept(character)
    if memo is None:
        return MemberRules(valid=False)
    kept, ruleset, ctx = memo
    key = _key(character)
    found = kept.get(key)
    if found is None:
        found = _member_rules(character, ruleset, ctx)
        kept.put(key, found)
    return found


def _key(character: Character) -> tuple:
    return (character.pk, character.version, character.updated)


def _kept(character: Character) -> tuple[Recent, Ruleset, Context] | None:
    """Where the rules' answers about ``character`` are kept: its campaign's rules context's."""
    ruleset = character_ruleset(character)
    if ruleset is None:
        return None
    ctx = campaign_context(campaign=character.campaign, ruleset=ruleset)
    return ctx.memo("party.member_rules", lambda: Recent(KEPT_VERSIONS)), ruleset, ctx


def _member_rules(character: Character, ruleset: Ruleset, ctx: Context) -> MemberRules:
    report = character_report(character=character, ruleset=ruleset)
    if not report.valid:
        return MemberRules(valid=False)
    ctx = report.context or ctx
    state = character_play_state(character=character, ruleset=ruleset, report=report, ctx=ctx)
    build = character.build
    summary = safe_hook("summary", [], ruleset.summary, build, report, state, ctx=ctx) or []
    pools = safe_hook("pools", [], ruleset.pools, build, report, state, ctx=ctx) or []
    rolls = safe_hook("rollables", [], ruleset.rollables, build, report, state, ctx=ctx) or []
    return MemberRules(
        valid=True,
        summary=tuple(
            {"label": str(s.get("label", "")), "value": s.get("value")}
            for s in summary
            if isinstance(s, dict)
        ),
        pools=tuple(
            {
                "id": str(p.get("id", "")),
                "label": str(p.get("label", "")),
                "current": p.get("current"),
                "max": p.get("max"),
            }
            for p in pools
            if isinstance(p, dict)
        ),
        # The same rolls as characters.effects.selectors.character_rollables (the API's).
        rollables=tuple(
            {
                "id": r["id"],
                "label": r.get("label", ""),
                "request": r["request"],
                # An effect changed this roll: its request before them, for the table's numbers
                # to go in first (effects.py ``apply_to_rollables``).
                **({"unaffected": r["unaffected"]} if isinstance(r.get("unaffected"), dict) else {}),
            }
            for r in rolls
            if isinstance(r, dict) and "id" in r and isinstance(r.get("request"), dict)
        ),
    )


# ------------------------------------------------------------------ effects, ledger, reviews


def encounter_rounds(*, campaign: Campaign, characters: list[Character]) -> dict[int, int]:
    """{encounter id: its round now} for the running encounters the characters' effects run on (one
    query per such encounter, however many characters): what remains of "N rounds"."""
    wanted: set[int] = set()
    for character in characters:
        for entry in fx.active_entries(character.state):
            duration = entry.get("duration") or {}
            if "rounds" in duration and is_int(duration.get("encounter")):
                wanted.add(duration["encounter"])
    the_clock = clock()
    if not wanted or the_clock is None:
        return {}
    rounds = {}
    for encounter_id in sorted(wanted):
        moment = the_clock.encounter_now(campaign_id=campaign.pk, encounter_id=encounter_id)
        if moment is not None:
            rounds[encounter_id] = moment.round
    return rounds


def member_effects(
    ruleset: Ruleset | None, character: Character, rounds: dict[int, int]
) -> list[dict[str, Any]]:
    """The character's active effects as ``effect_view`` shows them, ``remaining`` counted from the
    encounter's round now."""
    if ruleset is None:
        return []
    out = []
    for entry in fx.active_entries(character.state):
        view = effect_view(ruleset, entry)
        duration = entry.get("duration") or {}
        encounter = duration.get("encounter")
        now = rounds.get(encounter) if "rounds" in duration and is_int(encounter) else None
        if now is not None:
            view["remaining"] = fx.duration_text(duration, round_now=now)
        out.append(view)
    return out


def party_unspent(
    *, characters: list[Character], campaign: Campaign | None = None
) -> dict[int, dict[str, int]]:
    """{character id: {currency: unspent}} from the ledger (awards, spends and reversals summed), for
    every awardable currency of each character's ruleset: one query. ``campaign``: ``characters``
    are its whole party in play (``party_characters``), read by the campaign.

    A character whose ledger has no spend yet (made active before the ledger booked the initial
    build's price) counts that price from its report, as ``ledger_open`` will book it."""
    if not characters:
        return {}
    if campaign is not None:
        rows = _LEDGER.fetch(campaign=campaign.pk)
    elif len(characters) == 1:
        rows = _LEDGER_OF.fetch(character=characters[0].pk)
    else:
        rows = list(
            LedgerEntry.objects.filter(character_id__in=[c.pk for c in characters])
            .values_list("character_id", "currency", "kind")
            .annotate(total=Sum("amount"))
            .order_by()
        )
    sums: dict[int, dict[str, int]] = {}
    opened: set[int] = set()
    for character_id, currency, kind, total in rows:
        line = sums.setdefault(character_id, {})
        line[currency] = line.get(currency, 0) + (total or 0)
        if kind != LedgerEntry.Kind.AWARD:
            opened.add(character_id)
    out = {}
    for character in characters:
        ruleset = registry.get(character.ruleset)
        mine = sums.get(character.pk, {})
        currencies = ruleset.awardable_currencies if ruleset is not None else tuple(mine)
        found = getattr(character, "report_spent", None)
        if found is None and "report" not in character.get_deferred_fields():
            found = (character.report or {}).get("spent") if isinstance(character.report, dict) else None
        spent: dict[str, Any] = found if isinstance(found, dict) else {}
        line = {}
        for currency in currencies:
            unspent = mine.get(currency, 0)
            if character.pk not in opened and is_int(spent.get(currency)):
                unspent -= spent[currency]
            line[currency] = unspent
        out[character.pk] = line
    return out


def party_pending(*, campaign: Campaign) -> dict[str, list[dict[str, Any]]]:
    """What waits for the GM's review, oldest first (one query):

    ``{"advancements": [item], "creations": [item]}``, each item ``{"id" (the request's, for
    /api/v1/advancements/<id>/), "character" (its id), "name" (the character's), "kind"
    ("advancement" or "creation"), "requested_by" (a username), "created" (ISO 8601), "note", "cost"
    ({currency: n}, what an advancement costs; {} for a new character)}``."""
    rows = _PENDING.fetch(campaign=campaign.pk)
    out: dict[str, list[dict[str, Any]]] = {"advancements": [], "creations": []}
    for pk, kind, created, note, cost, character_id, name, requested_by in rows:
        creation = kind == Advancement.Kind.CREATION
        cost = cost if isinstance(cost, dict) and not creation else {}
        out["creations" if creation else "advancements"].append(
            {
                "id": pk,
                "character": character_id,
                "name": name,
                "kind": kind,
                "requested_by": requested_by,
                "created": created.isoformat(),
                "note": note,
                "cost": {k: v for k, v in cost.items() if is_int(v)},
            }
        )
    return out


# ------------------------------------------------------------------ the party at a glance


def member_view(
    character: Character, *, unspent: dict[str, int], rounds: dict[int, int], rules: MemberRules | None = None
) -> dict[str, Any]:
    """One character of the party as the API answers it (CONTRACT.md "The GM's screen")."""
    rules = rules or member_rules(character)
    return {
        "id": character.pk,
        "name": character.name,
        "owner": character.owner_id,
        "owner_username": character.owner.get_username(),
        "status": character.status,
        "version": character.version,
        "summary": [dict(s) for s in rules.summary],
        "pools": [dict(p) for p in rules.pools],
        "effects": member_effects(character_ruleset(character), character, rounds),
        "unspent": unspent,
    }


def party_view(*, campaign: Campaign) -> dict[str, Any]:
    """``{"characters": [member_view, ...], "pending": party_pending}``: the whole party."""
    characters = party_characters(campaign=campaign)
    unspent = party_unspent(characters=characters, campaign=campaign)
    rounds = encounter_rounds(campaign=campaign, characters=characters)
    return {
        "characters": [member_view(c, unspent=unspent[c.pk], rounds=rounds) for c in characters],
        "pending": party_pending(campaign=campaign),
    }


# ------------------------------------------------------------------ the campaign's rules


def campaign_rules(campaign: Campaign) -> tuple[Ruleset | None, Context | None]:
    """The campaign's ruleset and its rules context (house rules, homebrew), or (None, None)."""
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return None, None
    return ruleset, campaign_context(campaign=campaign, ruleset=ruleset)
