"""Writes about encounters: create, add combatants, start, act, next turn, end.

Every service is keyword-only and one transaction that first locks the encounter row
(``select_for_update``): the actions on one encounter are serialised, so twenty clicks at
once are applied one after the other, each seeing the previous one's speed. The PCs'
character rows are locked too when a fight step may change their play state.

The ruleset's ``CombatRules`` (rulesets/engine/combat.py) decides; the service applies its
``Outcome`` through a ``Step`` (combat/step.py, which also runs the encounter's clock): play
state to ``Character.state`` (PCs; the character's version is bumped and a ``CharacterVersion``
written, so a sheet PATCH with a stale version gets 409 and the
history shows "Alex takes 2 harm…") or ``Combatant.state`` (NPCs), combat numbers, the order,
the encounter state and ``EncounterEvent`` rows with gap-free ``seq``. Then the encounter's
version goes up and, once committed, every open page hears it (combat/broadcast.py).
Every event that rolled dice (``data["faces"]``) is also a ``RollLog`` of the campaign, in the
same transaction: once committed it reaches the table's roll feed (characters/table/feed.py) in the
log's words, with its odds when the event names its odds request. A GM's ``private`` action
keeps its dice behind the screen: the GM's feed has them; the shared log and every page say only
that the GM rolled for that combatant.

Errors (config/errors.py): ``EncounterNotFound`` (404: not a member), ``NotPermitted`` (403: a player doing
GM things or acting for another's combatant), ``RuleRefused`` (422: the rules refuse —
carries the rule's code; nothing changed, no event written), ``InvalidInput`` (400: a
malformed request), ``Conflict`` (409: ``expected_version`` is stale).

Choices: only the GM adds combatants, PCs and NPCs alike (players join a fight through the
GM, who knows who is present); the GM may act for any combatant; a player may end the
turn of a combatant they control when it is that combatant's turn.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from django.db import transaction

from characters.effects.services import (
    EffectRefused,
    character_effect_apply,
    character_effect_remove,
    effect_duration,
    state_with_effect,
    state_without_effects,
)
from characters.models import Campaign, Character
from characters.obstacles.services import obstacle_end_effect, obstacle_put_ep
from characters.party.live import party_changed
from characters.selectors import is_campaign_gm
from combat.fight import OBSTACLES, Fight, combatant_effects
from combat.models import Combatant, Encounter, EncounterEvent, EncounterRequest
from combat.selectors import (
    campaign_combat_rules,
    encounter_fight,
    encounter_for_user,
    encounter_is_gm,
    fighter_report,
)
from combat.step import (
    Step,
    advance,
    dump,
    effects_end,
    outcome_of,
    refused,
    require_rules,
    round_started,
    turn_started,
)
from config.bounds import require_bounded
from config.errors import BadInput, Conflict, NotPermitted, RuleRefused
from rulesets.engine import effects as fx
from rulesets.engine.combat import Fighter, Outcome
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError
from rulesets.engine.report import Report
from rulesets.engine.ruleset import Ruleset

MAX_GROUP = 30
NAME_LENGTH = 120
REASON_LENGTH = 200
#: A request id as the page's forms carry it (a uuid's hex) or an API client's (letters, digits, - and _).
REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: How far back (in versions of the encounter) a request id is remembered.
REQUESTS_KEPT = 500


class InvalidInput(BadInput):
    """A malformed request (400), with {"field", "message"} errors."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message, field=field)


# ------------------------------------------------------------------ helpers


def _lock(encounter: Encounter | int, user) -> Encounter:
    """Lock the encounter row (call inside the service's transaction).

    Every step of a fight commits durably: damage to a PC is a character version, and
    "nothing is lost" outranks the few milliseconds an asynchronous commit would save."""
    pk = encounter.pk if isinstance(encounter, Encounter) else encounter
    return encounter_for_user(user=user, encounter_id=pk, for_update=True)


def _check_request_id(request_id: str | None) -> str | None:
    if request_id is None or request_id == "":
        return None
    if not isinstance(request_id, str) or not REQUEST_ID.match(request_id):
        raise InvalidInput("request_id must be 8 to 64 letters, digits, - or _.", "request_id")
    return request_id


