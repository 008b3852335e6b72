"""Reads about encounters, always through the user's membership of the encounter's campaign.

An encounter of a campaign the user is not in does not exist for them (``EncounterNotFound``,
a 404 for pages, the API and the websocket alike). ``encounter_fight`` turns an encounter
and its combatants into the ruleset's ``Fighter`` values (a ``combat.fight.Fight``); the services
(writes), the page, the API and the broadcast all read the board through
``combat.presenters.encounter_board``, so they can never disagree.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from characters.campaigns.selectors import campaign_context, campaign_memberships
from characters.compiled import CompiledQuery
from characters.models import Campaign, Character, Obstacle
from characters.selectors import is_campaign_gm
from combat.fight import Fight
from combat.models import Combatant, Encounter, EncounterEvent, LibraryNpc
from rulesets.engine import registry, validate
from rulesets.engine.combat import CombatRules, Fighter
from rulesets.engine.context import NPC_PHASE, Context
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

logger = logging.getLogger(__name__)

_MAX_ID = 2**63 - 1
LOG_LENGTH = 30


class EncounterNotFound(Http404, Encounter.DoesNotExist):
    """The encounter does not exist or the user is not in its campaign (404 everywhere)."""


def _pk(value) -> int | None:
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return pk if 0 < pk <= _MAX_ID else None


def encounters_for_user(*, user, campaign_id=None) -> QuerySet[Encounter]:
    """Encounters of the campaigns ``user`` belongs to (optionally one campaign), newest first."""
    if not getattr(user, "is_authenticated", False):
        return Encounter.objects.none()
    qs = Encounter.objects.filter(Exists(campaign_memberships(user=user))).select_related("campaign")
    if campaign_id is not None:
        pk = _pk(campaign_id)
        if pk is None:
            return Encounter.objects.none()
        qs = qs.filter(campaign_id=pk)
    return qs.order_by("-created", "-id")


def encounter_for_user(*, user, encounter_id, for_update: bool = False) -> Encounter:
    """The encounter if ``user`` is a member of its campaign, else ``EncounterNotFound``.
    With ``for_update`` the encounter row is locked (inside a transaction): every change of
    one encounter is serialised on that lock. Its campaign comes with it, so ``encounter_is_gm``
    needs no second round trip: one query, compiled once per process (``_ENCOUNTER_FOR_USER``)."""
    pk = _pk(encounter_id)
    if pk is None or not getattr(user, "is_authenticated", False):
        raise EncounterNotFound("No such encounter.")
    rows = _ENCOUNTER_FOR_USER[for_update].fetch(pk=pk, user=user.pk)
    if not rows:
        raise EncounterNotFound("No such encounter.")
    return rows[0]


def _encounter_for_user_query(for_update: bool) -> CompiledQuery:
    def build(pk, user) -> QuerySet[Encounter]:
        found = Encounter.objects.filter(Exists(campaign_memberships(user=user)), pk=pk)
        # Whether the campaign has any obstacle, in the same read: a page of a campaign without
        # one asks nothing more of them (Fight.obstacles).
        found = found.annotate(
            has_obstacles=Exists(Obstacle.objects.filter(campaign_id=OuterRef("campaign_id")))
        )
        found = found.select_related("campaign")
        if for_update:
            found = found.select_for_update(of=("self",))
        return found.order_by()[:1]

    return CompiledQuery(build, "pk", "user")


#: Compiled once (characters/compiled.py): every request of the encounter page starts
#: with this read (the action, the panel every page fetches after every change, the board).
_ENCOUNTER_FOR_USER = {lock: _encounter_for_user_query(lock) for lock in (False, True)}


def encounter_visible(*, user, encounter_id) -> bool:
    """For the websocket: may ``user`` watch this encounter?"""
    try:
        encounter_for_user(user=user, encounter_id=encounter_id)
    except EncounterNotFound:
        return False
    return True


def encounter_is_gm(user, encounter: Encounter) -> bool:
    """Whether ``user`` runs the encounter's campaign (``is_campaign_gm``: no query)."""
    return is_campaign_gm(user, encounter.campaign)


# ---------------------------------------------------------------- rules and fighters


def campaign_combat_rules(campaign: Campaign) -> tuple[Ruleset | None, CombatRules | None, str]:
    """(ruleset, its combat rules, "" ) or (…, None, why not) when the ruleset has no combat yet."""
    ruleset = registry.get(campaign.ruleset)
    if ruleset is None:
        return None, None, f"The ruleset {campaign.ruleset!r} is not available."
    try:
        return ruleset, ruleset.combat(), ""
    except NotImplementedError:
        return (
            ruleset,
            None,
            (
                f"{ruleset.name} has no combat rules yet: encounters of this campaign can be set up "
                "but not run until they are written."
            ),
        )


_REPORTS: dict[tuple, Report] = {}


