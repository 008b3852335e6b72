"""Our D&D's turns (RULES.md 4 "Play and scenes", seed 003: turns, initiative, TD, checks and
attempts, effort, hearts, dying, recovery, Heroic Inspiration).

Plain Python over ``Fighter`` values (engine/combat.py); the combat service applies the
``Outcome``. HP, dying, first aid, recovery and inspiration change only through the
ruleset's play-state hook ``state_action`` (``damage``, ``heal``, ``dying_turn``,
``first_aid``, ``recover``, ``gain_inspiration``, ``spend_inspiration``), so a fight and
the character sheet never disagree.

``Fighter.combat`` for Our D&D::

    {"initiative": 17,         # the d20 (the DM's one roll for every NPC)
     "move": null,             # this turn's move: null, "near" or "far"
     "acted": false,           # this turn's action is taken
     "last_roll": {...}}       # the last failed check or attempt this turn (for a re-roll)

``encounter_state``::

    {"td": 14, "td_start": 15, "td_lowered": 1,   # the scene's TD, where it started, how far
                                                  # the players have lowered it (at most 3)
     "initiative_npcs": 11,                       # the DM's roll
     "tasks": {"the jammed gate": 7},             # effort put into tasks without a target
     "positions": {"12": 0, "13": 1},             # each combatant's zone on the line (distance.py)
     "names": {"12": "Bram", "13": "Goblin"}}     # whom the rows name the bands by

Readings where the seed leaves room:

- Initiative: "the highest roll goes first, then clockwise". The seats are the order in
  which the combatants are listed; the NPCs all sit at the DM's seat (where the first NPC
  is listed) and act together in one turn (``turn_span``). The highest roll's seat goes
  first and the others follow round the table from there; a tie for the highest goes to
  the earlier seat.
- Turns: "action only", "move near + action" or "move far". A move comes before the
  action (after an action you cannot move), moving far ends the turn, and recovering takes
  the whole turn (no move, no other action).
- Distances (distance.py): CLOSE, NEAR, FAR, VERY FAR, OUT OF RANGE between combatants, from
  their zones on one line. A move names someone and the band to end at from them (``to``);
  a NEAR move covers a NEAR distance, a FAR move a FAR one, else ``ourdnd.too_far_to_move``;
  a move naming nobody changes no band. An attempt on a combatant needs its gear's reach
  (``ourdnd.out_of_reach``; bare hands and melee CLOSE), is HARD at VERY FAR, and nothing
  reaches OUT OF RANGE (``ourdnd.out_of_range``). First aid needs CLOSE ("if an ally can
  reach you"). The sides start ``start_distance`` apart (house default); the DM places anyone
  (``set_distance``). The row's summary lists the band to every other combatant (``details``).
- The TD: the GM sets it (``set_td``: a new starting point). Players lower it (a torch, a
  light spell…) by at most 3 below where it started; lowering is not an action.
- Rolls: the scene's TD, except an NPC's attempt against a PC, which rolls against the
  PC's Defense + 10. Effort is rolled after a successful attempt with the chosen gear's die
  (bare hands d4), +d12 on a natural 20, +d12 more when Heroic Inspiration is turned in
  for it; effort against a combatant is damage to its HP (its hearts × 10), effort on a
  task (no target) adds up in ``encounter_state["tasks"]``.
- A natural 20 on any d20 roll (check, attempt, first aid, recovery) grants Heroic
  Inspiration; one already held passes to the named ``give_to`` ally, else to the first
  ally without one. A blunder (natural 1) is logged; its mishap is the DM's to narrate
  (and to apply with ``gm_damage``).
- Heroic Inspiration re-rolls the last failed check or attempt of this turn (``reroll``,
  not another action), or adds a d12 to an attempt's effort (``inspire`` on the attempt;
  spent only when effort is rolled).
- A dying combatant's turn is its dying roll, made when the turn starts.
"""

from __future__ import annotations

import copy
from typing import Any, Literal, overload

from rulesets.engine.combat import ActionSpec, CombatRefused, CombatRules, Event, Fighter, Outcome
from rulesets.engine.context import Context
from rulesets.engine.dice import Roller
from rulesets.engine.fields import get_as, is_int, whole_number
from rulesets.engine.words import a

from . import dice as dice_rules
from . import distance
from . import state as play_rules
from .build import STATS

MODES = dice_rules.MODES
MOVES = ("near", "far")


class _Recorder(Roller):
    """Passes rolls through to ``inner`` and remembers the faces (to spot a natural 20 in a
    roll the play-state hook makes)."""

    def __init__(self, inner: Roller):
        self.inner = inner
        self.faces: list[tuple[int, int]] = []

    def d(self, sides: int) -> int:
        face = self.inner.d(sides)
        self.faces.append((sides, face))
        return face


def _side(f: Fighter) -> str:
    return f.group or ("npcs" if f.is_npc else "pcs")


def _dying(f: Fighter) -> bool:
    """``state.normal(f.state)["dying"]`` without reading the whole state (the actions list asks it
    of every fighter)."""
    return isinstance(f.state, dict) and f.state.get("dying") is True


def _flag(value: Any) -> bool:
    return value in (True, "true", "on", "1", 1)