def _already_done(e: Encounter, request_id: str | None) -> bool:
    """Whether the request ``request_id`` was applied already (read under the row lock: a repeat
    that waited for the lock sees the first one's committed row)."""
    return request_id is not None and EncounterRequest.objects.filter(encounter=e, key=request_id).exists()


def _check_version(e: Encounter, expected_version: int | None) -> None:
    if expected_version is not None and e.version != expected_version:
        raise Conflict(
            "Not done: the encounter moved on since your page was drawn "
            f"(it is at version {e.version}, your page showed {expected_version}). "
            "The page now shows where it is: look, then try again."
        )


def _remember(e: Encounter, request_id: str | None) -> None:
    """Note the applied request (after ``Step.save``: its version is the new one)."""
    if request_id is None:
        return
    EncounterRequest.objects.create(encounter=e, key=request_id, version=e.version)
    if e.version % 100 == 0:  # now and then, forget the old ones
        EncounterRequest.objects.filter(encounter=e, version__lt=e.version - REQUESTS_KEPT).delete()


def require_gm(user, encounter: Encounter, what: str) -> None:
    if not encounter_is_gm(user, encounter):
        raise NotPermitted(f"Only the GM may {what}.")


def _require_active(encounter: Encounter) -> None:
    if encounter.status == Encounter.Status.SETUP:
        raise refused("combat.not_started", "The encounter has not started yet: the GM starts it.")
    if encounter.status == Encounter.Status.ENDED:
        raise refused("combat.ended", "The encounter has ended.")


# ------------------------------------------------------------------ services


def encounter_create(*, campaign: Campaign, user, name: str) -> Encounter:
    """A new encounter in ``campaign`` (GM only), in setup."""
    if not is_campaign_gm(user, campaign):
        raise NotPermitted("Only the GM creates encounters.")
    name = (name or "").strip()
    if not 1 <= len(name) <= NAME_LENGTH:
        raise InvalidInput("Give the encounter a name of 1 to 120 characters.", "name")
    with transaction.atomic():
        encounter = Encounter.objects.create(campaign=campaign, name=name, created_by=user, last_seq=1)
        EncounterEvent.objects.create(
            encounter=encounter,
            seq=1,
            user=user,
            kind="created",
            text=f"{user.get_username()} sets up the encounter “{name}”.",
        )
    return encounter


def encounter_add_combatant(
    *,
    encounter: Encounter | int,
    user,
    character: Character | int | None = None,
    name: str | None = None,
    build: dict | None = None,
    count: int = 1,
    group: str = "",
    roller: Roller | None = None,
    continue_numbers: bool = False,
) -> list[Combatant]:
    """Add a campaign character (PC) or ``count`` NPCs from a quick build (GM only).

    NPCs: the build is validated by the rules service with the campaign's house rules (an
    invalid build is a 422 carrying the report's errors); their play state starts from
    ``ruleset.initial_state``. ``count`` > 1 makes "Goblin 1…N" sharing one group (the group
    defaults to the name). Added to a running encounter, ``CombatRules.join`` gives them their
    numbers and they go to the end of the order. ``continue_numbers``: the numbers go on from
    the NPCs of that name already there ("Goblin 3" after "Goblin 1", "Goblin 2"), in their group.
    """
    roller = roller or Roller()
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "add combatants")
        if e.status == Encounter.Status.ENDED:
            raise refused("combat.ended", "The encounter has ended.")
        campaign = e.campaign
        ruleset, rules, _ = campaign_combat_rules(campaign)
        if ruleset is None:
            raise refused("ruleset.unknown", f"The campaign's ruleset {campaign.ruleset!r} is not available.")
        if character is not None:
            created = [_pc_joining(e, character)]
        else:
            created = _npcs_joining(
                e,
                ruleset,
                name=name,
                build=build,
                count=count,
                group=group,
                continue_numbers=continue_numbers,
            )
        fight = encounter_fight(encounter=e)
        step = Step(fight, user)
        who = ", ".join(c.name for c in created)
        step.log("added", f"{who} {'join' if len(created) > 1 else 'joins'} the encounter.")
        fields = ["state"]
        if e.status == Encounter.Status.ACTIVE and rules is not None:
            for c in created:
                f = fight.fighter_by_id[c.id]
                out = outcome_of(rules.join, f, fight.fighters, e.state or {}, roller, ctx=fight.ctx)
                if out.order is None:
                    e.order = [*(e.order or []), c.id]
                step.apply(out)
            fields.append("order")
        step.save(fields=fields)
    return created