def fighter_report(ruleset: Ruleset, campaign: Campaign, build: Any) -> Report:
    """The report of a build under the campaign's house rules and homebrew, as an NPC (the player
    budget does not bind it: ``NPC_PHASE``), cached (a fight
    re-reads the same builds on every action; reports are treated as read-only)."""
    try:
        key = (
            ruleset.slug,
            json.dumps(build, sort_keys=True),
            json.dumps(campaign.house_rules, sort_keys=True),
            json.dumps(campaign.homebrew, sort_keys=True),
        )
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _REPORTS:
        return _REPORTS[key]
    # In a fight nobody is held to a player's budget: an NPC may be an ogre (phase "npc" makes an
    # overspend a warning; an active character was within its budget when approved anyway).
    report = validate(
        build,
        settings=campaign.house_rules or None,
        homebrew=campaign.homebrew or None,
        slug=ruleset.slug,
        phase=NPC_PHASE,
    )
    if key is not None:
        if len(_REPORTS) > 1024:
            _REPORTS.clear()
        _REPORTS[key] = report
    return report


def _initial_state(ruleset: Ruleset, build: dict, report: Report, ctx: Context | None) -> dict:
    if not report.valid:
        return {}
    try:
        return ruleset.initial_state(build, report, ctx=ctx) or {}
    except NotImplementedError:
        return {}
    except Exception:
        logger.exception("initial_state of %s failed", ruleset.slug)
        return {}


def combatant_fighter(
    ruleset: Ruleset, campaign: Campaign, c: Combatant, ctx: Context | None = None
) -> Fighter:
    """The combatant as the combat hooks see it; ``ctx`` is the campaign's rules context."""
    ctx = ctx or campaign_context(campaign=campaign, ruleset=ruleset)
    character = c.character  # None without a query when there is no character_id
    if character is not None:
        build = character.build if isinstance(character.build, dict) else {}
        report = fighter_report(ruleset, campaign, build)
        state = character.state if character.state else _initial_state(ruleset, build, report, ctx)
        controllers: tuple[int, ...] = (character.owner_id,)
        name = character.name or c.name
    else:
        build = c.build if isinstance(c.build, dict) else {}
        report = fighter_report(ruleset, campaign, build)
        state = c.state if c.state else _initial_state(ruleset, build, report, ctx)
        controllers = ()
        name = c.name
    return Fighter(
        id=c.id,
        name=name,
        is_npc=c.is_npc,
        group=c.group,
        build=build,
        derived=report.derived,
        state=state,
        combat=c.combat or {},
        controller_ids=controllers,
        report=report,
    )


@functools.cache
def _character_fields() -> tuple[str, ...]:
    """What a fight reads of a PC's character and its owner, for ``only()``.

    The characters' cached reports are not read (the fight re-validates builds through a cache);
    leaving them out saves decoding the largest JSON column on every action. Of the owner, the
    name shown on the row."""
    from django.contrib.auth import get_user_model

    fields = [f.name for f in Character._meta.concrete_fields if f.name != "report"]
    return (*fields, f"owner__{get_user_model().USERNAME_FIELD}")


def _combatants_with_characters(encounter) -> QuerySet[Combatant]:
    combatant_fields = [f.name for f in Combatant._meta.concrete_fields]
    return (
        Combatant.objects.filter(encounter=encounter)
        .select_related("character__owner")
        .only(*combatant_fields, *(f"character__{name}" for name in _character_fields()))
        .order_by("id")
    )


def _combatants(encounter) -> QuerySet[Combatant]:
    return Combatant.objects.filter(encounter=encounter).order_by("id")


def _pc_characters_locked(encounter) -> QuerySet[Character]:
    pcs = Combatant.objects.filter(encounter=encounter, character__isnull=False).values("character_id")
    return (
        Character.objects.filter(pk__in=pcs)
        .select_related("owner")
        .only(*_character_fields())
        .order_by("id")
        .select_for_update(of=("self",))
    )


#: Compiled once (characters/compiled.py): every encounter request reads its fight.
_COMBATANTS_WITH_CHARACTERS = CompiledQuery(_combatants_with_characters, "encounter")
_COMBATANTS = CompiledQuery(_combatants, "encounter")
_PC_CHARACTERS_LOCKED = CompiledQuery(_pc_characters_locked, "encounter")


def _load_combatants(encounter: Encounter, lock_characters: bool) -> list[Combatant]:
    """The combatants, PCs with their characters and owners. Locking: the combatants, then the
    PCs' character rows ``FOR UPDATE`` in id order (a lock cannot take the nullable side of an
    outer join: two queries, the second only when there are PCs). Reading: one query."""
    if not lock_characters:
        loaded = _COMBATANTS_WITH_CHARACTERS.fetch(encounter=encounter.pk)
    else:
        loaded = _COMBATANTS.fetch(encounter=encounter.pk)
        if any(c.character_id for c in loaded):
            characters = {c.pk: c for c in _PC_CHARACTERS_LOCKED.fetch(encounter=encounter.pk)}
            for c in loaded:
                if c.character_id in characters:
                    c.character = characters[c.character_id]
    for c in loaded:
        c.encounter = encounter
    return loaded


