"""The party's reads: who is in play, their numbers, pools, effects, unspent points, what waits
for review, and who should roll (CONTRACT.md "The GM's screen").

Only the campaign's GM reads these (``party_campaign``: a player of the campaign 403, anyone else
404). The queries do not grow with the party: the characters (one query, their owners joined),
the ledger's sums (one), the pending requests (one) and, when an effect runs on an encounter's
clock, that encounter's round (one per encounter). The rules' answers about a character (report,
summary, pools, rolls) are plain Python, worked out once per version of the character and kept
on the campaign's rules context (``member_rules``).
"""

from __future__ import annotations

import logging
import math
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
    table_numbers,
)
from config.bounds import require_bounded
from config.errors import BadInput, NotPermitted
from rulesets.engine import OddsError, registry
from rulesets.engine import effects as fx
from rulesets.engine.context import Context
from rulesets.engine.fields import is_int
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

MAX_ID = 2**63 - 1
#: The largest ``need`` of a party roll (successes or effect points needed).
MAX_NEED = 100
#: Character versions whose rules' answers a campaign's rules context keeps (``member_rules``).
KEPT_VERSIONS = 256


class PartyRefused(BadInput):
    """A party odds request the rules cannot answer (400): ``errors`` is [{field, message}]."""

    code = "party_odds_refused"


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


def _safe(name: str, default: Any, fn, *args, **kwargs) -> Any:
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
    summary = _safe("summary", [], ruleset.summary, build, report, state, ctx=ctx) or []
    pools = _safe("pools", [], ruleset.pools, build, report, state, ctx=ctx) or []
    rolls = _safe("rollables", [], ruleset.rollables, build, report, state, ctx=ctx) or []
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


# ------------------------------------------------------------------ who should roll


def campaign_rules(campaign: Campaign) -> tuple[Ruleset | None, Context | None]:
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return None, None
    return ruleset, campaign_context(campaign=campaign, ruleset=ruleset)


