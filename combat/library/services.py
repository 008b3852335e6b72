"""Writes about the GM's NPC library: keep an NPC build, take it out, add N of one (or of the
ruleset's ready archetypes) to an encounter.

An NPC is checked as an NPC (``npc_report``): the players' budget does not bind it, every other
rule does. Adding NPCs is ``encounter_add_combatant``'s work (combat/services.py), under the
encounter's lock, numbered on from those of that name already there.
"""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction

from characters.models import Campaign
from characters.selectors import is_campaign_gm
from combat.models import Combatant, Encounter, LibraryNpc
from combat.selectors import campaign_combat_rules, encounter_for_user, npc_archetypes, npc_report
from combat.services import (
    MAX_GROUP,
    NAME_LENGTH,
    InvalidInput,
    encounter_add_combatant,
    require_gm,
    valid_npc,
)
from config.bounds import require_bounded
from config.errors import NotPermitted
from rulesets.engine.dice import Roller


def _require_campaign_gm(user, campaign: Campaign, what: str) -> None:
    if not is_campaign_gm(user, campaign):
        raise NotPermitted(f"Only the campaign's GM may {what}.")


def npc_save(*, campaign: Campaign, user, build: Any, npc_id: Any = None) -> LibraryNpc:
    """Save an NPC build to the campaign's library (GM only): a new one, or ``npc_id`` replaced.

    Checked as an NPC (``npc_report``): not held to the players' budget (what it would cost
    is a warning on its report), but every other rule holds: an invalid build is a 422 with
    the report's errors and nothing is saved.
    """
    _require_campaign_gm(user, campaign, "keep an NPC library")
    if not isinstance(build, dict):
        raise InvalidInput("An NPC needs a build document (a JSON object).", "build")
    require_bounded(build, what="The NPC's build")
    build = copy.deepcopy(build)
    build["ruleset"] = campaign.ruleset
    raw = build.get("name")
    name = raw.strip()[: NAME_LENGTH - 4] if isinstance(raw, str) else ""
    if not name:
        raise InvalidInput("Give the NPC a name.", "name")
    build["name"] = name
    report = valid_npc(npc_report(campaign, build))
    with transaction.atomic():
        if npc_id is not None:
            npc = LibraryNpc.objects.select_for_update().filter(pk=_int_id(npc_id), campaign=campaign).first()
            if npc is None:
                raise InvalidInput("No such NPC in this campaign's library.", "npc")
            npc.name, npc.build, npc.report = name, build, report.as_dict()
            npc.save(update_fields=["name", "build", "report", "updated"])
        else:
            npc = LibraryNpc.objects.create(
                campaign=campaign, name=name, build=build, report=report.as_dict(), created_by=user
            )
    return npc


def npc_delete(*, campaign: Campaign, user, npc_id: Any) -> None:
    """Take an NPC out of the library (GM only); combatants made from it stay in their encounters."""
    _require_campaign_gm(user, campaign, "keep an NPC library")
    with transaction.atomic():
        deleted, _ = LibraryNpc.objects.filter(pk=_int_id(npc_id), campaign=campaign).delete()
    if not deleted:
        raise InvalidInput("No such NPC in this campaign's library.", "npc")


def encounter_add_from_library(
    *, encounter: Encounter | int, user, npc_id: Any, count: Any = 1, roller: Roller | None = None
) -> list[Combatant]:
    """Add ``count`` copies of a library NPC to the encounter (GM only): "Bandit 1…N", one group."""
    e = (
        encounter
        if isinstance(encounter, Encounter)
        else Encounter.objects.select_related("campaign").get(pk=encounter)
    )
    require_gm(user, e, "add combatants")
    npc = LibraryNpc.objects.filter(pk=_int_id(npc_id), campaign_id=e.campaign_id).first()
    if npc is None:
        raise InvalidInput("No such NPC in this campaign's library.", "npc")
    return encounter_add_combatant(
        encounter=e, user=user, name=npc.name, build=npc.build, count=count, roller=roller
    )


def _int_id(raw: Any) -> int:
    try:
        value = int(raw)
    except (TypeError, ValueError):
        return 0
    return value if 0 < value < 2**63 else 0


def encounter_add_npcs(
    *,
    encounter: Encounter | int,
    user,
    archetype: str | None = None,
    npc_id: Any = None,
    count: Any = 1,
    name: str = "",
    roller: Roller | None = None,
) -> list[Combatant]:
    """Add ``count`` NPCs to the encounter (GM only) from one of the ruleset's ready archetypes
    (``archetype``: its id, ``Ruleset.npc_archetypes``) or one of the campaign's library NPCs
    (``npc_id``), named ``name`` (default: the archetype's or the NPC's own) and numbered on from
    those of that name already there ("Goblin 3", "Goblin 4" after two goblins).

    The encounter page's "Add NPCs" form; the work is ``encounter_add_combatant``'s, as for the
    API. Refusals change nothing: a stranger gets the 404, a player 403, an unknown archetype,
    another campaign's NPC or a count out of 1…``MAX_GROUP`` a 400.
    """
    if isinstance(encounter, Encounter):
        e = encounter
    else:
        e = encounter_for_user(user=user, encounter_id=encounter)
    require_gm(user, e, "add NPCs")
    campaign = e.campaign
    if (archetype is None) == (npc_id is None):
        raise InvalidInput("Pick one ready NPC or one NPC of the library.", "pick")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_GROUP:
        raise InvalidInput(f"How many: a whole number from 1 to {MAX_GROUP}, please.", "count")
    if archetype is not None:
        ruleset, _, _ = campaign_combat_rules(campaign)
        chosen = next((a for a in npc_archetypes(ruleset, campaign) if a["id"] == archetype), None)
        if ruleset is None or chosen is None:
            raise InvalidInput("That is not one of this game's ready NPCs.", "archetype")
        own_name, build = chosen["name"], chosen["build"]
    else:
        npc = LibraryNpc.objects.filter(pk=_int_id(npc_id), campaign_id=e.campaign_id).first()
        if npc is None:
            raise InvalidInput("No such NPC in this campaign's library.", "npc")
        own_name, build = npc.name, npc.build
    chosen_name = name.strip() if isinstance(name, str) else ""
    return encounter_add_combatant(
        encounter=e,
        user=user,
        name=chosen_name or own_name,
        build=build,
        count=count,
        roller=roller,
        continue_numbers=True,
    )