def _pc_joining(e: Encounter, character: Character | int) -> Combatant:
    """The combatant of a PC of the encounter's campaign, in play and not in it yet (created)."""
    campaign = e.campaign
    cid = character.pk if isinstance(character, Character) else character
    try:
        cid = int(cid)
    except (TypeError, ValueError):
        raise InvalidInput("character must be a character id.", "character") from None
    pc = Character.objects.filter(pk=cid, campaign=campaign).first()
    if pc is None:
        raise InvalidInput("That character is not in this encounter's campaign.", "character")
    if pc.status != Character.Status.ACTIVE:
        raise refused(
            "combat.character_not_active",
            f"{pc.name} is {pc.get_status_display().lower()}: only active characters can join "
            "an encounter (the GM approves a draft first).",
        )
    if e.combatants.filter(character=pc).exists():
        raise refused("combat.already_in", f"{pc.name} is already in this encounter.")
    return Combatant.objects.create(encounter=e, character=pc, name=pc.name[:NAME_LENGTH], is_npc=False)


def valid_npc(report: Report) -> Report:
    """An NPC's report, or ``RuleRefused`` when the rules refuse its build: the first problem in
    words and all of them (the encounter's quick NPCs and the campaign's NPC library alike)."""
    if not report.valid:
        first = report.errors[0]
        raise RuleRefused(
            f"The NPC's build is not valid: {first.message}",
            errors=[i.as_dict() for i in report.errors],
            code=first.code,
        )
    return report


def _npcs_joining(
    e: Encounter,
    ruleset: Ruleset,
    *,
    name: str | None,
    build: dict | None,
    count: int,
    group: str,
    continue_numbers: bool,
) -> list[Combatant]:
    """``count`` NPCs of a valid ``build`` (``encounter_add_combatant``'s names and group), created
    in one query, their play state from ``ruleset.initial_state``."""
    campaign = e.campaign
    if not isinstance(build, dict):
        raise InvalidInput("An NPC needs a build document (a JSON object).", "build")
    require_bounded(build, what="The NPC's build")
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_GROUP:
        raise InvalidInput(f"count must be a whole number from 1 to {MAX_GROUP}.", "count")
    build = copy.deepcopy(build)
    build.setdefault("ruleset", campaign.ruleset)
    raw = name if name else build.get("name")
    base = raw.strip() if isinstance(raw, str) else ""
    if not base:
        raise InvalidInput("Give the NPC a name.", "name")
    base = base[: NAME_LENGTH - 4]
    build["name"] = base
    report = valid_npc(fighter_report(ruleset, campaign, build))
    group = (group or "").strip()[:60]
    taken, their_group = _numbers_taken(e, base) if continue_numbers else (0, "")
    if taken and not group:
        group = their_group
    if count > 1 and not group:
        group = base[:60]
    state: dict = {}
    try:
        state = ruleset.initial_state(build, report, ctx=report.context) or {}
    except NotImplementedError:
        state = {}
    created: list[Combatant] = []
    for i in range(taken + 1, taken + count + 1):
        suffix = f" {i}" if count > 1 or taken else ""
        npc_name = base[: NAME_LENGTH - len(suffix)] + suffix
        created.append(
            Combatant(
                encounter=e,
                name=npc_name,
                build={**build, "name": npc_name},
                state=copy.deepcopy(state),
                group=group,
                is_npc=True,
            )
        )
    return Combatant.objects.bulk_create(created)


