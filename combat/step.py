"""One step of a fight, under the encounter's lock: what a service call changes, written once.

A service (combat/services.py) locks the encounter, loads the fight and makes a ``Step``; the
ruleset's ``CombatRules`` hooks return ``Outcome``s that the step applies to its copy of the fight;
``Step.save`` then writes only what changed (the combatants' rows, the PCs' play state as a new
character version, the log's events with gap-free ``seq``, the rolls to the table's feed), moves
the encounter's version on and, once committed, tells the open pages (combat/broadcast.py).

The encounter's clock lives here too, as every service that moves it goes through a step: a
turn's start, a round's start, the next turn (``advance``), and the effects that end on them
(``effects_end``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from characters.effects.selectors import characters_holding_encounter_effects
from characters.effects.services import (
    EffectRefused,
    characters_effects_end,
    state_with_effect,
    state_without_effects,
)
from characters.models import Character, RollLog
from characters.obstacles.services import obstacles_time_out
from characters.sheet.selectors import label
from characters.table.feed import rolls_logged, table_note
from characters.versions import character_version_write
from combat import broadcast
from combat.fight import Fight
from combat.models import Combatant, EncounterEvent
from config.errors import RuleRefused, rule_refused
from rulesets.engine import effects as fx
from rulesets.engine.combat import CombatRefused, CombatRules, Event, Fighter, Outcome
from rulesets.engine.dice import Roller
from rulesets.engine.errors import StateError

logger = logging.getLogger(__name__)


def refused(code: str, message: str) -> RuleRefused:
    """The rules refuse (422): a rule's code and message, no path."""
    return rule_refused(code, message, path=None)


def require_rules(fight: Fight) -> CombatRules:
    if fight.rules is None:
        raise refused("combat.unsupported", fight.unsupported)
    return fight.rules


def outcome_of(fn, *args, **kwargs) -> Outcome:
    """Call a hook; rules refusals and unwritten hooks become 422s, never 500s."""
    try:
        out = fn(*args, **kwargs)
    except CombatRefused as exc:
        raise refused(exc.code, exc.message) from None
    except StateError as exc:
        raise refused(exc.code, exc.message) from None
    except NotImplementedError:
        raise refused("combat.unsupported", "This ruleset's combat rules cannot do that yet.") from None
    return out if isinstance(out, Outcome) else Outcome()


def dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