def table_specs(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """{table key: its field of the ruleset's odds form (label, min/max or choices, default)}, for
    every key of ``table_keys`` (a key the form does not list gets its label only)."""
    fields = _safe("odds_form", None, ruleset.odds_form) or []
    form = {f["name"]: f for f in fields if isinstance(f, dict) and isinstance(f.get("name"), str)}
    return {
        key: dict(form.get(key) or {"name": key, "label": ruleset.label(key)}) for key in ruleset.table_keys
    }


def _whole(raw: Any, *, form: bool) -> int | None:
    if is_int(raw):
        return raw
    if form and isinstance(raw, str):
        text = raw.strip()
        if text.lstrip("-").isdigit() and len(text) <= 6:
            return int(text)
    return None


def _refuse(message: str, field: str) -> PartyRefused:
    return PartyRefused(message, field=field)


def check_table(ruleset: Ruleset, table: Any, *, form: bool = False) -> dict[str, Any]:
    """The table's numbers, checked: only keys of ``ruleset.table_keys``, each value one the odds
    form allows. ``form``: values are a form's text (an empty one is left out). Raises
    ``PartyRefused``."""
    if table is None:
        return {}
    require_bounded(table, what="The table's numbers")
    allowed = ", ".join(ruleset.table_keys) or "none"
    if not isinstance(table, dict):
        raise _refuse(f"The table's numbers are an object of {allowed}.", "table")
    specs = table_specs(ruleset)
    out: dict[str, Any] = {}
    for key, raw in table.items():
        spec = specs.get(key)
        if spec is None:
            raise _refuse(
                f"{key!r} is not one of the numbers the table sets in {ruleset.name}: {allowed}.",
                f"table.{key}",
            )
        if form and raw in ("", None):
            continue
        label = spec.get("label") or ruleset.label(key)
        if "choices" in spec:
            raw = (spec.get("aliases") or {}).get(raw, raw) if isinstance(raw, str) else raw
            if raw not in spec["choices"]:
                words = ", ".join(ruleset.label(c) for c in spec["choices"])
                raise _refuse(f"{label} is one of {words}.", f"table.{key}")
            out[key] = raw
            continue
        value = _whole(raw, form=form)
        numeric = any(is_int(spec.get(k)) for k in ("min", "max", "default"))
        if value is None and not numeric and isinstance(raw, str) and raw.strip():
            out[key] = raw  # a key the odds form does not describe: the ruleset's odds judge it
            continue
        if value is None:
            raise _refuse(f"{label} is a whole number.", f"table.{key}")
        low, high = spec.get("min"), spec.get("max")
        if (is_int(low) and value < low) or (is_int(high) and value > high):
            raise _refuse(f"{label} goes from {low} to {high}.", f"table.{key}")
        out[key] = value
    return out


def need_label(ruleset: Ruleset) -> str:
    """What ``need`` is called in the ruleset (its labels' ``need``), else in plain words."""
    words = ruleset.labels().get("need")
    return words if isinstance(words, str) and words else "Needed to succeed"


def check_need(ruleset: Ruleset, need: Any, *, form: bool = False) -> int | None:
    """``need``: only where the ruleset counts successes (``success_needs``), a whole number from 1."""
    if need is None or (form and need == ""):
        return None
    if not ruleset.success_needs:
        raise _refuse(f"In {ruleset.name} a roll succeeds or fails: it takes no need.", "need")
    value = _whole(need, form=form)
    if value is None or not 1 <= value <= MAX_NEED:
        raise _refuse(f"{need_label(ruleset)} is a whole number from 1 to {MAX_NEED}.", "need")
    return value


def roll_aids(ruleset: Ruleset, ctx: Context | None) -> list[dict[str, Any]]:
    """The help the table may give a party roll (``Ruleset.roll_aids``), well-formed ones only."""
    aids = _safe("roll_aids", [], ruleset.roll_aids, ctx) or []
    return [
        a
        for a in aids
        if isinstance(a, dict) and isinstance(a.get("id"), str) and isinstance(a.get("changes"), list)
    ]


def check_aid(
    ruleset: Ruleset, ctx: Context | None, aid: Any, *, form: bool = False
) -> dict[str, Any] | None:
    """The chosen aid (one of ``roll_aids``), or None."""
    if aid is None or (form and aid == ""):
        return None
    aids = roll_aids(ruleset, ctx)
    found = next((a for a in aids if a["id"] == aid), None) if isinstance(aid, str) else None
    if found is None:
        offered = ", ".join(f"{a['id']} ({a.get('label') or a['id']})" for a in aids) or "none"
        raise _refuse(f"The table's help in {ruleset.name} is one of: {offered}.", "aid")
    return found


def roll_label(labels: list[str], fallback: str) -> str:
    """One name for a roll several characters have under labels that differ in their numbers
    ("Capability (Coordination 3d6, level 1)", "… 4d6, level 2"): the words they all start with,
    before any parenthesis; the ruleset's word for the roll's id when they share none."""
    labels = [lab for lab in labels if lab]
    if not labels:
        return fallback
    if all(lab == labels[0] for lab in labels):
        return labels[0]
    common: list[str] = []
    for words in zip(*(lab.split() for lab in labels), strict=False):
        if any(w != words[0] for w in words):
            break
        common.append(words[0])
    text = " ".join(common).split(" (")[0].rstrip(" ,:;(–-")
    if len(text) >= 3:
        return text
    # Nothing shared ("Sword: strike", "Bow: strike": what each holds first): the rolls themselves,
    # never the roll's id in words ("Item: 0: strike").
    heads = list(dict.fromkeys(lab.split(" (")[0].strip() for lab in labels))
    if len(heads) <= 3:
        return " or ".join(heads)
    return f"{heads[0]}, {heads[1]} or {len(heads) - 2} other rolls"


def party_rolls(ruleset: Ruleset, members: list[MemberRules]) -> list[dict[str, str]]:
    """Every roll some character of the party has, in the order the first sheet lists them:
    [{"id", "label"}] (the label ``roll_label`` of the characters' labels)."""
    labels: dict[str, list[str]] = {}
    for rules in members:
        for r in rules.rollables:
            labels.setdefault(r["id"], []).append(str(r.get("label") or ""))
    return [{"id": rid, "label": roll_label(found, ruleset.label(rid))} for rid, found in labels.items()]


def aid_view(ruleset: Ruleset, aid: dict[str, Any]) -> dict[str, Any]:
    """An aid as the answer names it: its id, label, text and each change in words."""
    changes = [c for c in aid.get("changes") or () if isinstance(c, dict)]
    return {
        "id": aid["id"],
        "label": str(aid.get("label") or ruleset.label(aid["id"])),
        "text": str(aid.get("text") or ""),
        "changes": changes,
        "changed": [fx.describe_change(ruleset, c) for c in changes],
    }


def _odds(
    ruleset: Ruleset, ctx: Context | None, request: dict[str, Any], who: str, what: str
) -> dict[str, Any]:
    try:
        return ruleset.odds(request, ctx=ctx)
    except OddsError as exc:
        raise _refuse(f"{who}'s {what} cannot be worked out: {exc}", "table") from None
    except NotImplementedError:
        raise _refuse(f"{ruleset.name} has no odds.", "rollable") from None
    except Exception:  # a ruleset bug must not become a 500; the log keeps it
        logger.exception("party odds of %s raised on %r", ruleset.slug, request)
        raise _refuse(f"{who}'s {what} cannot be worked out.", "table") from None


def party_odds(
    *,
    campaign: Campaign,
    rollable: Any,
    table: Any = None,
    need: Any = None,
    aid: Any = None,
    form: bool = False,
    characters: list[Character] | None = None,
) -> dict[str, Any]:
    """Who should roll (CONTRACT.md "The GM's screen", ``party-odds``).

    For each character in play that has the roll ``rollable``: its own request (the API's
    ``rollables``, effects and house defaults applied) with the ``table`` numbers put in, then the
    ``aid``'s changes (the help the table gives: ``Ruleset.roll_aids``), its exact odds and its
    ``success`` (``Ruleset.success(odds, need)``); best first. ``missing``: the ids of the
    characters in play without that roll. ``refused``: [{"id", "reason"}], the characters whose
    request the rules refuse (the reason in words); the others are answered (when the rules refuse
    every one, a ``PartyRefused`` with the reasons). ``at_least_one`` = 1 − Π(1 − success); ``all`` =
    Π success. With an aid, each character also has ``without_aid`` (its success without the
    help) and ``aid`` says what the help changes.

    ``form``: the values are a form's text. Refusals (``PartyRefused``, a 400): a roll no character
    in play has, a key the table does not set, a value the odds form or the odds refuse, a
    ``need`` where the ruleset counts none, an aid the ruleset does not offer."""
    ruleset, ctx = campaign_rules(campaign)
    if ruleset is None:
        raise _refuse("This campaign's ruleset is not available.", "rollable")
    if not isinstance(rollable, str) or not rollable:
        raise _refuse("Name the roll: one of the rolls of the party's characters.", "rollable")
    table = check_table(ruleset, table, form=form)
    need = check_need(ruleset, need, form=form)
    chosen = check_aid(ruleset, ctx, aid, form=form)
    characters = party_characters(campaign=campaign) if characters is None else characters
    having: list[tuple[Character, dict[str, Any]]] = []
    missing: list[Character] = []
    for character in characters:
        found = member_rules(character).rollable(rollable)
        if found is None:
            missing.append(character)
        else:
            having.append((character, found))
    if not having:
        raise _refuse(f"No character in play has the roll {rollable!r}.", "rollable")
    label = roll_label([str(r.get("label") or "") for _, r in having], ruleset.label(rollable))
    rows = []
    refused: list[dict[str, Any]] = []
    for character, found in having:
        # The table's numbers go in before the character's effects and the aid change them, and
        # the effects and the aid go together (a hard roll and a helper's easy may cancel).
        base = {**found.get("unaffected", found["request"]), **table}
        effects = fx.active_changes(character.state) if "unaffected" in found else []
        plain = fx.apply_changes(ruleset, base, effects, rollable) if effects else base
        request = (
            fx.apply_changes(ruleset, base, effects + list(chosen["changes"]), rollable) if chosen else plain
        )
        try:
            answer = _odds(ruleset, ctx, request, character.name, label)
            before = (
                _odds(ruleset, ctx, plain, character.name, label) if chosen and request != plain else answer
            )
        except PartyRefused as exc:
            # One character's numbers the rules refuse (an outlier effect, a build past the dice)
            # never hide the rest of the party: it is listed with the reason, the others answered.
            refused.append({"id": character.pk, "reason": exc.message})
            continue
        row: dict[str, Any] = {
            "id": character.pk,
            "name": character.name,
            "label": found.get("label", ""),
            "request": request,
            "odds": answer,
            "success": ruleset.success(answer, need),
        }
        if chosen:
            row["without_aid"] = ruleset.success(before, need)
        rows.append(row)
    if refused and not rows:  # nobody answered: the question itself cannot be, say why
        raise _refuse(" ".join(r["reason"] for r in refused), "table")
    rows.sort(key=lambda r: (-r["success"], r["name"], r["id"]))
    return {
        "rollable": rollable,
        "label": label,
        "table": table,
        "need": need,
        "aid": aid_view(ruleset, chosen) if chosen else None,
        "characters": rows,
        "missing": [c.pk for c in missing],
        "refused": refused,
        "at_least_one": 1 - math.prod(1 - r["success"] for r in rows),
        "all": math.prod(r["success"] for r in rows),
    }


def table_defaults(
    *, ruleset: Ruleset, members: list[tuple[Character, MemberRules]], rollable: str | None
) -> dict[str, Any]:
    """The table's numbers the party page's form starts from: what the running encounter has set
    (its scene's target…), else the first character's request of the chosen roll (it carries the
    campaign's house defaults), else any roll's that carries the key, else the odds form's default."""
    specs = table_specs(ruleset)
    if not specs:
        return {}
    encounter = table_numbers(character=members[0][0]) if members else {}
    requests = []
    for _, rules in members:
        if rollable:
            found = rules.rollable(rollable)
            if found is not None:
                requests.append(found["request"])
    for _, rules in members:
        requests.extend(r["request"] for r in rules.rollables)
    out = {}
    for key, spec in specs.items():
        value = encounter.get(key)
        if value is None:
            value = next((req[key] for req in requests if key in req), spec.get("default"))
        out[key] = value
    return out