def encounter_remove_combatant(*, encounter: Encounter | int, user, combatant_id) -> None:
    """Take a combatant out (GM only); the turn stays with whoever has it. The effects that were
    to last until the end of its turn (on anyone: a foe's "until the end of your turn") end now,
    as that turn will not come: each a line of the log and a note in the table's feed."""
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "remove combatants")
        try:
            cid = int(combatant_id)
        except (TypeError, ValueError):
            raise InvalidInput("No such combatant in this encounter.", "combatant") from None
        c = e.combatants.filter(pk=cid).first()
        if c is None:
            raise InvalidInput("No such combatant in this encounter.", "combatant")
        order = list(e.order or [])
        if cid in order:
            index = order.index(cid)
            order.remove(cid)
            if index < e.turn:
                e.turn -= 1
            if order and e.turn >= len(order):
                e.turn = 0
            e.order = order
        c.delete()
        fight = encounter_fight(encounter=e, lock_characters=True)
        step = Step(fight, user)
        step.log("removed", f"{c.name} leaves the encounter.")
        effects_end(step, lambda state: fx.ending_on_turn_end(state, cid))
        step.save(fields=["order", "turn"])


def encounter_start(*, encounter: Encounter | int, user, roller: Roller | None = None) -> Encounter:
    """Start (GM only): ``CombatRules.start`` sets the order and opening numbers, then round 1
    begins (``round_start``) and the first turn (``turn_start``)."""
    roller = roller or Roller()
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "start the encounter")
        if e.status != Encounter.Status.SETUP:
            raise refused("combat.already_started", "The encounter has already started.")
        fight = encounter_fight(encounter=e, lock_characters=True)
        rules = require_rules(fight)
        if not fight.fighters:
            raise refused("combat.no_combatants", "Add combatants before starting the encounter.")
        step = Step(fight, user)
        e.status, e.round, e.turn = Encounter.Status.ACTIVE, 1, 0
        step.log("start", "The encounter begins.")
        out = outcome_of(rules.start, fight.fighters, e.state or {}, roller, ctx=fight.ctx)
        if out.order is None:
            out.order = [f.id for f in fight.fighters]
        step.apply(out)
        round_started(step, roller)
        turn_started(step, roller)
        step.save(fields=["status", "round", "turn", "order", "state"])
    return e


def _combatant(fight: Fight, combatant_id) -> Fighter:
    try:
        cid = int(combatant_id)
    except (TypeError, ValueError):
        raise InvalidInput(
            "combatant must be the id of a combatant of this encounter.", "combatant"
        ) from None
    f = fight.fighter_by_id.get(cid)
    if f is None:
        raise InvalidInput("No such combatant in this encounter.", "combatant")
    return f