class OurDnDCombat(CombatRules):
    # ---------------------------------------------------------------- reading a fighter

    def _st(self, f: Fighter, state: dict | None = None) -> dict:
        return play_rules.normal(
            f.state if state is None else state, f.build, self.report_of(f), self.ctx_of(f)
        )

    def _max_hp(self, f: Fighter) -> int:
        return play_rules.max_hp(f.build, self.report_of(f), self.ctx_of(f))

    @staticmethod
    def _stats(f: Fighter) -> dict[str, int]:
        derived = (f.derived or {}).get("stats")
        raw = derived if isinstance(derived, dict) else get_as(f.build, "stats", dict, {})
        return {
            s: raw[s] if is_int(raw.get(s)) and abs(raw[s]) <= dice_rules.ODDS_LIMIT else 0 for s in STATS
        }

    @staticmethod
    def _effort_dice(f: Fighter) -> dict[str, str]:
        effort = (f.derived or {}).get("effort")
        return dict(effort) if isinstance(effort, dict) and effort else {"bare_hands": "d4"}

    def _defense_target(self, f: Fighter) -> int:
        d = f.derived or {}
        if is_int(d.get("defense_target")):
            return d["defense_target"]
        return 10 + self._stats(f)["con"]

    def _td(self, es: dict, ctx: Context) -> int:
        """The scene's TD: set by the DM, else the campaign's ``default_td``."""
        td = es.get("td")
        return td if is_int(td) else ctx.settings.get("default_td", 12)

    def _roll_td(self, actor: Fighter, target: Fighter | None, es: dict) -> tuple[int, str]:
        """The number an attempt must meet: the scene's TD, or a PC's Defense + 10 against an NPC."""
        if target is not None and actor.is_npc and not target.is_npc:
            return self._defense_target(target), f"{target.name}'s Defense + 10"
        return self._td(es, self.ctx_of(actor)), "the TD"

    # ---------------------------------------------------------------- initiative and turns

    def _seats(self, fighters: list[Fighter]) -> list[list[Fighter]]:
        """The table, in listed order: each PC a seat, every NPC at the DM's one seat."""
        seats: list[list[Fighter]] = []
        dm: list[Fighter] | None = None
        for f in fighters:
            if f.is_npc:
                if dm is None:
                    dm = []
                    seats.append(dm)
                dm.append(f)
            else:
                seats.append([f])
        return seats

    def start(
        self, fighters: list[Fighter], encounter_state: dict, roller: Roller, *, ctx: Context | None = None
    ) -> Outcome:
        es = dict(encounter_state or {})
        out = Outcome()
        td = self._td(es, self.ctx_of(fighters[0] if fighters else None, ctx))
        seats = self._seats(fighters)
        rolls: list[int] = []
        npc_roll = None
        for seat in seats:
            if seat[0].is_npc:
                npc_roll = roller.d(20)
                rolls.append(npc_roll)
                out.log(
                    "initiative",
                    f"The DM rolls initiative for {', '.join(f.name for f in seat)}: d20 {npc_roll}.",
                    seat[0].id,
                    initiative=npc_roll,
                    faces=[npc_roll],
                )
            else:
                face = roller.d(20)
                rolls.append(face)
                out.log(
                    "initiative",
                    f"{seat[0].name} rolls initiative: d20 {face}.",
                    seat[0].id,
                    initiative=face,
                    faces=[face],
                )
            for f in seat:
                out.combat[f.id] = self.combat_numbers(
                    f, initiative=rolls[-1], move=None, acted=False, last_roll=None
                )
        es = self._placed_at_start(fighters, es, self.ctx_of(fighters[0] if fighters else None, ctx), out)
        if seats:
            top = max(range(len(seats)), key=lambda i: (rolls[i], -i))  # a tie goes to the earlier seat
            ordered = seats[top:] + seats[:top]
            out.order = [f.id for seat in ordered for f in seat]
            out.log(
                "order",
                f"{ordered[0][0].name if not ordered[0][0].is_npc else 'The DM'} rolled highest "
                f"({rolls[top]}) and goes first, then clockwise: "
                + ", ".join(" and ".join(f.name for f in seat) for seat in ordered)
                + ".",
                order=out.order,
            )
        out.encounter_state = {
            **es,
            "td": td,
            "td_start": es.get("td_start", td) if is_int(es.get("td_start")) else td,
            "td_lowered": es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0,
            "initiative_npcs": npc_roll,
            "tasks": dict(es.get("tasks") or {}),
        }
        out.log("td", f"The scene's TD is {td}.", td=td)
        return out

    def _placed_at_start(self, fighters: list[Fighter], es: dict, ctx: Context, out: Outcome) -> dict:
        """Every combatant on the line of zones (distance.py): each side together, the two sides
        ``start_distance`` apart (house default); a place the DM already gave is kept."""
        known = distance.positions(es)
        changes = {str(f.id): known.get(str(f.id), distance.home(f.is_npc, ctx)) for f in fighters}
        band = distance.start_band(ctx)
        if any(f.is_npc for f in fighters) and any(not f.is_npc for f in fighters):
            out.log(
                "distance",
                f"The two sides start {distance.word(band)} (house default; the campaign may "
                "change it, and the DM places anyone with Set distance).",
                band=band,
            )
        return distance.placed(es, changes, {str(f.id): f.name for f in fighters})

    def join(
        self,
        fighter: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        es = encounter_state or {}
        out = Outcome()
        npc = es.get("initiative_npcs")
        rolled = not (fighter.is_npc and is_int(npc))  # the DM's NPCs share the DM's roll
        face = roller.d(20) if rolled else npc
        out.combat[fighter.id] = self.combat_numbers(
            fighter, initiative=face, move=None, acted=False, last_roll=None
        )
        # A newcomer stands with the first of its side already placed, else at its side's start.
        c = self.ctx_of(fighter, ctx)
        side = next(
            (
                f
                for f in fighters
                if f.is_npc == fighter.is_npc and f.id != fighter.id and str(f.id) in distance.positions(es)
            ),
            None,
        )
        where = distance.at(es, side, c) if side is not None else distance.home(fighter.is_npc, c)
        out.encounter_state = distance.placed(es, {str(fighter.id): where}, {str(fighter.id): fighter.name})
        out.log(
            "initiative",
            f"{fighter.name} joins the scene (initiative {face}).",
            fighter.id,
            faces=[face] if rolled else [],
        )
        return out

    def turn_span(self, order: list[int], turn: int, fighters: dict[int, Fighter]) -> int:
        """The NPCs act together in the DM's turn."""
        first = fighters.get(order[turn]) if 0 <= turn < len(order) else None
        if first is None or not first.is_npc:
            return 1
        span = 1
        while turn + span < len(order) and getattr(fighters.get(order[turn + span]), "is_npc", False):
            span += 1
        return span

    @staticmethod
    def _on_turn(actor: Fighter, fighters: list[Fighter], current: int | None) -> bool:
        if current is None:
            return False
        if actor.id == current:
            return True
        cur = next((f for f in fighters if f.id == current), None)
        return bool(cur is not None and cur.is_npc and actor.is_npc)

    def turn_start(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        ctx: Context | None = None,
    ) -> Outcome:
        out = Outcome()
        if "positions" in (encounter_state or {}):  # forget combatants the DM took out
            out.encounter_state = distance.pruned(encounter_state, {str(f.id) for f in fighters})
        who = [f for f in fighters if f.is_npc] if actor.is_npc else [actor]
        for f in who:
            out.combat[f.id] = self.combat_numbers(f, move=None, acted=False, last_roll=None)
        for f in who:
            st = self._st(f)
            if st["dying"]:
                new_state, text = self.play_state_action(f, f.state, {"action": "dying_turn"}, roller)
                out.state[f.id] = new_state
                out.log("dying", text, f.id)
            elif st["dead"]:
                out.log("dead", f"{f.name} is dead.", f.id)
            elif st["unconscious"]:
                out.log("unconscious", f"{f.name} lies unconscious.", f.id)
        return out

    # ---------------------------------------------------------------- actions

    def actions(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        *,
        current: int | None,
        ctx: Context | None = None,
    ) -> list[ActionSpec]:
        return self._specs(actor, fighters, encounter_state or {}, current)

    def _gate(
        self, actor: Fighter, fighters: list[Fighter], current: int | None, st: dict | None = None
    ) -> tuple[str, str]:
        st = self._st(actor) if st is None else st
        if st["dead"]:
            return f"{actor.name} is dead.", "ourdnd.dead"
        if st["unconscious"] or st["dying"]:
            return f"{actor.name} is unconscious.", "ourdnd.unconscious"
        if not self._on_turn(actor, fighters, current):
            return self.not_your_turn(actor)
        return "", ""

    def _action_gate(self, actor: Fighter) -> tuple[str, str]:
        c = actor.combat or {}
        if c.get("move") == "far":
            return (
                f"{actor.name} moved far: that takes the whole turn, no action after it.",
                "ourdnd.moved_far",
            )
        if c.get("acted"):
            return f"{actor.name} has already taken this turn's action.", "ourdnd.already_acted"
        return "", ""

    def _specs(
        self, actor: Fighter, fighters: list[Fighter], es: dict, current: int | None
    ) -> list[ActionSpec]:
        """Every action of ``actor`` now, in the page's order, each allowed or with the first rule that stops it."""
        st = self._st(actor)
        gate = self._gate(actor, fighters, current, st)
        action_gate = self._action_gate(actor)
        ctx = self.ctx_of(actor)
        td = self._td(es, ctx)
        stats = self._stats(actor)
        return [
            *self._move_specs(actor, gate),
            *self._roll_specs(actor, gate, action_gate, stats, td, ctx),
            self._first_aid_spec(actor, fighters, gate, action_gate, stats, td),
            self._recover_spec(actor, gate, stats, td),
            self._reroll_spec(actor, gate, st),
            self._lower_spec(actor, es, td, ctx),
            *self._gm_specs(actor, td),
        ]

    def _move_specs(self, actor: Fighter, gate: tuple[str, str]) -> list[ActionSpec]:
        """Move near (an action may follow) and move far (the whole turn), to a band from someone."""
        c = actor.combat or {}
        to_param = {
            "id": "to",
            "label": "To",
            "kind": "choice",
            "default": "close",
            "options": list(distance.BAND_OPTIONS),
        }
        specs = []
        for move in MOVES:
            spec = ActionSpec(
                id=f"move_{move}",
                label=f"Move {move}",
                target="any",
                params=[to_param],
                cost="the whole turn" if move == "far" else "the move (an action may follow)",
            )
            spec.deny(*gate)
            if c.get("move"):
                spec.deny(f"{actor.name} has already moved this turn.", "ourdnd.already_moved")
            elif c.get("acted"):
                spec.deny("After an action you cannot move this turn.", "ourdnd.already_acted")
            specs.append(spec)
        return specs

    def _roll_specs(
        self,
        actor: Fighter,
        gate: tuple[str, str],
        action_gate: tuple[str, str],
        stats: dict[str, int],
        td: int,
        ctx: Context,
    ) -> list[ActionSpec]:
        """A check, and an attempt (then effort, with the gear's die and reach)."""
        best = max(STATS, key=lambda s: stats[s])
        stat_param = {
            "id": "stat",
            "label": "Stat",
            "kind": "choice",
            "options": [{"id": s, "label": s.upper()} for s in STATS],
            "default": best,
        }
        mode_param = {
            "id": "mode",
            "label": "Roll",
            "kind": "choice",
            "options": [{"id": m, "label": m.capitalize()} for m in MODES],
            "default": "normal",
        }
        dice = self._effort_dice(actor)
        catalogue = ctx.catalogue.get("gear", {}) if isinstance(ctx.catalogue, dict) else {}

        def gear_name(k: str) -> str:  # the gear's name ("Sword"), not its id
            entry = catalogue.get(k)
            name = entry.get("name") if isinstance(entry, dict) else None
            return name if isinstance(name, str) and name else k.replace("_", " ").capitalize()

        gear_param = {
            "id": "gear",
            "label": "Effort",
            "kind": "choice",
            "default": max(dice, key=lambda k: int(dice[k][1:])),
            "options": [
                {
                    "id": k,
                    "label": f"{gear_name(k)} ({d}, reaches {distance.word(self._reach(actor, k, ctx)[0])})",
                }
                for k, d in dice.items()
            ],
        }
        check = ActionSpec(
            id="check",
            label="Check (d20 + stat vs TD)",
            cost="the action",
            params=[stat_param, mode_param],
            odds={"stat": stats[best], "td": td, "mode": "normal"},
        )
        attempt = ActionSpec(
            id="attempt",
            label="Attempt (d20 + stat vs TD, then effort)",
            cost="the action",
            target="any",
            params=[
                stat_param,
                mode_param,
                gear_param,
                {
                    "id": "inspire",
                    "label": "Turn in Heroic Inspiration: +d12 effort",
                    "kind": "flag",
                    "default": False,
                },
                {"id": "task", "label": "Task (no target)", "kind": "text"},
            ],
            odds={"stat": stats[best], "td": td, "mode": "normal"},
        )
        for spec in (check, attempt):
            spec.deny(*gate)
            spec.deny(*action_gate)
        return [check, attempt]

    def _first_aid_spec(
        self,
        actor: Fighter,
        fighters: list[Fighter],
        gate: tuple[str, str],
        action_gate: tuple[str, str],
        stats: dict[str, int],
        td: int,
    ) -> ActionSpec:
        aid_stat = "int" if stats["int"] >= stats["wis"] else "wis"
        first_aid = ActionSpec(
            id="first_aid",
            label="First aid (INT or WIS vs TD)",
            cost="the action",
            target="ally",
            params=[
                {
                    "id": "stat",
                    "label": "Stat",
                    "kind": "choice",
                    "options": [{"id": "int", "label": "INT"}, {"id": "wis", "label": "WIS"}],
                    "default": aid_stat,
                }
            ],
            odds={"stat": stats[aid_stat], "td": td, "mode": "normal"},
        )
        first_aid.deny(*gate)
        first_aid.deny(*action_gate)
        if not any(_dying(f) for f in fighters if f.id != actor.id):
            first_aid.deny("Nobody is dying.", "ourdnd.not_dying")
        return first_aid

    def _recover_spec(
        self, actor: Fighter, gate: tuple[str, str], stats: dict[str, int], td: int
    ) -> ActionSpec:
        c = actor.combat or {}
        recover = ActionSpec(
            id="recover",
            label=f"Recover (d20 + CON vs TD: regain {stats['con'] + 1} HP)",
            cost="the whole turn",
            odds={"stat": stats["con"], "td": td, "mode": "normal"},
        )
        recover.deny(*gate)
        if c.get("move") or c.get("acted"):
            recover.deny("Recovering takes the whole turn: no move or action before it.", "ourdnd.whole_turn")
        return recover

    def _reroll_spec(self, actor: Fighter, gate: tuple[str, str], st: dict) -> ActionSpec:
        last = (actor.combat or {}).get("last_roll")
        reroll = ActionSpec(
            id="reroll",
            label="Re-roll the last failed roll (Heroic Inspiration)",
            cost="Heroic Inspiration",
            odds={k: last["request"][k] for k in ("stat", "td", "mode")} if last else None,
        )
        reroll.deny(*gate)
        if not last:
            reroll.deny(
                "There is no failed check or attempt to re-roll this turn.", "ourdnd.nothing_to_reroll"
            )
        elif not st["inspiration"]:
            reroll.deny(f"{actor.name} has no Heroic Inspiration.", "ourdnd.no_inspiration")
        return reroll

    def _lower_spec(self, actor: Fighter, es: dict, td: int, ctx: Context) -> ActionSpec:
        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        room = self._room(es, ctx)
        lower = ActionSpec(
            id="lower_td",
            label="Lower the TD (a torch, a spell…)",
            cost="not an action",
            reaction=True,
            params=[
                {
                    "id": "amount",
                    "label": "By",
                    "kind": "number",
                    "min": 1,
                    "max": max(room, 1),
                    "default": 1,
                },
                {"id": "reason", "label": "How", "kind": "text"},
            ],
        )
        if actor.is_npc:
            lower.deny("Players lower the TD; the DM sets it.", "ourdnd.players_only")
        elif room <= 0:
            lower.deny(
                f"The TD has been lowered {lowered} already: players never lower it more than "
                f"{self._max_lower(ctx)} below where it started ({es.get('td_start', td)}).",
                "ourdnd.td_floor",
            )
        return lower

    @staticmethod
    def _max_lower(ctx: Context) -> int:
        return ctx.settings.get("td_max_reduction", 3)

    def _room(self, es: dict, ctx: Context) -> int:
        lowered = es.get("td_lowered", 0) if is_int(es.get("td_lowered")) else 0
        return self._max_lower(ctx) - lowered

    def _gm_specs(self, actor: Fighter, td: int) -> list[ActionSpec]:
        amount = {"id": "amount", "label": "Amount", "kind": "number", "min": 1, "default": 1}
        return [
            ActionSpec(
                id="set_td",
                label="Set the scene's TD",
                cost="GM",
                gm=True,
                reaction=True,
                params=[{"id": "td", "label": "TD", "kind": "number", "min": 1, "default": td}],
            ),
            ActionSpec(id="gm_damage", label="Damage", cost="GM", gm=True, reaction=True, params=[amount]),
            ActionSpec(id="gm_heal", label="Heal", cost="GM", gm=True, reaction=True, params=[amount]),
            ActionSpec(
                id="gm_inspiration", label="Award Heroic Inspiration", cost="GM", gm=True, reaction=True
            ),
            ActionSpec(
                id="set_distance",
                label="Set distance",
                cost="GM",
                gm=True,
                reaction=True,
                target="any",
                params=[
                    {
                        "id": "to",
                        "label": "Distance",
                        "kind": "choice",
                        "default": "near",
                        "options": list(distance.BAND_OPTIONS),
                    }
                ],
            ),
        ]

    # ---------------------------------------------------------------- perform

    def perform(
        self,
        action: dict[str, Any],
        actor: Fighter,
        fighters: list[Fighter],
        encounter_state: dict,
        roller: Roller,
        *,
        current: int | None,
        by_gm: bool,
        ctx: Context | None = None,
    ) -> Outcome:
        es = dict(encounter_state or {})
        spec = self.spec_for(action, actor, self._specs(actor, fighters, es, current))
        aid = spec.id
        if not spec.allowed:
            raise self.refusal(spec)
        handler = self._do_move if aid.startswith("move_") else getattr(self, "_do_" + aid)
        return handler(action, actor, fighters, es, roller)

    # ---------------------------------------------------------------- distances (distance.py)

    def _reach(self, actor: Fighter, gear: str, ctx: Context | None = None) -> tuple[str, bool]:
        """(the band ``actor``'s ``gear`` reaches, whether it is a house default); bare hands CLOSE."""
        ctx = ctx or self.ctx_of(actor)
        item = None if gear == "bare_hands" else ctx.catalogue.get("gear", {}).get(gear)
        return distance.reach(item, ctx)

    @staticmethod
    def _band_param(action: dict, key: str = "to") -> str:
        band = action.get(key) or "close"
        if band not in distance.STEPS:
            raise CombatRefused(
                "ourdnd.invalid_distance", "A distance is CLOSE, NEAR, FAR, VERY FAR or OUT OF RANGE."
            )
        return band

    @overload
    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: Literal[True]
    ) -> Fighter: ...
    @overload
    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool
    ) -> Fighter | None: ...
    def _other(
        self, action: dict, actor: Fighter, fighters: list[Fighter], *, required: bool
    ) -> Fighter | None:
        other = self.target_of(action, fighters, required=required)
        if other is not None and other.id == actor.id:
            raise CombatRefused(
                "combat.invalid_target", "Choose another combatant to measure the distance from."
            )
        return other

    def _in_reach(self, actor: Fighter, target: Fighter, gear: str, es: dict) -> str:
        """The band to ``target``, or ``CombatRefused`` when ``gear`` does not reach it (seed: "melee
        needs CLOSE", a thrown weapon NEAR, a bowshot FAR, longbows VERY FAR; nothing OUT OF RANGE)."""
        ctx = self.ctx_of(actor)
        band = distance.between(es, actor, target, ctx)
        where = distance.phrase(band, actor.name)
        if band == "out_of_range":
            raise CombatRefused(
                "ourdnd.out_of_range",
                f"{target.name} is {where}: none of {actor.name}'s effects can reach OUT OF RANGE.",
            )
        reach, house = self._reach(actor, gear)
        if not distance.farther(band, reach):
            return band
        what = (
            "Bare hands"
            if gear == "bare_hands"
            else ctx.catalogue.get("gear", {}).get(gear, {}).get("name", gear.replace("_", " "))
        )
        if reach == "close":
            rule = f"Melee needs CLOSE ({what.lower() if gear == 'bare_hands' else what} reach no farther)"
        else:
            rule = f"{what} reaches {distance.word(reach)}"
        note = " (house default; the campaign may change it)" if house else ""
        raise CombatRefused(
            "ourdnd.out_of_reach",
            f"{rule}{note}, and {target.name} is {where}: move closer "
            "first, or use something that reaches farther.",
        )

    def _do_move(self, action, actor, fighters, es, roller) -> Outcome:
        move = action["action"].removeprefix("move_")
        other = self._other(action, actor, fighters, required=False)
        out = Outcome(end_turn=move == "far")
        tail = " (the whole turn)" if move == "far" else ""
        if other is None:  # a move that changes no distance (round a corner, into cover)
            self._mark(actor, out, move=move)
            out.log("move", f"{actor.name} moves {move}{tail}.", actor.id, distance=move)
            return out
        ctx = self.ctx_of(actor)
        band = self._band_param(action)
        there = distance.at(es, other, ctx) + distance.away_side(es, actor, other, ctx) * distance.STEPS[band]
        covered = abs(there - distance.at(es, actor, ctx))
        if covered > distance.MOVE_STEPS[move]:
            raise CombatRefused("ourdnd.too_far_to_move", self._too_far(actor, other, move, band, covered))
        self._mark(actor, out, move=move)
        out.encounter_state = distance.placed(es, {str(actor.id): there})
        out.log(
            "move",
            f"{actor.name} moves {move}{tail}: now {distance.phrase(band, other.name)}.",
            actor.id,
            distance=move,
            target=other.id,
            band=band,
        )
        return out

    @staticmethod
    def _too_far(actor: Fighter, other: Fighter, move: str, band: str, covered: int) -> str:
        goal = distance.phrase(band, other.name)
        trip = distance.word(distance.band_of(covered))
        if move == "near":
            return (
                f"A NEAR move is a few big steps; getting {goal} is {a(trip)} move for {actor.name}. Move far "
                "(the whole turn) instead, or move near to a nearer spot."
            )
        if trip == "OUT OF RANGE":
            return (
                f"Getting {goal} is OUT OF RANGE for {actor.name}: a distance you can't reach by any ways in "
                "one TURN of movement."
            )
        return (
            f"It's impossible to get a VERY FAR distance in a turn by normal ways: getting {goal} is a "
            f"{trip} move for {actor.name}, and moving FAR is as far as a turn goes."
        )

    def _do_set_distance(self, action, actor, fighters, es, roller) -> Outcome:
        other = self._other(action, actor, fighters, required=True)
        ctx = self.ctx_of(actor)
        band = self._band_param(action)
        there = distance.at(es, other, ctx) + distance.away_side(es, actor, other, ctx) * distance.STEPS[band]
        out = Outcome(
            encounter_state=distance.placed(es, {str(actor.id): there}, {str(actor.id): actor.name})
        )
        out.log(
            "distance",
            f"DM: {actor.name} is now {distance.phrase(band, other.name)}.",
            actor.id,
            target=other.id,
            band=band,
        )
        return out

    def _mark(self, actor: Fighter, out: Outcome, **changes: Any) -> dict:
        c = {**self.combat_numbers(actor), **out.combat.get(actor.id, {}), **changes}
        out.combat[actor.id] = c
        return c

    def _read(self, action: dict, stats: dict[str, int], default: str) -> tuple[str, str]:
        stat = action.get("stat") or default
        if stat not in STATS:
            raise CombatRefused("ourdnd.invalid_stat", f"Roll with one of {', '.join(STATS)}.")
        mode = action.get("mode") or "normal"
        if mode not in MODES:
            raise CombatRefused("ourdnd.invalid_mode", "A roll is normal, easy or hard.")
        return stat, mode

    def _inspire(self, actor: Fighter, fighters: list[Fighter], out: Outcome, give_to: Any) -> None:
        """A natural 20: Heroic Inspiration, or, when already held, one for an ally without it."""
        state = out.state.get(actor.id, actor.state)
        if not self._st(actor, state)["inspiration"]:
            new_state, text = self.play_state_action(actor, state, {"action": "gain_inspiration"})
            out.state[actor.id] = new_state
            out.log("inspiration", f"Natural 20: {text}", actor.id)
            return
        allies = [
            f
            for f in fighters
            if f.id != actor.id
            and _side(f) == _side(actor)
            and not f.is_npc
            and not self._st(f, out.state.get(f.id))["inspiration"]
            and not self._st(f)["dead"]
        ]
        if give_to not in (None, ""):
            allies = [f for f in allies if str(f.id) == str(give_to)] or allies
        if not allies:
            out.log(
                "inspiration",
                f"Natural 20: {actor.name} already has Heroic Inspiration and no ally lacks one.",
                actor.id,
            )
            return
        ally = allies[0]
        new_state, _ = self.play_state_action(
            ally, out.state.get(ally.id, ally.state), {"action": "gain_inspiration"}
        )
        out.state[ally.id] = new_state
        out.log(
            "inspiration",
            f"Natural 20: {actor.name} already has Heroic Inspiration and gives one to {ally.name}.",
            actor.id,
            target=ally.id,
        )

    def _do_check(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=False, reroll=reroll)

    def _do_attempt(self, action, actor, fighters, es, roller, *, reroll: bool = False) -> Outcome:
        return self._roll(action, actor, fighters, es, roller, attempt=True, reroll=reroll)

    def _roll(self, action, actor, fighters, es, roller, *, attempt: bool, reroll: bool) -> Outcome:
        stats = self._stats(actor)
        stat, mode = self._read(action, stats, max(STATS, key=lambda s: stats[s]))
        target = self.target_of(action, fighters, required=False) if attempt else None
        if target is not None and self._st(target)["dead"]:
            raise CombatRefused("ourdnd.dead", f"{target.name} is dead already.")
        gear = None
        if attempt:
            dice = self._effort_dice(actor)
            gear = action.get("gear") or max(dice, key=lambda k: int(dice[k][1:]))
            if gear not in dice:
                raise CombatRefused(
                    "ourdnd.invalid_gear", f"{actor.name} rolls effort with {', '.join(dice)}; not {gear!r}."
                )
        inspire = attempt and _flag(action.get("inspire"))
        if inspire and not self._st(actor)["inspiration"]:
            raise CombatRefused(
                "ourdnd.no_inspiration", f"{actor.name} has no Heroic Inspiration to add a d12."
            )
        far_note = ""
        if target is not None and gear is not None and target.id != actor.id:  # a target means an attempt
            band = self._in_reach(actor, target, gear, es)
            if band == "very_far":  # "could reach this distance, but hit the target would be HARD"
                mode = {"easy": "normal", "normal": "hard"}.get(mode, mode)  # easy and hard cancel
                far_note = f" ({target.name} is VERY FAR: hitting is HARD)"
        td, against = self._roll_td(actor, target, es)
        request = {"stat": stats[stat], "td": td, "mode": mode}
        roll = dice_rules.roll(request, roller)
        out = Outcome()
        self._mark(actor, out, acted=True, last_roll=None)
        what = "attempt" if attempt else "check"
        at = f" on {target.name}" if target else ""
        again = " (re-roll)" if reroll else ""
        text = (
            roll["text"]
            if against == "the TD"
            else roll["text"].replace(f"vs TD {td}", f"vs {td} ({against})")
        )
        out.log(
            what,
            f"{actor.name}'s {stat.upper()} {what}{at}{again}{far_note}: {text}.",
            actor.id,
            faces=roll["faces"],
            natural=roll["natural"],
            total=roll["total"],
            td=td,
            outcome=roll["outcome"],
            target=target.id if target else None,
            odds=request,
        )
        if roll["natural"] == 20:
            self._inspire(actor, fighters, out, action.get("give_to"))
        if roll["natural"] == 1:
            out.log(
                "blunder", f"Blunder! Things go really wrong for {actor.name} (the DM says how).", actor.id
            )
        if not roll["success"]:
            self._mark(
                actor,
                out,
                last_roll={
                    "kind": what,
                    "action": {k: v for k, v in action.items() if k != "action"},
                    "request": request,
                },
            )
            return out
        if attempt:
            self._effort(
                actor, target, gear, roll["natural"] == 20, inspire, action, fighters, es, roller, out
            )
        return out

    def _effort(self, actor, target, gear, critical, inspire, action, fighters, es, roller, out) -> None:
        die = self._effort_dice(actor)[gear]
        effort = dice_rules.roll({"effort": die, "critical": critical}, roller)
        total, text = effort["total"], effort["text"]
        if inspire:
            state = out.state.get(actor.id, actor.state)
            new_state, _ = self.play_state_action(actor, state, {"action": "spend_inspiration"})
            out.state[actor.id] = new_state
            extra = roller.d(12)
            total += extra
            text += f" + inspiration d12 {extra} = {total}"
        if target is not None:
            new_state, hp_text = self.play_state_action(
                target, out.state.get(target.id, target.state), {"action": "damage", "amount": total}
            )
            out.state[target.id] = new_state
            out.log(
                "effort",
                f"Effort ({gear.replace('_', ' ')}): {text}. {hp_text}",
                actor.id,
                effort=total,
                faces=effort["faces"],
                target=target.id,
            )
            return
        task = (
            action.get("task")
            if isinstance(action.get("task"), str) and action["task"].strip()
            else "the task"
        )
        task = task.strip()[:80]
        tasks = dict(es.get("tasks") or {})
        tasks[task] = (tasks.get(task) or 0) + total
        out.encounter_state = {**es, "tasks": tasks}
        per_heart = self.ctx_of(actor).settings.get("hp_per_heart", 10)
        out.log(
            "effort",
            f"Effort ({gear.replace('_', ' ')}) on {task}: {text}; {tasks[task]} so far "
            f"({tasks[task] / per_heart:g} hearts).",
            actor.id,
            effort=total,
            task=task,
        )

    def _do_first_aid(self, action, actor, fighters, es, roller) -> Outcome:
        target = self.target_of(action, fighters, required=True)
        stats = self._stats(actor)
        stat = action.get("stat") or ("int" if stats["int"] >= stats["wis"] else "wis")
        if stat not in ("int", "wis"):
            raise CombatRefused("ourdnd.invalid_stat", "First aid rolls INT or WIS.")
        if not self._st(target)["dying"]:
            raise CombatRefused(
                "ourdnd.not_dying", f"{target.name} is not dying; first aid stops a dying countdown."
            )
        band = distance.between(es, actor, target, self.ctx_of(actor))
        if band != "close":  # "If an ally can reach you ..."
            raise CombatRefused(
                "ourdnd.out_of_reach",
                f"First aid needs an ally who can reach {target.name} with "
                f"their hands, and {actor.name} is "
                f"{distance.phrase(band, target.name)}: move CLOSE first.",
            )
        td = self._td(es, self.ctx_of(actor))
        recorder = _Recorder(roller)
        new_state, text = self.play_state_action(
            target, target.state, {"action": "first_aid", "stat": stats[stat], "td": td}, recorder
        )
        out = Outcome()
        out.state[target.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log(
            "first_aid",
            f"{actor.name} gives first aid ({stat.upper()}): {text}",
            actor.id,
            target=target.id,
            faces=[f for _, f in recorder.faces],
        )
        if recorder.faces and recorder.faces[0] == (20, 20):
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out

    def _do_recover(self, action, actor, fighters, es, roller) -> Outcome:
        recorder = _Recorder(roller)
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "recover", "td": self._td(es, self.ctx_of(actor))}, recorder
        )
        out = Outcome(end_turn=True)
        out.state[actor.id] = new_state
        self._mark(actor, out, acted=True, last_roll=None)
        out.log("recover", text, actor.id, faces=[f for _, f in recorder.faces])
        if recorder.faces and recorder.faces[0] == (20, 20):
            self._inspire(actor, fighters, out, action.get("give_to"))
        return out

    def _do_reroll(self, action, actor, fighters, es, roller) -> Outcome:
        last = (actor.combat or {})["last_roll"]
        spent, text = self.play_state_action(actor, actor.state, {"action": "spend_inspiration"})
        again = copy.deepcopy(actor)
        again.state = spent
        again.combat = self.combat_numbers(actor, acted=False, last_roll=None)
        redo = {**last["action"], "action": last["kind"]}
        if last["kind"] == "attempt":
            redo["inspire"] = False  # the inspiration is spent on the re-roll
            out = self._do_attempt(redo, again, fighters, es, roller, reroll=True)
        else:
            out = self._do_check(redo, again, fighters, es, roller, reroll=True)
        out.state.setdefault(actor.id, spent)
        out.events.insert(0, Event("inspiration", text, actor.id))
        return out

    def _do_lower_td(self, action, actor, fighters, es, roller) -> Outcome:
        amount = whole_number(action.get("amount", 1))
        if amount is None or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "Lower the TD by a whole number of 1 or more.")
        room = self._room(es, self.ctx_of(actor))
        start = es.get("td_start", self._td(es, self.ctx_of(actor)))
        if amount > room:
            raise CombatRefused(
                "ourdnd.td_floor",
                f"Players never lower the TD more than {self._max_lower(self.ctx_of(actor))} below where it started "
                f"({start}); it can go down by {max(room, 0)} more, not {amount}.",
            )
        td = self._td(es, self.ctx_of(actor)) - amount
        reason = get_as(action, "reason", str, "")
        how = f" ({reason.strip()[:80]})" if reason.strip() else ""
        out = Outcome(encounter_state={**es, "td": td, "td_lowered": (es.get("td_lowered") or 0) + amount})
        out.log(
            "td", f"{actor.name} lowers the TD by {amount}{how}: TD {td}.", actor.id, td=td, amount=amount
        )
        return out

    def _do_set_td(self, action, actor, fighters, es, roller) -> Outcome:
        td = whole_number(action.get("td"))
        if td is None or not 1 <= td <= dice_rules.ODDS_LIMIT:
            raise CombatRefused(
                "ourdnd.invalid_td",
                f"The TD is a whole number from 1 to {dice_rules.ODDS_LIMIT} "
                "(usually 10 easy, 12 average, 15 hard, 18 brutal).",
            )
        out = Outcome(encounter_state={**es, "td": td, "td_start": td, "td_lowered": 0})
        out.log("td", f"DM: the scene's TD is now {td}.", td=td)
        return out

    def _gm_amount(self, action: dict) -> int:
        amount = whole_number(action.get("amount"))
        if amount is None or amount < 1:
            raise CombatRefused("ourdnd.invalid_amount", "The amount is a whole number of 1 or more.")
        return amount

    def _do_gm_damage(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "damage", "amount": self._gm_amount(action)}
        )
        out = Outcome(state={actor.id: new_state})
        out.log("gm_damage", f"DM: {text}", actor.id)
        return out

    def _do_gm_heal(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(
            actor, actor.state, {"action": "heal", "amount": self._gm_amount(action)}
        )
        out = Outcome(state={actor.id: new_state})
        out.log("gm_heal", f"DM: {text}", actor.id)
        return out

    def _do_gm_inspiration(self, action, actor, fighters, es, roller) -> Outcome:
        new_state, text = self.play_state_action(actor, actor.state, {"action": "gain_inspiration"})
        out = Outcome(state={actor.id: new_state})
        out.log("inspiration", f"DM: {text}", actor.id)
        return out

    # ---------------------------------------------------------------- the row

    def summary(
        self, fighter: Fighter, encounter_state: dict, *, ctx: Context | None = None
    ) -> dict[str, Any]:
        es = encounter_state or {}
        c = fighter.combat or {}
        try:
            st = self._st(fighter)
            top = self._max_hp(fighter)
        except Exception:  # an odd state must not stop the fight page
            return {"stats": [], "status": []}
        stats = [
            {"label": "HP", "value": f"{st['hp']}/{top}", "key": "hp"},
            {"label": "Defense", "value": str(self._defense_target(fighter) - 10), "key": "defense"},
        ]
        if "initiative" in c:
            stats.append({"label": "Initiative", "value": str(c["initiative"]), "key": "initiative"})
        stats.append({"label": "TD", "value": str(self._td(es, self.ctx_of(fighter, ctx))), "key": "td"})
        status: list[str] = []
        if st["dead"]:
            status.append("dead")
        elif st["dying"]:
            left = (
                "countdown not rolled" if st["dying_rounds"] is None else f"{st['dying_rounds']} rounds left"
            )
            status.append(f"dying ({left})")
        elif st["stable"]:
            status.append("stable")
        if st["unconscious"] and not st["dead"]:
            status.append("unconscious")
        if st["inspiration"]:
            status.append("Heroic Inspiration")
        if c.get("move"):
            status.append(f"moved {c['move']}")
        if c.get("acted"):
            status.append("acted")
        bands = distance.bands_from(es, fighter, self.ctx_of(fighter, ctx))
        details = [{"label": name, "value": distance.word(band), "key": "distance"} for name, band in bands]
        return {"stats": stats, "status": status, "details": details, "details_label": "Distances"}