class Step:
    """Collects what one service call changes, then writes only that, in a few queries.

    Created before the rules run: it notes the stored play state and numbers, so that ``save``
    writes only the combatants and characters that really changed; the pages then hear the new
    version and fetch what they show (combat/broadcast.py)."""

    def __init__(self, fight: Fight, user):
        self.fight = fight
        self.user = user
        self.events: list[tuple[Event, int]] = []  # (event, round)
        self.dirty: set[int] = set()
        self.characters: dict[int, tuple[Character, list[str]]] = {}
        self.stored = {c.id: (dump(c.state), dump(c.combat)) for c in fight.combatants}
        self.stored_pc = {c.character_id: dump(c.character.state) for c in fight.combatants if c.character}
        self.secret: list[Event] = []  # a GM's private action: its events, for the GM's feed only
        #: Lines for the table's feed that are no roll (effects ending or put on): table notes.
        self.notes: list[str] = []
        #: Characters of the campaign outside this fight that hold an effect tied to it (read once).
        self.outside: list[int] | None = None

    def apply(self, out: Outcome, *, secret_for: Fighter | None = None) -> None:
        """``secret_for``: the GM rolled privately for this fighter; the action's events go to
        the GM's feed only and the shared log says that the GM rolled (the board still shows
        what changed)."""
        fight, e = self.fight, self.fight.encounter
        if secret_for is not None and out.events:
            self.secret.extend(out.events)
            out.events = [
                Event("secret", f"The GM rolls for {secret_for.name} behind the screen.", secret_for.id)
            ]
        for fid, new_state in (out.state or {}).items():
            c = fight.by_id.get(fid)
            if c is None:
                continue
            character = c.character  # None without a query when there is no character_id
            if character is not None:
                character.state = new_state
                self.characters.setdefault(character.pk, (character, []))
            else:
                c.state = new_state
                self.dirty.add(fid)
            f = fight.fighter_by_id.get(fid)
            if f is not None:
                f.state = new_state
        for fid, spec in out.effects:
            self._put_effect(fid, spec)
        for fid, numbers in (out.combat or {}).items():
            c = fight.by_id.get(fid)
            if c is None:
                continue
            c.combat = numbers
            self.dirty.add(fid)
            f = fight.fighter_by_id.get(fid)
            if f is not None:
                f.combat = numbers
        if out.encounter_state is not None:
            e.state = out.encounter_state
        if out.order is not None:
            e.order = [i for i in out.order if i in fight.by_id]
        for event in out.events:
            self.events.append((event, e.round))
            if (event.data or {}).get("feed") and not is_roll(event):
                # A line the rules want at the table too that rolled nothing (what a spend bought).
                self.notes.append(event.text)
        texts = [event.text for event in out.events]
        for fid in {*(out.state or {}), *(fid for fid, _ in out.effects)}:
            c = fight.by_id.get(fid)
            if c is not None and c.character_id:
                self.characters[c.character_id][1].extend(texts)

    def _put_effect(self, fid: int, spec: dict[str, Any]) -> None:
        """A named effect an action put on fighter ``fid`` (``Outcome.effects``), through the effects'
        own checks and ``apply`` actions (characters/effects/services.py), until removed; a refusal
        refuses the action (the service's transaction changes nothing)."""
        fight = self.fight
        f, c, ruleset = fight.fighter_by_id.get(fid), fight.by_id.get(fid), fight.ruleset
        if f is None or c is None or ruleset is None:
            return
        ids = [r["id"] for r in ruleset.rollables(f.build, f.report, f.state, ctx=fight.ctx) if "id" in r]
        try:
            entry, kind = fx.resolve(ruleset, spec, ids, ctx=fight.ctx)
            entry["duration"] = None
            new = state_with_effect(
                ruleset=ruleset,
                build=f.build,
                report=f.report,
                ctx=fight.ctx,
                state=f.state,
                entry=entry,
                kind=kind,
            )
        except (fx.EffectError, StateError) as exc:
            raise refused(exc.code, exc.message) from None
        except EffectRefused as exc:  # too many effects already
            raise refused(exc.errors[0]["code"], exc.errors[0]["message"]) from None
        if c.character is not None:
            c.character.state = new
            self.characters.setdefault(c.character.pk, (c.character, []))
        else:
            c.state = new
            self.dirty.add(fid)
        f.state = new

    def log(self, kind: str, text: str, actor: int | None = None, **data) -> None:
        self.events.append((Event(kind, text, actor, data), self.fight.encounter.round))

    def save(self, *, fields: list[str]) -> None:
        fight, e = self.fight, self.fight.encounter
        changed: dict[int, list[str]] = {}
        for i in sorted(self.dirty):
            c, (state, numbers) = fight.by_id[i], self.stored.get(i, ("", ""))
            names = [
                name
                for name, was, now in (("state", state, c.state), ("combat", numbers, c.combat))
                if dump(now) != was
            ]
            if names:
                changed[i] = names
        if len(changed) == 1:  # the usual action: one row, only its changed columns
            [(i, names)] = changed.items()
            Combatant.objects.filter(pk=i).update(**{name: getattr(fight.by_id[i], name) for name in names})
        elif changed:
            Combatant.objects.bulk_update(
                [fight.by_id[i] for i in changed],
                sorted({name for names in changed.values() for name in names}),
            )
        for character, texts in self.characters.values():
            if dump(character.state) == self.stored_pc.get(character.id):
                continue  # the rules returned the same play state: no new version of the sheet
            reason = f"{e.name}: " + " ".join(texts) if texts else f"{e.name}: play state"
            character_version_write(character=character, author=self.user, reason=reason, fields=["state"])
        if self.events:
            # ``last_seq`` is read with the locked encounter row: gap-free numbers, no scan of the log.
            last = e.last_seq
            rows = []
            for i, (event, round_no) in enumerate(self.events, start=1):
                actor = event.actor if event.actor in fight.by_id else None
                rows.append(
                    EncounterEvent(
                        encounter=e,
                        seq=last + i,
                        round=round_no,
                        actor_id=actor,
                        user=self.user,
                        kind=str(event.kind)[:40],
                        text=str(event.text)[:500],
                        data=jsonable(event.data),
                    )
                )
            EncounterEvent.objects.bulk_create(rows)
            e.last_seq = last + len(rows)
        self._feed()
        e.version += 1
        e.save(update_fields=[*fields, "version", "updated", "last_seq"])
        broadcast.encounter_changed(fight)

    def _feed(self) -> None:
        """The step's rolls to the table's roll feed (characters/table/feed.py), once it commits: one
        line per event that rolled dice, in the log's words; a GM's private action is one line
        for the GM only, with everything it did."""
        rolls = [self._roll(event, private=False) for event, _ in self.events if is_roll(event)]
        e = self.fight.encounter
        rolls += [
            table_note(
                campaign_id=e.campaign_id, user=self.user, text=text, encounter_id=e.pk, encounter_name=e.name
            )
            for text in self.notes
        ]
        if self.secret and any(is_roll(event) for event in self.secret):
            first = next(event for event in self.secret if is_roll(event))
            rolls.append(
                self._roll(
                    first,
                    private=True,
                    text=" ".join(str(event.text) for event in self.secret),
                    faces=[f for event in self.secret if is_roll(event) for f in event.data["faces"]],
                )
            )
        if not rolls:
            return
        rolls_logged(RollLog.objects.bulk_create(rolls))

    def _roll(self, event: Event, *, private: bool, text: str | None = None, faces=None) -> RollLog:
        fight, e = self.fight, self.fight.encounter
        combatant = fight.by_id.get(event.actor) if event.actor is not None else None
        data = event.data or {}
        outcome = data.get("outcome")
        numbers = {k: data[k] for k in ("total", "ep", "successes") if isinstance(data.get(k), int)}
        return RollLog(
            campaign_id=e.campaign_id,
            character=combatant.character if combatant is not None else None,  # loaded: no query
            user=self.user,
            label=label(event.kind)[:120],
            request={"encounter": e.pk, "kind": str(event.kind)[:40]},
            result={
                "text": str(event.text if text is None else text)[:1000],
                "faces": jsonable(data["faces"] if faces is None else faces),
                "outcome": outcome if isinstance(outcome, str) else None,
                **numbers,
                "odds": self._odds(data.get("odds")),
                "ruleset": fight.ruleset.slug if fight.ruleset else "",
                "encounter": e.name,
                "actor": combatant.name if combatant is not None else "",
            },
            private=private,
        )

    def _odds(self, request: Any) -> dict[str, Any] | None:
        """The exact odds of the roll an event names (``data["odds"]``: the ruleset's odds request),
        for the feed's chance and chart; None when it names none or the rules cannot say."""
        ruleset = self.fight.ruleset
        if not isinstance(request, dict) or ruleset is None:
            return None
        try:
            return ruleset.odds(request, ctx=self.fight.ctx)
        except Exception:  # the odds are a courtesy: the roll stands without them
            logger.exception("odds of a fight's roll failed")
            return None