def encounter_act(
    *,
    encounter: Encounter | int,
    user,
    combatant_id,
    action: dict[str, Any],
    roller: Roller | None = None,
    expected_version: int | None = None,
    private: bool = False,
    request_id: str | None = None,
) -> Encounter:
    """One action of one combatant (its owner or the GM; GM-only actions for the GM).

    ``action`` is ``{"action": "<id>", "target": <combatant id>?, ...params}`` as the ruleset's
    ``actions`` list them. A refusal raises ``RuleRefused`` and changes nothing, and no roll
    reaches the table's feed. The action's rolls go to the campaign's roll feed once committed;
    ``private`` (the GM's only, else 403) keeps them behind the screen: the GM's feed has them,
    the shared log says only that the GM rolled.

    ``expected_version``: the version the person's page showed; another one is a ``Conflict``
    (409) and nothing changes. ``request_id``: the id of this request (each form carries a fresh
    one); a repeat of an applied one (a double click) answers with the encounter as it is and is
    not applied again — checked before the version, which the first one moved on.
    """
    roller = roller or Roller()
    if not isinstance(action, dict) or not isinstance(action.get("action"), str) or not action["action"]:
        raise InvalidInput('An action is an object such as {"action": "move"}.', "action")
    request_id = _check_request_id(request_id)
    with transaction.atomic():
        e = _lock(encounter, user)
        if _already_done(e, request_id):
            return e
        _check_version(e, expected_version)
        gm = encounter_is_gm(user, e)
        if private and not gm:
            raise NotPermitted("Only the GM rolls privately.")
        fight = encounter_fight(encounter=e, lock_characters=True)
        actor = _combatant(fight, combatant_id)
        if not gm and user.pk not in actor.controller_ids:
            raise NotPermitted(f"You may not act for {actor.name}.")
        _require_active(e)
        rules = require_rules(fight)
        try:
            specs = rules.actions(
                actor, fight.fighters, fight.rules_state, current=fight.current_id, ctx=fight.ctx
            )
        except NotImplementedError:
            specs = []
        spec = next((s for s in specs if s.id == action["action"]), None)
        if not gm and spec is not None and spec.gm:
            raise NotPermitted(f"Only the GM may take “{spec.label}”.")
        if spec is not None:  # the numbers a person types (not the ids the form picks) are bounded
            typed = {p["id"] for p in spec.params or () if isinstance(p, dict) and p.get("kind") == "number"}
            require_bounded({k: v for k, v in action.items() if k in typed}, what="The action's numbers")
        step = Step(fight, user)
        out = outcome_of(
            rules.perform,
            copy.deepcopy(action),
            actor,
            fight.fighters,
            fight.rules_state,
            roller,
            current=fight.current_id,
            by_gm=gm,
            ctx=fight.ctx,
        )
        if out.encounter_state is not None:  # the obstacles were the rules' to read, not to keep
            out.encounter_state = {k: v for k, v in out.encounter_state.items() if k != OBSTACLES}
        step.apply(out, secret_for=actor if private else None)
        if out.obstacle is not None:
            _into_obstacle(step, actor, out.obstacle)
        if out.end_turn:
            advance(step, roller)
        step.save(fields=["state", "order", "turn", "round"])
        _remember(e, request_id)
    return e


def _into_obstacle(step: Step, actor: Fighter, put: dict[str, Any]) -> None:
    """EP of ``actor``'s spend into an obstacle of the campaign (``Outcome.obstacle``), under its row
    lock; resolved, the effect it is linked to ends: on a fighter of this encounter through the
    step (its play state here), on anyone else through the effects' service. The log and the
    table's feed say so."""
    e = step.fight.encounter
    code, message = (
        list(put.get("refusal") or []) + ["combat.obstacle_resolved", "{name} is overcome already."]
    )[:2]
    obstacle, text = obstacle_put_ep(
        obstacle_id=put.get("id"),
        campaign_id=e.campaign_id,
        ep=int(put.get("ep") or 0),
        who=actor.name,
        refusal=(code, message),
        round_now=(e.pk, e.round),
    )
    if obstacle.resolved and obstacle.character_id and obstacle.effect:
        c = next((c for c in step.fight.combatants if c.character_id == obstacle.character_id), None)
        f = step.fight.fighter_by_id.get(c.id) if c is not None else None
        if f is not None and step.fight.ruleset is not None:
            gone = [x for x in fx.active_entries(f.state) if x.get("id") == obstacle.effect]
            if gone:
                new = state_without_effects(
                    ruleset=step.fight.ruleset,
                    build=f.build,
                    report=f.report,
                    ctx=step.fight.ctx,
                    state=f.state,
                    ending=gone,
                )
                step.apply(Outcome(state={f.id: new}))
                text += " " + fx.ended_text(gone)
        else:
            text += obstacle_end_effect(obstacle=obstacle)
    step.log("obstacle", text, actor.id)
    step.notes.append(text)


def encounter_next_turn(
    *,
    encounter: Encounter | int,
    user,
    roller: Roller | None = None,
    expected_version: int | None = None,
    request_id: str | None = None,
) -> Encounter:
    """End the current turn (the GM, or a player whose combatant's turn it is); past the last
    turn a new round begins (``round_start``). ``expected_version`` and ``request_id`` as for
    ``encounter_act``: a double click on Next turn ends one turn, not two."""
    roller = roller or Roller()
    request_id = _check_request_id(request_id)
    with transaction.atomic():
        e = _lock(encounter, user)
        if _already_done(e, request_id):
            return e
        _check_version(e, expected_version)
        fight = encounter_fight(encounter=e, lock_characters=True)
        gm = encounter_is_gm(user, e)
        if not gm and not any(user.pk in fight.fighter_by_id[i].controller_ids for i in fight.current_ids):
            raise NotPermitted("Only the GM, or the player whose turn it is, ends the turn.")
        _require_active(e)
        require_rules(fight)
        if not e.order:
            raise refused("combat.no_combatants", "Nobody is left in the turn order.")
        step = Step(fight, user)
        round_before = e.round
        advance(step, roller)
        step.save(fields=["state", "order", "turn", "round"])
        _remember(e, request_id)
        if e.round != round_before:
            _round_told(fight)
    return e