def encounter_fight(*, encounter: Encounter, lock_characters: bool = False) -> Fight:
    """Load the combatants (PCs with their characters) and build the fighters. With
    ``lock_characters`` the PCs' character rows are locked too (their play state changes)."""
    combatants = _load_combatants(encounter, lock_characters)
    ruleset, rules, why = campaign_combat_rules(encounter.campaign)
    ctx = campaign_context(campaign=encounter.campaign, ruleset=ruleset) if ruleset else None
    fighters = [combatant_fighter(ruleset, encounter.campaign, c, ctx) for c in combatants] if ruleset else []
    return Fight(
        encounter=encounter,
        ruleset=ruleset,
        rules=rules,
        unsupported=why,
        combatants=combatants,
        fighters=fighters,
        ctx=ctx,
    )


LOG_FIELDS = ("seq", "round", "kind", "text", "actor_id", "data", "created")


def log_entry(row: dict[str, Any]) -> dict[str, Any]:
    """An event as the page and the API show it (the page's line: ``log-line`` of
    combat/encounter_detail.html)."""
    return {
        "seq": row["seq"],
        "round": row["round"],
        "kind": row["kind"],
        "text": row["text"],
        "actor": row["actor_id"],
        "data": row["data"],
        "created": row["created"],
    }


def encounter_log(*, encounter: Encounter, limit: int = LOG_LENGTH) -> list[dict[str, Any]]:
    """The latest events, newest first."""
    rows = EncounterEvent.objects.filter(encounter=encounter).order_by("-seq").values(*LOG_FIELDS)[:limit]
    return [log_entry(r) for r in rows]


def campaign_characters_to_add(*, fight: Fight) -> list[Character]:
    """Active characters of the campaign not yet in the encounter (for the GM's "add" form):
    a draft has not been approved, a retired character has left the table."""
    taken = {c.character_id for c in fight.combatants if c.character_id}
    active = fight.encounter.campaign.characters.filter(status=Character.Status.ACTIVE)
    return [
        c
        for c in active.select_related("owner").defer("report", "build", "state").order_by("name", "id")
        if c.id not in taken
    ]


# ---------------------------------------------------------------- the NPC library


def npc_archetypes(ruleset: Ruleset | None, campaign: Campaign) -> list[dict[str, Any]]:
    """The ready NPCs a ruleset ships (``Ruleset.npc_archetypes``): [{"id", "name", "summary",
    "build"}] (``summary``: a line about it in the game's words, "" when the ruleset gives none)."""
    if ruleset is None:
        return []
    found = ruleset.npc_archetypes(ruleset.context(campaign.house_rules, campaign.homebrew))
    return [
        {
            "id": str(a.get("id") or i),
            "name": str(a.get("name") or a["build"].get("name") or "NPC"),
            "summary": str(a.get("summary") or ""),
            "build": copy.deepcopy(a["build"]),
        }
        for i, a in enumerate(found)
    ]


def npc_report(campaign: Campaign, build: Any) -> Report:
    """An NPC's report: the campaign's house rules and homebrew, the player budget not binding
    (an overspend is a ``budget.exceeded`` warning saying what it would cost)."""
    return validate(
        build,
        settings=campaign.house_rules or None,
        homebrew=campaign.homebrew or None,
        slug=campaign.ruleset,
        phase=NPC_PHASE,
    )


def npc_library(*, campaign: Campaign):
    """The campaign's saved NPCs, by name (builds deferred: the lists show names and costs)."""
    return LibraryNpc.objects.filter(campaign=campaign).defer("build").order_by("name", "id")


def npc_library_builds(*, campaign: Campaign):
    """The campaign's saved NPCs with their builds, by name (the GM's "Add NPCs" form)."""
    return LibraryNpc.objects.filter(campaign=campaign).only("id", "name", "build").order_by("name", "id")


def running_encounter_numbers(character) -> dict[str, Any]:
    """The numbers the running encounter of the character's campaign has set (its ruleset's
    encounter state: a scene's target…), for the sheet's roll form (one query)."""
    state = (
        Encounter.objects.filter(campaign_id=character.campaign_id, status=Encounter.Status.ACTIVE)
        .order_by("-updated", "-id")
        .values_list("state", flat=True)
        .first()
    )
    return {k: v for k, v in (state or {}).items() if isinstance(v, (int, str)) and not isinstance(v, bool)}


def npcs_of_gm(*, user, campaign: Campaign | None = None):
    """The library NPCs of the campaigns ``user`` runs (or of ``campaign``), by campaign and name."""
    found = LibraryNpc.objects.filter(campaign__gm=user)
    if campaign is not None:
        found = found.filter(campaign=campaign)
    return found.order_by("campaign_id", "name", "id")


def library_npc_for_user(*, user, npc_id: Any):
    """A library NPC with its campaign, when ``user`` is in that campaign; else a 404 (its
    existence is not leaked). Whether the user may use it (the GM only) is the caller's check."""
    try:
        pk = int(npc_id)
    except (TypeError, ValueError):
        raise Http404("No such NPC.") from None
    npc = (
        LibraryNpc.objects.select_related("campaign", "campaign__gm")
        .filter(Exists(campaign_memberships(user=user)), pk=pk)
        .first()
        if 0 < pk < 2**63 and getattr(user, "is_authenticated", False)
        else None
    )
    if npc is None:
        raise Http404("No such NPC.")
    return npc