def is_roll(event: Event) -> bool:
    """An event that rolled dice: its ``data["faces"]`` lists them (rulesets/engine/combat.py)."""
    faces = (event.data or {}).get("faces")
    return isinstance(faces, list) and bool(faces)


def jsonable(data: Any) -> Any:
    if isinstance(data, dict):
        return {str(k): jsonable(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [jsonable(v) for v in data]
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    return str(data)


def turn_started(step: Step, roller: Roller) -> None:
    """Run ``turn_start`` for whoever's turn it now is."""
    fight, e = step.fight, step.fight.encounter
    current = fight.current_id
    if current is None:
        return
    step.log(
        "turn", f"{' and '.join(fight.fighter_by_id[i].name for i in fight.current_ids)}: your turn.", current
    )
    rules = require_rules(fight)  # the callers checked it: refused before any change otherwise
    step.apply(
        outcome_of(
            rules.turn_start,
            fight.fighter_by_id[current],
            fight.fighters,
            e.state or {},
            roller,
            ctx=fight.ctx,
        )
    )


def round_started(step: Step, roller: Roller, *, clock: bool = False) -> None:
    """The top of a round: its log line, then (``clock``: the round has advanced) the effects whose
    rounds have run out end, then the ruleset's ``round_start``."""
    fight, e = step.fight, step.fight.encounter
    step.log("round", f"Round {e.round} begins.")
    if clock:
        effects_end(step, lambda state: fx.ending_on_round(state, e.pk, e.round))
        # Obstacles to be overcome within so many rounds start again from 0 when they were not (W2).
        for text in obstacles_time_out(campaign_id=e.campaign_id, encounter_id=e.pk, round_now=e.round):
            step.log("obstacle", text)
            step.notes.append(text)
    rules = require_rules(fight)
    step.apply(outcome_of(rules.round_start, fight.fighters, e.state or {}, e.round, roller, ctx=fight.ctx))
    e.turn = 0


def advance(step: Step, roller: Roller) -> None:
    """The next turn; past the end of the order, the next round."""
    fight, e = step.fight, step.fight.encounter
    order = e.order or []
    rules = require_rules(fight)
    span = 1
    try:
        span = max(1, rules.turn_span(order, e.turn, fight.fighter_by_id))
    except Exception:
        logger.exception("turn_span failed")
    ending = list(fight.current_ids)  # whose turn ends now
    effects_end(step, lambda state: [x for cid in ending for x in fx.ending_on_turn_end(state, cid)])
    e.turn += span
    if e.turn >= len(order):
        e.round += 1
        round_started(step, roller, clock=True)
    turn_started(step, roller)


# ------------------------------------------------------------------ effects on the encounter's clock


def _ended_on(gone: list[dict], name: str) -> str:
    """ "Frightened 2 ends on Ayla." / "Stunned and Blessed end on Ayla." """
    return f"{fx.ended_text(gone).removesuffix('.')} on {name}."


def effects_end(step: Step, ending: Callable[[dict], list[dict]]) -> None:
    """End the effects ``ending(state)`` names on everyone the encounter's clock reaches, in the
    step's transaction: its combatants (an NPC's state is ``Combatant.state``; a PC's is its
    character's, loaded and locked with the fight, changed through the step so that what the step
    already changed — the action that ended the turn — is kept), and any other active character of
    the campaign holding an effect tied to this encounter (``characters_effects_end``: a PC who left
    the fight). Each ending is a line of the encounter's log and a note in the table's feed; the
    open sheets hear of it through the character's new version."""
    fight, e = step.fight, step.fight.encounter
    ruleset = fight.ruleset
    if ruleset is None:
        return
    for c in fight.combatants:
        f = fight.fighter_by_id.get(c.id)
        if f is None:
            continue
        gone = ending(f.state)
        if not gone:
            continue
        new = state_without_effects(
            ruleset=ruleset, build=f.build, report=f.report, ctx=fight.ctx, state=f.state, ending=gone
        )
        text = _ended_on(gone, f.name)
        step.apply(Outcome(state={c.id: new}, events=[Event("effect_end", text, c.id)]))
        step.notes.append(text)
    if step.outside is None:
        inside = [c.character_id for c in fight.combatants if c.character_id]
        step.outside = characters_holding_encounter_effects(
            campaign_id=e.campaign_id, encounter_id=e.pk, exclude=inside
        )
    if not step.outside:
        return
    for character, gone in characters_effects_end(character_ids=step.outside, ending=ending, why=e.name):
        text = _ended_on(gone, character.name)
        step.log("effect_end", text)
        step.notes.append(text)