def _round_told(fight) -> None:
    """A new round: what the party page shows of each character in the fight ("2 rounds left" of an
    effect tied to the encounter) follows the encounter's round, not the character's version: the
    GM's open party pages fetch their cards once the round commits."""
    for c in fight.combatants:
        if c.character is not None:
            party_changed(c.character)


def encounter_end(*, encounter: Encounter | int, user) -> Encounter:
    """End the encounter (GM only). Damage taken stays on the characters' sheets."""
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "end the encounter")
        if e.status == Encounter.Status.ENDED:
            raise refused("combat.ended", "The encounter has already ended.")
        fight = encounter_fight(encounter=e, lock_characters=True)
        step = Step(fight, user)
        e.status = Encounter.Status.ENDED
        step.log("end", f"The encounter ends after {e.round} round{'s' if e.round != 1 else ''}.")
        # Every effect tied to the encounter (its rounds, a combatant's turn) ends with it.
        effects_end(step, lambda state: fx.ending_with_encounter(state, e.pk))
        step.save(fields=["status"])
    return e


# ------------------------------------------------------------------ effects on combatants


def _synced(step: Step, c: Combatant, character: Character) -> None:
    """The fight's copy of a PC's character after the effects' service wrote it (in this
    transaction): its state and version as written, so the step neither writes it again nor
    writes over it."""
    mine = c.character
    assert mine is not None
    mine.state, mine.version = character.state, character.version
    mine.updated, mine.shown_version = character.updated, character.shown_version
    f = step.fight.fighter_by_id.get(c.id)
    if f is not None:
        f.state = character.state
    step.stored_pc[character.pk] = dump(character.state)


def _remaining(fight: Fight, duration: Any) -> str:
    """What remains of a duration, in words, naming the combatant whose turn it waits for."""
    return combatant_effects(fight, {"effects": [{"duration": duration}]})[0]["remaining"]


def encounter_effect_apply(
    *, encounter: Encounter | int, user, combatant_id, spec: Any, duration: Any = None
) -> dict[str, Any]:
    """Put an effect on a combatant (GM only): a named effect of the ruleset (``{"effect", "value"?}``)
    or a custom one (``{"name", "changes"}``), checked against the combatant's own rolls, for
    ``duration`` (None: until removed; ``{"rounds": N}``: rounds of this encounter; ``{"until":
    "end_of_turn", "combatant": id}``: a combatant of this encounter).

    A PC's goes through the effects' service (its character's play state, a new version: the
    sheet hears of it); an NPC's joins ``Combatant.state["effects"]``, so its rolls change as a
    character's do (``Ruleset.rollables``, ``with_effects``), a native one through the ruleset's
    own ``apply`` actions. The log says so, the table's feed too. A refusal (an unknown effect, key
    or target: 400 ``EffectRefused``) changes nothing. Returns the new entry."""
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "put effects on combatants")
        _require_active(e)
        fight = encounter_fight(encounter=e, lock_characters=True)
        ruleset = fight.ruleset
        if ruleset is None:
            raise refused("ruleset.unknown", "This campaign's ruleset is not available.")
        f = _combatant(fight, combatant_id)
        c = fight.by_id[f.id]
        if not isinstance(spec, dict):
            raise EffectRefused("effect.malformed", "Pick an effect.")
        rounds = isinstance(duration, dict) and "rounds" in duration
        if isinstance(duration, dict) and duration.get("until") == "rest":
            raise EffectRefused(
                "effect.bad_duration",
                "In an encounter an effect lasts rounds, a turn, or until removed.",
                "/duration",
            )
        step = Step(fight, user)
        if c.character is not None:
            character, entry = character_effect_apply(
                character_id=c.character_id,
                user=user,
                spec=spec,
                duration=duration,
                encounter=e.pk if rounds else None,
            )
            _synced(step, c, character)
        else:
            ids = [r["id"] for r in ruleset.rollables(f.build, f.report, f.state, ctx=fight.ctx) if "id" in r]
            try:
                entry, kind = fx.resolve(ruleset, spec, ids, ctx=fight.ctx)
            except fx.EffectError as exc:
                raise EffectRefused(exc.code, exc.message, exc.path) from None
            entry["duration"] = effect_duration(
                campaign_id=e.campaign_id, duration=duration, encounter=e.pk if rounds else None
            )
            if entry["duration"] and entry["duration"].get("encounter") != e.pk:
                raise EffectRefused(
                    "effect.no_encounter",
                    "An NPC's effect runs on its own encounter's clock: pick a combatant of this encounter.",
                    "/duration/combatant",
                )
            try:
                new = state_with_effect(
                    ruleset=ruleset,
                    build=f.build,
                    report=f.report,
                    ctx=fight.ctx,
                    state=f.state,
                    entry=entry,
                    kind=kind,
                )
            except StateError as exc:
                raise refused(exc.code, exc.message) from None
            step.apply(Outcome(state={c.id: new}))
        text = f"{entry['name']} on {f.name}, {_remaining(fight, entry.get('duration'))}."
        step.log("effect", text, c.id)
        step.notes.append(text)
        step.save(fields=[])
    return entry


def encounter_effect_remove(*, encounter: Encounter | int, user, combatant_id, effect_id: Any) -> None:
    """Take an effect off a combatant now (GM only): a PC's through the effects' service, an NPC's
    out of its ``Combatant.state`` (a native one through the ruleset's ``remove`` actions). An
    effect the combatant does not have (ended meanwhile) is a 400 naming it gone."""
    with transaction.atomic():
        e = _lock(encounter, user)
        require_gm(user, e, "take effects off combatants")
        fight = encounter_fight(encounter=e, lock_characters=True)
        ruleset = fight.ruleset
        if ruleset is None:
            raise refused("ruleset.unknown", "This campaign's ruleset is not available.")
        f = _combatant(fight, combatant_id)
        c = fight.by_id[f.id]
        gone = [x for x in fx.active_entries(f.state) if x.get("id") == effect_id]
        if not gone:
            raise EffectRefused(
                "effect.gone", f"{f.name} has no such effect now: it may have ended.", "/effect"
            )
        step = Step(fight, user)
        if c.character is not None:
            character = character_effect_remove(character_id=c.character_id, user=user, effect_id=effect_id)
            _synced(step, c, character)
        else:
            new = state_without_effects(
                ruleset=ruleset, build=f.build, report=f.report, ctx=fight.ctx, state=f.state, ending=gone
            )
            step.apply(Outcome(state={c.id: new}))
        text = f"{gone[0].get('name') or 'An effect'} is taken off {f.name}."
        step.log("effect_removed", text, c.id)
        step.notes.append(text)
        step.save(fields=[])


# ------------------------------------------------------------------ NPCs numbered on by name


def _numbers_taken(encounter: Encounter, base: str) -> tuple[int, str]:
    """The highest number the encounter's NPCs called ``base`` carry ("Goblin" alone counts as 1,
    "Goblin 2" as 2; 0 when there is none), and the group of one of them. Read under the
    encounter's lock, so two adds at once never both make "Goblin 3"."""
    pattern = re.compile(rf"{re.escape(base)}(?: ([0-9]{{1,6}}))?")
    taken, group = 0, ""
    rows = encounter.combatants.filter(is_npc=True, name__startswith=base).values_list("name", "group")
    for name, their_group in rows.order_by("id"):
        found = pattern.fullmatch(name)
        if found is None:
            continue
        number = int(found.group(1)) if found.group(1) else 1
        if number > taken:
            taken, group = number, their_group
    return taken, group
